"""Partizan game values: :func:`cgt` and the :class:`GameValue` it returns."""

from . import _nimbus
from ._answers import Answer, from_value, q

__all__ = ["GameValue", "PartizanGame", "Thermograph", "cgt", "partizan"]

# The exact numbers of an answer, read as Fractions.
_NUMBERS = ("left_stop", "right_stop", "mean", "temperature")


class _Shown(Answer):
    """An answer whose fields starting with ``_`` are kept out of sight (keys, printing)."""

    def keys(self):
        return [k for k in self.__dict__ if not k.startswith("_")]

    def items(self):
        return [(k, self.__dict__[k]) for k in self.keys()]


class Thermograph(_Shown):
    """A thermograph: ``left`` and ``right`` walls as pieces (from temperature ``t`` on, the
    value ``v`` moving by ``slope`` per degree), the ``mean`` and ``temperature`` where they
    meet. In a notebook it shows as its picture; :meth:`svg` is that picture's text."""

    def __init__(self, fields, picture):
        super().__init__(fields)
        self._picture = picture

    def svg(self):
        """The picture as SVG text (axes labelled, mast and walls)."""
        return self._picture

    def _repr_svg_(self):
        return self._picture


class GameValue(_Shown):
    """The value of a sum of partizan games, as :func:`cgt` computes it.

    Fields: ``expression``, ``canonical`` (as CGSuite writes it), ``reduced`` (the reduced
    canonical form: the value up to infinitesimals), ``outcome`` ('L', 'R',
    'N' or 'P'), ``left_stop``, ``right_stop``, ``mean``, ``temperature`` (Fractions),
    ``birthday``, ``atomic_weight`` (None unless all-small), ``left_incentives`` and
    ``right_incentives`` (with ``incentives=True``, else None), ``components``, ``left_wins``/``right_wins`` (winning moves) with
    their totals. :meth:`thermograph` gives the thermograph.

    Values are games: ``+``, ``-`` (and unary ``-``) make new values, with numbers and value
    texts too (``g + 1``, ``g - "^"``); ``<=``, ``<``, ``>=``, ``>`` and ``==`` compare them
    as games (``==`` is equality of value, not of position), and :meth:`confused_with` is
    the fourth case. They hash by value and pickle.
    """

    def __init__(self, fields):
        thermograph = fields.pop("thermograph")
        picture = fields.pop("picture")
        for k in _NUMBERS:
            fields[k] = q(fields[k])
        super().__init__(fields)
        self.__dict__["_thermograph"] = (thermograph, picture)

    def thermograph(self):
        """The thermograph (:class:`Thermograph`), shown as its picture in a notebook."""
        walls, picture = self._thermograph
        fields = {
            side: [
                Answer(t=q(p["t"]), v=q(p["v"]), slope=p["slope"]) for p in walls[side]
            ]
            for side in ("left", "right")
        }
        fields["mean"], fields["temperature"] = q(walls["mean"]), q(walls["temperature"])
        return Thermograph(fields, picture)

    # Arithmetic and comparison write the operands into one expression for the library.

    def _term(self):
        """This value as one summand of an expression."""
        readable = self.__dict__.get("_readable", True)
        if readable and not self.components and not self.expression.startswith("-"):
            return self.expression
        if self.canonical.endswith("…"):
            raise ValueError(
                "this value's canonical form is too long to write out: combine the "
                "expressions themselves with nimbus.cgt"
            )
        return self.canonical

    def __add__(self, other):
        return cgt(f"{self._term()} + {_term(other)}")

    def __radd__(self, other):
        return cgt(f"{_term(other)} + {self._term()}")

    def __sub__(self, other):
        return cgt(f"{self._term()} - {_term(other)}")

    def __rsub__(self, other):
        return cgt(f"{_term(other)} - {self._term()}")

    def __neg__(self):
        return cgt(f"- {self._term()}")

    def _difference(self, other):
        """The outcome of ``self - other``."""
        return cgt(f"{self._term()} - {_term(other)}", max_moves=0).outcome

    def __le__(self, other):
        return self._difference(other) in ("R", "P")

    def __lt__(self, other):
        return self._difference(other) == "R"

    def __ge__(self, other):
        return self._difference(other) in ("L", "P")

    def __gt__(self, other):
        return self._difference(other) == "L"

    def __eq__(self, other):
        if isinstance(other, GameValue) and not self.canonical.endswith("…"):
            # Canonical forms are unique: equal values are written alike.
            return self.canonical == other.canonical
        try:
            return self._difference(other) == "P"
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self):
        return hash(self.canonical)

    def confused_with(self, other):
        """Whether the two are incomparable (their difference is a first-player win)."""
        return self._difference(other) == "N"

    def __repr__(self):
        return f"<GameValue {self.canonical} = {self.expression}>"

    def __str__(self):
        return self.canonical

    def __reduce__(self):
        fields = dict(self.items())
        for k in _NUMBERS:
            fields[k] = str(fields[k])
        walls, picture = self._thermograph
        fields["thermograph"], fields["picture"] = walls, picture
        return (_rebuild, (fields,))


def _rebuild(fields):
    return GameValue(fields)


def _term(x):
    """A Python value as one summand: a GameValue, a number, or a value's text ("^*")."""
    if isinstance(x, GameValue):
        return x._term()
    if isinstance(x, bool):
        raise TypeError("a truth value is not a game")
    if isinstance(x, int):
        return str(x)
    if hasattr(x, "numerator") and hasattr(x, "denominator"):
        return f"{int(x.numerator)}/{int(x.denominator)}"
    if isinstance(x, str):
        text = x.strip()
        if not text or any(c.isspace() for c in text):
            raise ValueError(f"{x!r} is not one value: write a sum with nimbus.cgt")
        return text
    raise TypeError(f"not a game: {x!r}")


class PartizanGame:
    """A partizan game written in Python: ``left(position)`` and ``right(position)`` return
    each side's options (hashable values: ints, strings, tuples), and ``regions(position)``,
    when given, the independent positions it splits into (their values add up to its value;
    each is valued once wherever it is met). Made by :func:`partizan`."""

    def __init__(self, left, right, start=None, name="python", regions=None):
        if not callable(left) or not callable(right):
            raise TypeError("left and right must be functions of a position")
        if regions is not None and not callable(regions):
            raise TypeError("regions must be a function of a position")
        self.left, self.right, self.start, self.name = left, right, start, name
        self.regions = regions

    def __repr__(self):
        return f"<nimbus.PartizanGame {self.name!r}>"


def partizan(left, right, start=None, name="python", regions=None):
    """A partizan game from two functions, valued by :func:`cgt` like the built-in rulesets;
    ``regions`` optionally splits a position into independent parts.

    >>> # Cutcake: Left cuts between columns, Right between rows; a cake is (rows, columns).
    >>> def cuts(cakes, along):
    ...     for i, (r, c) in enumerate(cakes):
    ...         n = c if along else r
    ...         for a in range(1, n):
    ...             parts = [(r, a), (r, c - a)] if along else [(a, c), (r - a, c)]
    ...             yield tuple(sorted(cakes[:i] + cakes[i + 1:] + tuple(parts)))
    >>> cake = partizan(lambda p: cuts(p, True), lambda p: cuts(p, False), start=((3, 4),))
    >>> cgt(cake).canonical == cgt("cutcake 3x4").canonical
    True
    >>> # Each cake on its own: a large cake is valued in a moment.
    >>> split = partizan(cake.left, cake.right, start=((8, 9),),
    ...                  regions=lambda p: [(c,) for c in p])
    >>> cgt(split).canonical == cgt("cutcake 8x9").canonical
    True
    """
    return PartizanGame(left, right, start, name, regions)


def cgt(expression, max_moves=20, incentives=False, **limits):
    """The value of a sum of partizan games, exactly: the expression grammar of ``nimbus
    cgt`` (rulesets with their positions, values written out, ``+`` and ``-``), or a game
    made by :func:`partizan` at its ``start``.
    ``incentives=True`` adds each option's incentive (costly for large hot values).

    >>> g = cgt("domineering ..|..")
    >>> g.canonical, g.outcome, g.temperature
    ('±1', 'N', Fraction(1, 1))
    >>> cgt("^") + cgt("^") + "*" > 0
    True
    >>> cgt("clobber xoxo").atomic_weight
    '0'
    >>> cgt("{3||2*|1*}").reduced
    '{3||2|1}'
    """
    if isinstance(expression, PartizanGame):
        game = expression
        if game.start is None:
            raise ValueError("give the position: partizan(..., start=P)")
        made = _game_value(
            _nimbus.cgt_positions(
                game.left,
                game.right,
                [game.start],
                game.name,
                max_moves,
                incentives,
                game.regions,
                **limits,
            )
        )
        # Its expression cannot be read back: as an operand it is its canonical form.
        made.__dict__["_readable"] = False
        return made
    if not isinstance(expression, str):
        raise TypeError("cgt takes an expression, such as \"domineering ..|.. + ^\"")
    return _game_value(_nimbus.cgt(expression, max_moves, incentives, **limits))


def _game_value(value):
    """The library's answer as a GameValue: the walls stay plain (kept for thermograph()),
    the rest becomes Answers."""
    walls = value.pop("thermograph")
    fields = dict(from_value(value).__dict__)
    fields["thermograph"] = walls
    return GameValue(fields)
