#!/usr/bin/env bash
# Times the figures the impartial-engine issue asks for, as medians of several runs:
# nim-sequences of Kayles, Dawson's Kayles and Grundy's game up to 10^5, and `nimbus sg` on
# Nim with 10^6 heaps read from a file. Usage: bench/impartial.sh [runs]
set -euo pipefail
runs=${1:-5}
source "$(dirname "$0")/common.sh"
python3 - "$tmp/nim.txt" <<'PY'
import random, sys
random.seed(1)
with open(sys.argv[1], "w") as f:
    f.write("nim\n")
    f.write("\n".join(str(random.randrange(1, 10**18)) for _ in range(10**6)))
    f.write("\n")
PY
machine
for rule in kayles dawson grundy-game; do
    printf '%-40s %s\n' "sequence $rule --upto 100000" "$(median "$bin" sequence "$rule" --upto 100000 --json)"
done
printf '%-40s %s\n' "sg --file nim-1e6-heaps.txt" "$(median "$bin" sg --file "$tmp/nim.txt")"
printf '%-40s %s\n' "sg --file nim-1e6-heaps.txt --json" "$(median "$bin" sg --file "$tmp/nim.txt" --json)"
