"""Times pygambit (Gambit's Python package, on PyPI) on the .nfg files bench/games.py writes.

    python3 bench/gambit_run.py METHOD FILE...   METHOD: enummixed, enummixed-float, lcp

enummixed is Gambit's exact vertex enumeration (rational arithmetic), enummixed-float the same
in floating point, lcp its exact Lemke-Howson. Prints the median seconds per game over the files
and the equilibria found per game.
"""
import statistics
import sys
import time

import pygambit as gbt


def main():
    method, files = sys.argv[1], sys.argv[2:]
    times, counts = [], []
    for f in files:
        g = gbt.read_nfg(f)
        t0 = time.perf_counter()
        if method == "enummixed":
            res = gbt.nash.enummixed_solve(g, rational=True)
        elif method == "enummixed-float":
            res = gbt.nash.enummixed_solve(g, rational=False)
        else:
            res = gbt.nash.lcp_solve(g, rational=True, stop_after=1)
        times.append(time.perf_counter() - t0)
        counts.append(len(res.equilibria))
    print(f"{statistics.median(times):.4f} s median per game; equilibria {counts}")


main()
