"""How often the global Newton method's first path answers: `nimbus nash GAME --method gnm`
on seeded random games of 3 to 5 players with 2 to 8 strategies each, payoffs drawn from
0..999, 0..99, 0..9 and 0..3 (the smaller the range, the more ties, and the more degenerate
points a path may meet). For each binary given (say, two builds to compare; the runs
alternate game by game): how many games needed more than one bonus vector's path (the
answer's note says so), how many got no answer, and the total time.

Usage: python3 bench/gnm_paths.py TMPDIR NIMBUS_BINARY [NIMBUS_BINARY ...]
"""
import json
import random
import subprocess
import sys
import time

tmp, binaries = sys.argv[1], sys.argv[2:]

SHAPES = [[3, 3, 3], [4, 4, 4], [5, 5, 5], [6, 6, 6], [2, 2, 2, 2], [3, 3, 3, 3],
          [2, 2, 2, 2, 2], [8, 8, 8], [4, 4, 4, 4], [2, 3, 4], [7, 7, 7], [3, 3, 3, 3, 3]]
RANGES = [999, 99, 9, 3]
SEEDS = 6


def game(shape, top, seed):
    rng = random.Random(f"{shape} {top} {seed}")
    count = 1
    for m in shape:
        count *= m
    vals = " ".join(str(rng.randint(0, top)) for _ in range(count * len(shape)))
    players = " ".join(f'"P{i}"' for i in range(len(shape)))
    return (f'NFG 1 R "random {shape} 0..{top} seed {seed}" {{ {players} }} '
            f'{{ {" ".join(map(str, shape))} }}\n{vals}\n')


def run(binary, path):
    t = time.perf_counter()
    out = subprocess.run([binary, "nash", path, "--method", "gnm", "--json"],
                         capture_output=True, text=True, timeout=600)
    t = time.perf_counter() - t
    a = json.loads(out.stdout)
    answered = bool(a.get("equilibria")) or bool((a.get("enumeration") or {}).get("certified"))
    more = any("other bonus vectors" in n for n in a.get("notes", []))
    return t, answered, more


print(f"{'payoffs':<8} {'games':>5}  " + "  ".join(
    f"{'binary ' + str(k + 1) + ': more paths / no answer / s':>34}" for k in range(len(binaries))))
totals = [[0, 0, 0.0] for _ in binaries]
for top in RANGES:
    rows = [[0, 0, 0.0] for _ in binaries]
    games = 0
    for shape in SHAPES:
        for seed in range(SEEDS):
            path = f"{tmp}/gnm_{'x'.join(map(str, shape))}_{top}_{seed}.nfg"
            with open(path, "w") as f:
                f.write(game(shape, top, seed))
            games += 1
            order = list(range(len(binaries)))
            if seed % 2:
                order.reverse()
            for k in order:
                t, answered, more = run(binaries[k], path)
                rows[k][0] += more
                rows[k][1] += not answered
                rows[k][2] += t
    for k, r in enumerate(rows):
        for j in range(3):
            totals[k][j] += r[j]
    print(f"0..{top:<5} {games:>5}  " + "  ".join(
        f"{r[0]:>18} / {r[1]:>3} / {r[2]:>7.2f}" for r in rows), flush=True)
print(f"{'all':<8} {len(RANGES) * len(SHAPES) * SEEDS:>5}  " + "  ".join(
    f"{r[0]:>18} / {r[1]:>3} / {r[2]:>7.2f}" for r in totals))
