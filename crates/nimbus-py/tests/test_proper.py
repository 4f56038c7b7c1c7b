"""Proper equilibria from Python: Myerson's game, and an equilibrium left undecided by a
small work budget, with the note naming the keyword that raises it."""

from nimbus import Game

MYERSON = [[1, 0, -9], [0, 0, -7], [-9, -7, -7]]


def test_myerson_marks():
    r = Game(MYERSON, MYERSON).equilibria(refine="perfect,proper")
    assert r.perfect == [True, True, False]
    assert r.proper == [True, False, False]


def test_undecided_with_a_small_budget():
    r = Game(MYERSON, MYERSON).equilibria(refine="proper", max_work=1000)
    assert r.proper[0] is None and r.proper[2] is False
    assert any("max_work" in n for n in r.notes)
