"""Nimbus from Python against nashpy and pygambit, in one process, runs interleaved.

1. All equilibria of seeded random bimatrix games (payoffs 0..99): nimbus' vertex enumeration
   (exact), nashpy's vertex_enumeration (floats), pygambit's enummixed_solve exact and float.
2. The binding's overhead: a Python call of Game.equilibria() against the same work timed
   inside Rust (api::nash::solve and its JSON), on a 2 x 2 and a 10 x 10 game.
3. The subtraction game {1,3,4} to 10^5 as a Python function, as a Rhai script and as the
   Rust ruleset.

Run by bench/python.sh, which builds the wheel and installs the peers.
"""

import platform
import statistics
import sys
import time

import numpy as np

import nimbus

try:
    import nashpy
    import pygambit as gbt
except ImportError as e:  # pragma: no cover
    sys.exit(f"bench/python.py needs nashpy and pygambit: {e}")

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
# nashpy needs over a minute for one 10 x 10 game and grows about twentyfold per two
# strategies: past this many seconds a run is stopped and reported as a lower bound.
NASHPY_CAP = float(sys.argv[2]) if len(sys.argv) > 2 else 900.0


def seeded(n, seed):
    rng = np.random.RandomState(seed)
    return rng.randint(0, 100, size=(n, n)), rng.randint(0, 100, size=(n, n))


def timed(f):
    t = time.perf_counter()
    out = f()
    return time.perf_counter() - t, out


def nashpy_capped(a, b, cap):
    """nashpy's vertex enumeration in a child process, stopped after `cap` seconds: the time
    and the number of equilibria, or (None, None) when it did not finish."""
    import multiprocessing as mp

    def work(q, a, b):
        t, eqs = timed(lambda: list(nashpy.Game(a, b).vertex_enumeration()))
        q.put((t, len(eqs)))

    q = mp.Queue()
    p = mp.get_context("fork").Process(target=work, args=(q, a, b))
    p.start()
    p.join(cap)
    if p.is_alive():
        p.terminate()
        p.join()
        return None, None
    return q.get()


def gambit(a, b):
    make = getattr(gbt, "StrategicGame", None) or gbt.Game
    return make.from_arrays(a.astype(object) * 1, b.astype(object) * 1)


def equilibria_bench():
    print(f"## all equilibria of seeded random games (median of {ROUNDS} interleaved rounds; "
          f"nashpy once for 10 x 10 and 12 x 12, stopped after {NASHPY_CAP:.0f} s)")
    print("| size | nimbus (exact) | nashpy vertex_enumeration | pygambit enummixed exact | "
          "pygambit enummixed float | equilibria | nashpy / nimbus | gambit exact / nimbus |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in (8, 10, 12):
        a, b = seeded(n, 1000 + n)
        times = {k: [] for k in ("nimbus", "nashpy", "gexact", "gfloat")}
        counts = {}
        for r in range(ROUNDS):
            t, eqs = timed(lambda: list(nimbus.Game(a, b).vertex_enumeration()))
            times["nimbus"].append(t)
            counts["nimbus"] = len(eqs)
            # nashpy's slow runs are taken once (the first round), under the cap.
            if r == 0 or n <= 8:
                t, c = nashpy_capped(a, b, NASHPY_CAP)
                times["nashpy"].append(t if t is not None else float("inf"))
                counts["nashpy"] = c
            g = gambit(a, b)
            t, r = timed(lambda: gbt.nash.enummixed_solve(g, rational=True))
            times["gexact"].append(t)
            counts["gexact"] = len(r.equilibria)
            t, r = timed(lambda: gbt.nash.enummixed_solve(g, rational=False))
            times["gfloat"].append(t)
        m = {k: statistics.median(v) for k, v in times.items()}
        if m["nashpy"] == float("inf"):
            nashpy_time = f"> {NASHPY_CAP:.0f} s (stopped)"
            nashpy_ratio = f"> {NASHPY_CAP / m['nimbus']:.0f}x"
        else:
            nashpy_time = f"{m['nashpy'] * 1e3:.1f} ms"
            nashpy_ratio = f"{m['nashpy'] / m['nimbus']:.0f}x"
        print(f"| {n} x {n} | {m['nimbus'] * 1e3:.1f} ms | {nashpy_time} | "
              f"{m['gexact'] * 1e3:.1f} ms | {m['gfloat'] * 1e3:.1f} ms | "
              f"{counts['nimbus']} (nashpy {counts['nashpy']}, gambit {counts['gexact']}) | "
              f"{nashpy_ratio} | {m['gexact'] / m['nimbus']:.1f}x |", flush=True)


def overhead_bench():
    print()
    print("## binding overhead: Game.equilibria() from Python against the same work in Rust")
    print("Batches of calls alternate between Python and Rust; the fastest batch of each is the")
    print("least disturbed by the machine's other work (timeit's rule), the median is shown too.")
    print()
    print("| game | batches x calls | Python per call (min / median) | Rust per call (min / median) "
          "| overhead per call (min / median) |")
    print("| --- | --- | --- | --- | --- |")
    bos = nimbus.Game([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    a, b = seeded(10, 1010)
    g10 = nimbus.Game(a, b)
    for name, game, method, batches, reps in (
        ("2 x 2", bos, "auto", 300, 200),
        ("10 x 10", g10, "vertex", 30, 2),
    ):
        py, rust = [], []
        for _ in range(batches):
            t0 = time.perf_counter()
            for _ in range(reps):
                game.equilibria(method)
            py.append((time.perf_counter() - t0) / reps)
            rust.append(game._native._time_nash(method, reps))
        pm, rm = min(py), min(rust)
        pd, rd = statistics.median(py), statistics.median(rust)
        print(f"| {name} | {batches} x {reps} | {pm * 1e6:.1f} / {pd * 1e6:.1f} µs | "
              f"{rm * 1e6:.1f} / {rd * 1e6:.1f} µs | {(pm - rm) * 1e6:.1f} / "
              f"{(pd - rd) * 1e6:.1f} µs |", flush=True)


def callback_bench():
    print()
    print("## subtraction game {1,3,4}, G(0..=10^5)")
    print("| as | time | values equal |")
    print("| --- | --- | --- |")
    python = nimbus.heap_game(lambda n: [n - k for k in (1, 3, 4) if k <= n], name="sub134")
    runs = {"Python function (nimbus.heap_game)": lambda: nimbus.sequence(python, upto=10**5),
            "Rhai script (examples/take134.rhai)":
                lambda: nimbus.sequence("script:examples/take134.rhai", upto=10**5),
            "Rust ruleset (subtract{1,3,4})":
                lambda: nimbus.sequence("subtract{1,3,4}", upto=10**5)}
    times = {k: [] for k in runs}
    values = {}
    for _ in range(ROUNDS):
        for k, f in runs.items():
            t, s = timed(f)
            times[k].append(t)
            values[k] = s.values
    ref = values["Rust ruleset (subtract{1,3,4})"]
    for k in runs:
        print(f"| {k} | {statistics.median(times[k]) * 1e3:.1f} ms | {values[k] == ref} |")


if __name__ == "__main__":
    print(f"python {platform.python_version()}, nashpy {nashpy.__version__}, "
          f"pygambit {gbt.__version__}, numpy {np.__version__}")
    import os

    parts = os.environ.get("PARTS", "overhead,callbacks,equilibria").split(",")
    for part in parts:
        {"overhead": overhead_bench, "callbacks": callback_bench,
         "equilibria": equilibria_bench}[part]()
