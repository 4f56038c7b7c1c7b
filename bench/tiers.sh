#!/usr/bin/env bash
# Connect Four strong solutions by the tier solver (bench/tiers.py): time, memory, bytes on
# disk, positions per second per core against the byte-a-rank solver, and a cross-check of
# random positions against the alpha-beta search.
# Usage: bench/tiers.sh [BOARDS]   (default "6x4 5x5 7x4 5x6 6x5"; CHECKS=2000; TIERS_DIR;
# REMOTENESS=1 keeps remoteness too)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimbus-cli
python3 bench/tiers.py target/release/nimbus "${1:-6x4 5x5 7x4 5x6 6x5}"
