"""Two-player games from Python: the built-in games, and a game written as Python functions
that must agree with the built-in tic-tac-toe (5478 positions, a draw)."""

import os
import signal
import subprocess
import sys
import time

import nimbus
import pytest

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def tictactoe():
    def winner(p):
        for a, b, c in LINES:
            if p[a] != "." and p[a] == p[b] == p[c]:
                return p[a]
        return None

    def result(p):
        w = winner(p)
        return 1 if w == "X" else -1 if w == "O" else 0 if "." not in p else None

    def to_move(p):
        return 0 if p.count("X") == p.count("O") else 1

    def moves(p):
        return [i + 1 for i in range(9) if p[i] == "."]

    def play(p, m):
        return p[: m - 1] + ("X" if to_move(p) == 0 else "O") + p[m:]

    return nimbus.two_player("." * 9, to_move, moves, play, result, name="tictactoe.py")


def test_builtin_games():
    assert nimbus.solve("tictactoe").value == 0
    assert nimbus.solve("connect4:5x4", "33").exact
    assert nimbus.solve("nim:3,4,5").value == 1
    assert nimbus.solve("carrot:1,2,3,5").answers


def test_threads_give_the_same_answer():
    one = nimbus.solve("connect4", "3246313")
    two = nimbus.solve("connect4", "3246313", threads=2)
    assert (two.value, two.best_moves, two.pv) == (one.value, one.best_moves, one.pv) == (
        -2, ["3"], one.pv)
    with pytest.raises(ValueError, match="threads"):
        nimbus.solve("connect4", "4", threads=0)


def test_tictactoe_as_python_functions():
    ours = nimbus.solve(tictactoe(), all=True)
    builtin = nimbus.solve("tictactoe", all=True)
    assert ours.positions == builtin.positions == 5478
    assert (ours.wins, ours.losses, ours.draws) == (builtin.wins, builtin.losses, builtin.draws)
    for position in ["", "5", "5 1", "1 2 3", "5 1 9"]:
        a = nimbus.solve(tictactoe(), position)
        b = nimbus.solve("tictactoe", position.replace(" ", ""))
        assert a.value == b.value, position
        assert sorted(a.best_moves) == sorted(b.best_moves), position


def test_a_player_who_moves_twice_gets_a_forced_pass():
    # One player takes 1 or 2 from a heap; taking 2 gives the same player another move.
    game = nimbus.two_player(
        5,
        lambda p: 0,
        lambda n: [k for k in (1, 2) if k <= n],
        lambda n, k: n - k,
        lambda n: 1 if n == 0 else None,
    )
    assert nimbus.solve(game).value == 1


def test_results_out_of_range_are_refused():
    # -2**63 has no negation: it must not pass as a small number.
    for result in (-2**63, 2**63 - 1, -(2**59) + 1):
        game = nimbus.two_player(
            0, lambda p: 0, lambda p: [1] if p == 0 else [], lambda p, m: m,
            lambda p, r=result: r if p == 1 else None,
        )
        with pytest.raises(ValueError, match="results must stay below"):
            nimbus.solve(game, all=True)
    fine = nimbus.two_player(
        0, lambda p: 0, lambda p: [1] if p == 0 else [], lambda p, m: m,
        lambda p: -(2**59) + 2 if p == 1 else None,
    )
    assert nimbus.solve(fine).value == -(2**59) + 2


def test_ctrl_c_raises_keyboard_interrupt_promptly():
    # A test run started in the background by a non-interactive shell inherits SIGINT as
    # ignored, and Python then installs no handler: put Python's own back, as a terminal has it.
    code = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import nimbus, sys\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    nimbus.solve('connect4')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    sent = time.monotonic()
    os.kill(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 3, out
    assert "interrupted" in out
    assert time.monotonic() - sent < 5


def test_strong_solution_saved_and_queried(tmp_path):
    db = str(tmp_path / "c4.db")
    s = nimbus.solve("connect4:4x4", all=True, save=db)
    assert s.positions == 161029 and s.saved == db
    q = nimbus.solve("connect4:4x4", "12", db=db)
    assert q.result == "draw" and q.to_move == "first"


def test_tier_database_with_remoteness(tmp_path):
    db = str(tmp_path / "tiers")
    s = nimbus.solve("connect4:4x4", all=True, db=db, remoteness=True)
    assert s.total["positions"] == 161029 and s.longest_remoteness == 13
    q = nimbus.solve("connect4:4x4", "12", db=db)
    assert q.result == "draw" and len(q.moves) == 4


def test_opening_book_answers_without_a_search(tmp_path):
    path = str(tmp_path / "c54.book")
    b = nimbus.solve("connect4:5x4", book=3, save=path)
    assert b.depth == 3 and b.saved == path and b.positions > b.searched
    q = nimbus.solve("connect4:5x4", "3", db=path, scores=True)
    s = nimbus.solve("connect4:5x4", "3", scores=True)
    assert q.book is True and q.nodes == 0
    assert (q.value, q.best_moves, q.scores) == (s.value, s.best_moves, s.scores)
    with pytest.raises(ValueError, match="Connect Four"):
        nimbus.solve("tictactoe", book=2, save=path)


def test_scores_and_the_solvers_reply():
    r = nimbus.solve("tictactoe", "1", scores=True, reply=True)
    # Against a corner, only the centre holds the draw.
    assert r.reply == "5" and r.position == "1 5"
    assert all(m["value"] == 0 for m in r.scores) and len(r.scores) == 7


def test_floating_point_zero_sum():
    z = nimbus.Game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]).zero_sum(float=True)
    assert abs(z.value) < 1e-9 and abs(z.row_strategy[0] - 1 / 3) < 1e-9


def test_bad_numbers_are_value_errors_not_panics():
    for bad in (float("nan"), float("inf"), -1.0, 0.0, 1e20):
        with pytest.raises(ValueError, match="time_limit"):
            nimbus.solve("connect4", time_limit=bad)
    kuhn = nimbus.tree("kuhn")
    for kwargs, name in [({"reports": 0}, "reports"), ({"target": float("nan")}, "target"),
                         ({"iterations": 0}, "iterations")]:
        with pytest.raises(ValueError, match=name):
            kuhn.cfr(**kwargs)
