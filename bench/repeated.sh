#!/usr/bin/env bash
# Repeated games: Nimbus (proven bounds on the subgame-perfect equilibrium payoffs) against
# QuantEcon's RepeatedGame.equilibrium_payoffs on its published examples and random games,
# both in one Python process, interleaved; the polygons are compared.
# Usage: bench/repeated.sh
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${NIMBUS_BENCH_VENV:-target/py-venv}
if ! "$venv/bin/python" -c "import quantecon, numpy" 2>/dev/null; then
    echo "SKIPPED: QuantEcon is missing; run: python3 -m venv $venv &&" \
        "$venv/bin/pip install 'maturin>=1.5,<2' numpy quantecon"
    exit 0
fi
VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" \
    maturin develop --release -q -m crates/nimbus-py/Cargo.toml
"$venv/bin/python" bench/repeated.py
