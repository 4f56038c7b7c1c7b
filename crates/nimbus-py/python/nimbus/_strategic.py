"""Strategic-form games: nashpy's and pygambit's shapes over Nimbus' exact solvers."""

from fractions import Fraction
import html

from . import _nimbus
from ._answers import Answer, exact_text, from_value, q, write_text

__all__ = ["Game", "Equilibrium", "Mixed", "NashResult", "read_game"]


def _is_text(x):
    return isinstance(x, str)


def _parse_matrix_text(text):
    rows = [r for r in text.replace("\n", ";").split(";") if r.strip()]
    return [r.replace(",", " ").split() for r in rows]


def _nested(a):
    """A payoff array as nested lists of exact texts, with its shape."""
    if _is_text(a):
        a = _parse_matrix_text(a)
    if hasattr(a, "tolist") and hasattr(a, "dtype"):
        if a.dtype.kind in "iu":
            # Machine integers: their decimal texts, made by NumPy in one step.
            return a.astype(str).tolist()
        if a.dtype.kind == "f":
            # Floats keep the decimal they print as, element by element.
            a = [[float(x) for x in row] for row in a.tolist()] if a.ndim == 2 else a.tolist()
        else:
            a = a.tolist()

    def walk(x, depth):
        if isinstance(x, (list, tuple)):
            return [walk(y, depth + 1) for y in x]
        return exact_text(x)

    return walk(a, 0)


def _shape(nested):
    shape = []
    x = nested
    while isinstance(x, list):
        shape.append(len(x))
        x = x[0] if x else None
    return shape


class Strategy(str):
    """A strategy: its name (a ``str``, as pygambit 17's strategies are) with pygambit 16's
    attributes, ``label``, ``number`` (counted from 0) and ``player``."""

    def __new__(cls, label, number, player):
        self = super().__new__(cls, label)
        self.number = number
        self.player = player
        return self

    @property
    def label(self):
        return str(self)

    def __reduce__(self):
        return (Strategy, (str(self), self.number, self.player))

    def __repr__(self):
        return f"<Strategy [{self.number}] {str(self)!r} for player {str(self.player)!r}>"


class Player(str):
    """A player: their name (a ``str``, as pygambit 17's players are) with pygambit 16's
    attributes, ``label``, ``number`` (counted from 0) and ``strategies`` (indexed by number
    or name)."""

    def __new__(cls, label, number, strategies):
        self = super().__new__(cls, label)
        self.number = number
        self.strategies = Labelled(Strategy(s, k, self) for k, s in enumerate(strategies))
        return self

    @property
    def label(self):
        return str(self)

    def __reduce__(self):
        return (Player, (str(self), self.number, [str(s) for s in self.strategies]))

    def __repr__(self):
        return f"<Player [{self.number}] {str(self)!r}>"


class Labelled(list):
    """Players or strategies, indexed by number or by name (pygambit's ``players["1"]``)."""

    def __getitem__(self, key):
        if isinstance(key, (int, slice)):
            return list.__getitem__(self, key)
        for x in self:
            if x == getattr(key, "label", key):
                return x
        raise KeyError(f"no {key!r}: the names are {', '.join(map(repr, self))}")


class Payoffs(tuple):
    """Each player's expected payoff: a tuple, also indexed by a player's name or object
    (pygambit 17's ``eq.payoffs["1"]``)."""

    def __new__(cls, payoffs, players=()):
        self = super().__new__(cls, payoffs)
        self.players = tuple(players)
        return self

    def __getitem__(self, key):
        if isinstance(key, (int, slice)):
            return tuple.__getitem__(self, key)
        return tuple.__getitem__(self, self.players.index(getattr(key, "label", key)))

    def __reduce__(self):
        return (Payoffs, (tuple(self), self.players))


class Mixed(tuple):
    """One player's mixed strategy: a tuple of Fractions, also indexed by strategy name
    (``eq["Row"]["Opera"]``, as in pygambit)."""

    def __new__(cls, probabilities, labels=()):
        self = super().__new__(cls, probabilities)
        self.labels = tuple(labels)
        return self

    def __getitem__(self, key):
        if isinstance(key, (int, slice)):
            return tuple.__getitem__(self, key)
        return tuple.__getitem__(self, self.labels.index(getattr(key, "label", key)))

    def items(self):
        """(strategy name, probability) pairs."""
        return list(zip(self.labels, self))

    def __reduce__(self):
        return (Mixed, (tuple(self), self.labels))


class Equilibrium(tuple):
    """One Nash equilibrium: a tuple of mixed strategies, one per player, each a tuple of
    Fractions (so ``sigma_r, sigma_c = eq`` works); ``payoffs`` holds each player's expected
    payoff. Indexed by a player's number or name, it gives that player's :class:`Mixed`
    strategy, which is also indexed by strategy name (``eq["Row"]["Opera"]``)."""

    def __new__(cls, profile, payoffs, players=(), strategies=()):
        self = super().__new__(cls, profile)
        self.payoffs = Payoffs(payoffs, players)
        self.players = tuple(players)
        self.strategies = tuple(strategies)
        return self

    def payoff(self, player):
        """The expected payoff of a player, by index or name (pygambit's ``payoff``)."""
        return self.payoffs[self._index(player)]

    def max_regret(self):
        """pygambit's ``max_regret``: the most any player gains by a pure deviation, exactly
        (0 at an equilibrium); for equilibria from a game's solvers."""
        game = getattr(self, "game", None)
        if game is None:
            raise ValueError("max_regret needs the game: use an equilibrium a solver returned")
        return game.verify(*self)["max_gain"]

    def _index(self, player):
        if isinstance(player, int):
            return player
        return self.players.index(getattr(player, "label", player))

    def __getitem__(self, key):
        if isinstance(key, slice):
            return tuple.__getitem__(self, key)
        if isinstance(key, Strategy):
            # pygambit 16: a profile indexed by a strategy is that strategy's probability.
            return self[key.player][key.number]
        i = self._index(key)
        names = self.strategies[i] if i < len(self.strategies) else ()
        return Mixed(tuple.__getitem__(self, i), names)

    def to_numpy(self):
        """Each strategy as a numpy array of floats (nashpy's form)."""
        import numpy as np

        return tuple(np.array([float(p) for p in s]) for s in self)

    def __reduce__(self):
        return (Equilibrium, (tuple(self), tuple(self.payoffs), self.players, self.strategies))

    def __repr__(self):
        parts = ", ".join("(" + ", ".join(str(p) for p in s) + ")" for s in self)
        pays = ", ".join(str(p) for p in self.payoffs)
        return f"Equilibrium({parts}; payoffs {pays})"


class NashResult(Answer):
    """The answer of :meth:`Game.equilibria`: ``equilibria`` (a list of :class:`Equilibrium`),
    ``method``, ``components``, ``eliminated``, ``notes``; ``rational`` is True (pygambit's
    field)."""

    def __iter__(self):
        return iter(self["equilibria"])

    def __len__(self):
        return len(self["equilibria"])

    def _repr_html_(self):
        players = self.get("players", [])
        head = "".join(f"<th>{html.escape(p)}</th>" for p in players) + "<th>payoffs</th>"
        rows = ""
        for k, e in enumerate(self["equilibria"], 1):
            cells = "".join(
                "<td>" + html.escape(", ".join(str(p) for p in s)) + "</td>" for s in e
            )
            pays = html.escape(", ".join(str(p) for p in e.payoffs))
            rows += f"<tr><td>{k}</td>{cells}<td>{pays}</td></tr>"
        notes = "".join(f"<p>note: {html.escape(n)}</p>" for n in self.get("notes", []))
        return (
            f"<p>{html.escape(self.get('described', ''))}: "
            f"{len(self['equilibria'])} equilibria</p>"
            f"<table><tr><th>#</th>{head}</tr>{rows}</table>{notes}"
        )

    def __repr__(self):
        lines = [f"NashResult(method={self['method']!r}, {len(self)} equilibria)"]
        lines += [f"  {e!r}" for e in self["equilibria"]]
        return "\n".join(lines)


def _eliminations(steps, players, names):
    """The library's eliminations (indices) with the names a reader knows."""
    return [
        Answer(
            player=players[s["player"]],
            strategy=names[s["player"]][s["strategy"]],
            dominated_by={names[s["player"]][t]: q(p) for t, p in s["dominated_by"]},
            weak=s["weak"],
        )
        for s in steps
    ]


def _certified(c):
    """An irrational equilibrium's box: exact bounds as Fractions, decimals as text."""
    for key in ("lower", "upper"):
        c[key] = [[q(x) for x in p] for p in c[key]]
    for key in ("payoffs_lower", "payoffs_upper"):
        c[key] = [q(x) for x in c[key]]
    c["regret_bound"] = q(c["regret_bound"])
    return Answer(c)


def _nash_result(a, game):
    """The native answer (profiles as tuples of Fractions) as a NashResult; the names and
    title come from the game asked about."""
    players, names = game._names()
    a["title"] = game.title
    a["players"] = list(players)
    a["strategies"] = [list(n) for n in names]
    a["equilibria"] = [
        Equilibrium(profile, payoffs, players, names) for profile, payoffs in a["equilibria"]
    ]
    for e in a["equilibria"]:
        e.game = game
    if a.get("components") is not None:
        a["components"] = [Answer(c) for c in a["components"]]
        for c in a["components"]:
            c["cliques"] = [Answer(k) for k in c["cliques"]]
    if a["eliminated"]:
        a["eliminated"] = _eliminations(a["eliminated"], players, names)
    if a.get("logit_path") is not None:
        a["logit_path"] = [Answer(p) for p in a["logit_path"]]
    if a.get("tracing") is not None:
        t = a["tracing"]
        t["prior"] = tuple(tuple(Fraction(x) for x in p) for p in t["prior"])
        a["tracing"] = Answer(t)
    if a.get("enumeration") is not None:
        e = a["enumeration"]
        e["certified"] = [_certified(c) for c in e["certified"]]
        e["unresolved"] = [Answer(u) for u in e["unresolved"]]
        a["enumeration"] = Answer(e)
    a["rational"] = True
    return NashResult(a)


class Game:
    """A game in strategic form, with exact payoffs.

    ``Game(A)``: the zero-sum game (A, -A), as nashpy's. ``Game(A, B)``: a bimatrix game.
    ``Game(A1, ..., An)``: n players, each array of shape (s1, ..., sn). Arrays may be lists,
    numpy arrays (int, float, or object arrays of Fractions) or strings such as "3 0; 5 1".
    Floats are read as the decimals they print as.
    """

    def __init__(self, *arrays, title="", players=None, strategies=None):
        if len(arrays) == 1 and isinstance(arrays[0], _nimbus.NormalFormGame):
            self._native = arrays[0]
            return
        if not arrays:
            raise ValueError("give the payoff arrays: Game(A), Game(A, B) or Game(A1, ..., An)")
        nested = [_nested(a) for a in arrays]
        shapes = [_shape(n) for n in nested]
        if len(nested) == 1:
            if len(shapes[0]) != 2:
                raise ValueError("Game(A): A must be a matrix (the zero-sum game (A, -A))")
            nested.append([[_negate(x) for x in row] for row in nested[0]])
            shapes.append(shapes[0])
        if len(nested) == 2 and all(len(s) == 2 for s in shapes) and strategies is None:
            native = _nimbus.NormalFormGame.bimatrix(nested[0], nested[1])
            if title or players:
                native = _rename(native, title, players, None)
            self._native = native
            return
        self._native = _from_arrays(nested, shapes, title, players, strategies)

    # -- construction ------------------------------------------------------------------

    @classmethod
    def from_arrays(cls, *arrays, title=""):
        """pygambit's constructor: one payoff array per player, the players named "1", "2",
        ... and their strategies "1", "2", ... as pygambit names them."""
        # One array is the zero-sum game (A, -A): two players.
        players = [str(k + 1) for k in range(max(len(arrays), 2))]
        return cls(*arrays, title=title, players=players)

    @classmethod
    def parse_game(cls, text, source="the game"):
        """A game from the text of a .nfg file."""
        return cls(_nimbus.NormalFormGame.parse(text, source))

    def write(self, path=None):
        """The game as a .nfg file: written to ``path``, or returned as text without one."""
        return write_text(self._native.nfg(), path)

    def __reduce__(self):
        return (Game.parse_game, (self._native.nfg(), "a pickled game"))

    # -- what the game is --------------------------------------------------------------

    @property
    def title(self):
        return self._native.title()

    @property
    def players(self):
        """The players: each a name (``str``) with pygambit's ``label``, ``number`` and
        ``strategies``; indexed by number or name."""
        players, names = self._names()
        return Labelled(Player(p, k, n) for k, (p, n) in enumerate(zip(players, names)))

    @property
    def strategies(self):
        """Each player's strategy names."""
        return [list(s) for s in self._names()[1]]

    def _names(self):
        # A game never changes: its names are read from Rust once.
        names = self.__dict__.get("_cached_names")
        if names is None:
            names = (
                tuple(self._native.players()),
                tuple(tuple(s) for s in self._native.strategies()),
            )
            self._cached_names = names
        return names

    @property
    def shape(self):
        """How many strategies each player has."""
        return tuple(len(s) for s in self.strategies)

    @property
    def payoff_matrices(self):
        """Each player's payoffs as nested lists of Fractions, indexed by pure profile
        (nashpy's attribute; for two players, the matrices A and B)."""
        shape = self.shape
        table = self._native.payoff_table()
        out = []
        for i in range(len(shape)):
            flat = [q(row[i]) for row in table]
            out.append(_unflatten(flat, shape))
        return tuple(out)

    def __getitem__(self, profile):
        """``game[sigma_r, sigma_c]``: each player's expected payoff under mixed strategies."""
        v = self._check(profile)
        return tuple(q(p["payoff"]) for p in v["players"])

    # -- questions -----------------------------------------------------------------------

    def equilibria(
        self,
        method="auto",
        dominance=False,
        label=None,
        path=False,
        refine=None,
        select=None,
        **limits,
    ):
        """Nash equilibria, each checked exactly. ``method``: auto, vertex (Gambit's
        enummixed), support, lh (lcp), pure (enumpure), indifference, enumpoly (every
        equilibrium of a game of any number of players; the default for three or more:
        irrational ones in ``.enumeration.certified`` as proved boxes; limits
        ``max_supports``, ``time_limit``, ``digits``), logit (``path=True`` keeps the path
        in ``.logit_path``: points with ``lambda`` and ``profile``), simpdiv (one
        equilibrium by simplicial subdivision), gnm (one by the global Newton method). ``dominance``: False,
        True or "strict" (strictly dominated strategies removed first), or "weak". ``label``: for lh,
        the one label to start from, counted from 1 (rows, then columns), as on the command
        line. ``refine="perfect"``: ``.perfect`` says which equilibria listed are
        trembling-hand perfect (two players); ``refine="proper"``: ``.proper`` says which are
        proper (Myerson; two players; None for one whose ties leave more orderings to
        examine than ``max_work`` covers, with a note); ``refine="ess"`` (a symmetric game):
        ``.ess`` says which are ``(x, x)`` with ``x`` evolutionarily stable; ``"perfect,ess"``
        two of them.
        ``select="tracing"`` or ``"tracing:PRIOR"``: the one equilibrium the tracing procedure
        selects (see ``tracing``); ``select="risk-dominance"`` (two players): the pure
        equilibrium that risk-dominates every other (the tracing procedure from each pair's
        bicentric prior; the notes say each pair's outcome), or every pure one when none does.

        >>> g = Game([[1, 0], [0, 0]], [[1, 0], [0, 0]])
        >>> r = g.equilibria(refine="perfect")
        >>> r.equilibria, r.perfect
        ([Equilibrium((0, 1), (0, 1); payoffs 0, 0), Equilibrium((1, 0), (1, 0); payoffs 1, 1)], [False, True])
        >>> m = [[1, 0, -9], [0, 0, -7], [-9, -7, -7]]
        >>> r = Game(m, m).equilibria(refine="perfect,proper")
        >>> r.perfect, r.proper
        ([True, True, False], [True, False, False])
        >>> hawk_dove = Game([[-1, 2], [0, 1]], [[-1, 0], [2, 1]])
        >>> hawk_dove.equilibria(refine="ess").ess
        [False, True, False]
        """
        dom = _DOMINANCE.get(dominance, dominance)
        if limits or refine is not None or select is not None:
            return _nash_result(
                self._native.nash(
                    method, label, dom, path, refine=refine, select=select, **_limits(limits)
                ),
                self,
            )
        return _nash_result(self._native.nash(method, label, dom, path), self)

    def tracing(self, prior=None, **limits):
        """The equilibrium Harsanyi and Selten's linear tracing procedure selects from
        ``prior`` (each player's probabilities, exact or floats read as the decimals they
        print as; uniform when None): players start from best replies to the prior and
        gradually replace it by what the others play. Exact pivoting for two players (van den
        Elzen and Talman); the global Newton method's path, settled exactly, for more. The
        answer's ``.tracing`` holds the prior, the best replies it starts from and the steps.

        >>> g = Game([[3, 0], [0, 2]], [[3, 0], [0, 2]])
        >>> g.tracing().equilibria
        [Equilibrium((1, 0), (1, 0); payoffs 3, 3)]
        >>> r = g.tracing([[0.2, 0.8], [0.2, 0.8]])
        >>> r.equilibria, r.tracing.start
        ([Equilibrium((0, 1), (0, 1); payoffs 2, 2)], [1, 1])
        """
        if prior is None:
            return self.equilibria(select="tracing", **limits)
        words = [_probability_text(x) for p in prior for x in p]
        return self.equilibria(select="tracing:" + ",".join(words), **limits)

    def vertex_enumeration(self, dtype=None):
        """Every extreme equilibrium (nashpy's generator of (sigma_r, sigma_c))."""
        return _yield(self.equilibria("vertex"), dtype)

    def support_enumeration(self, dtype=None, **_ignored):
        """Equilibria by support enumeration (nashpy's generator)."""
        return _yield(self.equilibria("support"), dtype)

    def lemke_howson(self, initial_dropped_label=0, dtype=None):
        """One equilibrium by Lemke-Howson, dropping ``initial_dropped_label`` first (0-based:
        rows, then columns, as nashpy; ``equilibria(label=...)`` counts from 1, as the
        command line and the web do)."""
        labels = sum(self.shape)
        if not 0 <= initial_dropped_label < labels:
            raise ValueError(
                f"initial_dropped_label={initial_dropped_label}: labels run from 0 to "
                f"{labels - 1} (rows, then columns)"
            )
        r = self.equilibria("lh", label=initial_dropped_label + 1)
        return next(_yield(r, dtype))

    def lemke_howson_enumeration(self, dtype=None):
        """Lemke-Howson from every label in turn (nashpy's generator; repeats kept)."""
        labels = sum(self.shape)
        for k in range(labels):
            yield self.lemke_howson(k, dtype)

    def components(self):
        """The connected sets of equilibria: a list of {equilibria, cliques}, where each
        clique is a convex set (every listed row strategy against every listed column one)."""
        r = self.equilibria("vertex")
        out = []
        for c in r["components"]:
            eqs = [r["equilibria"][i] for i in c["equilibria"]]
            cliques = [
                Answer(
                    rows=[r["equilibria"][i][0] for i in k["rows"]],
                    cols=[r["equilibria"][i][1] for i in k["cols"]],
                )
                for k in c["cliques"]
            ]
            out.append(Answer(equilibria=eqs, cliques=cliques))
        return out

    def zero_sum(self, float=False):
        """The value and both players' optimal strategies of the zero-sum game of the first
        player's payoffs (exact LP; ``float=True`` for large games)."""
        a = from_value(self._native.zero_sum(float))
        if not float:
            for k in ("value", "maximin", "minimax"):
                a[k] = q(a[k])
            for k in ("row_strategy", "col_strategy"):
                a[k] = [q(x) for x in a[k]]
        return a

    def correlated(self, maximize="welfare", coarse=False, vertices=False, plot=False, **limits):
        """The correlated equilibrium that maximises ``maximize``: 'welfare' (the players'
        total payoff), 'player:K' (player K's, from 1) or 'weights:W1,W2,...', exactly (an LP);
        ``coarse=True`` for coarse correlated equilibria. The answer's ``distribution`` lists
        the profiles with positive probability. ``vertices=True``: ``.vertices`` lists every
        vertex of the polytope, each with ``payoffs``, ``nash`` (whether it is a Nash
        equilibrium) and ``distribution``. ``plot=True`` (two players): ``.plot``, an SVG of
        the payoffs (feasible, correlated, Nash and their hull, the best found).

        >>> chicken = Game([[6, 2], [7, 0]], [[6, 7], [2, 0]])
        >>> ce = chicken.correlated()
        >>> ce.value, [(c.profile, c.probability) for c in ce.distribution]
        (Fraction(21, 2), [(['1', '1'], Fraction(1, 2)), (['2', '1'], Fraction(1, 4)), (['1', '2'], Fraction(1, 4))])
        >>> [(v.payoffs, v.nash) for v in chicken.correlated(vertices=True).vertices]
        [([Fraction(21, 4), Fraction(21, 4)], False), ([Fraction(14, 3), Fraction(14, 3)], True), ([Fraction(7, 1), Fraction(2, 1)], True), ([Fraction(18, 5), Fraction(18, 5)], False), ([Fraction(2, 1), Fraction(7, 1)], True)]
        """
        a = from_value(self._native.correlated(maximize, coarse, vertices, plot=plot, **limits))
        a["value"] = q(a["value"])
        a["payoffs"] = [q(x) for x in a["payoffs"]]
        for c in a["distribution"]:
            c["probability"] = q(c["probability"])
        for v in a.get("vertices") or []:
            v["payoffs"] = [q(x) for x in v["payoffs"]]
            for c in v["distribution"]:
                c["probability"] = q(c["probability"])
        return a

    def repeated(self, delta, tolerance=None, plot=False, **limits):
        """The payoffs of the pure-action subgame-perfect equilibria of this two-player game
        repeated with the discount factor ``delta`` (perfect monitoring, public
        randomisation: Abreu and Sannikov's set, as QuantEcon computes it). ``.outer`` is a
        polygon proven to contain every such payoff, ``.inner`` one proven to hold only such
        payoffs (or None), ``.distance`` how far apart they are; ``.vertices`` are the inner
        polygon's when it is the outer one's made short (``.exact_vertices``), else the
        outer one's. Exact numbers are Fractions. ``plot=True``: ``.plot``, the folk-theorem
        picture (SVG). ``tolerance``: stop when a round moves the set by at most this much.
        A float ``delta`` is read as the decimal it prints as (0.9 is 9/10).

        >>> pd = Game([[9, 1], [10, 3]], [[9, 10], [1, 3]])
        >>> r = pd.repeated(0.9)
        >>> r.exact_vertices, r.vertices
        (True, [(Fraction(3, 1), Fraction(3, 1)), (Fraction(39, 4), Fraction(3, 1)), (Fraction(9, 1), Fraction(9, 1)), (Fraction(3, 1), Fraction(39, 4))])
        """
        # A float is read as the decimal it prints as (0.9 is 9/10, not the double nearest
        # it, whose denominator is 2^53).
        tol = None if tolerance is None else str(tolerance)
        a = from_value(self._native.repeated(str(delta), tol, plot=plot, **limits))
        pairs = lambda v: [(q(x), q(y)) for x, y in v]
        a["discount"] = q(a["discount"])
        a["outer"] = pairs(a["outer"])
        if a["inner"] is not None:
            a["inner"] = pairs(a["inner"])
        if a["exact_vertices"]:
            a["vertices"] = pairs(a["vertices"])
        else:
            a["vertices"] = [(float(x), float(y)) for x, y in a["vertices"]]
        for k in ("minmax_pure", "minmax_mixed"):
            a[k] = tuple(q(x) for x in a[k])
        return a

    def dynamics(
        self,
        rule="fictitious-play",
        rounds=1000,
        time=10.0,
        points=11,
        start=None,
        ties="first",
        two_populations=False,
        plot=False,
        times=None,
        rest_points=True,
        noise=0.1,
        perturbation=0.01,
        mutation=None,
        population=None,
        runs=1000,
        seed=0,
        graph=None,
        **limits,
    ):
        """How play evolves under a learning rule (the CLI's ``nimbus dynamics``):

        - ``"fictitious-play"`` (exact: each round a best reply to the other's empirical
          play; ``start`` the play counts, none by default; ``ties`` "first" or
          "random:SEED"; ``rounds``);
        - ``"best-response"`` (exact: each round both move to a best reply to the other's
          last strategy; ``start`` a pure profile such as ``[[1, 0], [0, 1]]``); the answer's
          ``ending`` is the pure equilibrium or the cycle it ends in;
        - ``"stochastic-fictitious-play"`` (a logit reply, noise ``noise``, to beliefs with
          payoffs perturbed up to ``perturbation``; drawn, from ``seed``);
        - ``"regret-matching"`` (Hart and Mas-Colell; exact regrets, drawn from ``seed``):
          each record's ``regret`` is the distance of the empirical joint play (``joint`` at
          the end) from the correlated equilibria;
        - ``"replicator"`` (the replicator equation to ``time``, integrated with error
          control; one population for a symmetric game unless ``two_populations``, else two;
          ``start`` the shares, uniform by default; ``times`` the times to record instead, the
          run starting at the first; ``mutation`` a rate or a matrix, as text, for the
          replicator-mutator equation) and ``"logit"`` (the logit dynamics, noise ``noise``);
        - ``"moran"`` (the Moran process on the row player's payoffs; ``population`` how many
          play each strategy; ``fixation`` exact for two strategies present, else from
          ``runs`` simulated runs; ``mutation`` a probability; ``graph`` a list of edges
          ``(i, j)`` between individuals numbered from 0, the offspring replacing a
          neighbour, fixation then simulated).

        The answer's ``points`` are ``points`` records evenly spaced, each with ``at`` (round,
        time or generation), ``profile`` (floats) and, for the exact rules, ``exact``
        (Fractions); ``counts`` the final play counts; ``rest_points`` (the replicator, one
        population or two of a 2 x 2 game, unless ``rest_points=False``: each with ``shares``,
        ``payoff``, ``nash``, ``stability``); ``plot`` an SVG when asked for (for three
        strategies and one population, the phase portrait on the simplex; for a 2 x 2 game
        and two populations, on the unit square).

        >>> hawk_dove = Game([[-1, 2], [0, 1]], [[-1, 0], [2, 1]])
        >>> run = hawk_dove.dynamics("replicator", time=30, start=[["9/10", "1/10"]])
        >>> [round(p, 4) for p in run.points[-1].profile[0]]
        [0.5, 0.5]
        >>> rps = Game([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
        >>> rps.dynamics(rounds=6, points=2).points[-1].exact
        [[Fraction(1, 6), Fraction(1, 2), Fraction(1, 3)], [Fraction(1, 6), Fraction(1, 2), Fraction(1, 3)]]
        """
        if start is not None:
            start = [[str(x) for x in v] for v in start]
        a = from_value(
            self._native.dynamics(
                rule,
                rounds,
                float(time),
                points,
                start,
                ties,
                two_populations,
                plot,
                None if times is None else [float(t) for t in times],
                rest_points,
                False,
                noise=float(noise),
                perturbation=float(perturbation),
                mutation=None if mutation is None else str(mutation),
                population=None if population is None else [int(c) for c in population],
                runs=runs,
                seed=seed,
                graph=None if graph is None else [(int(i), int(j)) for i, j in graph],
                **limits,
            )
        )
        for p in a["points"]:
            if p.get("regret") is not None:
                p["regret"] = q(p["regret"])
        if a.get("joint") is not None:
            a["joint"] = [[q(x) for x in row] for row in a["joint"]]
        for f in a.get("fixation") or []:
            if f.get("exact") is not None:
                f["exact"] = q(f["exact"])
        for r in a.get("rest_points") or []:
            r["shares"] = [q(x) for x in r["shares"]]
            r["payoff"] = q(r["payoff"])
            if r.get("second") is not None:
                r["second"] = [q(x) for x in r["second"]]
                r["second_payoff"] = q(r["second_payoff"])
        for p in a["points"]:
            if p.get("exact") is not None:
                p["exact"] = [[q(x) for x in v] for v in p["exact"]]
        return a

    # -- nashpy's names for the dynamics ---------------------------------------------------

    def fictitious_play(self, iterations, play_counts=None, ties="random"):
        """nashpy's ``fictitious_play``: a generator of the play counts (a NumPy array a
        player) before the first round and after each of ``iterations``. Exact best replies;
        ties drawn at random as nashpy draws them (``ties="first"``, or ``"random:SEED"``,
        for a repeatable run)."""
        import numpy as np

        m, n = (len(s) for s in self.strategies)
        start = [np.zeros(m, dtype=np.int64), np.zeros(n, dtype=np.int64)]
        if play_counts is not None:
            start = [np.array(v, dtype=np.int64) for v in play_counts]
        # One run that keeps the strategies played each round; the counts after each round
        # are running sums of them.
        a = self._native.dynamics(
            "fictitious-play",
            iterations,
            10.0,
            2,
            [[str(int(c)) for c in v] for v in start],
            ties,
            False,
            False,
            None,
            False,
            True,
        )
        plays = np.array(a["plays"], dtype=np.int64).reshape(-1, 2)
        rows = np.zeros((len(plays), m), dtype=np.int64)
        cols = np.zeros((len(plays), n), dtype=np.int64)
        rows[np.arange(len(plays)), plays[:, 0]] = 1
        cols[np.arange(len(plays)), plays[:, 1]] = 1
        rows = np.cumsum(rows, axis=0) + start[0]
        cols = np.cumsum(cols, axis=0) + start[1]
        yield [start[0].copy(), start[1].copy()]
        for r, c in zip(rows, cols):
            yield [r, c]

    def replicator_dynamics(self, y0=None, timepoints=None, mutation_matrix=None):
        """nashpy's ``replicator_dynamics``: the shares of one population playing the row
        player's payoffs against itself at each of ``timepoints`` (default
        ``linspace(0, 10, 1000)``) from ``y0`` (default uniform), as a NumPy array, one row a
        time point; with ``mutation_matrix`` (``[i][j]`` the chance that an offspring of ``i``
        plays ``j``), the replicator-mutator equation."""
        import numpy as np

        # One population plays the row player's payoffs against itself: this game when it is
        # symmetric, else the row player's against their transpose (made once per game).
        game = self.__dict__.get("_one_population")
        n = len(self.strategies[0])
        if game is None:
            # The payoffs as the library's exact texts (equal numbers, equal texts): the
            # check costs no Fraction.
            table = self._native.payoff_table()
            m = len(self.strategies[1])
            if m == n and all(
                table[i + j * n][1] == table[j + i * n][0] for i in range(n) for j in range(n)
            ):
                game = self
            else:
                a = [[table[i + j * n][0] for j in range(m)] for i in range(n)]
                game = Game(a, [list(r) for r in zip(*a)])
            self.__dict__["_one_population"] = game
        time, points, times = _record_times(timepoints)
        answer = game._native.dynamics(
            "replicator",
            1000,
            time,
            points,
            [_shares(y0, n)],
            "first",
            False,
            False,
            times,
            False,
            False,
            mutation=None if mutation_matrix is None else _matrix_text(mutation_matrix),
            series=True,
        )
        return np.frombuffer(answer["profile"], "<f8").reshape(-1, n).copy()

    def asymmetric_replicator_dynamics(self, x0=None, y0=None, timepoints=None):
        """nashpy's ``asymmetric_replicator_dynamics``: two populations, one a side, at each
        of ``timepoints`` (default ``linspace(0, 10, 1000)``) from ``x0`` and ``y0`` (default
        uniform): the pair of NumPy arrays ``(xs, ys)``."""
        import numpy as np

        m, n = len(self.strategies[0]), len(self.strategies[1])
        time, points, times = _record_times(timepoints)
        answer = self._native.dynamics(
            "replicator",
            1000,
            time,
            points,
            [_shares(x0, m), _shares(y0, n)],
            "first",
            True,
            False,
            times,
            False,
            False,
            series=True,
        )
        both = np.frombuffer(answer["profile"], "<f8").reshape(-1, m + n)
        return both[:, :m].copy(), both[:, m:].copy()

    def stochastic_fictitious_play(
        self, iterations, play_counts=None, etha=10**-1, epsilon_bar=10**-2, seed=None
    ):
        """nashpy's ``stochastic_fictitious_play``: a generator of ``(play_counts,
        distributions)`` before the first round (distributions ``(None, None)``) and after each
        of ``iterations``, with nashpy's logit noise ``etha`` and perturbation
        ``epsilon_bar``. Drawn from ``seed`` (a fresh one each call when None)."""
        import numpy as np

        m, n = (len(s) for s in self.strategies)
        start = [np.zeros(m, dtype=np.int64), np.zeros(n, dtype=np.int64)]
        if play_counts is not None:
            start = [np.array(v, dtype=np.int64) for v in play_counts]
        a = self._native.dynamics(
            "stochastic-fictitious-play",
            iterations,
            10.0,
            iterations + 1,
            [[str(int(c)) for c in v] for v in start],
            "first",
            False,
            False,
            None,
            False,
            False,
            noise=float(etha),
            perturbation=float(epsilon_bar),
            seed=_seed(seed),
            series=True,
        )
        counts = np.frombuffer(a["counts"], "<f8").astype(np.int64).reshape(-1, m + n)
        dist = np.frombuffer(a["distributions"], "<f8").reshape(-1, m + n).copy()
        for k in range(len(counts)):
            played = [counts[k, :m], counts[k, m:]]
            yield played, (None, None) if k == 0 else [dist[k, :m], dist[k, m:]]

    def moran_process(self, initial_population, mutation_probability=0, seed=None):
        """nashpy's ``moran_process`` on a complete graph: a generator of the population
        (a NumPy array, each individual's strategy) after each generation until one strategy
        is left (with mutation, for ever). Drawn from ``seed`` (a fresh one each call when
        None)."""
        import numpy as np

        population = np.array(initial_population)
        k = len(self.strategies[0])
        counts = np.bincount(population, minlength=k)
        rng = np.random.default_rng(_seed(seed))
        if mutation_probability == 0 and np.count_nonzero(counts) <= 1:
            yield population.copy()
            return
        while True:
            # A chunk of generations natively; each is turned into one individual replaced.
            a = self._native.dynamics(
                "moran",
                10**5,
                10.0,
                2,
                None,
                "first",
                False,
                False,
                None,
                False,
                True,
                mutation=None if not mutation_probability else str(float(mutation_probability)),
                population=[int(c) for c in counts],
                seed=int(rng.integers(2**63)),
            )
            generations = a["generations"]
            for before, after in zip(generations, generations[1:]):
                diff = np.array(after) - np.array(before)
                if diff.any():
                    died, born = int(np.argmin(diff)), int(np.argmax(diff))
                    who = rng.choice(np.flatnonzero(population == died))
                    population[who] = born
                yield population.copy()
            counts = np.array(generations[-1])
            if mutation_probability == 0 and np.count_nonzero(counts) <= 1:
                return

    def fixation_probabilities(self, initial_population, repetitions, seed=None):
        """nashpy's ``fixation_probabilities`` on a complete graph: ``{final population:
        probability}``. With two strategies present the probabilities are exact (the
        birth-death chain's, as floats; ``repetitions`` is not needed); with more, estimated
        from ``repetitions`` runs drawn from ``seed``."""
        import numpy as np

        population = np.array(initial_population)
        k = len(self.strategies[0])
        a = self.dynamics(
            "moran",
            rounds=10**6,
            points=2,
            population=list(np.bincount(population, minlength=k)),
            runs=repetitions,
            seed=_seed(seed),
        )
        n = len(population)
        return {
            (s,) * n: f["probability"]
            for s, f in enumerate(a["fixation"])
            if f["probability"] > 0
        }

    def dominated(self, weak=False):
        """Iterated elimination of dominated strategies (by pure strategies and mixtures):
        the removed strategies in order, each with the mixture that dominates it."""
        steps = self._native.dominated(weak)
        return _eliminations(steps, self.players, self.strategies)

    def is_equilibrium(self, *profile, tolerance=0):
        """Whether the mixed profile (one strategy per player) is a Nash equilibrium,
        exactly (or within ``tolerance``)."""
        return self._check(profile, tolerance)["equilibrium"]

    def is_best_response(self, *profile):
        """nashpy's ``is_best_response(sigma_r, sigma_c)``, for any number of players: for
        each player, whether their strategy is a best response to the others' (every
        strategy it plays earns the most against them), decided exactly."""
        v = self._check(profile)
        return tuple(q(p["payoff"]) == q(p["best_deviation_payoff"]) for p in v["players"])

    def verify(self, *profile, tolerance=0):
        """Each player's payoff and best pure deviation under the profile."""
        v = self._check(profile, tolerance)
        v["max_gain"] = q(v["max_gain"])
        v["tolerance"] = q(v["tolerance"])
        for p in v["players"]:
            for k in ("payoff", "best_deviation_payoff"):
                p[k] = q(p[k])
        return v

    def _check(self, profile, tolerance=0):
        if len(profile) == 1 and len(self.shape) > 1 and len(profile[0]) == len(self.shape):
            profile = profile[0]
        rows = [[exact_text(x) for x in _flat(s)] for s in profile]
        return from_value(self._native.verify(rows, exact_text(tolerance)))

    # -- display -------------------------------------------------------------------------

    def __repr__(self):
        shape = " x ".join(str(n) for n in self.shape)
        title = f" {self.title!r}" if self.title else ""
        return f"<nimbus.Game{title}: {len(self.players)} players, {shape}>"

    def _repr_html_(self):
        if len(self.shape) != 2:
            return html.escape(repr(self))
        a, b = self.payoff_matrices
        rows, cols = self.strategies
        head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
        body = ""
        for i, r in enumerate(rows):
            cells = "".join(f"<td>{a[i][j]}, {b[i][j]}</td>" for j in range(len(cols)))
            body += f"<tr><th>{html.escape(r)}</th>{cells}</tr>"
        return f"<table><tr><th></th>{head}</tr>{body}</table>"


_DOMINANCE = {False: "none", None: "none", True: "strict"}


def _negate(text):
    return text[1:] if text.startswith("-") else "-" + text


def _flat(x):
    if hasattr(x, "tolist"):
        x = x.tolist()
    return list(x)


def _unflatten(flat, shape):
    """Profiles numbered first player fastest, as nested lists indexed [s1][s2]..."""
    import itertools

    n = len(shape)
    if n == 2:
        # Two players, the common case, without the recursion.
        m = shape[0]
        return [[flat[i + j * m] for j in range(shape[1])] for i in range(m)]
    strides = [1] * n
    for i in range(1, n):
        strides[i] = strides[i - 1] * shape[i - 1]

    def build(prefix):
        if len(prefix) == n:
            return flat[sum(p * s for p, s in zip(prefix, strides))]
        return [build(prefix + [k]) for k in range(shape[len(prefix)])]

    del itertools
    return build([])


def _from_arrays(nested, shapes, title, players, strategies):
    n = len(nested)
    shape = shapes[0]
    if any(s != shape for s in shapes) or len(shape) != n:
        raise ValueError(
            f"{n} players need {n} arrays of {n} dimensions each, all of one shape; got shapes "
            f"{shapes}"
        )
    players = list(players or [f"Player {i + 1}" for i in range(n)])
    strategies = strategies or [[str(k + 1) for k in range(m)] for m in shape]
    total = 1
    for m in shape:
        total *= m
    payoffs = []
    for k in range(total):
        idx, rest = [], k
        for m in shape:
            idx.append(rest % m)
            rest //= m
        row = []
        for arr in nested:
            x = arr
            for i in idx:
                x = x[i]
            row.append(x)
        payoffs.append(row)
    return _nimbus.NormalFormGame.new(title, players, [list(s) for s in strategies], payoffs)


def _rename(native, title, players, strategies):
    table = native.payoff_table()
    return _nimbus.NormalFormGame.new(
        title or native.title(),
        list(players or native.players()),
        strategies or native.strategies(),
        table,
    )


def _yield(result, dtype):
    for e in result["equilibria"]:
        if dtype is None:
            yield tuple(e)
        else:
            import numpy as np

            yield tuple(np.array([float(p) for p in s], dtype=dtype) for s in e)


def _limits(kw):
    allowed = {"max_states", "max_memory", "max_work", "max_supports", "time_limit", "digits"}
    bad = set(kw) - allowed
    if bad:
        raise TypeError(f"unexpected keyword {sorted(bad)[0]!r}")
    return kw


def _record_times(timepoints):
    """nashpy's ``timepoints`` (default ``linspace(0, 10, 1000)``) as the library takes them:
    evenly spaced from 0, as a time and a number of records (no list to convert); otherwise
    the list itself. Returns ``(time, points, times)``."""
    import numpy as np

    if timepoints is None:
        return 10.0, 1000, None
    t = np.asarray(timepoints, dtype=float)
    if len(t) >= 2 and t[0] == 0 and t[-1] > 0:
        step = t[-1] / (len(t) - 1)
        if np.abs(t - np.arange(len(t)) * step).max() <= 1e-12 * t[-1]:
            return float(t[-1]), len(t), None
    return 10.0, 2, [float(x) for x in t]


def _seed(seed):
    """A seed for the native generator: the one given, or a fresh one."""
    import random

    return random.getrandbits(63) if seed is None else int(seed)


def _matrix_text(m):
    """A matrix of probabilities as the text the library reads (rows separated by ';'): each
    row exact, a row of floats that sums to 1 up to rounding made to sum to exactly 1 on its
    last entry (the library refuses rows that do not)."""
    rows = []
    for row in m:
        values = row.tolist() if hasattr(row, "tolist") else list(row)
        if values and all(isinstance(x, float) for x in values):
            nums, den = _over_binary_denominator(values)
            if abs(sum(nums) - den) < 1e-9 * den:
                nums[-1] = den - sum(nums[:-1])
            rows.append(" ".join(f"{p}/{den}" for p in nums))
            continue
        exact = [_exact(x) for x in values]
        if exact and abs(float(sum(exact)) - 1) < 1e-9:
            exact[-1] = 1 - sum(exact[:-1])
        rows.append(" ".join(str(x) for x in exact))
    return "; ".join(rows)


def _probability_text(x):
    """A number as the library reads it exactly: integers and Fractions as they are, floats
    (numpy's too) as the decimals they print as."""
    if isinstance(x, (int, Fraction)):
        return str(x)
    return repr(float(x))


def _exact(x):
    """A number as an exact fraction (floats exactly as they are stored)."""
    return Fraction(x) if isinstance(x, (int, Fraction)) else Fraction(float(x))


def _over_binary_denominator(values):
    """Floats, exactly, as whole numerators over one denominator: floats are binary fractions,
    so over the largest of their power-of-two denominators they are whole numbers, and sums
    are exact without a Fraction each. Returns ``(numerators, denominator)``."""
    ratios = [x.as_integer_ratio() for x in values]
    den = max(q for _, q in ratios)
    return [p * (den // q) for p, q in ratios], den


def _shares(v, n):
    """Shares as the texts of exact fractions summing to exactly 1 (floats taken as they are
    stored, the remainder on the last), uniform when ``v`` is None."""
    if v is None:
        return [f"1/{n}"] * n
    values = v.tolist() if hasattr(v, "tolist") else list(v)
    if values and all(isinstance(x, float) for x in values):
        nums, den = _over_binary_denominator(values)
        nums[-1] = den - sum(nums[:-1])
        return [f"{p}/{den}" for p in nums]
    shares = [Fraction(x) if isinstance(x, (int, Fraction)) else Fraction(float(x)) for x in values]
    shares[-1] = 1 - sum(shares[:-1])
    return [str(x) for x in shares]


class RepeatedGame:
    """QuantEcon's ``RepeatedGame``: a two-player ``Game`` repeated with the discount factor
    ``delta``. ``equilibrium_payoffs()`` answers as QuantEcon's does (an object whose
    ``points[vertices]`` are the vertices of the set), computed by ``Game.repeated``, whose
    whole answer it keeps in ``.answer``.

    >>> rpg = RepeatedGame(Game([[9, 1], [10, 3]], [[9, 10], [1, 3]]), 0.9)
    >>> hull = rpg.equilibrium_payoffs()
    >>> hull.points[hull.vertices].tolist()
    [[3.0, 3.0], [9.75, 3.0], [9.0, 9.0], [3.0, 9.75]]
    >>> round(hull.volume, 6)
    40.5
    """

    def __init__(self, stage_game, delta):
        self.sg = stage_game
        self.delta = delta
        self.N = 2

    def equilibrium_payoffs(self, method=None, options=None):
        """The set of pure-action subgame-perfect equilibrium payoffs (``method``:
        'abreu_sannikov' or 'AS', the only one; ``options``: ``tol``, stop when a round moves
        the set by at most this much)."""
        if method not in (None, "abreu_sannikov", "AS"):
            raise NotImplementedError(f"method {method} not supported.")
        tol = (options or {}).get("tol")
        a = self.sg.repeated(self.delta, tolerance=tol)
        if not a.exists:
            raise ValueError(
                "no incentive-compatible payoff vector found; the game has no pure-action "
                "subgame perfect equilibrium for this value of delta"
            )
        return _PayoffHull(a)


class _PayoffHull:
    """What ``RepeatedGame.equilibrium_payoffs`` returns, with the attributes of SciPy's
    ``ConvexHull`` that QuantEcon's users read: ``points`` (a NumPy array when NumPy is
    installed), ``vertices`` (their indices, counter-clockwise), ``equations`` (each edge's
    outward unit normal and offset, ``normal . x + offset <= 0`` inside), ``volume`` (the area)
    and ``area`` (the perimeter); and ``answer``, Nimbus's whole answer."""

    def __init__(self, answer):
        pts = [[float(x), float(y)] for x, y in answer.vertices]
        n = len(pts)
        equations, area, perimeter = [], 0.0, 0.0
        for k in range(n if n >= 3 else 0):
            (x0, y0), (x1, y1) = pts[k], pts[(k + 1) % n]
            length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
            nx, ny = (y1 - y0) / length, (x0 - x1) / length
            equations.append([nx, ny, -(nx * x0 + ny * y0)])
            area += x0 * y1 - x1 * y0
            perimeter += length
        if n == 2:
            perimeter = 2 * ((pts[1][0] - pts[0][0]) ** 2 + (pts[1][1] - pts[0][1]) ** 2) ** 0.5
        try:
            import numpy as np

            self.points = np.array(pts)
            self.vertices = np.arange(n)
            self.equations = np.array(equations).reshape(-1, 3)
        except ImportError:
            self.points = pts
            self.vertices = list(range(n))
            self.equations = equations
        self.volume = area / 2
        self.area = perimeter
        self.answer = answer
