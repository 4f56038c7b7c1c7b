#!/usr/bin/env bash
# Stochastic games: Nimbus's policy and value iteration (proven bounds, exact where rational)
# against value iteration written with SciPy's linprog, on seeded random games; the runs are
# interleaved and SciPy's values checked to lie within Nimbus's bounds.
# Usage: bench/stochastic.sh [sizes...]   (STATESxACTIONS; default: 3x2 10x2 10x3 30x3 100x2;
# 1xN: one-state games, whose irrational values come exactly as a polynomial's root)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${NIMBUS_BENCH_PYTHON:-target/py-venv/bin/python}
if ! "$python" -c "import scipy, numpy" 2>/dev/null; then
    echo "SKIPPED: SciPy is missing; run: python3 -m venv target/py-venv &&" \
        "target/py-venv/bin/pip install numpy scipy"
    exit 0
fi
cargo build --release -q -p nimbus-cli
"$python" bench/stochastic.py target/release/nimbus ${@:-3x2 10x2 10x3 30x3 100x2}
