#!/usr/bin/env bash
# Times the strategic-form solvers at the sizes issue #5 asks for, on seeded random games with
# integer payoffs 0..99 written by bench/games.py (seeds 1-3 per size), as the median of
# several runs per game, then the median over the games. With NASHPY=path/to/python (a Python
# with nashpy installed), nashpy runs on the same files for comparison.
# Usage: bench/nash.sh [runs]
set -euo pipefail
runs=${1:-3}
source "$(dirname "$0")/common.sh"
for n in 6 8 10 12 50 100 200; do
    for s in 1 2 3; do
        python3 bench/games.py "$n" "$s" > "$tmp/g${n}_$s.nfg"
    done
done
python3 - "$tmp/z50.txt" "$tmp/z200.txt" "$tmp/z1000.txt" <<'PY'
import random, sys
for path, n in zip(sys.argv[1:], (50, 200, 1000)):
    r = random.Random(n)
    with open(path, "w") as f:
        for _ in range(n):
            f.write(" ".join(str(r.randrange(100)) for _ in range(n)) + "\n")
PY
machine
over_games() {  # label, then the command with GAME where the file goes
    local label=$1 n=$2; shift 2
    local per=()
    for s in 1 2 3; do
        per+=("$(median "${@//GAME/$tmp/g${n}_$s.nfg}")")
    done
    printf '%-44s %s  (games: %s)\n' "$label" \
        "$(printf '%s\n' "${per[@]}" | sort -g | awk 'NR==2')" "${per[*]}"
}
for n in 6 8 10 12; do
    over_games "nash --method vertex ${n}x${n}" "$n" "$bin" nash GAME --method vertex
    over_games "nash --method support ${n}x${n}" "$n" "$bin" nash GAME --method support
done
for n in 50 100 200; do
    over_games "nash --method lh --label 1 ${n}x${n}" "$n" "$bin" nash GAME --method lh --label 1
done
over_games "nash --method lh (every label) 50x50" 50 "$bin" nash GAME --method lh
for n in 50 200; do
    printf '%-44s %s\n' "zerosum ${n}x${n} (exact)" "$(median "$bin" zerosum --file "$tmp/z$n.txt")"
done
printf '%-44s %s\n' "zerosum --float 1000x1000" "$(median "$bin" zerosum --float --file "$tmp/z1000.txt")"
"$bin" zerosum --float --file "$tmp/z1000.txt" | grep -E 'duality gap|pivots'
if [[ -n "${NASHPY:-}" ]]; then
    echo "nashpy $("$NASHPY" -c 'import nashpy; print(nashpy.__version__)'), one run per game:"
    for n in 6 8; do
        for m in support vertex; do
            printf '%-44s %s\n' "nashpy $m ${n}x${n}" "$("$NASHPY" bench/nashpy_run.py $m "$tmp"/g${n}_{1,2,3}.nfg 2>/dev/null | tail -1)"
        done
    done
    printf '%-44s %s\n' "nashpy vertex 10x10" "$("$NASHPY" bench/nashpy_run.py vertex "$tmp"/g10_{1,2,3}.nfg 2>/dev/null | tail -1)"
    for n in 50 100 200; do
        printf '%-44s %s\n' "nashpy lemke_howson ${n}x${n}" "$("$NASHPY" bench/nashpy_run.py lh "$tmp"/g${n}_{1,2,3}.nfg 2>/dev/null | tail -1)"
    done
fi
