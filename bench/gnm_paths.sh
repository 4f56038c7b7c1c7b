#!/usr/bin/env bash
# How often the global Newton method's first path answers, on 288 seeded random games of 3 to
# 5 players (payoffs 0..999, 0..99, 0..9, 0..3). See bench/gnm_paths.py.
# Usage: bench/gnm_paths.sh [OTHER_NIMBUS_BINARY ...]   (this build first, then any others, say
# an older build to compare with; the runs alternate game by game)
set -euo pipefail
runs=1
source "$(dirname "$0")/common.sh"
machine
python3 bench/gnm_paths.py "$tmp" "$bin" "$@"
