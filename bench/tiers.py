"""Connect Four strong solutions by the tier solver; run by bench/tiers.sh.

For each board: the tier database written from scratch (time and peak memory from
/usr/bin/time), its counts, the start's value, bytes on disk; on the boards the byte-a-rank
solver can hold, that solver too, for positions per second. Then a cross-check: the start and
random reachable positions answered from the database and by the alpha-beta search
(`nimbus solve connect4:WxH -`, Pons' scores: 0 a draw, positive a win for the side to move).
"""

import json
import os
import random
import shutil
import subprocess
import sys
import time

NIMBUS = sys.argv[1]
BOARDS = sys.argv[2].split()
CHECKS = int(os.environ.get("CHECKS", "2000"))
WORK = os.environ.get("TIERS_DIR", "/tmp/nimbus-tiers-bench")
CORES = os.cpu_count()
# REMOTENESS=1: keep each position's remoteness too (--remoteness).
KEEP = ["--remoteness"] if os.environ.get("REMOTENESS") == "1" else []


def timed(cmd, stdin=None):
    """Runs cmd under /usr/bin/time: its output, seconds and peak memory in KiB."""
    r = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd, input=stdin,
                       capture_output=True, text=True)
    line = [l for l in r.stderr.splitlines() if l.startswith("TIME ")][-1].split()
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {r.stderr}")
    return r.stdout, float(line[1]), int(line[2])


def wins(board, w, h, col, row):
    """Whether the stone at (col, row) completes four of its colour."""
    me = board[col][row]
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            c, r = col + s * dc, row + s * dr
            while 0 <= c < w and 0 <= r < h and r < len(board[c]) and board[c][r] == me:
                n += 1
                c, r = c + s * dc, r + s * dr
        if n >= 4:
            return True
    return False


def random_position(w, h, rng):
    """Moves of a random game stopped before it ends (no four, board not full)."""
    length = rng.randrange(w * h // 3, w * h)
    board = [[] for _ in range(w)]
    moves = []
    for ply in range(length):
        cols = [c for c in range(w) if len(board[c]) < h]
        rng.shuffle(cols)
        for c in cols:
            board[c].append(ply % 2)
            if not wins(board, w, h, c, len(board[c]) - 1):
                moves.append(c + 1)
                break
            board[c].pop()
        else:
            break
    return "".join(map(str, moves))


def main():
    print(f"# {os.uname().nodename}, {CORES} cores, {time.strftime('%Y-%m-%d %H:%M')}")
    rows = []
    for b in BOARDS:
        w, h = map(int, b.split("x"))
        game = f"connect4:{w}x{h}"
        db = os.path.join(WORK, b)
        shutil.rmtree(db, ignore_errors=True)
        os.makedirs(WORK, exist_ok=True)
        out, secs, kib = timed([NIMBUS, "solve", game, "--all", "--db", db, "--json"] + KEEP)
        s = json.loads(out)
        t = s["total"]
        per_core = t["positions"] / secs / CORES
        print(f"\n## {game}: {t['positions']} positions ({t['wins']} won, {t['losses']} lost, "
              f"{t['draws']} drawn for the side to move), start: {s['start']}")
        print(f"tier solver: {secs:.2f} s, peak memory {kib / 1024:.0f} MiB, "
              f"{s['bytes_on_disk']} bytes on disk ({s['bits_per_position']:.2f} bits a position), "
              f"{s['ranks']} ranks, {per_core / 1e6:.2f} M positions/s/core")
        print("positions by stones: " + " ".join(str(c["positions"]) for c in s["tiers"]))
        by_kind = {}
        for f in os.listdir(db):
            kind = f.rsplit(".", 1)[1]
            by_kind[kind] = by_kind.get(kind, 0) + os.path.getsize(os.path.join(db, f))
        print("on disk, bits a position: " + ", ".join(
            f"{ {'bin': 'values', 'reach': 'reachability', 'rem': 'remoteness'}.get(k, k)} "
            f"{8 * v / t['positions']:.2f}" for k, v in sorted(by_kind.items())))
        if s.get("longest_remoteness") is not None:
            print(f"longest remoteness: {s['longest_remoteness']} plies")
        old = None
        if w * h <= 25:
            out, osecs, okib = timed([NIMBUS, "solve", game, "--all", "--max-states",
                                      str(t["positions"]), "--max-memory", str(20 << 30),
                                      "--json"])
            o = json.loads(out)
            assert o["positions"] == t["positions"], (o["positions"], t["positions"])
            old = (osecs, okib, o["positions"] / osecs / CORES, o["longest_remoteness"])
            print(f"byte-a-rank solver: {osecs:.2f} s, peak memory {okib / 1024:.0f} MiB, "
                  f"{old[2] / 1e6:.2f} M positions/s/core, longest remoteness {old[3]}; "
                  f"same counts")
        # The start, by the alpha-beta search.
        out, ssecs, _ = timed([NIMBUS, "solve", game, "--time-limit", "1800", "--json"])
        a = json.loads(out)
        if a["exact"]:
            want = "draw" if a["value"] == 0 else ("win" if a["value"] > 0 else "loss")
            if want != s["start"]:
                raise SystemExit(f"{game} start: tier database {s['start']}, alpha-beta {a['value']}")
            print(f"start by alpha-beta: {a['meaning']} (score {a['value']}, {ssecs:.1f} s): agrees")
        else:
            print(f"start by alpha-beta: not finished within 1800 s")
        # The cross-check against alpha-beta.
        rng = random.Random(w * 100 + h)
        lines = sorted({random_position(w, h, rng) for _ in range(CHECKS)}, key=len)
        text = "\n".join(lines) + "\n"
        qout, qsecs, _ = timed([NIMBUS, "solve", game, "-", "--db", db], stdin=text)
        sout, ssecs, _ = timed([NIMBUS, "solve", game, "-"], stdin=text)
        tier = dict(l.split(" ", 1) for l in qout.splitlines())
        word = {"win": "win for the side to move", "loss": "loss for the side to move",
                "draw": "draw"}
        agree = 0
        for l in sout.splitlines():
            moves, score = l.split()[:2]
            want = "draw" if int(score) == 0 else ("win" if int(score) > 0 else "loss")
            if tier[moves] != word[want]:
                raise SystemExit(f"{game} {moves}: tier database says {tier[moves]}, "
                                 f"alpha-beta {score}")
            agree += 1
        print(f"cross-check: {agree} random positions (of {w * h // 3} to {w * h - 1} stones), "
              f"database and alpha-beta agree on every one (queries {qsecs:.1f} s, "
              f"searches {ssecs:.1f} s)")
        rows.append((game, t["positions"], s["start"], secs, kib, s["bits_per_position"], per_core,
                     old))
    print("\n| board | positions | start | time | peak memory | bits/position on disk | "
          "M positions/s/core | byte-a-rank solver |")
    print("|---|---|---|---|---|---|---|---|")
    for game, n, start, secs, kib, bits, pc, old in rows:
        o = (f"{old[0]:.2f} s, {old[1] / 1024:.0f} MiB, {old[2] / 1e6:.2f} M/s/core"
             if old else "not run: 14-25 bytes a position would not fit in memory")
        print(f"| {game} | {n} | {start} | {secs:.1f} s | {kib / 1024:.0f} MiB | {bits:.2f} | "
              f"{pc / 1e6:.2f} | {o} |")


main()
