#!/usr/bin/env bash
# Issue 47's figures: Connect Four 7 x 6 positions scored by Nimbus (`nimbus solve connect4 -`),
# Pascal Pons' solver (`c4solver`, no opening book) and Christophe Steininger's solver (its
# library with a small reader of position lines this script writes), one thread each, the
# tables of the same size (64 MiB for Nimbus and Steininger; Pons' fixed 2^24 entries, 84 MB).
# The peers are cloned and built here, under target/peers, outside the workspace; a peer is a
# tool we compare with, never a dependency. Every score is checked against the set and the
# three solvers must agree. Runs are interleaved; the ratios of median wall times (less each
# solver's start-up) are printed.
#
# Sets: Steininger's copies of Pons' six test sets (tst/data/7x6, 0-based columns, turned into
# Pons' 1-based lines here): end game, middle (easy, medium), opening (easy, medium, hard), the
# first lines of each.
# A set named `random` (SETS="random:150") is made here instead: deep random positions, 10 to
# 14 moves into a seeded random game (SEED, 47), scored by Pons' solver.
# Usage: bench/connect4.sh   RUNS=3, SETS="endgame_L1:200 ... opening_L3:20" (name:lines),
# PONS_REPO / STEININGER_REPO: where to clone from (default: GitHub), THREADS=1.
set -euo pipefail
runs=${RUNS:-3}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
pons_repo=${PONS_REPO:-https://github.com/PascalPons/connect4}
stein_repo=${STEININGER_REPO:-https://github.com/ChristopheSteininger/c4}
peers=target/peers
mkdir -p "$peers"

# Pons: his Makefile, as published.
if [ ! -x "$peers/pons/c4solver" ]; then
    rm -rf "$peers/pons"
    git clone -q "$pons_repo" "$peers/pons"
    make -s -C "$peers/pons" c4solver
fi
# Steininger: one thread, a 64 MiB table (a prime count of 8-byte entries, from his list), the
# solver's sources compiled as his CMake file does (-O3 -flto), with our reader of lines.
if [ ! -x "$peers/steininger/lines" ]; then
    rm -rf "$peers/steininger"
    git clone -q "$stein_repo" "$peers/steininger"
    settings="$peers/steininger/src/solver/settings.h"
    sed -i -e 's/NUM_THREADS = 0;/NUM_THREADS = 1;/' \
        -e 's/NUM_TABLE_ENTRIES = [0-9]*;/NUM_TABLE_ENTRIES = 8388617;/' "$settings"
    grep -q 'NUM_THREADS = 1;' "$settings" && grep -q 'NUM_TABLE_ENTRIES = 8388617;' "$settings"
    cat > "$peers/steininger/src/lines.cpp" <<'CPP'
// Reads Pons' position lines (1-based columns, then anything) and prints, for each, the moves,
// the exact score, the nodes searched and the microseconds the search took.
#include <chrono>
#include <iostream>
#include <string>

#include "solver/position.h"
#include "solver/solver.h"

int main() {
    Solver solver{};
    std::string line;
    while (std::getline(std::cin, line)) {
        std::string moves = line.substr(0, line.find(' '));
        Position pos{};
        for (char c : moves) pos.move(c - '1');
        unsigned long long before = solver.get_merged_stats().get_num_nodes();
        auto start = std::chrono::steady_clock::now();
        int score = solver.solve_strong(pos);
        auto end = std::chrono::steady_clock::now();
        unsigned long long nodes = solver.get_merged_stats().get_num_nodes() - before;
        std::cout << moves << ' ' << score << ' ' << nodes << ' '
                  << std::chrono::duration_cast<std::chrono::microseconds>(end - start).count()
                  << std::endl;
    }
}
CPP
    (cd "$peers/steininger" && g++ -std=c++20 -O3 -flto -DNDEBUG -pthread -o lines \
        src/lines.cpp $(find src/solver -name '*.cpp'))
fi
threads=${THREADS:-1}
machine
echo "date: $(date -u +%F); nimbus $(git rev-parse --short HEAD); pons $(git -C "$peers/pons" rev-parse --short HEAD); steininger $(git -C "$peers/steininger" rev-parse --short HEAD); threads $threads"

sets=${SETS:-"endgame_L1:200 midgame_L1:200 midgame_L2:200 opening_L1:20 opening_L2:20 opening_L3:20"}
nimbus_cmd=("$bin" solve connect4 - --max-memory 67108864 ${NIMBUS_ARGS:-})
[ "$threads" != 1 ] && nimbus_cmd+=(--threads "$threads")

# Seconds of wall time for one solver on one file; its output is kept for the checks.
timed() {
    local out=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    "$@" < "$input" > "$out" 2> "$out.err"
    t1=$(date +%s.%N)
    # Pons' solver says on every run that it has no opening book (it is run without one on
    # purpose); anything else a solver says is shown.
    grep -v 'Unable to load opening book' "$out.err" >&2 || true
    awk "BEGIN {print $t1 - $t0}"
}
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# Each solver's start-up (its table's set-up: Pons' and Steininger's tables are allocated and
# cleared whole before the first line) is timed on an empty batch and taken off its times.
input=/dev/null
for who in n p s; do
    t=()
    case $who in n) cmd=("${nimbus_cmd[@]}") ;; p) cmd=("$peers/pons/c4solver") ;; s) cmd=("$peers/steininger/lines") ;; esac
    for _ in $(seq "$runs"); do t+=("$(timed "$tmp/startup" "${cmd[@]}")"); done
    declare "startup_$who=$(med "${t[@]}")"
done
echo "start-up subtracted (s): Nimbus $startup_n, Pons $startup_p, Steininger $startup_s"

printf '| %-12s | %5s | %9s | %9s | %11s | %13s | %18s |\n' set lines "Nimbus s" "Pons s" "Steininger s" "Nimbus / Pons" "Nimbus / Steininger"
for spec in $sets; do
    name=${spec%%:*}; count=${spec##*:}
    input="$tmp/$name"
    if [ "$name" = random ]; then
        # Deep random positions: 10 to 14 moves into a game played at random (seeded), those
        # no move of which has already won; Pons' solver gives the reference scores.
        awk -v n=$((2 * count)) -v seed="${SEED:-47}" 'BEGIN { srand(seed)
            for (k = 0; k < n; k++) {
                for (c = 1; c <= 7; c++) h[c] = 0
                len = 10 + int(rand() * 5); s = ""
                while (length(s) < len) { c = 1 + int(rand() * 7); if (h[c] < 6) { h[c]++; s = s c } }
                print s } }' > "$input.candidates"
        "$peers/pons/c4solver" < "$input.candidates" 2> /dev/null > "$input.all"
    else
        git -C "$peers/steininger" show "HEAD:tst/data/7x6/$name.txt" |
            awk '{m = ""; for (i = 1; i <= length($1); i++) m = m (substr($1, i, 1) + 1); print m, $2}' > "$input.all"
    fi
    head -n "$count" "$input.all" > "$input.expected"
    cut -d' ' -f1 "$input.expected" > "$input"
    tn=(); tp=(); ts=()
    for _ in $(seq "$runs"); do
        tn+=("$(timed "$tmp/n" "${nimbus_cmd[@]}")")
        tp+=("$(timed "$tmp/p" "$peers/pons/c4solver")")
        ts+=("$(timed "$tmp/s" "$peers/steininger/lines")")
        # Every score: Nimbus's and both peers' against the set.
        for who in n p s; do
            if ! paste -d' ' "$tmp/$who" "$input.expected" |
                awk '$1 != $(NF - 1) || $2 != $NF {bad++; if (bad == 1) print "first: " $0} END {exit bad > 0 || NR != '"$count"'}' >&2; then
                echo "$name: $who did not give every score of the set" >&2
                exit 1
            fi
        done
    done
    n=$(awk "BEGIN {print $(med "${tn[@]}") - $startup_n}")
    p=$(awk "BEGIN {print $(med "${tp[@]}") - $startup_p}")
    s=$(awk "BEGIN {print $(med "${ts[@]}") - $startup_s}")
    printf '| %-12s | %5s | %9.3f | %9.3f | %11.3f | %13.2f | %18.2f |\n' "$name" "$count" "$n" "$p" "$s" \
        "$(awk "BEGIN {print $n / $p}")" "$(awk "BEGIN {print $n / $s}")"
done
