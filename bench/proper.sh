#!/usr/bin/env bash
# Times `nimbus nash GAME --refine perfect,proper` against `--refine perfect` alone, on seeded
# random games: generic ones (payoffs 0..99, bench/games.py: few ties, one ranking a player)
# and ones with payoffs 0 or 1 (many ties, many rankings to search), and counts the marks.
# No peer decides proper equilibria (Gambit, nashpy and QuantEcon have none).
# Usage: bench/proper.sh [runs]
set -euo pipefail
runs=${1:-3}
source "$(dirname "$0")/common.sh"
python3 - "$tmp" <<'PY'
import random, sys
for n in (5, 7, 9):
    r = random.Random(n)
    with open(f"{sys.argv[1]}/b{n}.nfg", "w") as f:
        f.write(f'NFG 1 R "0/1 {n}x{n}" {{ "1" "2" }} {{ {n} {n} }}\n')
        f.write(" ".join(str(r.randint(0, 1)) for _ in range(2 * n * n)) + "\n")
PY
for n in 10 12; do python3 bench/games.py "$n" 1 > "$tmp/g$n.nfg"; done
cp examples/myerson.nfg "$tmp/myerson.nfg"
machine
printf '%-14s %-12s %-10s %-10s %s\n' game equilibria perfect proper marks
for g in myerson g10 g12 b5 b7 b9; do
    f="$tmp/$g.nfg"
    # Interleaved: the perfect marks alone, then with the proper ones, each run in turn.
    t_perfect=$(median "$bin" nash "$f" --refine perfect)
    t_proper=$(median "$bin" nash "$f" --refine perfect,proper)
    out=$("$bin" nash "$f" --refine perfect,proper | grep 'payoffs' || true)
    eq=$(grep -c 'payoffs' <<< "$out" || true)
    yes=$(grep -c '   proper$\|   proper   ' <<< "$out" || true)
    no=$(grep -c 'not proper' <<< "$out" || true)
    open=$(grep -c 'proper?' <<< "$out" || true)
    printf '%-14s %-12s %-10s %-10s %s proper, %s not, %s not decided\n' \
        "$g" "$eq" "$t_perfect" "$t_proper" "$yes" "$no" "$open"
done
