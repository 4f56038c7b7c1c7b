#!/usr/bin/env bash
# The tracing procedure (`nimbus nash GAME --select tracing`, uniform prior) on seeded random
# square games with payoffs 0..9 (bench/games.py SIZE 1 10): steps and median wall seconds of
# three runs of the whole command. With NIMBUS_BASE=another nimbus binary (an older build, say)
# the two are run interleaved and their answers compared. No peer computes the procedure.
# Usage: bench/tracing.sh [size...]   (default: 30 60 120 200)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
source bench/common.sh
machine
echo "date: $(date -u +%F); nimbus $(git rev-parse --short HEAD)"
base=${NIMBUS_BASE:-}
run() {
    local b=$1 game=$2 start end
    start=$(date +%s.%N)
    "$b" nash "$game" --select tracing --max-work $((1 << 50)) | grep -v '^method' > "$tmp/out.$3"
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
printf '| %5s | %6s | %10s | %10s |\n' size steps seconds "base s"
for n in ${@:-30 60 120 200}; do
    python3 bench/games.py "$n" 1 10 > "$tmp/g.nfg"
    t=(); tb=()
    for _ in 1 2 3; do
        t+=("$(run "$bin" "$tmp/g.nfg" new)")
        if [ -n "$base" ]; then
            tb+=("$(run "$base" "$tmp/g.nfg" base)")
            cmp -s "$tmp/out.new" "$tmp/out.base" || { echo "size $n: the answers differ"; exit 1; }
        fi
    done
    steps=$(sed -n 's/.*, \([0-9]*\) steps\{0,1\} to the end/\1/p' "$tmp/out.new")
    printf '| %5s | %6s | %10.3f | %10s |\n' "$n" "$steps" "$(med "${t[@]}")" "$([ -n "$base" ] && printf '%.3f' "$(med "${tb[@]}")" || echo -)"
done
