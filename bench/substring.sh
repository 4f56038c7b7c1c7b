#!/usr/bin/env bash
# Times the substring game of seed 000 at the size its issue asks for: |S| = 2·10^5 and 2·10^5
# strings, normal play, read from a file, as the median of several runs. Two inputs: S over
# 26 letters and S over {a, b} (a larger automaton per letter of S); the strings are random
# substrings of S, 1 to 20 letters long. Usage: bench/substring.sh [runs]
set -euo pipefail
runs=${1:-5}
source "$(dirname "$0")/common.sh"
for alphabet in abcdefghijklmnopqrstuvwxyz ab; do
python3 - "$tmp/$alphabet.txt" "$alphabet" <<'PY'
import random, sys
random.seed(7)
n = m = 200_000
s = "".join(random.choice(sys.argv[2]) for _ in range(n))
with open(sys.argv[1], "w") as f:
    f.write(s + "\n" + str(m) + "\n")
    for _ in range(m):
        k = random.randint(1, 20)
        i = random.randrange(0, n - k)
        f.write(s[i:i + k] + "\n")
PY
done
machine
for alphabet in abcdefghijklmnopqrstuvwxyz ab; do
    printf '%-50s %s\n' "substring --file (S over $alphabet)" "$(median "$bin" substring --file "$tmp/$alphabet.txt")"
    printf '%-50s %s\n' "substring --file --misere (S over $alphabet; refused)" "$(median "$bin" substring --misere --file "$tmp/$alphabet.txt")"
done
