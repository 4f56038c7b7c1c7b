#!/usr/bin/env bash
# Risk dominance (`nimbus nash --select risk-dominance`) on seeded coordination games with n
# strict pure equilibria (a diagonal of rising payoffs for one player and falling for the
# other, noise 0..2 elsewhere): the tracing procedure from the bicentric prior of each of the
# n(n-1)/2 pairs. No peer computes it (Gambit's request for the tracing procedure is open),
# so these are Nimbus's own figures: median wall seconds of three runs of the whole command.
# Usage: bench/risk_dominance.sh [n...]   (default: 5 10 20 40)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
cargo build --release -q -p nimbus-cli
printf '%6s %8s %12s %10s\n' n pairs dominant seconds
for n in ${@:-5 10 20 40}; do
    read -r rows cols < <(python3 - "$n" <<'PY'
import random, sys
n = int(sys.argv[1])
random.seed(n)
cell = lambda i, j, top: str(top + random.randint(0, 2) if i == j else random.randint(0, 2))
rows = "; ".join(" ".join(cell(i, j, 3 * (i + 1)) for j in range(n)) for i in range(n))
cols = "; ".join(" ".join(cell(i, j, 3 * (n - i)) for j in range(n)) for i in range(n))
print(rows.replace(" ", "_"), cols.replace(" ", "_"))
PY
)
    rows=${rows//_/ }
    cols=${cols//_/ }
    times=()
    for _ in 1 2 3; do
        start=$(date +%s.%N)
        out=$("$bin" nash --row "$rows" --col "$cols" --select risk-dominance --max-work 1000000000000)
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc)")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 2p)
    count=$(echo "$out" | sed -n 's/^equilibria: *//p')
    dominant=$([ "$count" = 1 ] && echo yes || echo "none ($count)")
    printf '%6s %8s %12s %10.3f\n' "$n" $((n * (n - 1) / 2)) "$dominant" "$median"
done
