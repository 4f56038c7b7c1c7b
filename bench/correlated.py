"""Nimbus's vertices of the correlated equilibria against cddlib's; run by bench/correlated.sh.

    python3 bench/correlated.py path/to/nimbus SHAPE...      (SHAPE: 3x3, 2x2x2, ...)

For each shape and seed, a random game (payoffs 0..9) is written as a .nfg for Nimbus and
as the H-representation of the same polytope for cddlib (p >= 0, every incentive
constraint, the probabilities summing to 1 as an equality), both are run in turn (which
goes first alternates) and timed from outside, and the two vertex sets are compared as
exact fractions.
"""
import itertools
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

SEEDS = [1, 2, 3]
ROUNDS = 3


def profiles(shape):
    """Every pure profile, the first player's strategy changing fastest (as .nfg numbers
    them)."""
    return [tuple(reversed(p)) for p in itertools.product(*[range(n) for n in reversed(shape)])]


def game(shape, seed):
    rng = random.Random(seed * 7919 + sum(shape) * 31 + len(shape))
    return {p: [rng.randrange(10) for _ in shape] for p in profiles(shape)}


def incentive_rows(shape, u):
    """g . p <= 0 for each player i, each a and b != a: told a, b does not pay."""
    order = profiles(shape)
    rows = []
    for i, n in enumerate(shape):
        for a in range(n):
            for b in range(n):
                if a == b:
                    continue
                row = []
                for p in order:
                    if p[i] != a:
                        row.append(0)
                        continue
                    q = list(p)
                    q[i] = b
                    row.append(u[tuple(q)][i] - u[p][i])
                rows.append(row)
    return rows


def write(shape, u, folder, name):
    order = profiles(shape)
    nfg = os.path.join(folder, name + ".nfg")
    with open(nfg, "w") as f:
        players = " ".join(f'"{k + 1}"' for k in range(len(shape)))
        f.write(f'NFG 1 R "{name}" {{ {players} }} {{ {" ".join(map(str, shape))} }}\n')
        f.write(" ".join(" ".join(map(str, u[p])) for p in order) + "\n")
    d = len(order)
    rows = [[1] + [-1] * d]
    rows += [[0] + [1 if j == k else 0 for j in range(d)] for k in range(d)]
    rows += [[0] + [-g for g in r] for r in incentive_rows(shape, u)]
    ine = os.path.join(folder, name + ".ine")
    with open(ine, "w") as f:
        f.write("H-representation\nlinearity 1 1\nbegin\n")
        f.write(f"{len(rows)} {d + 1} integer\n")
        for r in rows:
            f.write(" ".join(map(str, r)) + "\n")
        f.write("end\n")
    return nfg, ine


def nimbus(binary, nfg, shape):
    t0 = time.perf_counter()
    out = subprocess.run(
        [binary, "correlated", nfg, "--vertices", "--json", "--max-work", "400000000000"],
        capture_output=True, text=True, check=True,
    ).stdout
    t = time.perf_counter() - t0
    order = {p: k for k, p in enumerate(profiles(shape))}
    found = set()
    for v in json.loads(out)["vertices"]:
        x = [Fraction(0)] * len(order)
        for c in v["distribution"]:
            x[order[tuple(int(s) - 1 for s in c["profile"])]] = Fraction(c["probability"])
        found.add(tuple(x))
    return t, found


# A cddlib run longer than this is stopped and reported as "over".
CAP = 120


def cdd(ine):
    t0 = time.perf_counter()
    try:
        subprocess.run(["scdd_gmp", ine], capture_output=True, check=True, timeout=CAP)
    except subprocess.TimeoutExpired:
        return None, None
    t = time.perf_counter() - t0
    ext = ine[:-4] + ".ext"
    lines = open(ext).read().split("begin")[1].split("end")[0].strip().splitlines()[1:]
    found = set()
    for line in lines:
        nums = [Fraction(x) for x in line.split()]
        assert nums[0] == 1, "a ray in a polytope"
        found.add(tuple(nums[1:]))
    os.remove(ext)
    return t, found


def main():
    binary, shapes = sys.argv[1], " ".join(sys.argv[2:]).split()
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}", flush=True)
    print(f"{'game':<14}{'vertices':>9}{'nimbus s':>10}{'cdd s':>10}{'cdd/nimbus':>12}")
    ratios = []
    with tempfile.TemporaryDirectory() as folder:
        for spec in shapes:
            shape = tuple(int(x) for x in spec.split("x"))
            for seed in SEEDS:
                u = game(shape, seed)
                name = f"g{spec}s{seed}"
                nfg, ine = write(shape, u, folder, name)
                tn, tc = [], []
                for r in range(ROUNDS):
                    runs = [lambda: nimbus(binary, nfg, shape), lambda: cdd(ine)]
                    if r % 2:
                        runs.reverse()
                    results = [f() for f in runs]
                    if r % 2:
                        results.reverse()
                    (a, va), (b, vb) = results
                    if b is None:
                        break
                    if va != vb:
                        sys.exit(f"{name}: nimbus found {len(va)} vertices, cdd {len(vb)}")
                    tn.append(a)
                    tc.append(b)
                if not tc:
                    print(f"{spec + ' #' + str(seed):<14}{len(va):>9}{a:>10.3f}{'over ' + str(CAP):>10}{'> ' + format(CAP / a, '.0f'):>12}", flush=True)
                    continue
                n, c = statistics.median(tn), statistics.median(tc)
                ratios.append(c / n)
                print(f"{spec + ' #' + str(seed):<14}{len(va):>9}{n:>10.3f}{c:>10.3f}{c / n:>12.2f}", flush=True)
    print(f"geometric mean cdd/nimbus, games both finished: {statistics.geometric_mean(ratios):.2f}")


main()
