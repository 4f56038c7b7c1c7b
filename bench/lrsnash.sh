#!/usr/bin/env bash
# All extreme equilibria of seeded random bimatrix games (payoffs 0..99, the games of
# bench/games.py) and von Stengel's 6 x 6 game, by `nimbus nash --method vertex` and by
# lrsnash (David Avis's lrslib, Debian package lrslib, installed here if missing). The two
# runs of each game are interleaved, their equilibria compared as exact fractions, and the
# ratio of times printed.
# Usage: bench/lrsnash.sh [sizes...]   (default: 10 12 14 16 18 20; SEEDS="1 2 3")
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v lrsnash >/dev/null; then
    apt-get install -y lrslib >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y lrslib >/dev/null; }
fi
# The distributed build (scripts/dist: static, link-time optimised) is the one in the ratio;
# the plain `cargo build --release` binary is timed beside it.
cargo build --release -q -p nimbus-cli
dist=$(scripts/dist)
python3 bench/lrsnash.py "$dist,target/release/nimbus" "${@:-10 12 14 16 18 20}"
