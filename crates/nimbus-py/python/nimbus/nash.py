"""pygambit's ``nash`` module, answered by Nimbus: a notebook written for pygambit runs with
``import nimbus as gbt``. Each function returns an object with ``equilibria``, ``method`` and
``rational``; equilibria are exact (Fractions) unless ``rational=False``."""

from ._answers import Answer
from ._strategic import Equilibrium, Game
from ._tree import Tree

__all__ = [
    "enummixed_solve",
    "enumpoly_solve",
    "enumpure_solve",
    "lcp_solve",
    "logit_solve",
    "simpdiv_solve",
    "gnm_solve",
    "lp_solve",
    "NashComputationResult",
]


class NashComputationResult(Answer):
    """What each solver returns: ``equilibria``, ``method``, ``rational``, ``game``."""


def _game(game):
    """The strategic game a solver works on: a tree's is its reduced normal form, as
    pygambit's solvers use a tree's strategic form."""
    if isinstance(game, Game):
        return game
    if isinstance(game, Tree):
        return game.reduced()
    raise TypeError(
        "give a nimbus.Game or a nimbus.Tree (nimbus.Game.from_arrays, nimbus.read_nfg, "
        "nimbus.read_efg)"
    )


def _on_tree(tree, method, name, rational, limits):
    """pygambit's solvers on a tree's sequence form: behaviour profiles."""
    profiles, a = tree.behaviour_profiles(method, **limits)
    if not rational:
        profiles = [
            type(b)(
                [[float(x) for x in row] for row in b],
                [float(x) for x in b.payoffs],
                b.players,
                b.infosets,
            )
            for b in profiles
        ]
    out = NashComputationResult(
        game=tree,
        method=name,
        rational=rational,
        equilibria=profiles,
        # pygambit 17 names the one equilibrium of lcp_solve and lp_solve on a tree.
        equilibrium=profiles[0] if profiles else None,
    )
    if "value" in a:
        out["value"] = a.value
    return out


def _result(game, method, r, rational):
    eqs = list(r["equilibria"])
    if not rational:
        eqs = [
            Equilibrium(
                tuple(tuple(float(p) for p in s) for s in e),
                tuple(float(x) for x in e.payoffs),
                e.players,
                e.strategies,
            )
            for e in eqs
        ]
    for e in eqs:
        e.game = game
    return NashComputationResult(game=game, method=method, rational=rational, equilibria=eqs)


def enummixed_solve(game, rational=True, **limits):
    """Every extreme equilibrium of a two-player game (vertex enumeration)."""
    g = _game(game)
    return _result(g, "enummixed", g.equilibria("vertex", **limits), rational)


def enumpoly_solve(game, rational=True, **limits):
    """Every equilibrium of a game with any number of players (support enumeration with
    certified solutions). Rational equilibria are exact; irrational ones follow as floats
    (the centres of their proved boxes, in ``enumeration.certified`` with exact bounds)."""
    g = _game(game)
    r = g.equilibria("enumpoly", **limits)
    out = _result(g, "enumpoly", r, rational)
    players, names = g._names()
    players, names = list(players), [list(n) for n in names]
    for c in r.enumeration.certified:
        # In doubles: the bounds agree far beyond a double's precision, and the exact
        # midpoint's Fraction arithmetic was most of this loop's time (and float() of a
        # Fraction goes through the numbers module: twice the time of the division).
        out["equilibria"].append(
            Equilibrium(
                tuple(tuple(map(float, p)) for p in c.decimals),
                tuple(
                    (a.numerator / a.denominator + b.numerator / b.denominator) / 2
                    for a, b in zip(c.payoffs_lower, c.payoffs_upper)
                ),
                players,
                names,
            )
        )
    out["enumeration"] = r.enumeration
    return out


def logit_solve(game, **limits):
    """One equilibrium: the end of the logit quantal-response path, solved exactly on its
    support (``equilibria[0]`` exact when rational; otherwise ``enumeration.certified`` holds
    its proved box and ``equilibria`` its centre as floats)."""
    return _one(game, "logit", limits)


def simpdiv_solve(game, **limits):
    """One equilibrium by simplicial subdivision, its end solved exactly on its support
    (``equilibria[0]`` exact when rational; otherwise ``enumeration.certified`` holds its
    proved box and ``equilibria`` its centre as floats). Unlike pygambit's, it starts from the
    uniform profile and takes no start profile."""
    return _one(game, "simpdiv", limits)


def gnm_solve(game, **limits):
    """One equilibrium by the global Newton method (Govindan and Wilson), its end solved
    exactly on its support (``equilibria[0]`` exact when rational; otherwise
    ``enumeration.certified`` holds its proved box and ``equilibria`` its centre as floats)."""
    return _one(game, "gnm", limits)


def _one(game, method, limits):
    g = _game(game)
    r = g.equilibria(method, **limits)
    out = _result(g, method, r, True)
    players, names = g._names()
    for c in r.enumeration.certified:
        out["equilibria"].append(
            Equilibrium(
                tuple(tuple(float(x) for x in p) for p in c.decimals),
                tuple(float((a + b) / 2) for a, b in zip(c.payoffs_lower, c.payoffs_upper)),
                list(players),
                [list(n) for n in names],
            )
        )
    out["enumeration"] = r.enumeration
    return out


def enumpure_solve(game, **limits):
    """Every pure equilibrium, any number of players."""
    g = _game(game)
    return _result(g, "enumpure", g.equilibria("pure", **limits), True)


def lcp_solve(game, rational=True, **limits):
    """Equilibria of a two-player game by Lemke-Howson enumeration, as pygambit's: the
    paths from the artificial equilibrium and from every equilibrium found, with every
    label. On a tree, Lemke's method on the sequence form, with behaviour profiles, as
    pygambit's does by default."""
    if isinstance(game, Tree):
        return _on_tree(game, "lcp", "lcp", rational, limits)
    g = _game(game)
    r = g.equilibria("lh", **limits)
    seen, unique = set(), []
    for e in r["equilibria"]:
        if tuple(e) not in seen:
            seen.add(tuple(e))
            unique.append(e)
    r["equilibria"] = unique
    return _result(g, "lcp", r, rational)


def lp_solve(game, rational=True):
    """The equilibrium of a two-player zero-sum game by linear programming: both optimal
    strategies, with the value. On a tree, the sequence-form LP, with a behaviour profile."""
    if isinstance(game, Tree):
        return _on_tree(game, "lp", "lp", rational, {})
    g = _game(game)
    z = g.zero_sum(float=not rational)
    value = z["value"]
    row, col = tuple(z["row_strategy"]), tuple(z["col_strategy"])
    payoffs = g[row, col] if rational else (value, -value)
    e = Equilibrium((row, col), payoffs, g.players, g.strategies)
    # pygambit 16 lists the equilibria; pygambit 17 names the one equilibrium.
    return NashComputationResult(
        game=g, method="lp", rational=rational, equilibria=[e], equilibrium=e, value=value
    )
