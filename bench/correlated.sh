#!/usr/bin/env bash
# Every vertex of the polytope of correlated equilibria of seeded random games (payoffs
# 0..9), by `nimbus correlated --vertices` and by cddlib's exact double description
# (`scdd_gmp`, Debian package libcdd-tools, installed here if missing). The runs of each
# game are interleaved, the vertex sets compared as exact fractions, and the ratio of times
# printed.
# Usage: bench/correlated.sh [shapes...]   (default: 2x2 3x3 2x2x2 4x4 3x3x2 2x2x2x2 4x3)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v scdd_gmp >/dev/null; then
    apt-get install -y libcdd-tools >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y libcdd-tools >/dev/null; }
fi
cargo build --release -q -p nimbus-cli
python3 bench/correlated.py target/release/nimbus "${@:-2x2 3x3 2x2x2 4x4 3x3x2 2x2x2x2 4x3}"
