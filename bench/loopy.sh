#!/usr/bin/env bash
# Times win/loss/draw analysis of a cyclic graph game with 10^7 edges, end to end: reading the
# graph file, exploring from the token, the generalised Sprague-Grundy values and retrograde
# analysis. The graph has 2·10^6 nodes; every node but one in ten has 5 or 6 edges to random
# nodes, so cycles abound. Usage: bench/loopy.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
cargo build --release --quiet
bin=target/release/nimbus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/big.txt" <<'PY'
import random, sys
random.seed(3)
n = 2_000_000
with open(sys.argv[1], "w") as f:
    edges = 0
    out = []
    for u in range(n):
        if u % 10 == 0:
            out.append(f"v{u}\n")
            continue
        for _ in range(5 + (u % 2)):
            out.append(f"v{u} v{random.randrange(n)}\n")
            edges += 1
        if len(out) > 100_000:
            f.write("".join(out)); out = []
    f.write("".join(out))
print(f"{edges} edges", file=sys.stderr)
PY
median() {
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
"$bin" sg "graph $tmp/big.txt @v1" | head -3
printf '%-50s %s\n' "sg 'graph big.txt @v1' (10^7 edges)" "$(median "$bin" sg "graph $tmp/big.txt @v1")"
