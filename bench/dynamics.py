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
        sums = ""
        if "replicator" in label:
            # The shares must sum to 1: where the average payoff is negative nashpy's
            # trajectory leaves the simplex (its errors grow as e^t).
            sums = f", sums {float(np.sum(ours)):.6f} and {float(np.sum(theirs)):.6f}"
        print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   last record apart: {gap:.1e}{sums}")
    others(rng)


def interleaved(ours, theirs):
    """Medians of REPEATS interleaved runs of two calls, and their last answers."""
    ours_t, theirs_t = [], []
    for r in range(REPEATS):
        runs = [ours, theirs]
        order = [0, 1] if r % 2 == 0 else [1, 0]
        res = {k: timed(runs[k]) for k in order}
        ours_t.append(res[0][0])
        theirs_t.append(res[1][0])
        answers = (res[0][1], res[1][1])
    return statistics.median(ours_t), statistics.median(theirs_t), answers


def others(rng):
    """The rules nashpy draws at random (stochastic fictitious play, the Moran process) and
    the replicator-mutator equation, by nashpy's names with the same arguments. Random runs
    cannot agree draw by draw: what is compared is what does not depend on the draws (the
    mutator's trajectory; fixation probabilities within the estimate's error; the play counts'
    totals)."""
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    q = np.array([[0.9, 0.05, 0.05], [0.05, 0.9, 0.05], [0.05, 0.05, 0.9]])
    y0 = np.array([0.5, 0.3, 0.2])
    times = np.linspace(0, 100, 1000)
    o, t, (ours, theirs) = interleaved(
        lambda: nimbus.Game(rps, rps.T).replicator_dynamics(y0=y0, timepoints=times, mutation_matrix=q),
        lambda: nashpy.Game(rps, rps.T).replicator_dynamics(y0=y0, timepoints=times, mutation_matrix=q),
    )
    gap = float(np.max(np.abs(ours[-1] - theirs[-1])))
    label = "replicator-mutator 3x3, to t = 100"
    print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   last record apart: {gap:.1e}")
    a = rng.integers(0, 5, size=(3, 3))
    b = rng.integers(0, 5, size=(3, 3))
    for iterations in [10**4, 10**5]:
        o, t, (ours, theirs) = interleaved(
            lambda: list(nimbus.Game(a, b).stochastic_fictitious_play(iterations=iterations, seed=1))[-1],
            lambda: list(nashpy.Game(a, b).stochastic_fictitious_play(iterations=iterations))[-1],
        )
        same = [int(v.sum()) for v in ours[0]] == [int(v.sum()) for v in theirs[0]]
        label = f"stochastic_fictitious_play, {iterations}"
        print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   totals equal: {same}")
    hawk = np.array([[1, 4], [2, 3]])
    for n, reps in [(10, 1000), (30, 200)]:
        population = np.array([0] * (n - 1) + [1])
        o, t, (ours, theirs) = interleaved(
            lambda: nimbus.Game(hawk, hawk.T).fixation_probabilities(population, repetitions=reps, seed=1),
            lambda: nashpy.Game(hawk, hawk.T).fixation_probabilities(population, repetitions=reps),
        )
        p = ours.get((1,) * n, 0.0)
        e = theirs.get((1,) * n, 0.0)
        within = abs(p - e) <= 4 * (p * (1 - p) / reps) ** 0.5 + 1e-9
        label = f"fixation_probabilities N={n}, {reps}"
        print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   exact {p:.4f}, estimate {e:.4f}: {within}")
    three = np.array([[2, 1, 3], [3, 2, 1], [1, 3, 2]])
    population = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    o, t, (ours, theirs) = interleaved(
        lambda: nimbus.Game(three, three.T).fixation_probabilities(population, repetitions=1000, seed=1),
        lambda: nashpy.Game(three, three.T).fixation_probabilities(population, repetitions=1000),
    )
    gap = max(abs(ours.get(k, 0) - theirs.get(k, 0)) for k in set(ours) | set(theirs))
    label = "fixation_probabilities 3 kinds, 1000"
    print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   estimates apart: {gap:.3f}")
    o, t, (ours, theirs) = interleaved(
        lambda: list(nimbus.Game(hawk, hawk.T).moran_process(np.array([0] * 15 + [1] * 15), seed=2)),
        lambda: list(nashpy.Game(hawk, hawk.T).moran_process(np.array([0] * 15 + [1] * 15))),
    )
    label = "moran_process N=30, one run"
    print(f"{label:<36}{o:>10.4f}{t:>10.4f}{t / o:>15.1f}   generations {len(ours)} and {len(theirs)}")


main()
