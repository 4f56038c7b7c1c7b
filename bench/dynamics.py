"""Nimbus's learning dynamics against nashpy's, from Python, in one process; run by
bench/dynamics.sh.

Fictitious play (Nimbus exact, nashpy in NumPy floats with random tie-breaking) for ROUNDS
rounds from the same play counts, and the replicator equation (Nimbus's Dormand-Prince,
nashpy's SciPy odeint) to time 10 with 101 records, on seeded random games. Each pair of
runs is interleaved, REPEATS times, and the medians compared; the answers are checked to agree
(fictitious play's final counts where nashpy met no tie, the replicator's last record to 1e-5).
"""
import statistics
from fractions import Fraction
import time

import nashpy
import numpy as np

import nimbus

REPEATS = 5


def timed(f):
    t0 = time.perf_counter()
    out = f()
    return time.perf_counter() - t0, out


def main():
    print(f"nimbus from the test wheel, nashpy {nashpy.__version__}, numpy {np.__version__}")
    print(f"{'run':<36}{'nimbus s':>10}{'nashpy s':>10}{'nashpy/nimbus':>15}")
    rng = np.random.default_rng(2026)
    for n, rounds in [(3, 1000), (3, 10000), (10, 10000), (30, 2000)]:
        a = rng.integers(0, 10**6, size=(n, n))
        b = rng.integers(0, 10**6, size=(n, n))
        start = [list(rng.integers(1, 4, size=n)), list(rng.integers(1, 4, size=n))]
        ours_t, theirs_t = [], []
        for r in range(REPEATS):
            runs = [
                lambda: nimbus.Game(a, b).dynamics(rounds=rounds, points=2, start=start),
                lambda: list(
                    nashpy.Game(a, b).fictitious_play(
                        iterations=rounds, play_counts=[np.array(s) for s in start]
                    )
                )[-1],
            ]
            order = [0, 1] if r % 2 == 0 else [1, 0]
            res = {k: timed(runs[k]) for k in order}
            ours_t.append(res[0][0])
            theirs_t.append(res[1][0])
            ours, theirs = res[0][1], res[1][1]
        agree = ours.counts == [[int(c) for c in v] for v in theirs]
        o, t = statistics.median(ours_t), statistics.median(theirs_t)
        label = f"fictitious play {n}x{n}, {rounds} rounds"
        print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   counts equal: {agree}")
    for n in [3, 10, 30]:
        a = rng.integers(-5, 6, size=(n, n))
        x0 = rng.dirichlet(np.ones(n))
        x0 = x0 / x0.sum()
        # The start as exact fractions summing to 1: the rounding on the last share.
        shares = [Fraction(float(x)) for x in x0[:-1]]
        shares.append(1 - sum(shares))
        x0 = np.array([float(s) for s in shares])
        times = np.linspace(0, 10, 101)
        ours_t, theirs_t = [], []
        for r in range(REPEATS):
            runs = [
                lambda: nimbus.Game(a, a.T).dynamics(
                    "replicator", time=10, points=101, start=[shares], rest_points=False
                ),
                lambda: nashpy.Game(a, a.T).replicator_dynamics(y0=x0, timepoints=times),
            ]
            order = [0, 1] if r % 2 == 0 else [1, 0]
            res = {k: timed(runs[k]) for k in order}
            ours_t.append(res[0][0])
            theirs_t.append(res[1][0])
            ours, theirs = res[0][1], res[1][1]
        gap = float(np.max(np.abs(np.array(ours.points[-1].profile[0]) - theirs[-1])))
        o, t = statistics.median(ours_t), statistics.median(theirs_t)
        label = f"replicator {n}x{n}, time 10"
        print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   last record apart: {gap:.1e}")

    # nashpy's own calls, the same arguments to both packages: every record returned.
    a = rng.integers(0, 10**6, size=(3, 3))
    b = rng.integers(0, 10**6, size=(3, 3))
    start = [np.array([1, 2, 1]), np.array([2, 1, 1])]
    sym = rng.integers(-5, 6, size=(3, 3))
    y0 = np.array([0.5, 0.3, 0.2])
    times = np.linspace(0, 100, 1000)
    cases = [
        (
            "fictitious_play 3x3, 10^5 iterations",
            lambda g: list(g.fictitious_play(iterations=10**5, play_counts=start))[-1],
            (a, b),
        ),
        (
            "replicator_dynamics 3x3, to t = 100",
            lambda g: g.replicator_dynamics(y0=y0, timepoints=times)[-1],
            (sym, sym.T),
        ),
    ]
    for label, call, (x, y) in cases:
        ours_t, theirs_t = [], []
        for r in range(REPEATS):
            runs = [lambda: call(nimbus.Game(x, y)), lambda: call(nashpy.Game(x, y))]
            order = [0, 1] if r % 2 == 0 else [1, 0]
            res = {k: timed(runs[k]) for k in order}
            ours_t.append(res[0][0])
            theirs_t.append(res[1][0])
            ours, theirs = res[0][1], res[1][1]
        gap = np.max(
            np.abs(
                np.concatenate([np.ravel(v) for v in ours]).astype(float)
                - np.concatenate([np.ravel(v) for v in theirs]).astype(float)
            )
        )
        o, t = statistics.median(ours_t), statistics.median(theirs_t)
        print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   last record apart: {gap:.1e}")


main()
