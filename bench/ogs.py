"""Nimbus's nim-sequences against ogsolve's, one game and size at a time; run by bench/ogs.sh.

    python3 bench/ogs.py path/to/nimbus path/to/ogsolve EXPONENT...

Each run is timed from the outside as wall-clock time of the whole process, both programs
printing every value; ogsolve runs with each of its methods rc and rc2 (its best is the
reference), interleaved with nimbus's run; when nimbus takes under 10 s, OGS_REPEAT rounds
(default 3; twice as many and one more under 1 s) are run and the least time of each program
kept. The values are compared, and the
first difference printed if any. Games ogsolve cannot express (Grundy's game) are timed for nimbus
alone. An ogsolve run past OGS_TIMEOUT seconds is stopped, and larger sizes of that game
and method are skipped.
"""
import json
import os
import platform
import subprocess
import sys
import time

GAMES = [
    ("0.6", "octal 0.6", "0.6"),
    ("0.16", "octal 0.16", "0.16"),
    ("0.56", "octal 0.56", "0.56"),
    ("4.007", "octal 4.007", "4.007"),
    ("0.207 (RC2's game)", "octal 0.207", "0.207"),
    ("Kayles (0.77)", "kayles", "0.77"),
    ("Dawson's Kayles (0.07)", "dawson", "0.07"),
    ("Grundy's game", "grundy-game", None),
]
TIMEOUT = float(os.environ.get("OGS_TIMEOUT", "600"))
REPEAT = int(os.environ.get("OGS_REPEAT", "3"))
# OGS_GAMES=0.6,4.007 runs only the games whose names start so.
ONLY = [g for g in os.environ.get("OGS_GAMES", "").split(",") if g]


def timed(cmd, timeout=None):
    t = time.perf_counter()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                             timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        return None, None
    return time.perf_counter() - t, out


def nimbus_values(nimbus, rule, n):
    t, out = timed([nimbus, "sequence", rule, "--upto", str(n), "--json",
                    "--max-work", str(10**14)])
    return t, json.loads(out)["values"]


def ogs_values(ogsolve, code, method, n):
    t, out = timed([ogsolve, code, "-m", method, "-n", str(n), "-p"], TIMEOUT)
    if t is None:
        return None, None
    for line in out.splitlines():
        if line.strip().startswith("nimbers:"):
            return t, [int(w) for w in line.split()[1:]]
    raise RuntimeError(f"no values in ogsolve's output for {code}")


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"G({i}): {x} against {y}"
    return None if len(a) == len(b) else f"lengths {len(a)} and {len(b)}"


def main():
    nimbus, ogsolve = sys.argv[1], sys.argv[2]
    exps = [int(e) for e in " ".join(sys.argv[3:]).split()]
    print(f"# {platform.node()}, {os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}")
    print("| game | n | nimbus | ogs rc | ogs rc2 | nimbus / best ogs | same values |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    too_slow = set()
    for e in exps:
        n = 2 ** e
        for name, rule, code in GAMES:
            if ONLY and not any(name.split()[0] == g for g in ONLY):
                continue
            t_nimbus, ours = nimbus_values(nimbus, rule, n)
            times, same = {}, []
            # Short runs are repeated, interleaved, and the least time of each kept: on this
            # shared machine one run of a fraction of a second can take half as long again,
            # and a stall of the machine weighs most on the shortest runs, so those under a
            # second get more rounds.
            rounds = 1 if t_nimbus >= 10 else REPEAT if t_nimbus >= 1 else 2 * REPEAT + 1
            for r in range(rounds):
                if r > 0:
                    t_nimbus = min(t_nimbus, nimbus_values(nimbus, rule, n)[0])
                for method in ["rc", "rc2"]:
                    if code is None or (code, method) in too_slow:
                        continue
                    t, theirs = ogs_values(ogsolve, code, method, n)
                    if t is None:
                        too_slow.add((code, method))
                        times[method] = None
                        continue
                    times[method] = min(t, times.get(method) or t)
                    if r == 0:
                        diff = first_difference(ours, theirs)
                        same.append("yes" if diff is None else f"NO ({diff})")
            def show(m):
                if code is None:
                    return "cannot express"
                if m not in times:
                    return "skipped"
                return f"> {TIMEOUT:.0f} s" if times[m] is None else f"{times[m]:.2f} s"
            done = [t for t in times.values() if t is not None]
            if done:
                ratio = f"{t_nimbus / min(done):.3f}"
            elif times:
                # Every ogsolve run was stopped: the ratio is at most this.
                ratio = f"< {t_nimbus / TIMEOUT:.4f}"
            else:
                ratio = "-"
            print(f"| {name} | 2^{e} | {t_nimbus:.2f} s | {show('rc')} | {show('rc2')} | "
                  f"{ratio} | {', '.join(sorted(set(same))) or '-'} |", flush=True)


main()
