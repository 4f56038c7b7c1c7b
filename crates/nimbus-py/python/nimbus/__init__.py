"""Nimbus: exact, fast game theory from Python.

Strategic games (nashpy's and pygambit's shapes, exact by default)::

    >>> import nimbus
    >>> g = nimbus.Game([[3, 0], [5, 1]], [[3, 5], [0, 1]])   # the prisoner's dilemma
    >>> list(g.support_enumeration())
    [((Fraction(0, 1), Fraction(1, 1)), (Fraction(0, 1), Fraction(1, 1)))]
    >>> nimbus.Game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]).zero_sum().value
    Fraction(0, 1)

Impartial games::

    >>> nimbus.sg("nim 3 4 5").winning_moves[0].result
    'nim 1 4 5'
    >>> nimbus.sequence("kayles", upto=200).period
    12

Game trees::

    >>> nimbus.tree("kuhn").nash().value
    Fraction(-1, 18)

Partizan games::

    >>> nimbus.cgt("domineering ..|.. + stalks BRR").canonical
    '{5/4|-3/4}'

Sequential games::

    >>> nimbus.solve("tictactoe").meaning
    'draw (0)'
"""

from fractions import Fraction

from . import _nimbus
from ._nimbus import LimitError, SCHEMA
from ._answers import Answer, exact_text, from_value, q
from ._cgt import GameValue, PartizanGame, Thermograph, cgt, partizan
from ._files import read_game
from ._text import read_text
from ._strategic import Equilibrium, Game, Mixed, NashResult, Player, RepeatedGame, Strategy
from ._tree import Behaviour, Tree, TreeCfr, TreeInfo, TreeNash, tree

# pygambit 17 calls a strategic-form game StrategicGame.
StrategicGame = Game
# pygambit's exact numbers (``np.array(m, dtype=gbt.Rational)``).
Rational = Fraction


def read_nfg(path):
    """pygambit's ``read_nfg``: a strategic game from a Gambit .nfg file."""
    game = read_game(path)
    if not isinstance(game, Game):
        raise ValueError(f"{path}: an .efg game tree, not an .nfg file: use read_efg")
    return game


def read_efg(path):
    """pygambit's ``read_efg``: a game tree from a Gambit .efg file."""
    game = read_game(path)
    if not isinstance(game, Tree):
        raise ValueError(f"{path}: an .nfg strategic game, not an .efg file: use read_nfg")
    return game

from . import nash

__all__ = [
    "Answer",
    "Equilibrium",
    "Fraction",
    "Game",
    "GameValue",
    "HeapGame",
    "ImpartialGame",
    "LimitError",
    "Mixed",
    "PartizanGame",
    "RepeatedGame",
    "StrategicGame",
    "read_nfg",
    "read_efg",
    "Rational",
    "Player",
    "Strategy",
    "Behaviour",
    "NashResult",
    "SCHEMA",
    "heap_game",
    "impartial",
    "cgt",
    "misere_quotient",
    "MisereQuotient",
    "nash",
    "partizan",
    "read_game",
    "sequence",
    "sg",
    "stochastic",
    "solve",
    "two_player",
    "StochasticSolution",
    "Thermograph",
    "TwoPlayerGame",
    "Tree",
    "TreeInfo",
    "TreeNash",
    "tree",
]

__version__ = "0.1.0"


class ImpartialGame:
    """An impartial game written in Python: ``moves(position)`` returns the options of a
    position (hashable values: ints, strings, tuples). Made by :func:`impartial`."""

    def __init__(self, moves, start=None, name="python"):
        if not callable(moves):
            raise TypeError("moves must be a function of a position")
        self.moves, self.start, self.name = moves, start, name

    def __repr__(self):
        return f"<nimbus.ImpartialGame {self.name!r}>"


class HeapGame:
    """A heap game written in Python: ``moves(n)`` returns what a heap of ``n`` can become,
    each move an int (one heap left; 0 for none) or a tuple of at most two ints (the heap
    split), all smaller than ``n``. Made by :func:`heap_game`."""

    def __init__(self, moves, name="python heap game"):
        if not callable(moves):
            raise TypeError("moves must be a function of a heap size")
        self.moves, self.name = moves, name

    def __repr__(self):
        return f"<nimbus.HeapGame {self.name!r}>"


def impartial(moves, start=None, name="python"):
    """An impartial game from a function giving each position's options.

    >>> import nimbus
    >>> sub = nimbus.impartial(lambda n: [n - k for k in (1, 3, 4) if k <= n], start=7)
    >>> nimbus.sg(sub).outcome
    'P'
    """
    return ImpartialGame(moves, start, name)


def heap_game(moves, name="python heap game"):
    """A heap game from a function giving the moves of a heap of ``n``.

    >>> import nimbus
    >>> kayles = nimbus.heap_game(lambda n: [(a, n - k - a) for k in (1, 2)
    ...                                      for a in range(n - k + 1) if a <= n - k - a])
    >>> nimbus.sequence(kayles, upto=20).values[:8]
    [0, 1, 2, 3, 1, 4, 3, 2]
    """
    return HeapGame(moves, name)


class TwoPlayerGame:
    """A two-player game written in Python, as the Rhai scripts are: ``start``;
    ``to_move(p)``, 0 for the first player and 1 for the second; ``moves(p)``; ``play(p, m)``,
    the position after the move; ``result(p)``, None while play goes on, else the value for
    the first player (+1 a win, -1 a loss, 0 a draw). Positions and moves must be hashable.
    Made by :func:`two_player`."""

    def __init__(self, start, to_move, moves, play, result, name="python"):
        for f in (to_move, moves, play, result):
            if not callable(f):
                raise TypeError("to_move, moves, play and result must be functions")
        self.start, self.to_move, self.moves = start, to_move, moves
        self.play, self.result, self.name = play, result, name

    def __repr__(self):
        return f"<nimbus.TwoPlayerGame {self.name!r}>"


def two_player(start, to_move, moves, play, result, name="python"):
    """A two-player game from Python functions, for :func:`solve`.

    >>> import nimbus
    >>> take = nimbus.two_player(7, lambda p: 0, lambda n: [k for k in (1, 2) if k <= n],
    ...                          lambda n, k: n - k, lambda n: 1 if n == 0 else None)
    >>> nimbus.solve(take).value
    1
    """
    return TwoPlayerGame(start, to_move, moves, play, result, name)


class SG(Answer):
    """The answer of :func:`sg`: ``outcome`` ('N', 'P' or 'D'), ``grundy``, ``components``,
    ``winning_moves`` (each with its ``description`` and resulting position ``result``),
    ``remoteness``, ``notes``; in misère play ``rule`` and ``explanation`` too."""


class Sequence(Answer):
    """The answer of :func:`sequence`: ``values``, ``preperiod``, ``period``, ``proved``."""


class Solution(Answer):
    """The answer of :func:`solve`."""


class MisereQuotient(Answer):
    """The answer of :func:`misere_quotient`: ``order``, ``elements``, ``p_portion``,
    ``generators``, ``relations``, ``pretending`` (the element of each heap), ``table`` (the
    multiplication, by index into ``elements``), ``growth``, ``stable_from``, ``forever``
    (``{"preperiod", "period"}`` when the heaps computed prove the quotient that of every heap,
    else ``None``), ``positions``."""


def sg(game, *positions, misere=False, rule=None, max_moves=20, **limits):
    """Outcome, Sprague-Grundy values, winning moves and remoteness of a sum of games.

    ``game`` is an expression ("kayles 7 + nim 3 4"), a game made by :func:`impartial`
    (positions: its ``start``, or the ones given, added up), or one made by
    :func:`heap_game` (positions: the heap sizes). ``misere=True``: the player who cannot
    move wins; ``rule``: insist on 'sj', 'anti-nim', 'quotient' or 'search'.
    """
    if isinstance(game, str):
        value = _nimbus.sg(game, misere, rule, max_moves, **limits)
    elif isinstance(game, ImpartialGame):
        starts = list(positions) or ([game.start] if game.start is not None else [])
        if not starts:
            raise ValueError("give the position: impartial(..., start=P) or sg(game, P)")
        value = _nimbus.sg_positions(
            game.moves, starts, game.name, misere, rule, max_moves, **limits
        )
    elif isinstance(game, HeapGame):
        if not positions:
            raise ValueError("give the heap sizes: sg(game, 3, 4, 5)")
        value = _nimbus.sg_heaps(
            game.moves, list(positions), game.name, misere, rule, max_moves, **limits
        )
    else:
        raise TypeError("sg takes an expression, an impartial(...) game or a heap_game(...)")
    return from_value(value, SG)


def sequence(ruleset, upto=None, misere=False, prove=False, checkpoint=None, **limits):
    """The nim-sequence G(0..=upto) of a heap game ("octal 0.137", "subtract{1,3,4}",
    "kayles", or a :func:`heap_game`), with its period and whether the period is proved.
    Without ``upto``, G(0..=100) is listed, and a ruleset with a periodicity test (octal
    games, finite subtraction sets) is computed until its period is proved or a limit stops
    it, which ``notes`` then says. ``prove=True`` (rulesets named by a string) computes as
    far as it takes to prove a period, with its certificate in ``checked_upto`` and
    ``checksum``; with ``checkpoint`` (a file path, octal games) it resumes from the values
    saved there and saves its own every minute and when stopped."""
    if isinstance(ruleset, HeapGame):
        if prove or checkpoint is not None:
            raise ValueError("prove needs a ruleset with a periodicity test, named by a string")
        value = _nimbus.sequence_heaps(
            ruleset.moves, ruleset.name, 100 if upto is None else upto, misere, **limits)
    elif isinstance(ruleset, str):
        value = _nimbus.sequence(ruleset, upto, misere, prove, checkpoint=checkpoint, **limits)
    else:
        raise TypeError("sequence takes a ruleset's name or a heap_game(...)")
    return from_value(value, Sequence)


def misere_quotient(ruleset, upto=20, positions=(), **limits):
    """The misère quotient of the heaps 1..upto of a heap game ("octal 0.75", "kayles",
    "subtract{1,3,4}"): a commutative monoid whose product decides every misère position of
    those heaps, proved on all of them. ``positions`` (lists of heap sizes) are answered with
    it: each one's element, outcome and winning moves.

    >>> q = misere_quotient("octal 0.75", upto=30)
    >>> q.order, q.p_portion
    (8, ['a', 'b^2'])
    """
    if not isinstance(ruleset, str):
        raise TypeError("misere_quotient takes a ruleset's name, such as 'octal 0.75'")
    value = _nimbus.misere_quotient(ruleset, upto, [list(p) for p in positions], **limits)
    return from_value(value, MisereQuotient)


class StochasticSolution(Answer):
    """The answer of :func:`stochastic`: ``states`` (each with ``name``, ``value`` when exact,
    proven ``lower`` and ``upper`` bounds, ``approximate``, the stationary ``row_strategy``
    and ``column_strategy`` and what each guarantees, and ``algebraic``: an irrational value of
    a one-state game exactly, as the only root of ``polynomial`` (``coefficients``, integers,
    the constant first) in ``(lower, upper]``, with its ``closed_form`` when that is a
    quadratic), ``exact``, ``discount``, ``continuation``, ``method``, ``rounds``, ``notes``."""


def stochastic(file=None, text=None, method="policy", tolerance="1e-12", **limits):
    r"""The values and stationary strategies of a two-player zero-sum stochastic game, from a
    file (``file``, a path) or its text (``text``) in the format of the README. Values are
    exact (fractions) whenever they are rational and the bounds isolate them; otherwise each
    lies between proven bounds at most ``tolerance`` apart (and a one-state game's irrational
    value is also given exactly, as a polynomial's root). ``method``: 'policy' (Hoffman and
    Karp, with Newton steps) or 'value' (Shapley's value iteration).

    >>> g = "discount 1/2\nstate s\n 1 1: 1 -> s\n 1 2: 0 -> s\n 2 1: 0 -> s\n 2 2: 1 -> s\n"
    >>> s = stochastic(text=g)
    >>> s.exact, s.states[0].value
    (True, Fraction(1, 1))
    """
    if (file is None) == (text is None):
        raise ValueError("give the game once: stochastic(file=PATH) or stochastic(text=TEXT)")
    source = "the game"
    if file is not None:
        source = str(file)
        text = read_text(file)
    value = _nimbus.stochastic(text, source, method, exact_text(tolerance), **limits)
    for st in value["states"]:
        for key in ("lower", "upper", "row_guarantee", "column_guarantee"):
            st[key] = q(st[key])
        if st["value"] is not None:
            st["value"] = q(st["value"])
        for key in ("row_strategy", "column_strategy"):
            st[key] = [q(x) for x in st[key]]
        x = st["algebraic"]
        if x is not None:
            x["lower"], x["upper"] = q(x["lower"]), q(x["upper"])
            x["coefficients"] = [int(c) for c in x["coefficients"]]
    for key in ("discount", "continuation"):
        value[key] = q(value[key])
    return from_value(value, StochasticSolution)


def solve(game, position=None, all=False, method=None, depth=None, time_limit=None,
          save=None, db=None, scores=False, reply=False, remoteness=False, book=None,
          threads=None, **limits):
    """Solve a two-player game of perfect information ("tictactoe", "connect4",
    "connect4:5x4", "nim:3,4,5", "coin-grid:...", "carrot:...", "script:FILE"):
    its value and best moves from ``position`` (the moves played, in the game's notation),
    or with ``all=True`` every reachable position (saved to ``save`` if given). ``scores``
    adds every move's value; ``reply`` has the solver play its move first. For Connect Four,
    ``db`` a directory with ``all=True`` writes a tier database there (``remoteness=True``
    keeps each position's remoteness too), and without ``all`` queries it. ``book=DEPTH``
    with ``save=FILE`` writes an opening book (every position of up to DEPTH stones with its
    exact score); ``db=FILE`` then answers the positions it holds without a search
    (``book`` is True in the answer). ``threads=N`` searches the position on N threads sharing
    the search's table (the built-in games with one, such as Connect Four; the answer does
    not depend on N)."""
    if isinstance(game, TwoPlayerGame):
        if (save is not None or db is not None or scores or reply or remoteness or book
                or threads is not None):
            raise ValueError(
                "save, db, scores, reply, remoteness, book and threads are for the built-in "
                "games")
        value = _nimbus.solve_callbacks(
            game.start, game.to_move, game.moves, game.play, game.result, game.name,
            position, all, method, depth, time_limit, **limits
        )
    else:
        value = _nimbus.solve(game, position, all, method, depth, time_limit, save, db,
                              scores, reply, remoteness, book, threads, **limits)
    return from_value(value, Solution)
