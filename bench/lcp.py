"""Lemke-Howson enumeration, Nimbus (`nimbus nash --method lh`) against Gambit's lcp
(pygambit `lcp_solve(g, rational=True)`), on bench/games.py's seeded random games: the sets of
equilibria compared as exact fractions, and the times; then the same sizes with payoffs
0..10^6, where ties (degenerate games) are unlikely.

    python bench/lcp.py NIMBUS FOLDER SIZE...

Gambit's lcp follows Lemke-Howson paths from the artificial equilibrium with every label,
then from every equilibrium found with every label, until no new one appears; `--method lh`
is meant to find exactly that set. pygambit runs in this process (its time is the solve
alone); Nimbus's time is its whole process (start, parse, solve, the exact check, JSON).
"""
import json
import random
import subprocess
import sys
import time
from fractions import Fraction

import pygambit as gbt


def gambit_set(path):
    g = gbt.read_nfg(path)
    t0 = time.perf_counter()
    res = gbt.nash.lcp_solve(g, rational=True)
    t = time.perf_counter() - t0
    eqs = set()
    for p in res.equilibria:
        eqs.add(tuple(tuple(Fraction(str(v)) for _, v in p[player]) for player in g.players))
    return t, eqs


def nimbus_set(nimbus, path):
    t0 = time.perf_counter()
    out = subprocess.run([nimbus, "nash", path, "--method", "lh", "--json"],
                         capture_output=True, text=True, check=True).stdout
    t = time.perf_counter() - t0
    eqs = {tuple(tuple(Fraction(x) for x in s) for s in e["profile"])
           for e in json.loads(out)["equilibria"]}
    return t, eqs


def wide_game(path, size, seed):
    """A game with payoffs 0..10^6: ties, and with them degenerate games, are then unlikely."""
    rng = random.Random(seed * 7919 + size)
    a = [[rng.randrange(10**6) for _ in range(size)] for _ in range(size)]
    b = [[rng.randrange(10**6) for _ in range(size)] for _ in range(size)]
    with open(path, "w") as f:
        f.write(f'NFG 1 R "wide {size}x{size} seed {seed}" {{ "1" "2" }} {{ {size} {size} }}\n')
        f.write(" ".join(f"{a[i][j]} {b[i][j]}" for j in range(size) for i in range(size)) + "\n")


def compare(nimbus, path, name, flip):
    # Interleaved: the order alternates game by game.
    if flip:
        tg, g = gambit_set(path)
        tn, n = nimbus_set(nimbus, path)
    else:
        tn, n = nimbus_set(nimbus, path)
        tg, g = gambit_set(path)
    same = "yes" if n == g else f"NO ({len(n - g)} only nimbus, {len(g - n)} only gambit)"
    print(f"| {name} | {tn:.3f} s | {tg:.3f} s | {tn / tg:.2f} | "
          f"{len(n)} | {len(g)} | {same} |", flush=True)


def main():
    nimbus, folder = sys.argv[1], sys.argv[2]
    sizes = [int(s) for s in " ".join(sys.argv[3:]).split()]
    here = __file__.rsplit("/", 1)[0]
    print("| game | nimbus lh | gambit lcp | nimbus / gambit | equilibria (nimbus) | "
          "equilibria (gambit) | same set |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for size in sizes:
        for seed in (1, 2, 3):
            path = f"{folder}/g{size}_{seed}.nfg"
            with open(path, "w") as f:
                subprocess.run([sys.executable, f"{here}/games.py", str(size), str(seed)],
                               stdout=f, check=True)
            compare(nimbus, path, f"{size}x{size} seed {seed}", seed % 2 == 0)
    # Payoffs 0..99 make ties, so some of those games are degenerate, where the path from an
    # equilibrium depends on how ties are broken; on these the paths are unique.
    for size in sizes:
        for seed in (1, 2, 3):
            path = f"{folder}/w{size}_{seed}.nfg"
            wide_game(path, size, seed)
            compare(nimbus, path, f"{size}x{size} payoffs 0..10^6 seed {seed}", seed % 2 == 0)


main()
