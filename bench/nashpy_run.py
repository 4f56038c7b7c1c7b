"""Times nashpy on the .nfg payoff-form files bench/games.py writes.

    python3 bench/nashpy_run.py METHOD FILE...      METHOD: support, vertex or lh

Prints the median seconds per game over the files and the equilibria counted, so that the
ratio to nimbus can be stated for the same games.
"""
import statistics
import sys
import time

import nashpy
import numpy as np


def read(path):
    words = open(path).read().split("}")[-1].split()
    header = open(path).read().split("{")[2].split("}")[0].split()
    m, n = int(header[0]), int(header[1])
    nums = [int(w) for w in words]
    a = np.zeros((m, n))
    b = np.zeros((m, n))
    k = 0
    for j in range(n):
        for i in range(m):
            a[i, j], b[i, j] = nums[k], nums[k + 1]
            k += 2
    return nashpy.Game(a, b)


def main():
    method, files = sys.argv[1], sys.argv[2:]
    times, counts = [], []
    for f in files:
        g = read(f)
        t0 = time.perf_counter()
        if method == "support":
            eqs = list(g.support_enumeration())
        elif method == "vertex":
            eqs = list(g.vertex_enumeration())
        else:
            eqs = [g.lemke_howson(initial_dropped_label=0)]
        times.append(time.perf_counter() - t0)
        counts.append(len(eqs))
    print(f"{statistics.median(times):.4f} s median per game; equilibria {counts}")


main()
