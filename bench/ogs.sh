#!/usr/bin/env bash
# Nim-sequences of octal games (and Grundy's game) to 2^18, 2^20 and 2^22 heaps, by
# `nimbus sequence` and by Piotr Beling's `ogsolve` (crate ogsolve on crates.io, installed
# here into target/peers: a tool we compare with, not a dependency), with its rc and rc2
# methods. Runs are interleaved, the values compared, and the ratio of times printed.
# Usage: bench/ogs.sh [exponents...]   (default: 18 20 22; OGS_TIMEOUT=seconds, default 600)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x target/peers/bin/ogsolve ]; then
    cargo install ogsolve --version 0.0.7 --locked --root target/peers >/dev/null 2>&1 \
        || cargo install ogsolve --version 0.0.7 --root target/peers
fi
cargo build --release -q -p nimbus-cli
python3 bench/ogs.py target/release/nimbus target/peers/bin/ogsolve "${@:-18 20 22}"
