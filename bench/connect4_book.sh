#!/usr/bin/env bash
# Issue 47: Connect Four's opening book. For each BOARD:DEPTH of BOOKS, what building the book
# takes (`nimbus solve connect4:BOARD --book DEPTH --save FILE`: time, nodes, positions,
# bytes, peak memory), then how long a position within it takes to answer with the book
# (`--db FILE`) and without it (the search), interleaved, on POSITIONS positions of fewer
# stones than DEPTH played at random from a seed (the same for both; each answer's value
# checked equal). A book given as BOARD:DEPTH:FILE is read from FILE instead of built (a
# book that takes long to build, made once).
# Usage: bench/connect4_book.sh   BOOKS="5x4:6 6x5:6" POSITIONS=20 RUNS=3 SEED=47
set -euo pipefail
runs=${RUNS:-3}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
machine
echo "date: $(date -u +%F); nimbus $(git rev-parse --short HEAD)"

# POSITIONS random positions of the board with at most DEPTH - 1 stones where the game goes
# on, as move strings (columns from 1; "" is the empty board).
positions() {
    python3 - "$1" "$2" "$3" "$4" <<'EOF'
import random, sys
w, h = map(int, sys.argv[1].split("x"))
depth, count, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)

def won(cols, c, who):
    r = len(cols[c]) - 1
    def at(x, y):
        return 0 <= x < w and 0 <= y < len(cols[x]) and cols[x][y] == who
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            x, y = c + s * dx, r + s * dy
            while at(x, y):
                n += 1
                x, y = x + s * dx, y + s * dy
        if n >= 4:
            return True
    return False

out = []
while len(out) < count:
    cols = [[] for _ in range(w)]
    moves, length = [], rng.randrange(depth)
    for i in range(length):
        c = rng.choice([c for c in range(w) if len(cols[c]) < h])
        cols[c].append(i % 2)
        moves.append(str(c + 1))
        if won(cols, c, i % 2):
            break
    else:
        out.append("".join(moves))
for m in out:
    print(m if m else "-empty-")
EOF
}

value() { python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])'; }

printf '| %-5s | %5s | %9s | %9s | %13s | %9s | %8s | %9s | %9s | %9s | %s |\n' board depth positions searched nodes "build s" "peak MiB" bytes "book ms" "search ms" "search / book"
for spec in ${BOOKS:-5x4:6 6x5:6}; do
    IFS=: read -r board depth file <<< "$spec"
    if [ -n "$file" ]; then
        book=$file
        "$bin" solve "connect4:$board" --db "$book" --json > /dev/null
        built='{"positions": "-", "searched": "-", "nodes": "-", "seconds": "-", "bytes": '"$(stat -c %s "$book")"'}'
        peak=-
    else
        book=$tmp/$board-$depth.book
        built=$(/usr/bin/time -f '%M' -o "$tmp/mem" "$bin" solve "connect4:$board" --book "$depth" --save "$book" --json)
        peak=$(awk "BEGIN {printf \"%.0f\", $(cat "$tmp/mem") / 1024}")
    fi
    read -r positions searched nodes seconds bytes <<< "$(python3 -c 'import json,sys; a=json.loads(sys.argv[1]); print(a["positions"], a["searched"], a["nodes"], a["seconds"] if a["seconds"] == "-" else round(a["seconds"], 2), a["bytes"])' "$built")"
    book_total=0; search_total=0; n=0
    while read -r pos; do
        [ "$pos" = "-empty-" ] && pos=""
        a=$("$bin" solve "connect4:$board" "$pos" --db "$book" --json | value)
        b=$("$bin" solve "connect4:$board" "$pos" --json | value)
        [ "$a" = "$b" ] || { echo "position '$pos': the book says $a, the search $b"; exit 1; }
        # Interleaved: the book's answer and the search's, alternately.
        for _ in $(seq "$runs"); do
            t=$(runs=1 median "$bin" solve "connect4:$board" "$pos" --db "$book")
            echo "$t" >> "$tmp/book-times"
            t=$(runs=1 median "$bin" solve "connect4:$board" "$pos")
            echo "$t" >> "$tmp/search-times"
        done
        book_t=$(sort -g "$tmp/book-times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        search_t=$(sort -g "$tmp/search-times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        rm -f "$tmp/book-times" "$tmp/search-times"
        book_total=$(awk "BEGIN {print $book_total + $book_t}")
        search_total=$(awk "BEGIN {print $search_total + $search_t}")
        n=$((n + 1))
    done < <(positions "$board" "$depth" "${POSITIONS:-20}" "${SEED:-47}")
    printf '| %-5s | %5s | %9s | %9s | %13s | %9s | %8s | %9s | %9.1f | %9.1f | %.0f |\n' "$board" "$depth" "$positions" "$searched" "$nodes" "$seconds" "$peak" "$bytes" \
        "$(awk "BEGIN {print 1000 * $book_total / $n}")" "$(awk "BEGIN {print 1000 * $search_total / $n}")" "$(awk "BEGIN {print $search_total / $book_total}")"
done
echo "(book ms and search ms: the mean over the positions of each position's median wall time of the whole process, start-up included)"
