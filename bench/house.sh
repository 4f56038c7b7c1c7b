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

# Pseudo-random games of fixed seeds: a 150 x 150 matrix game, a 16 x 16 bimatrix game, a
# 4 x 4 x 4 game and a four-player game of three strategies each (Gambit's payoff form).
matrix() { # SEED SIZE LOW HIGH
    awk -v seed="$1" -v n="$2" -v lo="$3" -v hi="$4" 'BEGIN { srand(seed)
        for (i = 0; i < n; i++) { r = ""; for (j = 0; j < n; j++) r = r " " int(rand() * (hi - lo)) + lo; print r } }'
}
nfg() { # SEED PLAYERS STRATEGIES
    awk -v seed="$1" -v n="$2" -v m="$3" 'BEGIN {
        srand(seed); p = ""; s = ""; k = 1
        for (i = 1; i <= n; i++) { p = p " \"" i "\""; s = s " " m; k *= m }
        print "NFG 1 R \"random\" {" p " } {" s " }"; print ""
        r = ""; for (j = 0; j < k * n; j++) r = r " " int(rand() * 1000); print r }'
}
matrix 7 150 -100 100 > "$tmp/zs.txt"
matrix 11 16 0 100 > "$tmp/a.txt"
matrix 13 16 0 100 > "$tmp/b.txt"
nfg 1 3 4 > "$tmp/4x4x4.nfg"
nfg 9 4 3 > "$tmp/3x3x3x3.nfg"

cases=(
    "enumpoly 4x4x4|nash $tmp/4x4x4.nfg"
    "enumpoly 3x3x3x3|nash $tmp/3x3x3x3.nfg"
    "vertex 16x16|nash --row $tmp/a.txt --col $tmp/b.txt --method vertex"
    "simplex 150x150|zerosum --file $tmp/zs.txt"
    "sparse octal 0.6|sequence 'octal 0.6' --upto 300000"
    "grundy-game 10^5|sequence grundy-game --upto 100000"
    "tiers connect4:5x4|solve connect4:5x4 --all --db $tmp/db"
    "search connect4:6x5|solve connect4:6x5"
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
