#!/usr/bin/env bash
# The hot paths that the restructuring of the library moved (exact arithmetic, the n-player
# enumeration, the sparse-space engine, the tier solver, vertex enumeration, the simplex),
# timed in this checkout against another build of the command, interleaved: each round runs
# every command once with each binary, in alternating order, so that the machine's noise
# falls on both alike. Prints, per command, the median time of each and their ratio.
#
#   bench/house.sh OTHER_NIMBUS [ROUNDS]
#
# OTHER_NIMBUS is the other build's binary (for example one built from an earlier commit
# with `git worktree add /tmp/old COMMIT && cargo build --release -p nimbus-cli` there).
set -euo pipefail
other=${1:?usage: bench/house.sh OTHER_NIMBUS [ROUNDS]}
rounds=${2:-7}
runs=1
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
machine
echo "this build: $bin ($(git rev-parse --short HEAD)); the other: $other"
echo "rounds: $rounds, interleaved"

# A 30 x 30 matrix game and a 12 x 12 bimatrix game of pseudo-random integers (fixed seeds).
awk 'BEGIN { srand(7); for (i = 0; i < 30; i++) { r = ""; for (j = 0; j < 30; j++) r = r " " int(rand() * 200) - 100; print r } }' > "$tmp/zs.txt"
awk 'BEGIN { srand(11); for (i = 0; i < 12; i++) { r = ""; for (j = 0; j < 12; j++) r = r " " int(rand() * 100); print r } }' > "$tmp/a.txt"
awk 'BEGIN { srand(13); for (i = 0; i < 12; i++) { r = ""; for (j = 0; j < 12; j++) r = r " " int(rand() * 100); print r } }' > "$tmp/b.txt"
# A 4 x 4 x 4 game and a five-player game of two strategies each, Gambit's payoff form.
nfg() { # SEED PLAYERS STRATEGIES
    awk -v seed="$1" -v n="$2" -v m="$3" 'BEGIN {
        srand(seed); p = ""; s = ""; k = 1
        for (i = 1; i <= n; i++) { p = p " \"" i "\""; s = s " " m; k *= m }
        print "NFG 1 R \"random\" {" p " } {" s " }"; print ""
        r = ""; for (j = 0; j < k * n; j++) r = r " " int(rand() * 1000); print r }'
}
nfg 3 3 4 > "$tmp/4x4x4.nfg"
nfg 5 5 2 > "$tmp/2x2x2x2x2.nfg"

cases=(
    "enumpoly 4x4x4|nash $tmp/4x4x4.nfg"
    "enumpoly 2x2x2x2x2|nash $tmp/2x2x2x2x2.nfg"
    "vertex 12x12|nash --row $tmp/a.txt --col $tmp/b.txt --method vertex"
    "simplex 30x30|zerosum --file $tmp/zs.txt"
    "sparse octal 0.6|sequence 'octal 0.6' --upto 300000"
    "grundy-game|sequence grundy-game --upto 100000"
    "tiers connect4:5x4|solve connect4:5x4 --all --db $tmp/db"
    "search connect4 5x4|solve connect4:5x4"
)

declare -A times
for ((r = 0; r < rounds; r++)); do
    for c in "${cases[@]}"; do
        name=${c%%|*}
        args=${c#*|}
        order=("$bin" "$other")
        ((r % 2)) && order=("$other" "$bin")
        for b in "${order[@]}"; do
            rm -rf "$tmp/db"
            t0=$(date +%s.%N)
            eval "\"$b\" $args" > /dev/null 2>&1 || { echo "failed: $b $args" >&2; exit 1; }
            t1=$(date +%s.%N)
            key="$name|$([ "$b" = "$bin" ] && echo new || echo old)"
            times[$key]="${times[$key]:-} $(awk "BEGIN {print $t1 - $t0}")"
        done
    done
done

med() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-24s %10s %10s %8s\n' case "this (s)" "other (s)" ratio
for c in "${cases[@]}"; do
    name=${c%%|*}
    n=$(med "${times[$name|new]}")
    o=$(med "${times[$name|old]}")
    printf '%-24s %10.3f %10.3f %8.3f\n' "$name" "$n" "$o" "$(awk "BEGIN {print $n / $o}")"
done
