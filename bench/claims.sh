#!/usr/bin/env bash
# The timing claims of the README and the manual, measured: `bench/claims.sh [NIMBUS] [ROUNDS]`
# runs each command the docs give a time for, ROUNDS times (default 3) in interleaved rounds,
# and prints a Markdown table of each command's wall time (median, and every run) with the
# page that makes the claim. The figures go into bench/RESULTS.md with the date; the docs quote
# them from there.
set -euo pipefail
cd "$(dirname "$0")/.."
nimbus=${1:-target/release/nimbus}
rounds=${2:-3}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# A 1000 x 1000 matrix of integers 0..99 (seeded), for zerosum --float.
python3 -c '
import random
random.seed(1)
for _ in range(1000):
    print(" ".join(str(random.randint(0, 99)) for _ in range(1000)))' >"$scratch/m1000.txt"
gambit=crates/nimbus/tests/data/gambit/contrib/games
claims=(
    "docs/src/matrix-games.md|zerosum --float --file $scratch/m1000.txt"
    "docs/src/python.md, docs/src/web.md|solve connect4 4453"
    "docs/src/python.md, docs/src/web.md|solve connect4 44444433"
    "docs/src/scripts.md|sequence script:examples/take_break.rhai --upto 1000"
    "docs/src/trees.md|nash $gambit/e16.efg"
    "docs/src/impartial.md|sequence octal 0.207 --upto 262144"
    "docs/src/impartial.md|sequence kayles"
    "README.md|sg nim 3 4 5"
)
declare -A times
for _ in $(seq "$rounds"); do
    for i in "${!claims[@]}"; do
        # shellcheck disable=SC2206 # the command's words
        words=(${claims[$i]#*|})
        t0=$(date +%s%N)
        "$nimbus" "${words[@]}" >/dev/null
        t1=$(date +%s%N)
        times[$i]+="$(echo "scale=3; ($t1 - $t0) / 1000000000" | bc) "
    done
done
echo "| claim made in | command | median | runs (s) |"
echo "| --- | --- | --- | --- |"
for i in "${!claims[@]}"; do
    runs=${times[$i]}
    median=$(echo "$runs" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    command=${claims[$i]#*|}
    echo "| ${claims[$i]%%|*} | \`nimbus ${command//$scratch\//}\` | ${median} s | ${runs% } |"
done
