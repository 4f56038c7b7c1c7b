"""Nimbus's stochastic games against value iteration written with SciPy, as a user without a
solver would write it; run by bench/stochastic.sh.

    python3 bench/stochastic.py path/to/nimbus SIZE...     (SIZE: STATESxACTIONS, as 10x3)

No maintained package solves Shapley's stochastic games (Gambit, nashpy, QuantEcon and
OpenSpiel do not), so the peer is the textbook loop: v <- val(A_s + delta P_s v) with each
stage game's value from scipy.optimize.linprog (HiGHS), until the step r is below
(1 - beta) tol / beta (so the value is within tol). For each size and seed a random game
(payoffs -5..5, each cell going on with probability 3/4 to two random states, discount 9/10;
with one state, each cell going on with 0, 1/4, 1/2 or 3/4, at random)
is written to a file; Nimbus's policy and value iteration (tolerance 1e-9) and the SciPy loop
run in turn, timed from outside (Nimbus including its start), and SciPy's values are checked
to lie within Nimbus's proven bounds (plus SciPy's own tolerance), and within the interval of
the exact root Nimbus gives for a one-state game's irrational value (sizes 1xN).
"""
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

import numpy as np
from scipy.optimize import linprog

SEEDS = [1, 2, 3]
ROUNDS = 3
TOL = 1e-9


def game(states, actions, seed):
    rng = random.Random(seed)
    cells = []
    for s in range(states):
        rows = []
        for i in range(actions):
            row = []
            for j in range(actions):
                if states == 1:
                    # One state: a chance of going on that differs from cell to cell (with
                    # one chance everywhere the value is the matrix game's, scaled).
                    p = Fraction(rng.randrange(4), 4)
                    row.append((rng.randint(-5, 5), [(0, p)] if p else []))
                    continue
                a, b = rng.randrange(states), rng.randrange(states)
                row.append((rng.randint(-5, 5), [(a, Fraction(1, 2)), (b, Fraction(1, 4))]))
            rows.append(row)
        cells.append(rows)
    return cells


def text(cells):
    out = ["discount 9/10"]
    for s, rows in enumerate(cells):
        out.append(f"state s{s}")
        for i, row in enumerate(rows):
            for j, (pay, nxt) in enumerate(row):
                to = ", ".join(f"s{t} {p}" for t, p in nxt)
                out.append(f"  {i + 1} {j + 1}: {pay}" + (f" -> {to}" if nxt else ""))
    return "\n".join(out) + "\n"


def matrix_value(m):
    """The value of the matrix game m (row maximises) by one LP."""
    k, n = m.shape
    # Variables x_1..x_k, v: maximise v s.t. v <= x . m[:, j], sum x = 1, x >= 0.
    c = np.zeros(k + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((n, 1))])
    a_eq = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    r = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0],
                bounds=[(0, None)] * k + [(None, None)], method="highs")
    return -r.fun


def scipy_values(cells, delta=0.9, beta=0.9 * 0.75):
    n = len(cells)
    v = np.zeros(n)
    while True:
        new = np.empty(n)
        for s, rows in enumerate(cells):
            m = np.array([[pay + delta * sum(float(p) * v[t] for t, p in nxt)
                           for pay, nxt in row] for row in rows])
            new[s] = matrix_value(m)
        r = np.max(np.abs(new - v))
        v = new
        if r <= (1 - beta) * TOL / beta:
            return v


def exactness(answer):
    """yes (every value a fraction), a root of degree d (an irrational value given exactly as
    a polynomial's root, in closed form when d = 2), or no."""
    if answer["exact"]:
        return "yes"
    roots = [st["algebraic"] for st in answer["states"]]
    if all(r is not None for r in roots):
        return ", ".join(r["closed_form"] or f"root of degree {len(r['coefficients']) - 1}"
                         for r in roots)
    return "no"


def timed(f):
    t = time.perf_counter()
    out = f()
    return time.perf_counter() - t, out


def main():
    nimbus, sizes = sys.argv[1], sys.argv[2:]
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"{ROUNDS} interleaved rounds, median seconds")
    print(f"{'game':>10} {'seed':>4} {'policy':>9} {'value':>9} {'scipy':>9} "
          f"{'scipy/policy':>12} {'exact':>5}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            states, actions = map(int, size.split("x"))
            for seed in SEEDS:
                cells = game(states, actions, seed)
                path = os.path.join(tmp, f"g{size}-{seed}.ssg")
                with open(path, "w") as f:
                    f.write(text(cells))
                times = {"policy": [], "value": [], "scipy": []}
                answers = {}
                for r in range(ROUNDS):
                    order = ["policy", "value", "scipy"]
                    order = order[r % 3:] + order[:r % 3]
                    for who in order:
                        if who == "scipy":
                            t, out = timed(lambda: scipy_values(cells))
                        else:
                            t, out = timed(lambda: json.loads(subprocess.run(
                                [nimbus, "stochastic", path, "--method", who,
                                 "--tolerance", "1e-9", "--json"],
                                check=True, capture_output=True, text=True).stdout))
                        times[who].append(t)
                        answers[who] = out
                for who in ("policy", "value"):
                    for k, st in enumerate(answers[who]["states"]):
                        lo, hi = Fraction(st["lower"]), Fraction(st["upper"])
                        x = answers["scipy"][k]
                        assert float(lo) - 2 * TOL <= x <= float(hi) + 2 * TOL, (size, seed, who, k)
                    for k, st in enumerate(answers[who]["states"]):
                        root = st["algebraic"]
                        if root is not None:
                            lo, hi = Fraction(root["lower"]), Fraction(root["upper"])
                            x = answers["scipy"][k]
                            assert float(lo) - 2 * TOL <= x <= float(hi) + 2 * TOL, (size, seed)
                med = {k: statistics.median(v) for k, v in times.items()}
                print(f"{size:>10} {seed:>4} {med['policy']:9.3f} {med['value']:9.3f} "
                      f"{med['scipy']:9.3f} {med['scipy'] / med['policy']:12.1f} "
                      f"{exactness(answers['policy']):>5}")


if __name__ == "__main__":
    main()
