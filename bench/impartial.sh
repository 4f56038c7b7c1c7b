#!/usr/bin/env bash
# Times the figures the impartial-engine issue asks for, as medians of several runs:
# nim-sequences of Kayles, Dawson's Kayles and Grundy's game up to 10^5, and `nimbus sg` on
# Nim with 10^6 heaps read from a file. Usage: bench/impartial.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
cargo build --release --quiet
bin=target/release/nimbus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/nim.txt" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write("nim\n")
    f.write("\n".join(str(random.randrange(1, 10**18)) for _ in range(10**6)))
    f.write("\n")
PY
median() {
    # Runs the command $runs times and prints the median wall time in seconds.
    local times=()
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" > /dev/null
        t1=$(date +%s.%N)
        times+=("$(awk "BEGIN {print $t1 - $t0}")")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "runs per figure: $runs (median wall time, seconds)"
for rule in kayles dawson grundy-game; do
    printf '%-40s %s\n' "sequence $rule --upto 100000" "$(median "$bin" sequence "$rule" --upto 100000 --json)"
done
printf '%-40s %s\n' "sg --file nim-1e6-heaps.txt" "$(median "$bin" sg --file "$tmp/nim.txt")"
printf '%-40s %s\n' "sg --file nim-1e6-heaps.txt --json" "$(median "$bin" sg --file "$tmp/nim.txt" --json)"
