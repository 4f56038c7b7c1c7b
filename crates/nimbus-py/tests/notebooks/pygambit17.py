# A notebook written for pygambit 17 (players and strategies are their labels, profiles are
# indexed by label), run with `gbt` bound to a module: pygambit 17 itself, or nimbus.
from fractions import Fraction

import numpy as np

A = np.array([[2, 0], [0, 1]])
B = np.array([[1, 0], [0, 2]])
g = gbt.StrategicGame.from_arrays(A, B)  # noqa: F821 (gbt is given)
assert list(g.players) == ["1", "2"]

result = gbt.nash.enummixed_solve(g, rational=True)  # noqa: F821
assert len(result.equilibria) == 3
(mixed,) = [eq for eq in result.equilibria if 0 < eq["1"]["1"] < 1]
assert mixed["1"]["1"] == Fraction(2, 3) and mixed["2"]["2"] == Fraction(2, 3)
assert mixed.payoffs["1"] == Fraction(2, 3) and mixed.payoffs["2"] == Fraction(2, 3)
assert mixed.max_regret() == 0
assert len(gbt.nash.enumpure_solve(g).equilibria) == 2  # noqa: F821

poker = gbt.read_efg(POKER)  # noqa: F821 (the path is given)
assert list(poker.players) == ["Fred", "Alice"]
eq = gbt.nash.lcp_solve(poker).equilibrium  # noqa: F821
assert eq.payoffs["Fred"] == Fraction(1, 3) and eq.payoffs["Alice"] == Fraction(-1, 3)
lp = gbt.nash.lp_solve(poker).equilibrium  # noqa: F821
assert lp.payoffs["Alice"] == Fraction(-1, 3)
