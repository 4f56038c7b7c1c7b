"""Times `nimbus cgt` against cgt-tools' driver on the same positions (see bench/cgt.sh)."""
import json
import os
import platform
import subprocess
import sys
import time

NIMBUS, PEER = sys.argv[1], sys.argv[2]
RUNS = int(os.environ.get("RUNS", "3"))
TIMEOUT = float(os.environ.get("CGT_TIMEOUT", "60"))


def rect(r, c):
    return "|".join(["." * c] * r)


ROWS = [("domineering", f"{r}x{c}", rect(r, c)) for r, c in
        [(2, 2), (3, 3), (2, 6), (3, 4), (4, 4), (3, 6), (4, 5), (3, 8), (5, 5), (4, 6), (3, 9)]]
if os.environ.get("BIG"):
    ROWS += [("domineering", "5x6", rect(5, 6)), ("domineering", "6x5", rect(6, 5))]
ROWS += [("toads", f"T^{n}.F^{n}", "T" * n + "." + "F" * n) for n in range(3, 7)]
ROWS += [("toads", f"T^{n}..F^{n}", "T" * n + ".." + "F" * n) for n in range(3, 6)]


def run(cmd):
    t0 = time.perf_counter()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, None
    return time.perf_counter() - t0, out


def nimbus_value(text):
    out = subprocess.run([NIMBUS, "cgt", "--json", "--", text], capture_output=True, text=True,
                         check=True)
    v = json.loads(out.stdout)
    return v["canonical"], v["temperature"]


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2]


print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}; "
      f"runs {RUNS} interleaved, median wall seconds; the peer stopped at {TIMEOUT:.0f} s")
print(f"date: {time.strftime('%Y-%m-%d')}")
print("| game | position | nimbus | cgt-tools | cgt-tools / nimbus | value (agree) |")
print("| --- | --- | --- | --- | --- | --- |")
for kind, name, pos in ROWS:
    ours, theirs = [], []
    mine = peer = None
    for _ in range(RUNS):
        t, out = run([NIMBUS, "cgt", f"{kind} {pos}", "--json"])
        ours.append(t)
        mine = json.loads(out.stdout)
        t, out = run([PEER, kind, pos])
        if t is None:
            theirs = None
            break
        theirs.append(t)
        peer = out.stdout.strip().split("\t")
    agree = "peer did not finish"
    if peer is not None:
        # The peer's form read back by nimbus must be the very same canonical form.
        canon, _ = nimbus_value(peer[0])
        if canon != mine["canonical"]:
            print(f"DIFFERENT: {kind} {pos}: nimbus {mine['canonical']}, cgt-tools {peer[0]}")
            sys.exit(1)
        if peer[1] != mine["temperature"]:
            print(f"DIFFERENT temperature: {kind} {pos}: {mine['temperature']} vs {peer[1]}")
            sys.exit(1)
        agree = "yes"
    t_ours = median(ours)
    if theirs is None:
        print(f"| {kind} | {name} | {t_ours:.3f} | > {TIMEOUT:.0f} | > {TIMEOUT / t_ours:.0f} | "
              f"`{mine['canonical'][:40]}` ({agree}) |")
    else:
        t_theirs = median(theirs)
        print(f"| {kind} | {name} | {t_ours:.3f} | {t_theirs:.3f} | {t_theirs / t_ours:.1f} | "
              f"`{mine['canonical'][:40]}` ({agree}) |")
    sys.stdout.flush()
