#!/usr/bin/env bash
# The cost of a web request, two builds side by side: `bench/serve.sh OLD_BIN NEW_BIN [ROUNDS]`
# starts `nimbus serve` from each, then in interleaved rounds sends each server the same batch
# of small requests (a 2 x 2 game to /api/nash, a Nim position to /api/sg), one at a time, and
# prints each round's milliseconds a request and the median ratio NEW / OLD. Made for the
# worker processes of issue 48 (each computation in a process of its own): what they add to
# a small request.
set -euo pipefail
old=$1 new=$2 rounds=${3:-5} batch=${BATCH:-100}
start() {
    local out
    out=$(mktemp)
    "$1" serve --port 0 >"$out" 2>/dev/null &
    for _ in $(seq 50); do grep -q http "$out" && break; sleep 0.1; done
    grep -o 'http://[^/]*' "$out"
}
a=$(start "$old") b=$(start "$new")
trap 'kill $(jobs -p) 2>/dev/null' EXIT
batch_ms() {
    local t0 t1
    t0=$(date +%s%N)
    for _ in $(seq "$batch"); do
        curl -s "$1/api/nash" -d '{"game": {"row": "3 0; 5 1", "col": "3 5; 0 1"}}' >/dev/null
        curl -s "$1/api/sg" -d '{"expression": "nim 3 4 5"}' >/dev/null
    done
    t1=$(date +%s%N)
    echo "scale=3; ($t1 - $t0) / 1000000 / (2 * $batch)" | bc
}
ratios=()
for r in $(seq "$rounds"); do
    x=$(batch_ms "$a") y=$(batch_ms "$b")
    ratio=$(echo "scale=3; $y / $x" | bc)
    ratios+=("$ratio")
    echo "round $r: old $x ms, new $y ms a request (new/old $ratio)"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print "median new/old: " a[int((NR+1)/2)]}'
