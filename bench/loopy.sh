#!/usr/bin/env bash
# Times win/loss/draw analysis of a cyclic graph game with 10^7 edges, end to end: reading the
# graph file, exploring from the token, the generalised Sprague-Grundy values and retrograde
# analysis. The graph has 2·10^6 nodes; every node but one in ten has 5 or 6 edges to random
# nodes, so cycles abound. Usage: bench/loopy.sh [runs]
set -euo pipefail
runs=${1:-3}
source "$(dirname "$0")/common.sh"
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
machine
"$bin" sg "graph $tmp/big.txt @v1" | head -3
printf '%-50s %s\n' "sg 'graph big.txt @v1' (10^7 edges)" "$(median "$bin" sg "graph $tmp/big.txt @v1")"
