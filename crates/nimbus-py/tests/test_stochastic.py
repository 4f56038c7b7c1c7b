"""Stochastic games from Python: the same answers as the command line, exact numbers as
Fractions, and errors as ValueError."""

import math
import pathlib
from fractions import Fraction

import pytest

import nimbus

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples"


def test_the_big_match_is_exact():
    s = nimbus.stochastic(file=EXAMPLES / "big-match.ssg")
    assert s.exact
    match = s.states[0]
    assert match.name == "match"
    assert match.value == Fraction(1)
    assert match.row_strategy == [Fraction(2, 3), Fraction(1, 3)]
    assert match.column_strategy == [Fraction(1, 2), Fraction(1, 2)]
    assert s.discount == Fraction(1, 2)


def test_an_irrational_value_is_bracketed_by_both_methods():
    text = (EXAMPLES / "quadratic.ssg").read_text()
    root = math.sqrt(21) - 3
    for method in ("policy", "value"):
        s = nimbus.stochastic(text=text, method=method, tolerance=Fraction(1, 10**14))
        st = s.states[0]
        assert not s.exact and st.value is None
        assert st.upper - st.lower <= Fraction(1, 10**14)
        # Exactly: the bounds sit either side of the root of v^2 + 6v - 12.
        assert st.lower ** 2 + 6 * st.lower - 12 <= 0 <= st.upper ** 2 + 6 * st.upper - 12
        assert abs(st.approximate - root) < 1e-14
        assert st.row_guarantee <= st.lower and st.upper <= st.column_guarantee
        # And exactly: the root of that polynomial, in closed form.
        x = st.algebraic
        assert x.closed_form == "-3 + sqrt(21)"
        assert x.polynomial == "v^2 + 6v - 12"
        assert x.coefficients == [-12, 6, 1]
        assert st.lower <= x.lower < x.upper <= st.upper
        f = lambda v: sum(c * v**k for k, c in enumerate(x.coefficients))
        assert f(x.lower) < 0 <= f(x.upper)


def test_an_exact_value_has_no_polynomial():
    assert nimbus.stochastic(file=EXAMPLES / "big-match.ssg").states[0].algebraic is None


@pytest.mark.parametrize(
    "kwargs, says",
    [
        (dict(text="state a\n 1 1: 0 -> b\n"), "line 2, column 12: no state is called b"),
        (dict(text="state a\n 1 1: 0\n", tolerance=float("nan")), "not a finite number"),
        (dict(text="state a\n 1 1: 0\n", tolerance=0), "must be positive"),
        (dict(text="state a\n 1 1: 0\n", method="newton"), "use policy or value"),
        (dict(), "give the game once"),
    ],
)
def test_bad_input_is_a_value_error(kwargs, says):
    with pytest.raises(ValueError, match=says):
        nimbus.stochastic(**kwargs)


def test_the_work_budget_holds():
    with pytest.raises(nimbus.LimitError):
        nimbus.stochastic(file=EXAMPLES / "big-match.ssg", max_work=1)
