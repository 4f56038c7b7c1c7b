"""Game trees: Nimbus against pygambit on the same .efg files; run by bench/efg.sh.

    python3 bench/efg.py path/to/nimbus FOLDER

FOLDER holds kuhn.efg and leduc.efg (written by `nimbus efg NAME --to efg`) and Gambit's
example trees (crates/nimbus/tests/data/gambit). Two comparisons:

- lp: the exact sequence-form LP of two-player zero-sum trees, `nimbus nash FILE --method lp`
  against pygambit's `nash.lp_solve(g, rational=True)`; the values must be equal.
- enum: every extreme equilibrium of a two-player tree, `nimbus nash FILE --method enum`
  (vertex enumeration of the sequence-form polyhedra) against pygambit's
  `nash.enummixed_solve(g, rational=True)` (on the reduced strategic form). The two lists
  differ by design: the reduced form's also holds mixed strategies with the same realisation
  plan as others, and mixes of extreme plans. So they agree when every payoff vector Nimbus
  reports is one of pygambit's, and when Nimbus's vertex enumeration of the reduced normal form
  it prints with `nimbus efg FILE --to nfg` finds exactly pygambit's payoff vectors.

Nimbus is timed as the wall time of its whole process; pygambit as the time of reading the
file and solving, inside an already started Python (its start and import are not counted).
The two alternate, and each figure is the median of REPEATS runs (one run past 10 s).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

REPEATS = 5
TIMEOUT = float(os.environ.get("EFG_TIMEOUT", "900"))

GAMBIT = r"""
import json, sys, time
import pygambit as gbt
method, path = sys.argv[1], sys.argv[2]
t = time.perf_counter()
g = gbt.read_efg(path)
if method == "lp":
    r = gbt.nash.lp_solve(g, rational=True)
    out = {"value": str(list(r.equilibrium.payoffs)[0][1])}
else:
    r = gbt.nash.enummixed_solve(g, rational=True)
    # pygambit can list an equilibrium twice (contrib/games/work3.efg): count each once.
    distinct = {e._repr_latex_(): e for e in r.equilibria}.values()
    out = {"payoffs": sorted(
        [str(x) for _, x in e.payoffs] for e in distinct)}
out["seconds"] = time.perf_counter() - t
print(json.dumps(out))
"""


def nimbus_run(binary, args):
    t = time.perf_counter()
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=TIMEOUT)
    took = time.perf_counter() - t
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip())
    return took, p.stdout


def gambit_run(method, path):
    p = subprocess.run([sys.executable, "-c", GAMBIT, method, path],
                       capture_output=True, text=True, timeout=TIMEOUT)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip().splitlines()[-1])
    out = json.loads(p.stdout)
    return out.pop("seconds"), out


def frac(s):
    return Fraction(s)


def compare(binary, method, path, name):
    ours, theirs = [], []
    answer = expected = None
    for k in range(REPEATS):
        first_ours = k % 2 == 0
        for who in ((0, 1) if first_ours else (1, 0)):
            if who == 0:
                args = ["nash", path, "--method", method, "--json"]
                took, text = nimbus_run(binary, args)
                ours.append(took)
                answer = json.loads(text)
            else:
                took, expected = gambit_run(method, path)
                theirs.append(took)
        if max(ours[-1], theirs[-1]) > 10:
            break
    if method == "lp":
        agree = frac(answer["value"]) == frac(expected["value"])
        what = f"value {answer['value']}"
    else:
        with tempfile.NamedTemporaryFile("w", suffix=".nfg", delete=False) as f:
            f.write(subprocess.run([binary, "efg", path, "--to", "nfg"], capture_output=True,
                                   text=True, check=True).stdout)
        _, text = nimbus_run(binary, ["nash", f.name, "--method", "vertex", "--json"])
        os.unlink(f.name)
        mine = sorted([str(frac(x)) for x in e["payoffs"]] for e in json.loads(text)["equilibria"])
        gam = sorted([str(frac(x)) for x in p] for p in expected["payoffs"])
        tree = [[str(frac(x)) for x in e["payoffs"]] for e in answer["equilibria"]]
        agree = mine == gam and all(p in gam for p in tree)
        what = f"{len(tree)} equilibria (pygambit {len(gam)}, reduced form {len(mine)})"
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"{method:5} {name:34} nimbus {a:9.4f} s  pygambit {b:9.4f} s  ratio {a / b:7.3f}  "
          f"{what}  {'agree' if agree else 'DIFFER'}", flush=True)


def trees(folder):
    out = []
    for root, _, files in os.walk(folder):
        out += [os.path.join(root, f) for f in files if f.endswith(".efg")]
    return sorted(out)


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    for name in ("kuhn", "leduc"):
        try:
            compare(binary, "lp", os.path.join(folder, name + ".efg"), name)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"lp    {name:34} skipped: {str(e)[:100]}", flush=True)
    for path in trees(os.path.join(folder, "gambit")):
        info = subprocess.run([binary, "efg", path, "--json"], capture_output=True, text=True)
        if info.returncode != 0:
            continue
        d = json.loads(info.stdout)
        if len(d["players"]) != 2 or "no_perfect_recall" in d:
            continue
        name = os.path.relpath(path, os.path.join(folder, "gambit"))
        method = "lp" if "constant_sum" in d else "enum"
        try:
            compare(binary, method, path, name[-34:])
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"{method:5} {name[-34:]:34} skipped: {str(e)[:100]}", flush=True)


main()
