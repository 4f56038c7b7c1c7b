#!/usr/bin/env bash
# Issue 47: Connect Four solved from the empty board on every board with width + height <= 13
# (data/connect4/boards.txt: Steininger's table of winners and last moves), by `nimbus solve
# connect4:WxH` (the exact score by bisection, then every best move and a principal variation;
# no book), one after another, smallest first,
# each checked against the table; prints the time, nodes and peak memory of each.
# Usage: bench/connect4_boards.sh   MAX_SUM=12 (largest width + height), MIN_SUM=8 (smallest),
# TIMEOUT=3600 s a board, TABLE_BITS=20 (the table: 2^BITS entries of 16 bytes), ONLY="4x10 5x9"
# (those boards alone).
set -euo pipefail
runs=1
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
machine
echo "date: $(date -u +%F); nimbus $(git rev-parse --short HEAD)"
max_sum=${MAX_SUM:-12}
printf '| %-5s | %-6s | %9s | %9s | %14s | %9s | %s |\n' board winner "last move" seconds nodes "peak MiB" check
grep -v '^#' data/connect4/boards.txt | sort -n -k1,1 -k2,2 | awk '{print $1 + $2, $0}' | sort -n -s -k1,1 |
while read -r sum w h winner last; do
    [ "$sum" -le "$max_sum" ] && [ "$sum" -ge "${MIN_SUM:-8}" ] || continue
    [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" ${w}x${h} "* ]] || continue
    if ! /usr/bin/time -f '%M' -o "$tmp/mem" timeout "${TIMEOUT:-3600}" \
        "$bin" solve "connect4:${w}x${h}" --table-bits "${TABLE_BITS:-20}" --max-states $((1 << 40)) \
        --max-work $((1 << 50)) \
        --json > "$tmp/out" 2>/dev/null; then
        printf '| %-5s | %-6s | %9s | %9s | %14s | %9s | %s |\n' "${w}x${h}" "$winner" "$last" "-" "-" "-" "not finished in ${TIMEOUT:-3600} s"
        continue
    fi
    read -r value nodes us <<< "$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(a["value"], a["nodes"], a["microseconds"])' "$tmp/out")"
    # The winner is the sign of the score; the game ends on the move the score names.
    cells=$((w * h)); k=$(( (cells + 1) / 2 + 1 - ${value#-} ))
    if [ "$value" -gt 0 ]; then got_w=1; got_last=$((2 * k - 1)); elif [ "$value" -lt 0 ]; then got_w=-1; got_last=$((2 * k)); else got_w=0; got_last=$cells; fi
    ok=yes; [ "$got_w $got_last" = "$winner $last" ] || ok="NO: $got_w $got_last"
    printf '| %-5s | %-6s | %9s | %9.1f | %14s | %9.0f | %s |\n' "${w}x${h}" "$winner" "$last" "$(awk "BEGIN {print $us / 1e6}")" "$nodes" "$(awk "BEGIN {print $(cat "$tmp/mem") / 1024}")" "$ok"
    [ "$ok" = yes ] || exit 1
done
