#!/usr/bin/env bash
# A bounded load test of `nimbus serve` on loopback (bench/serve_load.py): requests per
# second and latency for small Nash computations, a Connect Four position and a game sum,
# memory before and after, and a cheap request while every slot is busy.
# Usage: bench/serve_load.sh   (REQUESTS=2000 CLIENTS=8)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p nimbus-cli
python3 bench/serve_load.py target/release/nimbus
