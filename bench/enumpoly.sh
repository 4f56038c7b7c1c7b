#!/usr/bin/env bash
# Every equilibrium of n-player games: Nimbus's enumpoly against pygambit's (PyPI), on seeded
# random games 2x2x2, 3x3x3, 2x2x2x2x2, 4x4x4 and 5x5x3. See bench/enumpoly.py.
# Usage: bench/enumpoly.sh   (ENUMPOLY_TIMEOUT=seconds per run, default 600; ONLY=enumpoly,
# logit, gnm or simpdiv: that table alone; SIMPDIV_TIMEOUT: seconds for a pygambit simpdiv run,
# 120)
set -euo pipefail
runs=1
source "$(dirname "$0")/common.sh"
machine
pygambit_venv
# Nimbus's Python package in the same environment, for the in-Python column (built as
# scripts/test builds it).
"$venv/bin/pip" install --quiet --disable-pip-version-check "maturin>=1.5,<2"
rm -rf target/bench-wheels
"$venv/bin/maturin" build --release --quiet -m crates/nimbus-py/Cargo.toml -o target/bench-wheels
"$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps \
    target/bench-wheels/nimbus-*.whl
"$venv/bin/python" bench/enumpoly.py "$bin" "$tmp" "${ENUMPOLY_TIMEOUT:-600}"
