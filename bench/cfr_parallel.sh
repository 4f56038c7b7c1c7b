#!/usr/bin/env bash
# CFR+ on one core against two, on a generated poker-like tree big enough to split (each
# player dealt one of 13 cards, then 8 alternating binary actions, a showdown for the pot):
# the same run (the split does not depend on the cores, so the numbers printed are the same),
# timed with RAYON_NUM_THREADS=1 and =2, interleaved. Usage: bench/cfr_parallel.sh [ITERATIONS]
set -euo pipefail
runs=3
source "$(dirname "$0")/common.sh"
iterations=${1:-200}
machine
python3 - "$tmp/big.efg" <<'PY'
import sys
cards, depth = 13, 8
out = ['EFG 2 R "Generated poker, 13 cards, 8 moves" { "P1" "P2" } ""']
outcome = [0]
def leaf(c1, c2, pot):
    outcome[0] += 1
    win = pot if c1 > c2 else -pot if c1 < c2 else 0
    out.append(f't "" {outcome[0]} "" {{ {win}, {-win} }}')
sets = {}
def node(c1, c2, hist):
    if len(hist) == depth:
        leaf(c1, c2, 1 + hist.count("b"))
        return
    who = len(hist) % 2
    key = (who, (c1, c2)[who], hist)
    if key not in sets:
        sets[key] = len([k for k in sets if k[0] == who]) + 1
        out.append(f'p "" {who + 1} {sets[key]} "" {{ "c" "b" }} 0')
    else:
        out.append(f'p "" {who + 1} {sets[key]} 0')
    for a in "cb":
        node(c1, c2, hist + a)
deals = [(i, j) for i in range(cards) for j in range(cards)]
names = " ".join(f'"{i}-{j}" 1/{len(deals)}' for i, j in deals)
out.append(f'c "" 1 "" {{ {names} }} 0')
for i, j in deals:
    node(i, j, "")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
"$bin" efg "$tmp/big.efg" | head -2
for k in $(seq "$runs"); do
    for threads in 1 2; do
        /usr/bin/time -f "%e" -o "$tmp/t" env RAYON_NUM_THREADS=$threads "$bin" cfr "$tmp/big.efg" \
            --iterations "$iterations" --reports 1 --json > "$tmp/out$threads.json"
        echo "$threads $(cat "$tmp/t") $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["iterations_per_second"], d["exploitability"])' "$tmp/out$threads.json")" >> "$tmp/times"
    done
done
python3 - "$tmp/times" <<'PY'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1])]
for threads in ("1", "2"):
    r = [x for x in rows if x[0] == threads]
    print(f"{threads} core(s): median {statistics.median(float(x[2]) for x in r):.0f} iterations/s, exploitability {r[-1][3]}")
one = statistics.median(float(x[2]) for x in rows if x[0] == "1")
two = statistics.median(float(x[2]) for x in rows if x[0] == "2")
print(f"speed-up on 2 cores: {two / one:.2f}x")
PY
