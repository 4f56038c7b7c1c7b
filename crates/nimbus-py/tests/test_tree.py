"""Game trees from Python: Kuhn poker, Gambit's files, against pygambit where it answers."""

from fractions import Fraction
import os
import pickle

import pytest

import nimbus

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
EXAMPLES = os.path.join(ROOT, "examples")
GAMBIT = os.path.join(ROOT, "crates", "nimbus", "tests", "data", "gambit")


def test_kuhn_value_and_strategies():
    t = nimbus.tree("kuhn")
    a = t.nash()
    assert a.method == "lp"
    assert a.value == Fraction(-1, 18)
    (e,) = a.equilibria
    assert e.payoffs == [Fraction(-1, 18), Fraction(1, 18)]
    for row in e.behaviour:
        assert sum(row) == 1
    info = t.describe()
    assert [p.sequences for p in info.players] == [13, 13]
    assert pickle.loads(pickle.dumps(t)).write() == t.write()


def test_read_game_reads_trees_and_strategic_games():
    t = nimbus.read_game(os.path.join(EXAMPLES, "trust.efg"))
    assert isinstance(t, nimbus.Tree)
    assert isinstance(nimbus.read_game(os.path.join(EXAMPLES, "pd.nfg")), nimbus.Game)
    found = t.nash(method="vertex")
    assert [Fraction(1, 2), Fraction(1, 2)] in [e.behaviour[1] for e in found.equilibria]
    g = t.reduced()
    assert g.players == ["Buyer", "Seller"]


def test_bad_tree_is_a_value_error(tmp_path):
    p = tmp_path / "bad.efg"
    p.write_text('EFG 2 R "" { "A" } ""\nc "" 1 "" { "a" 1/2 "b" 1/3 } 0\n')
    with pytest.raises(ValueError, match="line 2, column 11"):
        nimbus.read_game(str(p))


def test_value_agrees_with_pygambit():
    gbt = pytest.importorskip("pygambit")
    path = os.path.join(GAMBIT, "tests", "test_games", "zerosum_efg_from_sequence_form_STOC94_paper.efg")
    ours = nimbus.read_game(path).nash(method="lp")
    g = gbt.read_efg(path)
    theirs = gbt.nash.lp_solve(g, rational=True)
    value = theirs.equilibrium.payoffs["1"]
    assert ours.value == Fraction(str(value))


def test_cfr_on_kuhn():
    r = nimbus.tree("kuhn").cfr(iterations=2000)
    assert float(r.exploitability) < 1e-3
    assert r.iterations == 2000
    assert abs(r.payoffs[0] + 1 / 18) < 1e-3
    assert all(abs(sum(row) - 1) < 1e-9 for row in r.average)


def test_tree_drawing(tmp_path):
    t = nimbus.read_game(os.path.join(EXAMPLES, "trust.efg"))
    svg = t.svg(method="enum")
    assert svg.startswith("<svg") and "Honor" in svg
    path = tmp_path / "trust.svg"
    assert t.svg(str(path)) is None
    assert path.read_text().startswith("<svg")
    with pytest.raises(ValueError):
        t.svg(method="magic")


def test_cfr_checkpoint(tmp_path):
    t = nimbus.tree("kuhn")
    path = str(tmp_path / "kuhn.json")
    whole = t.cfr(iterations=200, reports=2)
    t.cfr(iterations=80, reports=2, checkpoint=path)
    resumed = t.cfr(iterations=200, reports=2, checkpoint=path)
    assert resumed.iterations == 200
    assert resumed.exploitability == whole.exploitability


def test_cfr_external_sampling():
    t = nimbus.tree("kuhn")
    a = t.cfr(iterations=20000, sampling="external", seed=3, reports=2)
    assert (a.sampling.kind, a.sampling.seed) == ("external", 3)
    assert float(a.exploitability) < 0.1
    with pytest.raises(ValueError):
        t.cfr(sampling="outcome")


def test_sequence_form_methods():
    kuhn = nimbus.tree("kuhn")
    a = kuhn.nash(method="lcp", covering=3)
    assert a.method == "lcp"
    assert a.equilibria[0].payoffs[0] == Fraction(-1, 18)
    job = nimbus.read_game(os.path.join(EXAMPLES, "job-market.efg"))
    e = job.nash()
    assert e.method == "enum" and len(e.equilibria) == 3
    spe = nimbus.read_game(os.path.join(EXAMPLES, "selten-horse.efg")).nash(method="spe")
    assert len(spe.equilibria) == 2


def test_normal_form_perfect_marks_on_a_tree():
    # The entry game: staying out against a threat to fight (wholly or half) rests on a
    # weakly dominated strategy; only the equilibrium where the entrant comes in is perfect.
    entry = nimbus.read_game(os.path.join(EXAMPLES, "entry.efg"))
    a = entry.nash(method="enum", refine="perfect")
    assert a.perfect == [False, False, True]
    assert a.equilibria[2].payoffs == [1, 1]
    with pytest.raises(ValueError, match="strategic-form games"):
        entry.nash(refine="ess")


def test_sequential_marks_come_with_beliefs():
    # Bob's two sets each hold an L node and an R node: trembles give them one belief, which
    # (Out; a, x) would need apart.
    game = nimbus.read_game(os.path.join(EXAMPLES, "consistency.efg"))
    a = game.nash(refine="sequential")
    assert a.sequential == [False, True, True]
    assert "beliefs" not in a.equilibria[0]
    assert a.equilibria[1].beliefs[1] == [Fraction(3, 5), Fraction(2, 5)]
    assert a.equilibria[1].beliefs[1] == a.equilibria[1].beliefs[2]
    assert a.infosets[2]["node_labels"] == ["L a", "R a"]
    qp = game.nash(method="quasi-perfect", refine="sequential")
    assert qp.sequential == [True]
