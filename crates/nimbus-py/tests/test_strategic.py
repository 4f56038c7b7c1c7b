"""Strategic games from Python: the shapes nashpy and pygambit users write, exact answers, and
cross-checks against pygambit's exact enumeration and LP and nashpy's vertex enumeration on
seeded random games."""

import os
import pickle
import signal
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest

import nimbus
from conftest import random_bimatrix

F = Fraction


def as_profiles(equilibria):
    return {tuple(tuple(F(p) for p in s) for s in e) for e in equilibria}


def test_prisoners_dilemma_in_every_input_shape():
    a, b = [[3, 0], [5, 1]], [[3, 5], [0, 1]]
    want = {((F(0), F(1)), (F(0), F(1)))}
    for game in (
        nimbus.Game(a, b),
        nimbus.Game(np.array(a), np.array(b)),
        nimbus.Game(np.array(a, dtype=float), np.array(b, dtype=float)),
        nimbus.Game(np.array([[F(x) for x in r] for r in a], dtype=object), np.array(b)),
        nimbus.Game("3 0; 5 1", "3 5; 0 1"),
    ):
        assert as_profiles(game.equilibria().equilibria) == want
        assert set(game.support_enumeration()) == want
        assert set(game.vertex_enumeration()) == want


def test_floats_are_the_decimals_they_print_as():
    g = nimbus.Game([[0.1, 0], [0, 0.2]], [[0.2, 0], [0, 0.1]])
    mixed = [e for e in g.equilibria().equilibria if all(len([p for p in s if p]) == 2 for s in e)]
    assert mixed[0][0] == (F(1, 3), F(2, 3))



def test_probabilities_are_fractions_of_any_size():
    # 1/(N + 1) does not fit a machine word: it takes the binding's other road to a Fraction.
    n = 10**30
    g = nimbus.Game([[n, 0], [0, 1]], [[0, 1], [1, 0]])
    ((rows, cols),) = g.equilibria().equilibria
    assert rows == (F(1, 2), F(1, 2))
    assert cols == (F(1, n + 1), F(n, n + 1))
    assert all(type(p) is F for p in rows + cols)
    assert g.is_equilibrium(rows, cols)

def test_zero_sum_game_from_one_matrix():
    rps = nimbus.Game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    z = rps.zero_sum()
    assert z.value == 0
    assert z.row_strategy == [F(1, 3)] * 3
    assert rps.payoff_matrices[1][0][1] == 1
    (eq,) = rps.equilibria().equilibria
    assert eq.payoffs == (0, 0)


def test_labels_count_from_one_as_on_the_command_line():
    bos = nimbus.Game([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    for k in range(4):
        one = bos.equilibria("lh", label=k + 1).equilibria
        assert len(one) == 1
        assert bos.lemke_howson(initial_dropped_label=k) == tuple(one[0])
    assert bos.equilibria("lh", label=1).equilibria != bos.equilibria("lh", label=2).equilibria
    with pytest.raises(ValueError, match="label 0: labels run from 1 to 4"):
        bos.equilibria("lh", label=0)
    with pytest.raises(ValueError, match="initial_dropped_label=4: labels run from 0 to 3"):
        bos.lemke_howson(initial_dropped_label=4)


def test_errors_name_keyword_arguments_not_flags():
    g = nimbus.Game([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ValueError) as e:
        g.equilibria("vertex", path=True)
    assert 'path asks for the logit path: use it with method="logit"' in str(e.value)
    assert "--" not in str(e.value)


def test_nashpy_methods():
    bos = nimbus.Game([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    assert bos.lemke_howson(initial_dropped_label=0) in set(bos.vertex_enumeration())
    lh = list(bos.lemke_howson_enumeration())
    assert len(lh) == 4 and set(lh) <= set(bos.vertex_enumeration())
    sigma = ((F(2, 3), F(1, 3)), (F(1, 3), F(2, 3)))
    assert bos[sigma] == (F(2, 3), F(2, 3))
    assert bos.is_equilibrium(*sigma)
    assert not bos.is_equilibrium((1, 0), (0, 1))
    assert bos.is_equilibrium((0.667, 0.333), (0.333, 0.667), tolerance=F(1, 100))
    floats = list(bos.vertex_enumeration(dtype=float))
    assert all(isinstance(s, np.ndarray) for e in floats for s in e)


def test_dominance_components_and_verify(root):
    g = nimbus.Game([[3, 0], [5, 1]], [[3, 5], [0, 1]])
    steps = g.dominated()
    assert [s.strategy for s in steps] == ["1", "1"]
    r = g.equilibria(dominance=True)
    assert len(r.eliminated) == 2 and len(r.equilibria) == 1
    cont = nimbus.read_game(root / "examples/continuum.nfg")
    comps = cont.components()
    assert len(comps) == 1 and len(comps[0].equilibria) == 4
    v = cont.verify((1, 0), (1, 0))
    assert v.equilibrium and v.players[0].payoff == 1


def test_read_write_pickle_and_display(root, tmp_path):
    g = nimbus.read_game(root / "data/nfg/8x8.nfg")
    path = tmp_path / "g.nfg"
    g.write(path)
    again = nimbus.read_game(path)
    assert again.payoff_matrices == g.payoff_matrices
    r = g.equilibria()
    assert pickle.loads(pickle.dumps(r)) == r
    assert pickle.loads(pickle.dumps(g)).payoff_matrices == g.payoff_matrices
    assert "<table>" in r._repr_html_() and "<table>" in g._repr_html_()
    assert "Equilibrium" in repr(r)


def test_ctrl_c_stops_a_long_three_player_enumeration():
    # A random 6 x 6 x 6 game (216 profiles, fewer than the two-player "small" bound): its
    # enumeration runs for minutes, and must still stop on Ctrl-C.
    # A test run started in the background by a non-interactive shell inherits SIGINT as
    # ignored, and Python then installs no handler: put Python's own back, as a terminal has it.
    code = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import numpy as np, nimbus, sys\n"
        "rng = np.random.default_rng(7)\n"
        "g = nimbus.Game(*(rng.integers(0, 100, (6, 6, 6)) for _ in range(3)))\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    g.equilibria('enumpoly')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 3, out
    assert "interrupted" in out
    assert time.monotonic() - sent < 5


def test_three_players_from_arrays():
    shape = (2, 2, 2)
    a = np.zeros(shape)
    a[1, 1, 1] = 1
    g = nimbus.Game(a, a, a)
    r = g.equilibria("pure")
    assert r.method == "pure"
    assert ((0, 1), (0, 1), (0, 1)) in {tuple(e) for e in r.equilibria}
    # Every equilibrium by default: here a continuum too (player 1 indifferent when the
    # others play 0), reported as unresolved regions with an exact point in each.
    r = g.equilibria()
    assert r.method == "enumpoly" and r.enumeration.complete


def r_all(root):
    return nimbus.read_game(root / "examples/2x2x2.nfg").equilibria().equilibria


def test_every_equilibrium_of_three_player_games(root):
    g = nimbus.read_game(root / "examples/2x2x2.nfg")
    r = g.equilibria()
    assert r.method == "enumpoly" and len(r.equilibria) == 9
    assert sum(all(0 < p < 1 for s in e for p in s) for e in r.equilibria) == 2
    r = nimbus.read_game(root / "examples/3x3x3.nfg").equilibria(digits=30)
    (c,) = r.enumeration.certified
    assert all(hi - lo < F(1, 10**30) for l, h in zip(c.lower, c.upper) for lo, hi in zip(l, h))
    assert c.regret_bound < F(1, 10**9)
    one = nimbus.nash.logit_solve(nimbus.read_game(root / "examples/2x2x2.nfg"))
    assert len(one.equilibria) == 1 and one.equilibria[0] in r_all(root)
    for solve, name in [(nimbus.nash.simpdiv_solve, "simpdiv"), (nimbus.nash.gnm_solve, "gnm")]:
        one = solve(nimbus.read_game(root / "examples/2x2x2.nfg"))
        assert one.method == name and len(one.equilibria) == 1
        assert one.equilibria[0] in r_all(root)
    traced = nimbus.read_game(root / "examples/2x2x2.nfg").equilibria("logit", path=True)
    points = traced.logit_path
    assert points[0]["lambda"] == 0 and len(points) > 10
    assert all(abs(sum(p) - 1) < 1e-9 for q in points for p in q["profile"])
    assert [q["lambda"] for q in points] == sorted(q["lambda"] for q in points)
    some = nimbus.read_game(root / "examples/3x3x3.nfg").equilibria(max_supports=5)
    assert some.enumeration.examined == 5 and not some.enumeration.complete


def test_pygambit_shaped_module():
    g = nimbus.Game.from_arrays([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    r = nimbus.nash.enummixed_solve(g, rational=True)
    assert r.method == "enummixed" and r.rational and len(r.equilibria) == 3
    (e,) = [e for e in r.equilibria if 0 < e[0][0] < 1]
    assert e["1"]["1"] == F(2, 3) and e.payoff("2") == F(2, 3)
    # Lemke-Howson enumeration, as pygambit's lcp_solve: from the pure equilibria the paths
    # reach the mixed one too.
    lcp = nimbus.nash.lcp_solve(g).equilibria
    assert set(lcp) == set(r.equilibria)
    assert len(nimbus.nash.enumpure_solve(g).equilibria) == 2
    floats = nimbus.nash.enummixed_solve(g, rational=False)
    assert isinstance(floats.equilibria[0][0][0], float)
    lp = nimbus.nash.lp_solve(nimbus.Game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
    assert lp.equilibrium.payoffs == (0, 0)


def test_errors_are_value_errors_with_the_cli_message(root):
    with pytest.raises(ValueError, match="not a number"):
        nimbus.Game("1 x; 2 3", "1 2; 3 4")
    with pytest.raises(ValueError, match="two-player game"):
        nimbus.Game(np.zeros((2, 2, 2)), np.zeros((2, 2, 2)), np.zeros((2, 2, 2))).equilibria(
            "vertex"
        )
    with pytest.raises(ValueError, match="unknown method 'magic'"):
        nimbus.Game([[1]], [[1]]).equilibria("magic")
    with pytest.raises(ValueError):
        nimbus.read_game(root / "examples/bad.rhai")


# --- cross-checks against the tools users compare with --------------------------------------

gbt = pytest.importorskip("pygambit")
nashpy = pytest.importorskip("nashpy")


def gambit_game(a, b):
    make = getattr(gbt, "StrategicGame", None) or gbt.Game
    return make.from_arrays(np.array(a, dtype=object) * 1, np.array(b, dtype=object) * 1)


def gambit_profiles(game, equilibria):
    out = set()
    for e in equilibria:
        out.add(
            tuple(
                tuple(F(str(p)) for _, p in e[player])
                for player in game.players
            )
        )
    return out


@pytest.mark.parametrize("size", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_all_equilibria_equal_pygambit_enummixed(rng, size):
    for _ in range(8):
        a, b = random_bimatrix(rng, *size)
        ours = as_profiles(nimbus.Game(a, b).equilibria("vertex").equilibria)
        g = gambit_game(a, b)
        theirs = gambit_profiles(g, gbt.nash.enummixed_solve(g, rational=True).equilibria)
        assert ours == theirs, (a, b)


def nondegenerate(a, b):
    # Distinct payoffs in every row and column make ties, and so degeneracy, unlikely; the
    # check below is what decides.
    return nimbus.Game(a, b).equilibria("support").notes == []


def test_every_nashpy_equilibrium_is_one_of_ours(rng):
    checked = 0
    while checked < 25:
        a, b = random_bimatrix(rng, 4, 4, 0, 99)
        if not nondegenerate(a, b):
            continue
        ours = [
            np.array([float(p) for s in e for p in s])
            for e in nimbus.Game(a, b).equilibria("vertex").equilibria
        ]
        for sr, sc in nashpy.Game(np.array(a), np.array(b)).vertex_enumeration():
            x = np.concatenate([sr, sc])
            assert any(np.allclose(x, y, atol=1e-9) for y in ours), (a, b, x)
        checked += 1


def test_best_responses_agree_with_nashpy(rng):
    # Probabilities in quarters are exact in floats, so nashpy's float comparison is exact too.
    quarters = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0.5, 0.5, 0), (0.25, 0, 0.75), (0, 0.5, 0.5)]
    seen = set()
    for _ in range(40):
        a, b = random_bimatrix(rng, 3, 3, 0, 3)
        ours, theirs = nimbus.Game(a, b), nashpy.Game(np.array(a), np.array(b))
        for sr in quarters:
            for sc in quarters:
                expected = theirs.is_best_response(np.array(sr), np.array(sc))
                got = ours.is_best_response(sr, sc)
                assert got == tuple(bool(x) for x in expected), (a, b, sr, sc)
                seen.add(got)
    assert seen == {(True, True), (True, False), (False, True), (False, False)}
    # At an equilibrium every player's strategy is a best response, whatever its numbers.
    bos = nimbus.Game([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    assert bos.is_best_response((F(2, 3), F(1, 3)), (F(1, 3), F(2, 3))) == (True, True)


def test_every_pygambit_enumpoly_equilibrium_is_one_of_ours(root):
    """Gambit's enumpoly is floating point and misses equilibria; what it finds must be
    among ours (exact ones, or the centres of our proved boxes)."""
    for name in ("2x2x2.nfg", "3x3x3.nfg"):
        ours = nimbus.nash.enumpoly_solve(nimbus.read_game(root / "examples" / name))
        points = [np.array([float(p) for s in e for p in s]) for e in ours.equilibria]
        g = gbt.read_nfg(str(root / "examples" / name))
        for e in gbt.nash.enumpoly_solve(g).equilibria:
            # pygambit 17: a profile is one list of (strategy, probability) pairs per player.
            x = np.array([float(v) for m in e for _, v in m])
            assert any(np.allclose(x, y, atol=1e-6) for y in points), (name, x)


def test_zero_sum_value_equals_pygambit_lp(rng):
    for _ in range(15):
        m, n = rng.randint(2, 6), rng.randint(2, 6)
        a = [[rng.randint(-9, 9) for _ in range(n)] for _ in range(m)]
        value = nimbus.Game(a).zero_sum().value
        g = gambit_game(a, [[-x for x in r] for r in a])
        r = gbt.nash.lp_solve(g, rational=True)
        eq = r.equilibrium if hasattr(r, "equilibrium") else r.equilibria[0]
        first = list(g.players)[0]
        assert value == F(str(eq.payoffs[first] if hasattr(eq, "payoffs") else eq.payoff(first)))


# -- learning dynamics against nashpy ---------------------------------------------------------


def test_replicator_agrees_with_nashpy():
    """The replicator equation, one population and two, against nashpy's (SciPy's odeint) on
    seeded random games and starting points: the trajectories agree to the integrators'
    tolerance at every record."""
    nashpy = pytest.importorskip("nashpy")
    rng = np.random.default_rng(46)
    for trial in range(6):
        n = int(rng.integers(2, 5))
        a = rng.integers(-5, 6, size=(n, n))
        w = rng.integers(1, 10, size=n)
        start = [F(int(x), int(w.sum())) for x in w]
        times = np.linspace(0, 5, 11)
        ours = nimbus.Game(a, a.T).dynamics("replicator", time=5, points=11, start=[start])
        theirs = nashpy.Game(a, a.T).replicator_dynamics(
            y0=np.array([float(x) for x in start]), timepoints=times
        )
        for p, row in zip(ours.points, theirs):
            assert np.allclose(p.profile[0], row, atol=1e-5), (trial, p.profile, row)
        b = rng.integers(-5, 6, size=(n, n))
        v = rng.integers(1, 10, size=n)
        other = [F(int(x), int(v.sum())) for x in v]
        ours = nimbus.Game(a, b).dynamics(
            "replicator", time=5, points=11, start=[start, other]
        )
        xs, ys = nashpy.Game(a, b).asymmetric_replicator_dynamics(
            x0=np.array([float(x) for x in start]),
            y0=np.array([float(x) for x in other]),
            timepoints=times,
        )
        for p, x, y in zip(ours.points, xs, ys):
            assert np.allclose(p.profile[0], x, atol=1e-5), (trial, p.profile, x)
            assert np.allclose(p.profile[1], y, atol=1e-5), (trial, p.profile, y)


def test_fictitious_play_agrees_with_nashpy():
    """Fictitious play's play counts equal nashpy's round by round, on seeded games whose
    payoffs are drawn from a wide range so that nashpy's random tie-breaking never has a
    choice to make (checked: a run with a tie is not compared)."""
    nashpy = pytest.importorskip("nashpy")
    rng = np.random.default_rng(7)
    compared = 0
    for trial in range(20):
        m, n = (int(x) for x in rng.integers(2, 5, size=2))
        a = rng.integers(0, 10**6, size=(m, n))
        b = rng.integers(0, 10**6, size=(m, n))
        start = [list(rng.integers(1, 4, size=m)), list(rng.integers(1, 4, size=n))]
        rounds = 40
        runs = list(
            nashpy.Game(a, b).fictitious_play(
                iterations=rounds, play_counts=[np.array(s) for s in start]
            )
        )
        # A tie anywhere: nashpy drew, so the runs need not agree.
        tie = False
        for counts in runs[:-1]:
            row = a @ counts[1]
            col = counts[0] @ b
            tie |= (row == row.max()).sum() > 1 or (col == col.max()).sum() > 1
        if tie:
            continue
        compared += 1
        ours = nimbus.Game(a, b).dynamics(rounds=rounds, points=rounds + 1, start=start)
        for k, p in enumerate(ours.points):
            total = [sum(runs[k][0]), sum(runs[k][1])]
            want = [[F(int(c), int(total[i])) for c in runs[k][i]] for i in range(2)]
            assert p.exact == want, (trial, k)
        assert ours.counts == [[int(c) for c in v] for v in runs[-1]]
    assert compared >= 15


def test_nashpy_names_for_the_dynamics():
    """A notebook written for nashpy runs with the import changed: ``fictitious_play``,
    ``replicator_dynamics`` and ``asymmetric_replicator_dynamics`` take nashpy's arguments
    and return what nashpy returns (the same answers: counts equal where nashpy met no tie,
    trajectories within 1e-5)."""
    nashpy = pytest.importorskip("nashpy")
    a = np.array([[3, 0, 7], [5, 1, 2], [0, 4, 4]]) * 1000 + np.array(
        [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    )
    b = np.array([[2, 6, 1], [0, 3, 5], [4, 1, 2]]) * 1000 + np.array(
        [[9, 8, 7], [6, 5, 4], [3, 2, 1]]
    )
    start = [np.array([1, 2, 1]), np.array([2, 1, 1])]
    ours = list(nimbus.Game(a, b).fictitious_play(iterations=30, play_counts=start))
    theirs = list(nashpy.Game(a, b).fictitious_play(iterations=30, play_counts=start))
    assert len(ours) == len(theirs) == 31
    for o, t in zip(ours, theirs):
        assert [list(v) for v in o] == [list(v) for v in t]
    # From no play at all: the first round's counts, whatever the tie rule drew, sum to one.
    first = list(nimbus.Game(a, b).fictitious_play(iterations=3))
    assert [list(v) for v in first[0]] == [[0, 0, 0], [0, 0, 0]]
    assert [int(v.sum()) for v in first[1]] == [1, 1]
    sym = np.array([[0, -1, 2], [2, 0, -1], [-1, 2, 0]])
    times = np.linspace(0, 20, 50)
    y0 = np.array([0.5, 0.3, 0.2])
    ours = nimbus.Game(sym, sym.T).replicator_dynamics(y0=y0, timepoints=times)
    theirs = nashpy.Game(sym, sym.T).replicator_dynamics(y0=y0, timepoints=times)
    assert ours.shape == theirs.shape == (50, 3)
    assert np.allclose(ours, theirs, atol=1e-5)
    default = nimbus.Game(sym).replicator_dynamics()
    assert default.shape == (1000, 3) and np.allclose(default[0], [1 / 3] * 3)
    xs, ys = nimbus.Game(a, b).asymmetric_replicator_dynamics(
        x0=[0.2, 0.3, 0.5], y0=[0.6, 0.2, 0.2], timepoints=np.linspace(0, 1e-3, 5)
    )
    txs, tys = nashpy.Game(a, b).asymmetric_replicator_dynamics(
        x0=np.array([0.2, 0.3, 0.5]), y0=np.array([0.6, 0.2, 0.2]), timepoints=np.linspace(0, 1e-3, 5)
    )
    assert np.allclose(xs, txs, atol=1e-5) and np.allclose(ys, tys, atol=1e-5)


def test_nashpy_names_for_the_new_dynamics():
    """``replicator_dynamics`` with a ``mutation_matrix``, ``stochastic_fictitious_play``,
    ``moran_process`` and ``fixation_probabilities`` take nashpy's arguments and return what
    nashpy returns. The random ones cannot draw nashpy's numbers, so they are checked by what
    does not depend on the draws: the replicator-mutator trajectory to 1e-5; stochastic
    fictitious play's distributions, with no perturbation, against nashpy's own logit reply to
    the counts before each round; every Moran generation one individual replaced, the last a
    single strategy; the exact fixation probabilities against nashpy's estimate."""
    nashpy = pytest.importorskip("nashpy")
    from nashpy.learning.stochastic_fictitious_play import (
        get_distribution_response_to_play_count,
    )

    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    q = np.array([[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.0, 0.2, 0.8]])
    times = np.linspace(0, 15, 40)
    y0 = np.array([0.6, 0.3, 0.1])
    ours = nimbus.Game(rps, rps.T).replicator_dynamics(y0=y0, timepoints=times, mutation_matrix=q)
    theirs = nashpy.Game(rps, rps.T).replicator_dynamics(y0=y0, timepoints=times, mutation_matrix=q)
    assert np.allclose(ours, theirs, atol=1e-5)

    a = np.array([[3, 1], [0, 2]])
    b = np.array([[2, 0], [1, 3]])
    run = list(
        nimbus.Game(a, b).stochastic_fictitious_play(
            iterations=25, etha=0.7, epsilon_bar=0, seed=4
        )
    )
    theirs = list(nashpy.Game(a, b).stochastic_fictitious_play(iterations=2))
    assert len(run) == 26 and run[0][1] == (None, None) and theirs[0][1] == (None, None)
    for (before, _), (counts, dist) in zip(run, run[1:]):
        assert [int(v.sum()) for v in counts] == [int(v.sum()) + 1 for v in before]
        row = get_distribution_response_to_play_count(a, before[1], epsilon_bar=0, etha=0.7)
        col = get_distribution_response_to_play_count(b.T, before[0], epsilon_bar=0, etha=0.7)
        assert np.allclose(dist[0], row, atol=1e-12) and np.allclose(dist[1], col, atol=1e-12)
    again = list(
        nimbus.Game(a, b).stochastic_fictitious_play(iterations=25, etha=0.7, epsilon_bar=0, seed=4)
    )
    assert all((x == y).all() for r, s in zip(run, again) for x, y in zip(r[0], s[0]))

    hawk = np.array([[1, 4], [2, 3]])
    game = nimbus.Game(hawk, hawk.T)
    population = np.array([0, 0, 0, 0, 1, 1])
    generations = list(game.moran_process(population, seed=3))
    before = population
    for g in generations:
        assert g.shape == population.shape and (g != before).sum() <= 1
        before = g
    assert len(set(generations[-1])) == 1
    exact = game.fixation_probabilities(population, repetitions=1)
    np.random.seed(0)
    estimate = nashpy.Game(hawk, hawk.T).fixation_probabilities(population, repetitions=600)
    assert set(exact) == set(estimate) == {(0,) * 6, (1,) * 6}
    for state, p in exact.items():
        assert abs(p - estimate[state]) < 4 * (p * (1 - p) / 600) ** 0.5 + 1e-9
    three = nimbus.Game(np.ones((3, 3), dtype=int)).fixation_probabilities(
        [0, 1, 1, 2, 2, 2], repetitions=3000, seed=1
    )
    for s, share in [(0, 1 / 6), (1, 2 / 6), (2, 3 / 6)]:
        assert abs(three[(s,) * 6] - share) < 4 * (share * (1 - share) / 3000) ** 0.5


def test_the_new_rules_from_dynamics():
    """``Game.dynamics`` runs every rule: best response's ending, regret matching's exact
    regret and joint play (Fractions), the Moran process's exact fixation, the logit dynamics,
    and two populations of a 2 x 2 game with their rest points and the square's picture."""
    pennies = nimbus.Game([[1, -1], [-1, 1]])
    br = pennies.dynamics("best-response", rounds=10, points=2)
    assert br.ending["kind"] == "cycle" and br.ending["length"] == 4
    rm = nimbus.Game([[6, 2], [7, 0]], [[6, 7], [2, 0]]).dynamics(
        "regret-matching", rounds=2000, points=2, seed=2
    )
    assert isinstance(rm.points[-1].regret, Fraction)
    assert sum(sum(r) for r in rm.joint) == 1
    mo = nimbus.Game([[1, 1], [1, 1]]).dynamics("moran", population=[2, 3], points=2)
    assert [f["exact"] for f in mo.fixation] == [Fraction(2, 5), Fraction(3, 5)]
    lo = nimbus.Game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]).dynamics(
        "logit", time=30, points=2, noise=0.5, start=[["1/2", "1/4", "1/4"]]
    )
    assert np.allclose(lo.points[-1].profile[0], [1 / 3] * 3, atol=1e-6)
    bos = nimbus.Game([[2, 0], [0, 1]], [[1, 0], [0, 2]])
    two = bos.dynamics("replicator", two_populations=True, points=2, plot=True)
    inner = two.rest_points[-1]
    assert inner["shares"] == [Fraction(2, 3), Fraction(1, 3)]
    assert inner["second"] == [Fraction(1, 3), Fraction(2, 3)]
    assert inner["stability"] == "unstable" and inner["nash"]
    assert "<svg" in two.plot
    with pytest.raises(ValueError, match="population"):
        bos.dynamics("moran")


def test_correlated_payoffs_picture():
    """``correlated(plot=True)`` draws a two-player game's equilibria's payoffs; three players
    are refused."""
    chicken = nimbus.Game([[6, 2], [7, 0]], [[6, 7], [2, 0]])
    a = chicken.correlated(plot=True)
    assert a.value == Fraction(21, 2) and a.plot.count('fill="#d62728"') == 3
    assert a.get("vertices") is None
    three = nimbus.Game(np.zeros((2, 2, 2), dtype=int), np.zeros((2, 2, 2), dtype=int), np.zeros((2, 2, 2), dtype=int))
    with pytest.raises(ValueError, match="two-player"):
        three.correlated(plot=True)


def test_moran_on_a_graph():
    """``dynamics("moran", graph=...)``: simulated on the graph (a ring), a bad graph refused."""
    hawk = nimbus.Game([[1, 4], [2, 3]], [[1, 2], [4, 3]])
    ring = [(i, (i + 1) % 6) for i in range(6)]
    a = hawk.dynamics("moran", population=[5, 1], graph=ring, runs=200, points=2, seed=3)
    assert all(f.get("exact") is None for f in a.fixation)
    assert abs(sum(f["probability"] for f in a.fixation) - 1) < 1e-12
    with pytest.raises(ValueError, match="not connected"):
        hawk.dynamics("moran", population=[2, 2], graph=[(0, 1), (2, 3)])
