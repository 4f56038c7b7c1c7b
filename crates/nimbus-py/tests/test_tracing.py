"""The tracing procedure from Python: the same answers as the command line, priors given as
Fractions, ints, floats or numpy arrays, bad priors refused with the library's reason."""

from fractions import Fraction

import numpy as np
import pytest

import nimbus


def test_the_prior_selects_between_two_strict_equilibria():
    g = nimbus.Game([[3, 0], [0, 2]], [[3, 0], [0, 2]])
    r = g.tracing()
    assert r.method == "tracing"
    assert r.tracing.prior == ((Fraction(1, 2), Fraction(1, 2)),) * 2
    assert r.equilibria[0].payoffs == (3, 3)
    leaning = g.tracing([[Fraction(1, 5), Fraction(4, 5)], np.array([0.2, 0.8])])
    assert leaning.equilibria[0].payoffs == (2, 2)
    assert leaning.tracing.start == [1, 1]
    assert leaning.tracing.prior[1] == (Fraction(1, 5), Fraction(4, 5))


def test_select_is_the_same_request():
    g = nimbus.Game([[1, -1], [-1, 1]])
    r = g.equilibria(select="tracing:1/3,2/3,1/4,3/4")
    assert tuple(r.equilibria[0]) == ((Fraction(1, 2),) * 2,) * 2
    assert r.tracing.steps >= 2


def test_risk_dominance_picks_the_hare_in_the_stag_hunt():
    g = nimbus.Game([[9, 0], [8, 7]], [[9, 8], [0, 7]])
    r = g.equilibria(select="risk-dominance")
    assert r.method == "risk-dominance"
    assert tuple(r.equilibria[0]) == ((0, 1), (0, 1))
    assert "bicentric prior (1/8 7/8; 1/8 7/8)" in r.notes[0]
    with pytest.raises(ValueError, match="takes no prior"):
        g.equilibria(select="risk-dominance:1/2,1/2,1/2,1/2")


def test_three_players():
    a = np.zeros((2, 2, 2), dtype=int)
    a[0, 0, 0] = a[1, 1, 1] = 1
    g = nimbus.Game(a, a, a)
    r = g.tracing([[0.7, 0.3], [0.6, 0.4], [0.8, 0.2]])
    assert tuple(r.equilibria[0]) == ((1, 0), (1, 0), (1, 0))


@pytest.mark.parametrize(
    "prior, reason",
    [
        ([[1, 0, 0], [1, 0]], "the prior has 5 probabilities"),
        ([[0.5, 0.5], [0.5, 0.6]], "sums to 11/10, not 1"),
        ([[1.5, -0.5], [1, 0]], "negative probability -1/2"),
        ([[1, 0], [2, 0]], "above 1"),
        ([[float("nan"), 1], [1, 0]], "not a probability"),
    ],
)
def test_bad_priors_are_refused(prior, reason):
    g = nimbus.Game([[3, 0], [0, 2]], [[3, 0], [0, 2]])
    with pytest.raises(ValueError, match=reason):
        g.tracing(prior)


def test_a_method_and_a_selection_do_not_mix():
    g = nimbus.Game([[3, 0], [0, 2]], [[3, 0], [0, 2]])
    with pytest.raises(ValueError, match="not both"):
        g.equilibria(method="vertex", select="tracing")


def test_a_tree_from_the_centroid():
    r = nimbus.tree("kuhn").nash(method="tracing")
    assert r.method == "tracing"
    assert list(r.equilibria[0].payoffs) == [Fraction(-1, 18), Fraction(1, 18)]


def test_a_tree_from_a_prior():
    t = nimbus.tree("kuhn")
    r = t.nash(method="tracing", prior=[[0.25, 0.75]] * 12)
    assert list(r.equilibria[0].payoffs) == [Fraction(-1, 18), Fraction(1, 18)]
    assert any("completely mixed" in n for n in r.notes)
    with pytest.raises(ValueError, match="the prior has 2 probabilities"):
        t.nash(method="tracing", prior=[[1, 0]])
    with pytest.raises(ValueError, match="for the tracing procedure"):
        t.nash(method="lcp", prior=[[1, 0]])


def test_a_quasi_perfect_equilibrium_of_a_tree():
    t = nimbus.tree("kuhn")
    r = t.nash(method="quasi-perfect")
    assert r.method == "quasi-perfect"
    # With the king, player 1 calls a bet after checking, though play never gets there.
    kcb = [s.name for s in r.infosets].index("Kcb")
    assert r.infosets[kcb].actions == ["fold", "call"]
    assert r.equilibria[0].behaviour[kcb] == [0, 1]
