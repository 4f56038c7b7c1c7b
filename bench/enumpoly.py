"""Every equilibrium of n-player games: nimbus nash (enumpoly) against pygambit's
enumpoly_solve, on seeded random games with payoffs 0..99, run alternately in one session;
then one equilibrium by the logit path, the global Newton method and simplicial subdivision
(nimbus nash --method logit, gnm, simpdiv against logit_solve, gnm_solve, simpdiv_solve) on
larger games.

For each game: the time of each (Nimbus as the `nimbus nash` process, start-up included, and
through its Python package inside Python, as pygambit is timed; medians of 25 runs on the
small games; in the one-equilibrium tables the process once, the Python call the median of 5,
pygambit once), how many equilibria each found, how many of Gambit's are
among Nimbus's (within 1e-6), and how many of Nimbus's Gambit missed. Nimbus's irrational
equilibria are boxes proved to hold one equilibrium each; Gambit's support events say where it
gave up (its budget of rectangles exceeded).
Usage: python bench/enumpoly.py NIMBUS_BINARY TMPDIR [TIMEOUT]   (ONLY=enumpoly, logit, gnm or
simpdiv: that table alone)
"""
import json, os, subprocess, sys, time

nimbus, tmp = sys.argv[1], sys.argv[2]
timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 600


def lcg(s):
    s = (s * 6364136223846793005 + 1442695040888963407) % 2**64
    return s, s >> 33


def nfg(shape, seed):
    """Payoffs 0..99, profile by profile (the first player fastest), player by player."""
    s, vals, count = seed, [], 1
    for m in shape:
        count *= m
    for _ in range(count):
        for _ in shape:
            s, v = lcg(s)
            vals.append(str(v % 100))
    players = " ".join(f'"P{i}"' for i in range(len(shape)))
    return (f'NFG 1 R "random {shape} seed {seed}" {{ {players} }} '
            f'{{ {" ".join(map(str, shape))} }}\n' + " ".join(vals) + "\n")


GAMBIT = r"""
import json, sys, time, pygambit as gbt
g = gbt.read_nfg(sys.argv[1])
times = []
for _ in range(int(sys.argv[2])):
    events = []
    t = time.perf_counter()
    r = gbt.nash.enumpoly_solve(g, event_callback=lambda e: events.append(type(e).__name__))
    times.append(time.perf_counter() - t)
t = sorted(times)[len(times) // 2]
# pygambit 17: a profile is one list of (strategy, probability) pairs per player.
eqs = [[float(v) for m in p for _, v in m] for p in r.equilibria]
print(json.dumps({"time": t, "equilibria": eqs,
                  "gave_up": events.count("EnumPolyBudgetExceededSupportEvent"),
                  "singular": events.count("EnumPolySingularSupportEvent")}))
"""


# The same enumeration through Nimbus's Python package, timed inside Python as pygambit's is
# (no process start in either figure).
NIMBUS_PY = r"""
import json, sys, time, nimbus
g = nimbus.read_game(sys.argv[1])
times = []
for _ in range(int(sys.argv[2])):
    t = time.perf_counter()
    r = nimbus.nash.enumpoly_solve(g)
    times.append(time.perf_counter() - t)
print(json.dumps({"time": sorted(times)[len(times) // 2], "count": len(r.equilibria)}))
"""


def run_nimbus_py(path, reps):
    try:
        out = subprocess.run([sys.executable, "-c", NIMBUS_PY, path, str(reps)],
                             capture_output=True, text=True, timeout=timeout * reps, check=True)
        return json.loads(out.stdout)
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
        return None


def run_gambit(path, reps=1):
    try:
        out = subprocess.run([sys.executable, "-c", GAMBIT, path, str(reps)], capture_output=True,
                             text=True, timeout=timeout, check=True)
        return json.loads(out.stdout)
    except subprocess.TimeoutExpired:
        return None


def run_nimbus(path):
    t = time.perf_counter()
    try:
        out = subprocess.run([nimbus, "nash", path, "--json"], capture_output=True, text=True,
                             timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    t = time.perf_counter() - t
    a = json.loads(out.stdout)
    frac = lambda x: (lambda p: p[0] / p[1])(
        [float(v) for v in (x.split("/") + ["1"])[:2]])
    pts = [[frac(x) for p in e["profile"] for x in p] for e in a["equilibria"]]
    e = a.get("enumeration") or {}
    for c in e.get("certified", []):
        pts.append([float(x) for p in c["decimals"] for x in p])
    bound = max([frac(c["regret_bound"]) for c in e.get("certified", [])], default=0.0)
    return {"time": t, "equilibria": pts, "certified": len(e.get("certified", [])),
            "unresolved": len(e.get("unresolved", [])), "complete": e.get("complete"),
            "bound": bound}


def close(a, b):
    return max(abs(x - y) for x, y in zip(a, b)) < 1e-6


if os.environ.get("ONLY", "enumpoly") == "enumpoly":
    print(f"{'game':<16} {'nimbus s':>9} {'in py s':>9} {'gambit s':>9} {'ratio':>7} {'py ratio':>8} "
          f"{'N eq':>5} {'(irr)':>5} {'G eq':>5} {'G in N':>6} {'N-only':>6} {'G gave up':>9} "
          f"{'max regret bound':>16}")
for shape in [] if os.environ.get("ONLY", "enumpoly") != "enumpoly" else ([2, 2, 2], [3, 3, 3], [2, 2, 2, 2, 2], [4, 4, 4], [5, 5, 3]):
    for seed in range(3):
        path = f"{tmp}/g{'x'.join(map(str, shape))}_{seed}.nfg"
        with open(path, "w") as f:
            f.write(nfg(shape, seed))
        # Alternate which runs first, so drifting load on a shared machine hits both; the
        # in-Python figures are medians of 25 runs where one run is short.
        reps = 25 if sum(shape) <= 10 else 1
        if seed % 2 == 0:
            n, p, g = run_nimbus(path), run_nimbus_py(path, reps), run_gambit(path, reps)
        else:
            g, p, n = run_gambit(path, reps), run_nimbus_py(path, reps), run_nimbus(path)
        name = f"{'x'.join(map(str, shape))} #{seed}"
        if n is None or g is None:
            print(f"{name:<16} nimbus {'timeout' if n is None else round(n['time'], 3)} "
                  f"gambit {'timeout' if g is None else round(g['time'], 3)}")
            continue
        g_in_n = sum(any(close(x, y) for y in n["equilibria"]) for x in g["equilibria"])
        n_only = sum(not any(close(x, y) for y in g["equilibria"]) for x in n["equilibria"])
        tp = p["time"] if p else float("nan")
        # Six decimals: the small games take tens of microseconds inside Python.
        print(f"{name:<16} {n['time']:>9.4f} {tp:>9.6f} {g['time']:>9.6f} "
              f"{n['time'] / g['time']:>7.2f} {tp / g['time']:>8.3f} "
              f"{len(n['equilibria']):>5} {n['certified']:>5} {len(g['equilibria']):>5} "
              f"{g_in_n:>6} {n_only:>6} {g['gave_up']:>9} {n['bound']:>16.1e}"
              + ("" if n["complete"] and not n["unresolved"] else "  (nimbus: incomplete)"),
              flush=True)

# One equilibrium, on larger games: Nimbus's (the end of its path solved exactly on its support)
# against pygambit's (floating point for logit_solve; rational arithmetic for simpdiv_solve, from
# the profile of first strategies, stopping at a regret of 10^-6 of the payoff range; its regret
# as pygambit computes it; gnm_solve may return several, "same point" is any of them).
# pygambit's runs have a time limit of their own.
GAMBIT_ONE = r"""
import json, sys, time, pygambit as gbt
g = gbt.read_nfg(sys.argv[1])
t = time.perf_counter()
if sys.argv[2] == "logit":
    es = [gbt.nash.logit_solve(g).equilibrium]
elif sys.argv[2] == "gnm":
    es = gbt.nash.gnm_solve(g).equilibria
else:
    es = [gbt.nash.simpdiv_solve(g.mixed_strategy_profile(rational=True)).equilibrium]
t = time.perf_counter() - t
print(json.dumps({"time": t, "points": [[float(v) for m in e for _, v in m] for e in es],
                  "regret": max(float(e.max_regret()) for e in es)}))
"""


# Nimbus's one-equilibrium methods inside Python, as pygambit's are timed: the median of
# `reps` calls, the game read once.
NIMBUS_ONE_PY = r"""
import json, sys, time, nimbus
g = nimbus.read_game(sys.argv[1])
solve = getattr(nimbus.nash, sys.argv[2] + "_solve")
times = []
for _ in range(int(sys.argv[3])):
    t = time.perf_counter()
    solve(g)
    times.append(time.perf_counter() - t)
print(json.dumps({"time": sorted(times)[len(times) // 2]}))
"""


def one_table(method, shapes, gambit_timeout, reps=5):
    print()
    print(f"{method:<16} {'nimbus s':>9} {'in py s':>9} {'gambit s':>9} {'ratio':>7} "
          f"{'py ratio':>8} {'nimbus answer':>14} {'gambit regret':>13} {'same point':>10}")
    for shape in shapes:
        for seed in range(3):
            path = f"{tmp}/{method}{'x'.join(map(str, shape))}_{seed}.nfg"
            with open(path, "w") as f:
                f.write(nfg(shape, seed))

            def ours():
                t = time.perf_counter()
                out = subprocess.run([nimbus, "nash", path, "--method", method, "--json"],
                                     capture_output=True, text=True, timeout=timeout)
                # A refusal (exit 2) is an answer too: one JSON object with the error.
                return time.perf_counter() - t, json.loads(out.stdout)

            def theirs():
                try:
                    out = subprocess.run([sys.executable, "-c", GAMBIT_ONE, path, method],
                                         capture_output=True, text=True,
                                         timeout=gambit_timeout, check=True)
                    return json.loads(out.stdout)
                except subprocess.TimeoutExpired:
                    return None
                except subprocess.CalledProcessError as e:
                    return {"failed": e.stderr.strip().splitlines()[-1][:60]}

            def ours_in_python():
                try:
                    out = subprocess.run(
                        [sys.executable, "-c", NIMBUS_ONE_PY, path, method, str(reps)],
                        capture_output=True, text=True, timeout=timeout * reps, check=True)
                    return json.loads(out.stdout)["time"]
                except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
                    return None

            if seed % 2 == 0:
                (tn, a), tp, g = ours(), ours_in_python(), theirs()
            else:
                g = theirs()
                tn, a = ours()
                tp = ours_in_python()
            tp_s = "-" if tp is None else f"{tp:.4f}"
            frac = lambda x: (lambda p: p[0] / p[1])(
                [float(v) for v in (x.split("/") + ["1"])[:2]])
            if "error" in a or "equilibria" not in a:
                kind, point = "error", None
            elif a["equilibria"]:
                kind, point = "exact", [frac(x) for p in a["equilibria"][0]["profile"] for x in p]
            elif a["enumeration"]["certified"]:
                c = a["enumeration"]["certified"][0]
                kind, point = "certified", [float(x) for p in c["decimals"] for x in p]
            else:
                kind, point = "none", None
            name = "x".join(map(str, shape)) + " #" + str(seed)
            if g is None:
                print(f"{name:<16} {tn:>9.3f} {tp_s:>9} {'> ' + str(int(gambit_timeout)):>9} "
                      f"{'< ' + format(tn / gambit_timeout, '.4f'):>7} {'-':>8} {kind:>14} "
                      f"{'-':>13} {'-':>10}", flush=True)
                continue
            if "failed" in g:
                print(f"{name:<16} {tn:>9.3f} {tp_s:>9} {'failed':>9} {'-':>7} {'-':>8} "
                      f"{kind:>14} {'-':>13} {'-':>10}  (pygambit: {g['failed']})", flush=True)
                continue
            same = point is not None and any(
                max(abs(x - y) for x, y in zip(point, q)) < 1e-4 for q in g["points"])
            py_ratio = "-" if tp is None else f"{tp / g['time']:.2f}"
            print(f"{name:<16} {tn:>9.3f} {tp_s:>9} {g['time']:>9.3f} {tn / g['time']:>7.2f} "
                  f"{py_ratio:>8} {kind:>14} {g['regret']:>13.1e} {str(same):>10}", flush=True)


only = os.environ.get("ONLY")  # enumpoly, logit, gnm or simpdiv: that table alone
if not only or only == "logit":
    one_table("logit", ([6, 6, 6], [8, 8, 8]), timeout)
if not only or only == "gnm":
    one_table("gnm", ([6, 6, 6], [8, 8, 8]), timeout)
if not only or only == "simpdiv":
    one_table("simpdiv", ([3, 3, 3], [4, 4, 4], [6, 6, 6], [8, 8, 8]),
              float(os.environ.get("SIMPDIV_TIMEOUT", "120")))
