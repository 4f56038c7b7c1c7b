#!/usr/bin/env bash
# Builds the Python package into target/py-venv with nashpy and pygambit, then runs
# bench/python.py (ROUNDS interleaved rounds, default 3; nashpy stopped after NASHPY_CAP
# seconds, default 900). Not part of CI: nashpy needs minutes on the 10 x 10 game alone.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$PWD/target/py-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check \
    "maturin>=1.5,<2" numpy nashpy "pygambit==17.0.0b2" --only-binary pygambit
rm -rf target/wheels
"$venv/bin/maturin" build --release --quiet -m crates/nimbus-py/Cargo.toml -o target/wheels
"$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall --no-deps \
    target/wheels/nimbus-*.whl
"$venv/bin/python" bench/python.py "${ROUNDS:-3}" "${NASHPY_CAP:-900}"
