"""Nimbus's repeated games against QuantEcon's RepeatedGame.equilibrium_payoffs (Abreu and
Sannikov's algorithm); run by bench/repeated.sh.

    python3 bench/repeated.py

Both run in this process (Nimbus through its Python package, QuantEcon after a warm-up call
that compiles its Numba code), in turn, ROUNDS times; each time is the median of REPS calls.
Cases: QuantEcon's published examples (the prisoner's dilemma at delta = 0.3 ... 0.9, Abreu and
Sannikov's 3 x 3 game at 0.3) and seeded random games (payoffs -9..9). For each case the two
answers are compared: the Hausdorff distance between the polygons, or both empty (QuantEcon
raises ValueError when there is no pure-action equilibrium; it fails with qhull's error when a
round's set is a point or a segment, and the table says so).
"""
import math
import platform
import random
import statistics
import sys
import time

import numpy as np
import nimbus
from quantecon.game_theory import NormalFormGame, RepeatedGame
from scipy.spatial import QhullError

ROUNDS = 3
REPS = 5


def cases():
    pd = ([[9, 1], [10, 3]], [[9, 10], [1, 3]])
    out = [(f"PD {d}", pd, d) for d in (0.3, 0.5, 0.7, 0.9)]
    asg = (
        [[16, 3, 0], [21, 10, -1], [9, 5, -5]],
        [[9, 13, 3], [1, 4, 0], [0, -4, -15]],
    )
    out.append(("AS 0.3", asg, 0.3))
    for n, seed, d in ((3, 1, 0.8), (3, 2, 0.8), (4, 3, 0.8), (5, 4, 0.9)):
        rng = random.Random(seed)
        a = [[rng.randint(-9, 9) for _ in range(n)] for _ in range(n)]
        b = [[rng.randint(-9, 9) for _ in range(n)] for _ in range(n)]
        out.append((f"random {n}x{n} s{seed} {d}", (a, b), d))
    return out


def ours(game, d):
    a = nimbus.Game(*game).repeated(d)
    return [tuple(map(float, v)) for v in a.vertices] if a.exists else []


def proven(game, d):
    """How far apart Nimbus's proven inner and outer polygons are, and how the inner one was
    found."""
    a = nimbus.Game(*game).repeated(d)
    if not a.exists:
        return "none exists"
    kind = {"short fractions near the outer bound": "exact fractions",
            "a stricter game's set": "stricter game",
            "the stage game's pure equilibria": "stage equilibria"}.get(a.inner_kind, "-")
    return f"{a.distance} ({kind})"


def theirs(game, d):
    a, b = game
    pairs = [[(a[i][j], b[i][j]) for j in range(len(a[0]))] for i in range(len(a))]
    try:
        hull = RepeatedGame(NormalFormGame(pairs), d).equilibrium_payoffs()
    except ValueError:
        return []
    except QhullError:
        # The set (or a round's) is a point or a segment: qhull needs three points.
        return None
    return [tuple(p) for p in hull.points[hull.vertices]]


def distance_to(poly, p):
    n = len(poly)
    if n == 1:
        return math.dist(poly[0], p)
    inside = n >= 3
    best = math.inf
    for k in range(n):
        a, b = poly[k], poly[(k + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        if dx * (p[1] - a[1]) - dy * (p[0] - a[0]) < 0:
            inside = False
        ll = dx * dx + dy * dy
        t = 0 if ll == 0 else max(0, min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
        best = min(best, math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy))
    return 0.0 if inside else best


def hausdorff(x, y):
    if not x or not y:
        return 0.0 if not x and not y else math.inf
    return max(max(distance_to(y, p) for p in x), max(distance_to(x, p) for p in y))


def timed(f, *args):
    times = []
    for _ in range(REPS):
        t = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    theirs(cases()[0][1], 0.9)  # Numba's compilation, outside the timings
    rows = {name: ([], []) for name, _, _ in cases()}
    for _ in range(ROUNDS):
        for name, game, d in cases():
            rows[name][0].append(timed(ours, game, d))
            rows[name][1].append(timed(theirs, game, d))
    print(f"# {platform.processor() or platform.machine()}, Python {sys.version.split()[0]}")
    print("| game | Nimbus ms | QuantEcon ms | QuantEcon / Nimbus | vertices | distance | Nimbus proven within |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, game, d in cases():
        a, b = (statistics.median(t) for t in rows[name])
        x, y = ours(game, d), theirs(game, d)
        if y is None:
            print(f"| {name} | {a * 1e3:.2f} | fails (QhullError) | - | {len(x)} / - | - | {proven(game, d)} |")
            continue
        dist = hausdorff(x, y)
        print(
            f"| {name} | {a * 1e3:.2f} | {b * 1e3:.2f} | {b / a:.1f} | "
            f"{len(x)} / {len(y)} | {dist:.1e} | {proven(game, d)} |"
        )


main()
