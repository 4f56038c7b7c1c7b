#!/usr/bin/env bash
# Game trees against pygambit (PyPI), on the same .efg files: the exact sequence-form LP of
# zero-sum trees (Kuhn poker, Leduc hold'em, Gambit's zero-sum examples) and all extreme
# equilibria of Gambit's other two-player example trees. See bench/efg.py.
# Usage: bench/efg.sh   (EFG_TIMEOUT=seconds per run, default 900)
set -euo pipefail
runs=1
source "$(dirname "$0")/common.sh"
machine
pygambit_venv
"$bin" efg kuhn --to efg > "$tmp/kuhn.efg"
"$bin" efg leduc --to efg > "$tmp/leduc.efg"
cp -r crates/nimbus/tests/data/gambit "$tmp/gambit"
"$venv/bin/python" bench/efg.py "$bin" "$tmp"
