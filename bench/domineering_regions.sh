#!/usr/bin/env bash
# Every single-region Domineering position of up to MAX_CELLS cells (every fixed polyomino;
# 12 by default), each valued by the partizan engine, size by size: the figures of
# bench/RESULTS.md's "Domineering's single-region positions" (Uiterwijk and Barton's
# databases reach 15 cells). Usage: MAX_CELLS=13 bench/domineering_regions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "# $(uname -m), $(nproc) cores, $(date -u +%Y-%m-%d)"
MAX_CELLS=${MAX_CELLS:-12} cargo bench -q -p nimbus --bench domineering_regions
