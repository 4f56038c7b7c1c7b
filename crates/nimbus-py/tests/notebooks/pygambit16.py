# A notebook written for pygambit 16 (its object model: players and strategies are objects
# with labels, profiles are indexed by them), run with `gbt` bound to a module.
from fractions import Fraction

import numpy as np

m = np.array([[8, 2], [10, 5]], dtype=gbt.Rational)  # noqa: F821 (gbt is given)
g = gbt.Game.from_arrays(m, np.transpose(m))  # noqa: F821
assert [p.label for p in g.players] == ["1", "2"]
assert [s.label for s in g.players[0].strategies] == ["1", "2"]
assert g.players["2"].label == "2"

result = gbt.nash.enumpure_solve(g)  # noqa: F821
assert len(result.equilibria) == 1
eq = result.equilibria[0]
assert eq[g.players[0].strategies[1]] == 1
assert eq[g.players[1]][g.players[1].strategies[1]] == 1
assert eq.payoff(g.players[0]) == 5 and eq.payoff("2") == 5

mixed = gbt.nash.enummixed_solve(g, rational=True).equilibria  # noqa: F821
assert [tuple(e[g.players[0]]) for e in mixed] == [(0, 1)]
assert mixed[0].max_regret() == 0

poker = gbt.Game.read_game(POKER)  # noqa: F821 (the path is given)
assert [p.label for p in poker.players] == ["Fred", "Alice"]
lcp = gbt.nash.lcp_solve(poker, rational=True).equilibria[0]  # noqa: F821
assert lcp.payoff(poker.players[0]) == Fraction(1, 3)
assert lcp.payoff(poker.players[1]) == Fraction(-1, 3)
