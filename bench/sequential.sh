#!/usr/bin/env bash
# Issue 4's figures: Connect Four 7x6 on Pons' three test sets (mean microseconds and nodes
# per position, every answer checked against the set), and strong solutions by retrograde
# analysis (tic-tac-toe, Connect Four 5x4; 6x4 with BIG=1).
set -euo pipefail
runs=${RUNS:-5}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
data="$(dirname "${BASH_SOURCE[0]}")/../data/connect4"
machine
echo "date: $(date -u +%F)"
for set in Test_L3_R1 Test_L2_R1 Test_L1_R1; do
    means=()
    for _ in $(seq "$runs"); do
        "$bin" solve connect4 ${TABLE_BITS:+--table-bits $TABLE_BITS} - < "$data/$set" > "$tmp/out"
        wrong=$(paste -d' ' "$tmp/out" "$data/$set" | awk '$2 != $6' | wc -l)
        if [ "$wrong" -ne 0 ]; then echo "$set: $wrong wrong answers" >&2; exit 1; fi
        means+=("$(awk '{n += $3; t += $4} END {printf "%.1f %.0f", t / NR, n / NR}' "$tmp/out")")
    done
    best=$(printf '%s\n' "${means[@]}" | sort -g | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
    echo "$set: median of $runs runs: mean $(echo "$best" | cut -d' ' -f1) us/position, mean $(echo "$best" | cut -d' ' -f2) nodes/position, all 1000 answers right"
done
[ -n "${SETS_ONLY:-}" ] && exit 0
for game in tictactoe connect4:5x4 ${BIG:+connect4:6x4}; do
    "$bin" solve "$game" --all --max-states 4000000000 --json
done
