#!/usr/bin/env bash
# Lemke-Howson enumeration against Gambit's lcp (pygambit, from PyPI): the same set of
# equilibria, as exact fractions, and the times. See bench/lcp.py.
# Usage: bench/lcp.sh [sizes...]   (default: 10 12 14)
set -euo pipefail
runs=1
source "$(dirname "$0")/common.sh"
machine
pygambit_venv
"$venv/bin/python" bench/lcp.py "$bin" "$tmp" "${@:-10 12 14}"
