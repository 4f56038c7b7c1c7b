"""nimbus.cgt: partizan values as Python objects that add, compare and pickle."""

import itertools
import pickle
from fractions import Fraction

import pytest

import nimbus


def test_a_position_has_its_value_stops_and_moves():
    g = nimbus.cgt("domineering ..|..", incentives=True)
    assert (g.canonical, g.outcome) == ("±1", "N")
    assert (g.left_stop, g.right_stop, g.mean, g.temperature) == (1, -1, 0, 1)
    assert isinstance(g.temperature, Fraction)
    assert g.left_wins_total == 2 and g.left_wins[0].value == "1"
    # 1 - ±1 and ±1 - (-1): each move gains its mover {2|0}.
    assert g.left_incentives == g.right_incentives == ["{2|0}"]
    assert g.atomic_weight is None and nimbus.cgt("±1").left_incentives is None
    assert str(g) == "±1" and "domineering" in repr(g)


def test_values_add_subtract_and_negate():
    up = nimbus.cgt("^")
    assert (up + up + "*").canonical == "^^*"
    assert (up - up).canonical == "0"
    assert (-up).canonical == "v"
    assert (1 + up).canonical == "1^"
    assert (Fraction(1, 2) - nimbus.cgt("1")).canonical == "-1/2"
    # A sum as an operand is taken by its value, so subtraction is of the whole sum.
    s = nimbus.cgt("1 + 1")
    assert (nimbus.cgt("3") - s).canonical == "1"
    with pytest.raises(ValueError, match="one value"):
        up + "1 + 1"


VALUES = ["0", "*", "^", "v", "1/2", "-1", "±1", "{1|0}", "^*", "*2", "{0|v}"]


def test_comparison_is_the_order_of_games():
    games = [nimbus.cgt(v) for v in VALUES]
    for a, b in itertools.product(games, repeat=2):
        le, ge = a <= b, a >= b
        # Exactly one of <, >, ==, confused holds, and they agree with <= and >=.
        cases = [a < b, a > b, a == b, a.confused_with(b)]
        assert cases.count(True) == 1, (a, b)
        assert le == (a < b or a == b) and ge == (a > b or a == b), (a, b)
        # Against the outcome of the difference, computed as one expression.
        d = nimbus.cgt(f"{a.canonical} - {b.canonical}").outcome
        assert (a < b, a > b, a == b) == (d == "R", d == "L", d == "P"), (a, b)
    assert nimbus.cgt("^") > 0 and nimbus.cgt("*").confused_with(0)
    assert nimbus.cgt("1/2") < 1 and not nimbus.cgt("1/2") < Fraction(1, 2)


def test_values_hash_by_value_and_pickle():
    a, b = nimbus.cgt("^ + ^"), nimbus.cgt("^^")
    assert a == b and len({a, b}) == 1
    c = pickle.loads(pickle.dumps(nimbus.cgt("domineering ..#|..#|...")))
    assert c.canonical == "{1/2|-2}" and c.temperature == Fraction(5, 4)
    assert (c + 2).canonical == "{5/2|0}"
    assert c.thermograph().mean == c.mean


def test_thermograph_and_atomic_weight():
    g = nimbus.cgt("{2|-1}")
    t = g.thermograph()
    assert (t.mean, t.temperature) == (Fraction(1, 2), Fraction(3, 2))
    assert t.left[0].slope == -1 and t.svg().startswith("<svg")
    assert t._repr_svg_() == t.svg()
    assert nimbus.cgt("^ + ^ + *").atomic_weight == "2"
    assert nimbus.cgt("sg 'kayles 4'").canonical == "*"


def test_bad_expressions_and_budgets_are_errors():
    with pytest.raises(ValueError, match="domineering needs"):
        nimbus.cgt("domineering")
    with pytest.raises(TypeError):
        nimbus.cgt(3)
    with pytest.raises(nimbus.LimitError, match=r"\(raise max_work\)"):
        nimbus.cgt("domineering 5x5", max_work=1000)


def _toads(strip, toad):
    """Toads and Frogs moves, written plainly: a toad (T) steps or jumps a frog rightwards,
    a frog (F) leftwards."""
    me, other, step = ("T", "F", 1) if toad else ("F", "T", -1)
    for i, c in enumerate(strip):
        if c != me:
            continue
        j, k = i + step, i + 2 * step
        if 0 <= j < len(strip) and strip[j] == ".":
            yield strip[:min(i, j)] + (".T" if toad else "F.") + strip[max(i, j) + 1:]
        elif 0 <= k < len(strip) and strip[j] == other and strip[k] == ".":
            s = list(strip)
            s[i], s[k] = ".", me
            yield "".join(s)


def test_a_game_of_python_functions_is_valued_like_the_built_in_one():
    for strip in ["TT..FF", "T.TF.F", "TTF.F.", "T..F", ".TF.TF"]:
        g = nimbus.partizan(lambda p: _toads(p, True), lambda p: _toads(p, False), start=strip)
        mine, built_in = nimbus.cgt(g), nimbus.cgt(f"toads {strip}")
        assert mine.canonical == built_in.canonical, strip
        assert mine.left_wins_total == built_in.left_wins_total, strip
        # As an operand it is its value.
        assert (mine - built_in).canonical == "0"


def test_errors_of_python_games_are_raised():
    def left(p):
        if p > 2:
            raise KeyError("no moves from 3")
        return [p + 1]

    with pytest.raises(KeyError, match="no moves from 3"):
        nimbus.cgt(nimbus.partizan(left, lambda p: [], start=0))
    with pytest.raises(ValueError, match="hashable"):
        nimbus.cgt(nimbus.partizan(lambda p: [[1]], lambda p: [], start=0))
    with pytest.raises(ValueError, match="give the position"):
        nimbus.cgt(nimbus.partizan(lambda p: [], lambda p: []))
    # A game that comes back to a position has no value: said at once, naming it.
    with pytest.raises(ValueError, match="reached again from itself"):
        nimbus.cgt(nimbus.partizan(lambda p: [(p + 1) % 3], lambda p: [], start=0))
    with pytest.raises(TypeError, match="regions"):
        nimbus.partizan(lambda p: [], lambda p: [], start=0, regions=3)


def test_regions_split_a_position_into_parts_valued_once():
    # Toads and Frogs strips side by side, split at the strips: the same value as the sum.
    strips = ("TT..FF", "T.F", "TF..")
    calls = []

    def regions(p):
        calls.append(p)
        return [(s,) for s in p]

    def moves(p, left):
        return [p[:i] + (q,) + p[i + 1:] for i, s in enumerate(p) for q in _toads(s, left)]

    g = nimbus.partizan(
        lambda p: moves(p, True), lambda p: moves(p, False), start=strips, regions=regions
    )
    assert nimbus.cgt(g).canonical == nimbus.cgt(" + ".join(f"toads {s}" for s in strips)).canonical
    assert calls, "the split was asked for"
