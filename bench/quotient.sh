#!/usr/bin/env bash
# Issue 50's misère-quotient figures: for each game, the time `nimbus quotient` takes to the
# given heap, the order it finds and where it last grew; then positions of several heaps
# answered by the quotient against the exact misère search of the sum (`sg --misere --rule
# search`), interleaved, outcomes compared. The orders are compared with the published figures
# named in bench/RESULTS.md, and with Siegel's MisereSolver, whose Java source is in CGSuite's
# repository: it was built and run by hand, outside this repository, for the comparison
# recorded there (no recipe for building it is kept here).
# Usage: bench/quotient.sh   (RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p nimbus-cli
nimbus=target/release/nimbus
runs=${RUNS:-3}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc -l; }

echo "game | heaps | order | last growth at heap | positions searched | median seconds"
for spec in "nim:7" "nim:15" "octal 0.31:30" "octal 0.52:30" "octal 0.75:30" "octal 0.34:30" \
            "octal 0.712:30" "octal 0.71:30" "octal 0.54:30" "octal 0.26:30" "octal 0.57:30" \
            "octal 0.4:30" "octal 0.07:30" "octal 0.17:30" "kayles:40" "kayles:300"; do
    game=${spec%:*}
    upto=${spec##*:}
    json=$($nimbus quotient "$game" --upto "$upto" --json 2>/dev/null || echo '{}')
    order=$(echo "$json" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("order","-"), d.get("stable_from","-"), d.get("searched","-"))')
    times=$(for _ in $(seq "$runs"); do seconds $nimbus quotient "$game" --upto "$upto"; done | median)
    read -r o s n <<<"$order"
    printf '%s | 1..%s | %s | %s | %s | %.3f\n' "$game" "$upto" "$o" "$s" "$n" "$times"
done

echo
echo "position | quotient (s) | exact search (s) | ratio | outcomes agree"
for spec in "kayles:10 10 9 8" "octal 0.54:10 9 8 7" "octal 0.75:12 11 9 7 5" "octal 0.07:12 11 10 9"; do
    game=${spec%%:*}
    heaps=${spec#*:}
    upto=$(echo "$heaps" | tr ' ' '\n' | sort -n | tail -1)
    qt=(); st=()
    for _ in $(seq "$runs"); do
        qt+=("$(seconds $nimbus quotient "$game" --upto "$upto" --position "$heaps")")
        st+=("$(seconds $nimbus sg --misere "$game $heaps" --rule search)")
    done
    q=$(printf '%s\n' "${qt[@]}" | median)
    s=$(printf '%s\n' "${st[@]}" | median)
    a=$($nimbus quotient "$game" --upto "$upto" --position "$heaps" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["positions"][0]["outcome"])')
    b=$($nimbus sg --misere "$game $heaps" --rule search --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("outcome", "refused"))' || true)
    if [ "$b" = refused ]; then
        printf '%s %s | %.3f | refused at %.3f (state limit) | - | quotient: %s\n' "$game" "$heaps" "$q" "$s" "$a"
        continue
    fi
    printf '%s %s | %.3f | %.3f | %.0fx | %s\n' "$game" "$heaps" "$q" "$s" "$(echo "$s / $q" | bc -l)" "$([ "$a" = "$b" ] && echo "yes ($a)" || echo "NO: $a vs $b")"
done
