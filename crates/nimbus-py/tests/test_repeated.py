"""Repeated games from Python: QuantEcon's examples, by Game.repeated and by the RepeatedGame
QuantEcon users know."""

from fractions import Fraction

import pytest

import nimbus


def pd():
    return nimbus.Game([[9, 1], [10, 3]], [[9, 10], [1, 3]])


def test_the_prisoners_dilemma_exactly():
    r = pd().repeated(Fraction(9, 10))
    assert r.exact_vertices
    assert r.vertices == [(3, 3), (Fraction(39, 4), 3), (9, 9), (3, Fraction(39, 4))]
    assert float(r.distance) < 1e-8
    assert r.minmax_pure == (3, 3)


def test_abreu_and_sannikovs_example_as_quantecon_publishes_it():
    g = nimbus.Game(
        [[16, 3, 0], [21, 10, -1], [9, 5, -5]], [[9, 13, 3], [1, 4, 0], [0, -4, -15]]
    )
    hull = nimbus.RepeatedGame(g, 0.3).equilibrium_payoffs()
    published = [
        (7.33770472, 10.9826253),
        (1.12568240, 2.8),
        (7.33770472, 0.0),
        (7.86308964, 0.0),
        (19.7917977, 2.8),
        (15.5630896, 9.1),
    ]
    got = [tuple(p) for p in hull.points[hull.vertices]]
    assert len(got) == 6
    for p in published:
        assert min(abs(p[0] - x) + abs(p[1] - y) for x, y in got) < 1e-6, p


def test_no_pure_equilibrium_raises_as_quantecon_does():
    g = nimbus.Game([[1, -1], [-2, 1]], [[-1, 2], [2, 0]])
    with pytest.raises(ValueError):
        nimbus.RepeatedGame(g, 0.05).equilibrium_payoffs()


def test_bad_discounts_are_refused():
    for d in (0, 1, 1.5, -0.5):
        with pytest.raises(ValueError, match="discount"):
            pd().repeated(d)


def test_the_picture():
    r = pd().repeated(0.9, plot=True)
    assert r.plot.startswith("<svg") and "<polygon" in r.plot


def test_the_hull_answers_as_scipys_convex_hull_does():
    hull = nimbus.RepeatedGame(pd(), 0.9).equilibrium_payoffs()
    assert hull.volume == pytest.approx(40.5)
    # Every vertex satisfies every edge's inequality, and lies on two of them.
    for p in hull.points[hull.vertices]:
        values = hull.equations[:, :2] @ p + hull.equations[:, 2]
        assert (values <= 1e-12).all()
        assert (abs(values) <= 1e-12).sum() == 2
