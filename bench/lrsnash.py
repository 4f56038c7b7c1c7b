"""Nimbus's vertex enumeration against lrsnash, one game at a time; run by bench/lrsnash.sh.

    python3 bench/lrsnash.py path/to/nimbus[,path/to/other/nimbus] SIZE...

Each game is solved by both programs in turn (which goes first alternates), each run timed
from the outside as wall-clock time of the whole process, and the two sets of equilibria are
compared as exact fractions. Games that both solve in under QUICK seconds are timed as the
median of REPEATS interleaved runs. A second nimbus binary (the plain `cargo build --release`
one, beside the distributed build) is timed in the same rounds, in a column of its own.
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


# Games whose runs both take less than QUICK seconds are timed as the median of REPEATS runs.
QUICK = 0.2
REPEATS = 101


def seeded(size, seed):
    """The game bench/games.py writes for SIZE and SEED."""
    rng = random.Random(seed * 1000 + size)
    a = [[rng.randrange(100) for _ in range(size)] for _ in range(size)]
    b = [[rng.randrange(100) for _ in range(size)] for _ in range(size)]
    return a, b


def nfg_payoffs(path, m, n):
    """The two m x n payoff matrices of a two-player .nfg file in payoff form (the first
    player's strategy changes fastest)."""
    body = open(path).read().rpartition("}")[2]
    nums = [int(x) for x in body.split()]
    a = [[nums[2 * (j * m + i)] for j in range(n)] for i in range(m)]
    b = [[nums[2 * (j * m + i) + 1] for j in range(n)] for i in range(m)]
    return a, b


def write_games(a, b, folder, name):
    m, n = len(a), len(a[0])
    nfg = os.path.join(folder, name + ".nfg")
    with open(nfg, "w") as f:
        f.write(f'NFG 1 R "{name}" {{ "1" "2" }} {{ {m} {n} }}\n')
        f.write(" ".join(f"{a[i][j]} {b[i][j]}" for j in range(n) for i in range(m)) + "\n")
    lrs = os.path.join(folder, name + ".lrs")
    with open(lrs, "w") as f:
        f.write(f"{m} {n}\n\n")
        f.write("\n".join(" ".join(map(str, r)) for r in a) + "\n\n")
        f.write("\n".join(" ".join(map(str, r)) for r in b) + "\n")
    return nfg, lrs


def run(cmd):
    # Output to a file, read after the clock stops: reading a pipe while the program runs
    # added Python's own 0.3-0.4 ms to both programs' times, which pulls the ratio of runs of
    # a few milliseconds towards 1.
    with tempfile.TemporaryFile() as f:
        t = time.perf_counter()
        subprocess.run(cmd, stdout=f, check=True)
        elapsed = time.perf_counter() - t
        f.seek(0)
        return elapsed, f.read().decode()


def nimbus_set(out):
    return {
        tuple(tuple(Fraction(p) for p in s) for s in e["profile"])
        for e in json.loads(out)["equilibria"]
    }


def lrs_set(out, m, n):
    """lrsnash prints, per group, lines `2 y... payoff` and `1 x... payoff`; every x of a group
    goes with every y of it (a degenerate game's convex pieces)."""
    eqs, xs, ys = set(), [], []

    def flush():
        for x in xs:
            for y in ys:
                eqs.add((x, y))
        xs.clear()
        ys.clear()

    for line in out.splitlines():
        words = line.split()
        if not words:
            flush()
            continue
        if words[0] == "1" and len(words) == m + 2:
            xs.append(tuple(Fraction(w) for w in words[1:m + 1]))
        elif words[0] == "2" and len(words) == n + 2:
            ys.append(tuple(Fraction(w) for w in words[1:n + 1]))
    flush()
    return eqs


def compare(nimbus, a, b, folder, name, flip):
    nfg, lrs = write_games(a, b, folder, name)
    runs = [("nimbus", [nimbus[0], "nash", nfg, "--method", "vertex", "--json"]),
            ("lrs", ["lrsnash", lrs])]
    if len(nimbus) > 1:
        runs.append(("other", [nimbus[1], "nash", nfg, "--method", "vertex", "--json"]))
    if flip:
        runs.reverse()
    times, sets = {}, {}
    for who, cmd in runs:
        times[who], out = run(cmd)
        sets[who] = lrs_set(out, len(a), len(a[0])) if who == "lrs" else nimbus_set(out)
    if max(times.values()) < QUICK:
        # A run of a few milliseconds is mostly process start and the machine's noise: take
        # the median of REPEATS interleaved rounds instead of one.
        samples = {who: [times[who]] for who in times}
        for _ in range(REPEATS - 1):
            for who, cmd in runs:
                samples[who].append(run(cmd)[0])
        times = {who: statistics.median(ts) for who, ts in samples.items()}
    same = "yes" if sets["nimbus"] == sets["lrs"] == sets.get("other", sets["lrs"]) else "NO"
    ratio = times["nimbus"] / times["lrs"]
    other = ""
    if "other" in times:
        other = f" {times['other']:.4f} s ({times['other'] / times['lrs']:.2f}) |"
    print(f"| {name} | {times['nimbus']:.4f} s | {times['lrs']:.4f} s | {ratio:.2f} |{other} "
          f"{len(sets['nimbus'])} | {len(sets['lrs'])} | {same} |", flush=True)
    return ratio


def main():
    nimbus, sizes = sys.argv[1].split(","), [int(s) for s in " ".join(sys.argv[2:]).split()]
    seeds = [int(s) for s in os.environ.get("SEEDS", "1 2 3").split()]
    lrs_version = subprocess.run(["lrsnash", "/dev/null"], capture_output=True, text=True)
    print(f"# {platform.node()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}")
    print(f"# {(lrs_version.stdout + lrs_version.stderr).splitlines()[0:1]}")
    other = " nimbus, `cargo build --release` (/ lrsnash) |" if len(nimbus) > 1 else ""
    print(f"| game | nimbus | lrsnash | nimbus / lrsnash |{other} equilibria (nimbus) | "
          "equilibria (lrsnash) | same set |")
    print("| --- | --- | --- | --- |" + (" --- |" if other else "") + " --- | --- | --- |")
    here = os.path.dirname(os.path.abspath(__file__))
    with tempfile.TemporaryDirectory() as folder:
        a, b = nfg_payoffs(os.path.join(here, "..", "data", "nfg", "stengel.nfg"), 6, 6)
        compare(nimbus, a, b, folder, "von Stengel 6x6", False)
        k = 0
        for size in sizes:
            for seed in seeds:
                a, b = seeded(size, seed)
                compare(nimbus, a, b, folder, f"{size}x{size} seed {seed}", k % 2 == 1)
                k += 1


main()
