"""Game trees (extensive form): Gambit's .efg files and the built-in trees, solved exactly."""

from . import _nimbus
from ._answers import Answer, from_value, q, write_text
from ._strategic import Game, Labelled, Mixed, Payoffs, Player, _probability_text
from ._text import is_efg, read_text


class TreeNash(Answer):
    """The equilibria of a tree: ``infosets`` (each ``player``, ``number``, ``name``,
    ``actions``), ``method``, ``value`` (zero-sum trees by the LP, a Fraction),
    ``equilibria`` (each ``behaviour``, a list of Fractions per entry of ``infosets``, and
    ``payoffs``), ``notes``."""


class Behaviour(tuple):
    """One equilibrium of a tree in pygambit's shape: a tuple holding each information set's
    action probabilities (a :class:`Mixed`: Fractions, also indexed by action name), in the
    order of ``infosets``. Indexed by number, by a player's name (that player's information
    sets, in order) or by an information set's name; ``payoff(player)`` and ``payoffs`` (also
    indexed by name) give the expected payoffs."""

    def __new__(cls, behaviour, payoffs, players, infosets):
        self = super().__new__(
            cls, (Mixed(tuple(b), i["actions"]) for b, i in zip(behaviour, infosets))
        )
        self.payoffs = Payoffs(payoffs, players)
        self.players = tuple(players)
        self.infosets = tuple(infosets)
        return self

    def payoff(self, player):
        """The expected payoff of a player, by index or name."""
        if isinstance(player, int):
            return self.payoffs[player]
        return self.payoffs[self.players.index(getattr(player, "label", player))]

    def __getitem__(self, key):
        if isinstance(key, (int, slice)):
            return tuple.__getitem__(self, key)
        key = getattr(key, "label", key)
        if key in self.players:
            p = self.players.index(key)
            return tuple(b for b, i in zip(self, self.infosets) if i["player"] == p)
        named = [b for b, i in zip(self, self.infosets) if i["name"] == key]
        if len(named) == 1:
            return named[0]
        raise KeyError(
            f"{key!r} names {'no' if not named else 'more than one'} player or information set"
        )

    def __reduce__(self):
        return (
            Behaviour,
            (tuple(tuple(b) for b in self), tuple(self.payoffs), self.players, self.infosets),
        )


class TreeCfr(Answer):
    """A CFR run: ``iterations``, ``exploitability``, ``average``, ``payoffs``, ``curve``."""


class TreeInfo(Answer):
    """What a tree is made of: players (information sets, sequences, reduced strategies),
    nodes, information sets, perfect information and recall, subgame roots."""


class Tree:
    """A game tree. ``nimbus.tree("kuhn")``, ``nimbus.read_game("game.efg")``."""

    def __init__(self, native):
        self._native = native

    def nash(
        self,
        method="auto",
        covering=1,
        time_limit=None,
        max_supports=None,
        prior=None,
        refine=None,
        **limits,
    ):
        """The equilibria, each checked exactly on the tree: ``auto`` is backward induction
        for perfect information, the sequence-form LP for two-player zero-sum trees, vertex
        enumeration of the sequence-form polyhedra (``enum``) for other two-player trees; or
        ``lp``, ``spe`` (subgames folded when information is imperfect), ``enum``, ``lcp``
        (Lemke on the sequence form), and on the reduced normal form ``vertex``, ``support``,
        ``lh``, ``pure``. ``covering``: for ``lcp``, how many covering vectors to try (the
        distinct equilibria they reach are listed). ``time_limit`` (seconds) and
        ``max_supports``: for ``enumpoly`` (the method for three or more players), stop there
        with what was found. ``tracing`` (two players): the equilibrium the tracing procedure
        selects from the centroid prior, normal-form perfect; ``prior`` (with ``tracing``): a
        behaviour profile to start from instead, each player's information sets in the order
        of ``infosets``, each a list of its actions' probabilities. ``refine="perfect"`` (two
        players): ``.perfect`` says which equilibria listed are normal-form perfect;
        ``refine="sequential"`` (two players): ``.sequential`` says which are part of a
        sequential equilibrium, each such one with its consistent ``beliefs`` (for each
        information set, the probability of each node, named in the set's
        ``node_labels``)."""
        if prior is not None:
            if method not in ("auto", "tracing"):
                raise ValueError("a prior is for the tracing procedure (method='tracing')")
            words = ",".join(_probability_text(x) for row in prior for x in row)
            a = from_value(
                self._native.nash(
                    "auto",
                    covering,
                    time_limit,
                    max_supports,
                    select="tracing:" + words,
                    refine=refine,
                    **limits,
                ),
                TreeNash,
            )
        else:
            a = from_value(
                self._native.nash(
                    method, covering, time_limit, max_supports, refine=refine, **limits
                ),
                TreeNash,
            )
        for e in a.equilibria:
            e["behaviour"] = [[q(x) for x in row] for row in e.behaviour]
            e["payoffs"] = [q(x) for x in e.payoffs]
            if "beliefs" in e:
                e["beliefs"] = [[q(x) for x in row] for row in e.beliefs]
        if "value" in a:
            a["value"] = q(a.value)
        return a

    def cfr(self, iterations=1000, target=None, variant="cfr+", reports=10, checkpoint=None,
            sampling=None, seed=1, **limits):
        """CFR+ (or ``variant="dcfr"``, discounted CFR): the average strategy (``average``,
        floats per entry of ``infosets``) and its ``exploitability``, computed exactly (a
        decimal string), with the ``curve`` of reports. ``checkpoint``: a file the run's state
        is kept in, and resumed from when it exists. ``sampling="external"``: external-sampling
        Monte Carlo CFR, seeded by ``seed``."""
        return from_value(
            self._native.cfr(iterations, target, variant, reports, checkpoint, sampling, seed,
                             **limits),
            TreeCfr,
        )

    @property
    def players(self):
        """The players: each a name (``str``) with pygambit's ``label`` and ``number``;
        indexed by number or name."""
        names = [p["name"] for p in self._native.describe()["players"]]
        return Labelled(Player(n, k, []) for k, n in enumerate(names))

    def behaviour_profiles(self, method, **limits):
        """:meth:`nash`'s equilibria as :class:`Behaviour` profiles (pygambit's shape), with
        the answer they come from."""
        a = self.nash(method, **limits)
        profiles = [Behaviour(e.behaviour, e.payoffs, a.players, a.infosets) for e in a.equilibria]
        return profiles, a

    def describe(self):
        """Players, information sets, sequences, reduced strategies, subgames."""
        return from_value(self._native.describe(), TreeInfo)

    def reduced(self, **limits):
        """The reduced normal form, as a strategic :class:`nimbus.Game`."""
        return Game.parse_game(self._native.nfg(**limits), "the reduced normal form")

    def svg(self, path=None, method=None, **limits):
        """The tree drawn as SVG (with ``method``, the first equilibrium it finds drawn on
        it): written to ``path``, or returned as text without one."""
        return write_text(self._native.svg(method, **limits), path)

    def write(self, path=None):
        """The tree as an .efg file: written to ``path``, or returned as text without one."""
        return write_text(self._native.efg(), path)

    def __reduce__(self):
        return (_parse, (self._native.efg(),))

    def __repr__(self):
        info = self._native.describe()
        return f"Tree({info['title']!r}, {len(info['players'])} players, {info['nodes']} nodes)"


def _parse(text):
    return Tree(_nimbus.GameTree.parse(text, "a pickled tree"))


def tree(name_or_path):
    """A built-in tree by name (``"kuhn"``), or an .efg file."""
    import os

    if not os.path.exists(name_or_path):
        try:
            return Tree(_nimbus.GameTree.builtin(name_or_path))
        except ValueError:
            pass
    text = read_text(name_or_path)
    if not is_efg(text):
        raise ValueError(f"{name_or_path}: not a game tree (an .efg file starts with 'EFG 2 R')")
    return Tree(_nimbus.GameTree.parse(text, str(name_or_path)))
