#!/usr/bin/env bash
# Issue 47's empty-board figure: the 7 x 6 board solved strongly from scratch (the exact score,
# which says the move on which the game ends), no opening book, by Nimbus and by Christophe
# Steininger's solver, on the same number of threads and a table of the same size (1 GiB:
# Nimbus's 2^26 entries of 16 bytes, Steininger's default 134 217 757 entries of 8). Steininger's
# program (`src/c4.cpp`, as published, with only its thread count set) is cloned and built under
# target/peers, outside the workspace; a peer is a tool we compare with, never a dependency.
# Runs are interleaved; both answers are checked (+1: the first player wins on move 41); the
# medians of whole-process wall times and their ratio are printed, with Nimbus's node count.
#
# Usage: bench/connect4_empty.sh   RUNS=1, THREADS="1 2", STEININGER_REPO (default: GitHub).
set -euo pipefail
runs=${RUNS:-1}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
stein_repo=${STEININGER_REPO:-https://github.com/ChristopheSteininger/c4}
peers=target/peers
mkdir -p "$peers"
machine
echo "date: $(date -u +%F); nimbus $(git rev-parse --short HEAD)"
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '| %7s | %9s | %13s | %21s | %12s |\n' threads "Nimbus s" "Steininger s" "Nimbus / Steininger" "Nimbus nodes"
for t in ${THREADS:-1 2}; do
    dir="$peers/steininger-empty-$t"
    if [ ! -x "$dir/c4" ]; then
        rm -rf "$dir"
        git clone -q "$stein_repo" "$dir"
        sed -i -e "s/NUM_THREADS = [0-9]*;/NUM_THREADS = $t;/" "$dir/src/solver/settings.h"
        grep -q "NUM_THREADS = $t;" "$dir/src/solver/settings.h"
        (cd "$dir" && g++ -std=c++20 -O3 -flto -DNDEBUG -pthread -o c4 src/c4.cpp \
            $(find src/solver -name '*.cpp'))
    fi
    tn=(); ts=(); nodes=
    for _ in $(seq "$runs"); do
        t0=$(date +%s.%N)
        "$bin" solve connect4 --table-bits 26 --max-states 100000000 --threads "$t" --json > "$tmp/n"
        t1=$(date +%s.%N)
        echo | "$dir/c4" > "$tmp/s"
        t2=$(date +%s.%N)
        grep -q '"value":1,' "$tmp/n" || { echo "Nimbus: not the first player's win" >&2; exit 1; }
        grep -q 'first player will win on move #41' "$tmp/s" || {
            echo "Steininger: not the first player's win on move 41" >&2; exit 1; }
        tn+=("$(awk "BEGIN {print $t1 - $t0}")")
        ts+=("$(awk "BEGIN {print $t2 - $t1}")")
        nodes=$(grep -o '"nodes":[0-9]*' "$tmp/n" | cut -d: -f2)
    done
    n=$(med "${tn[@]}"); s=$(med "${ts[@]}")
    printf '| %7s | %9.1f | %13.1f | %21.2f | %12s |\n' "$t" "$n" "$s" "$(awk "BEGIN {print $n / $s}")" "$nodes"
done
