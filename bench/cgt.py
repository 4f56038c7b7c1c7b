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


def path(n):
    return n, [(i, i + 1) for i in range(n - 1)]


def cycle(n):
    return n, [(i, (i + 1) % n) for i in range(n)]


def grid(r, c):
    at = lambda i, j: i * c + j  # noqa: E731
    edges = [(at(i, j), at(i, j + 1)) for i in range(r) for j in range(c - 1)]
    edges += [(at(i, j), at(i + 1, j)) for i in range(r - 1) for j in range(c)]
    return r * c, edges


def caterpillar(n):
    # C(n+1, n, n+1): a path of three vertices, n leaves on the middle one, n+1 on each end
    # (cgt-tools' own test: n = 2 is {5, {{8|6*}|0}|-5, {0|{-6*|-8}}} in Snort).
    edges = [(0, 1), (0, 2)]
    k = 3
    for hub, leaves in ((0, n), (1, n + 1), (2, n + 1)):
        edges += [(hub, k + i) for i in range(leaves)]
        k += leaves
    return k, edges


GRAPHS = [("path 8", path(8)), ("path 12", path(12)), ("cycle 10", cycle(10)),
          ("grid 3x3", grid(3, 3)), ("grid 3x4", grid(3, 4)), ("grid 4x4", grid(4, 4)),
          ("caterpillar 2", caterpillar(2)), ("caterpillar 3", caterpillar(3))]


def ours(edges):
    return "'" + "; ".join(f"v{u} v{v}" for u, v in edges) + "'"


def theirs(n, edges):
    return f"{n}:" + ",".join(f"{u}-{v}" for u, v in edges)


for kind in ("snort", "col"):
    ROWS += [(kind, name, (ours(g[1]), theirs(*g))) for name, g in GRAPHS]
# Amazons (x Left, o Right, # burnt), as cgt-tools writes boards; nimbus reads the same.
ROWS += [("amazons", b, (f"'{b}'", b)) for b in
         ["x..#|....|.#.o", "x...|....|...o", "x....|.....|....o", "x...|....|....|...o"]]
# KINDS=snort,col: only those games' rows.
if os.environ.get("KINDS"):
    ROWS = [r for r in ROWS if r[0] in os.environ["KINDS"].split(",")]


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
    mine_times, peer_times = [], []
    mine = peer = None
    mine_pos, peer_pos = pos if isinstance(pos, tuple) else (pos, pos)
    for _ in range(RUNS):
        t, out = run([NIMBUS, "cgt", f"{kind} {mine_pos}", "--json"])
        mine_times.append(t)
        mine = json.loads(out.stdout)
        t, out = run([PEER, kind, peer_pos])
        if t is None:
            peer_times = None
            break
        peer_times.append(t)
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
    t_ours = median(mine_times)
    if peer_times is None:
        print(f"| {kind} | {name} | {t_ours:.3f} | > {TIMEOUT:.0f} | > {TIMEOUT / t_ours:.0f} | "
              f"`{mine['canonical'][:40]}` ({agree}) |")
    else:
        t_theirs = median(peer_times)
        print(f"| {kind} | {name} | {t_ours:.3f} | {t_theirs:.3f} | {t_theirs / t_ours:.1f} | "
              f"`{mine['canonical'][:40]}` ({agree}) |")
    sys.stdout.flush()
