#!/usr/bin/env bash
# Game trees against pygambit (PyPI), on the same .efg files: the exact sequence-form LP of
# zero-sum trees (Kuhn poker, Leduc hold'em, Gambit's zero-sum examples) and all extreme
# equilibria of Gambit's other two-player example trees. See bench/efg.py.
# Usage: bench/efg.sh   (EFG_TIMEOUT=seconds per run, default 900)
set -euo pipefail
runs=1
source "$(dirname "$0")/common.sh"
# The test suite's virtual environment has pygambit already (scripts/test); building it from
# source takes a while, so it is reused when present.
venv=target/py-venv
if ! "$venv/bin/python" -c 'import pygambit' 2>/dev/null; then
    venv=target/bench-venv
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    "$venv/bin/python" -c 'import pygambit' 2>/dev/null || "$venv/bin/pip" install --quiet pygambit
fi
machine
echo "pygambit $("$venv/bin/python" -c 'import pygambit; print(pygambit.__version__)')"
"$bin" efg kuhn --to efg > "$tmp/kuhn.efg"
"$bin" efg leduc --to efg > "$tmp/leduc.efg"
cp -r crates/nimbus/tests/data/gambit "$tmp/gambit"
"$venv/bin/python" bench/efg.py "$bin" "$tmp"
