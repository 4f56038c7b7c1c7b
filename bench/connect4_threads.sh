#!/usr/bin/env bash
# Issue 47's "all cores" figures: Nimbus's batch mode (`nimbus solve connect4 -`) on one thread
# and on THREADS threads, interleaved, on Pons' test sets (Steininger's copies, as in
# bench/connect4.sh, which clones his repository under target/peers; this script does the same
# when it is missing, for the data only). The memory budget is the same for both (64 MiB: one
# table, or one a thread). Every score is checked against the set; the ratio of median wall
# times is printed.
#
# With SINGLE=1 each line is its own batch (one process a line, the times summed): the
# threads then search one position together, the speed-up of the search itself.
#
# Usage: bench/connect4_threads.sh   RUNS=3, THREADS=2, SETS="opening_L3:20 ..." (name:lines),
# SINGLE=0, STEININGER_REPO: where to clone from (default: GitHub).
set -euo pipefail
runs=${RUNS:-3}
threads=${THREADS:-2}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
stein_repo=${STEININGER_REPO:-https://github.com/ChristopheSteininger/c4}
peers=target/peers
mkdir -p "$peers"
[ -d "$peers/steininger" ] || git clone -q "$stein_repo" "$peers/steininger"
machine
echo "date: $(date -u +%F); nimbus $(git rev-parse --short HEAD); threads 1 against $threads; a process a line: ${SINGLE:-0}"
sets=${SETS:-"endgame_L1:200 midgame_L1:200 midgame_L2:200 opening_L1:20 opening_L2:20 opening_L3:20"}
cmd=("$bin" solve connect4 - --max-memory 67108864)
timed() {
    local out=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    if [ "${SINGLE:-0}" = 1 ]; then
        : > "$out"
        while read -r line; do echo "$line" | "$@" >> "$out"; done < "$input"
    else
        "$@" < "$input" > "$out"
    fi
    t1=$(date +%s.%N)
    awk "BEGIN {print $t1 - $t0}"
}
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
check() {
    paste -d' ' "$1" "$input.expected" |
        awk '$1 != $(NF - 1) || $2 != $NF {bad++; if (bad == 1) print "first: " $0} END {exit bad > 0 || NR != '"$count"'}' >&2 ||
        { echo "$name: $2 did not give every score of the set" >&2; exit 1; }
}
printf '| %-12s | %5s | %12s | %14s | %8s |\n' set lines "1 thread s" "$threads threads s" speed-up
for spec in $sets; do
    name=${spec%%:*}; count=${spec##*:}
    input="$tmp/$name"
    git -C "$peers/steininger" show "HEAD:tst/data/7x6/$name.txt" |
        awk '{m = ""; for (i = 1; i <= length($1); i++) m = m (substr($1, i, 1) + 1); print m, $2}' > "$input.all"
    head -n "$count" "$input.all" > "$input.expected"
    cut -d' ' -f1 "$input.expected" > "$input"
    one=(); many=()
    for _ in $(seq "$runs"); do
        one+=("$(timed "$tmp/one" "${cmd[@]}")")
        check "$tmp/one" "one thread"
        many+=("$(timed "$tmp/many" "${cmd[@]}" --threads "$threads")")
        check "$tmp/many" "$threads threads"
    done
    a=$(med "${one[@]}"); b=$(med "${many[@]}")
    printf '| %-12s | %5s | %12.3f | %14.3f | %8.2f |\n' "$name" "$count" "$a" "$b" "$(awk "BEGIN {print $a / $b}")"
done
