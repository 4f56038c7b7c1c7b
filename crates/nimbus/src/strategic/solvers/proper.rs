//! Proper equilibria (Myerson 1978) of two-player games, decided exactly where the game's
//! ties leave few orderings to examine.
//!
//! An equilibrium is proper when it is the limit of ε-proper profiles: completely mixed
//! profiles in which a strategy that does worse than another is played at most ε times as
//! often. Along such a sequence (by curve selection, a family of power series in δ → 0) each
//! player's strategies fall into classes by the order of their probabilities — the support
//! first, then the strategies that appear at the next order, and so on — and properness says:
//! a strategy in an earlier class never does worse than one in a later class, and two in the
//! same class always do equally well, against the other player's perturbed strategy. So an
//! equilibrium `(x, y)` is proper exactly when there are two rankings (ordered partitions of
//! each player's strategies, the support first) such that
//!
//! - the column player's perturbation `y + Σₖ δᵏ vₖ`, whose strategies appear in the order of
//!   their ranking, keeps the row player's payoffs in the order of the row ranking (a
//!   lexicographic comparison of polynomials in δ), and
//! - the row player's perturbation likewise keeps the column player's payoffs in the order of
//!   the column ranking.
//!
//! Given the two rankings the halves are independent, and each is decided by one exact LP for
//! each class of the other player after the support. Along the perturbation `y + Σₖ δᵏ vₖ`
//! the coefficient at the order where a class appears is positive on it, zero on the classes
//! still to come and free on those already there; the payoffs of one's strategies in a class
//! must stay equal at every order, and consecutive classes whose payoffs tie against `y` must
//! not be reversed at the first order that separates them. The LP asks for such a coefficient
//! that keeps every tie at or above zero. That is enough: a tie broken at an earlier order
//! needs nothing more, but a combination `λ₁r₁ + λ₂r₂ + … + v` of the earlier orders'
//! coefficients with `λ₁ ≫ λ₂ ≫ … ≫ 1` keeps it broken anyway while leaving the new class
//! positive, so keeping every tie is never harder than keeping only the ties still open — and
//! orders at which no class appears add nothing for the same reason. Only the rankings are
//! searched: each must order the strategies by their payoffs against the equilibrium and may
//! only split ties, so a game without ties has one ranking a player. Where the ties leave more
//! rankings than the work budget covers, the equilibrium is reported as not decided.
//!
//! (Whether properness can be decided in polynomial time for two players is open: Hansen,
//! Miltersen and Sørensen, "The computational complexity of trembling hand perfection and
//! other equilibrium refinements", 2010.)

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::core::progress;
use crate::exact::simplex::maximize;
use crate::exact::{over_common_denominator, Q};
use crate::strategic::solvers::perfect::best_reply_to_completely_mixed;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// Whether an equilibrium is proper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Proper, with the rankings that show it.
    Proper(Rankings),
    /// Not proper: no rankings work.
    NotProper,
    /// Not decided: examining every pair of rankings would take more than the work budget.
    Undecided {
        /// Pairs of rankings there are to examine.
        pairs: u128,
    },
}

/// Each player's strategies in the order an ε-proper sequence plays them: classes of equally
/// likely strategies (to within a constant), the support first, each class infinitely more
/// likely than the next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rankings {
    /// The row player's classes, then the column player's.
    pub classes: [Vec<Vec<usize>>; 2],
}

/// Work one operation on exact rationals is charged: measured here, an exact LP's entry
/// update and a rational product take some tens of nanoseconds, ten times the few the work
/// budget's steps stand for.
const RATIONAL: u128 = 10;

/// Work an LP of `rows` constraints over `cols` variables is charged: its entries times the
/// pivots it took (and one for the floating-point guide), in rational operations.
fn lp_work(rows: usize, cols: usize, pivots: usize) -> u128 {
    (rows as u128) * (cols as u128) * (pivots as u128 + 1) * RATIONAL
}

/// Decides whether the equilibrium `(x, y)` of the bimatrix game `(a, b)` (both `m × n`, the
/// row player's and the column player's payoffs) is proper.
///
/// The pairs of rankings are examined while the work `spent` (added to here, so that one
/// budget can serve several equilibria) stays within `limits.max_work`; past it, or when the
/// rankings would not fit in `limits.max_memory`, the verdict is [`Verdict::Undecided`].
pub fn decide(
    a: &[Vec<Q>],
    b: &[Vec<Q>],
    x: &[Q],
    y: &[Q],
    limits: &Limits,
    spent: &mut u128,
) -> Result<Verdict> {
    let (m, n) = (a.len(), a.first().map_or(0, Vec::len));
    if x.len() != m || y.len() != n || b.len() != m || b.iter().any(|r| r.len() != n) {
        return Err(Error::Invalid(
            "the profile's lengths do not match the game's".into(),
        ));
    }
    let bt: Vec<Vec<Q>> = (0..n)
        .map(|j| b.iter().map(|row| row[j].clone()).collect())
        .collect();
    // A proper equilibrium is perfect, and perfection takes two LPs.
    if !best_reply_to_completely_mixed(a, x, limits)?
        || !best_reply_to_completely_mixed(&bt, y, limits)?
    {
        return Ok(Verdict::NotProper);
    }
    let rows = Ties::of(a, x, y)?;
    let cols = Ties::of(&bt, y, x)?;
    let (row_side, col_side) = (Side::new(a, y), Side::new(&bt, x));
    let pairs = rows.count().saturating_mul(cols.count());
    let budget = u128::from(limits.max_work);
    // The largest LP: a row for each equality and tie (at most the strategies), two for each
    // strategy appearing, over two variables for each of the other's strategies.
    let (most, cols_most) = (3 * (m + n), 4 * m.max(n));
    if spent.saturating_add(lp_work(most, cols_most, most.min(cols_most))) > budget {
        return Ok(Verdict::Undecided { pairs });
    }
    // The rankings that split no tie come first: they often do (every equilibrium of a game
    // whose payoffs are all equal, say).
    let (coarse_rows, coarse_cols) = (rows.coarsest(), cols.coarsest());
    if sustained(&row_side, &coarse_rows, &coarse_cols, spent)?
        && sustained(&col_side, &coarse_cols, &coarse_rows, spent)?
    {
        return Ok(Verdict::Proper(Rankings {
            classes: [coarse_rows, coarse_cols],
        }));
    }
    if pairs == 1 {
        return Ok(Verdict::NotProper);
    }
    // Each ranking is a list of at most (strategies) lists: 64 bytes a strategy with the lists'
    // headers, generously.
    let entries = (rows.count().saturating_mul(m as u128))
        .saturating_add(cols.count().saturating_mul(n as u128));
    if entries.saturating_mul(64) > u128::from(limits.max_memory) {
        return Ok(Verdict::Undecided { pairs });
    }
    *spent = spent.saturating_add(entries.saturating_mul(RATIONAL));
    let row_rankings = rows.all();
    let col_rankings = cols.all();
    for fc in &col_rankings {
        for fr in &row_rankings {
            if (fr, fc) == (&coarse_rows, &coarse_cols) {
                continue; // examined first, above
            }
            progress::check()?;
            if *spent > budget {
                return Ok(Verdict::Undecided { pairs });
            }
            if sustained(&row_side, fr, fc, spent)? && sustained(&col_side, fc, fr, spent)? {
                return Ok(Verdict::Proper(Rankings {
                    classes: [fr.clone(), fc.clone()],
                }));
            }
        }
    }
    Ok(Verdict::NotProper)
}

/// One player's strategies grouped by their payoff against the other's equilibrium strategy:
/// the support, the other best replies, then each lower payoff's strategies, best first.
struct Ties {
    support: Vec<usize>,
    /// The groups whose order inside a ranking is free: the best replies outside the support,
    /// then each lower payoff's strategies.
    groups: Vec<Vec<usize>>,
}

impl Ties {
    /// The ties of the player with payoffs `own` (rows their strategies) playing `mine`
    /// against `theirs`.
    fn of(own: &[Vec<Q>], mine: &[Q], theirs: &[Q]) -> Result<Ties> {
        let payoff: Vec<Q> = own
            .iter()
            .map(|row| row.iter().zip(theirs).map(|(u, p)| u * p).sum())
            .collect();
        let support: Vec<usize> = (0..own.len()).filter(|&s| mine[s].is_positive()).collect();
        let Some(best) = payoff.iter().max() else {
            return Err(Error::Invalid("a player has no strategies".into()));
        };
        if support.is_empty() || support.iter().any(|&s| &payoff[s] != best) {
            return Err(Error::Invalid(
                "the profile is not an equilibrium: a strategy played is not a best reply".into(),
            ));
        }
        // The other best replies, then the rest by payoff, best first, equal payoffs together.
        let others: Vec<usize> = (0..own.len())
            .filter(|&s| !mine[s].is_positive() && &payoff[s] == best)
            .collect();
        let mut rest: Vec<usize> = (0..own.len()).filter(|&s| &payoff[s] != best).collect();
        rest.sort_by(|&s, &t| payoff[t].cmp(&payoff[s]).then(s.cmp(&t)));
        let mut groups: Vec<Vec<usize>> = vec![others];
        for s in rest {
            match groups.last_mut() {
                Some(g) if g.first().is_some_and(|&t| payoff[t] == payoff[s]) => g.push(s),
                _ => groups.push(vec![s]),
            }
        }
        groups.retain(|g| !g.is_empty());
        Ok(Ties { support, groups })
    }

    /// How many rankings split these ties: the product of the groups' ordered partitions.
    fn count(&self) -> u128 {
        self.groups
            .iter()
            .fold(1u128, |acc, g| acc.saturating_mul(fubini(g.len())))
    }

    /// The ranking that splits no tie: the support, then each group whole.
    fn coarsest(&self) -> Vec<Vec<usize>> {
        let mut r = vec![self.support.clone()];
        r.extend(self.groups.iter().cloned());
        r
    }

    /// Every ranking: the support, then each group split by one of its ordered partitions.
    fn all(&self) -> Vec<Vec<Vec<usize>>> {
        let mut out = vec![vec![self.support.clone()]];
        for g in &self.groups {
            let splits = ordered_partitions(g);
            out = out
                .iter()
                .flat_map(|head| {
                    splits.iter().map(move |split| {
                        let mut r = head.clone();
                        r.extend(split.iter().cloned());
                        r
                    })
                })
                .collect();
        }
        out
    }
}

/// The number of ordered partitions of `k` things (the Fubini numbers), saturating.
fn fubini(k: usize) -> u128 {
    // a(k) = Σ_{j=1..k} C(k, j) a(k − j), a(0) = 1.
    let mut a = vec![1u128];
    for size in 1..=k {
        let mut total = 0u128;
        let mut choose = 1u128;
        for j in 1..=size {
            choose = choose.saturating_mul((size - j + 1) as u128) / j as u128;
            total = total.saturating_add(choose.saturating_mul(a[size - j]));
        }
        a.push(total);
    }
    a[k]
}

/// Every ordered partition of `items` (each a list of blocks, the first block first).
fn ordered_partitions(items: &[usize]) -> Vec<Vec<Vec<usize>>> {
    // Built one item at a time: each partition of the items so far takes the next item into
    // one of its blocks or as a new block in any of the gaps.
    let mut out: Vec<Vec<Vec<usize>>> = vec![Vec::new()];
    for &item in items {
        let mut next = Vec::new();
        for p in &out {
            for k in 0..p.len() {
                let mut q = p.clone();
                q[k].push(item);
                next.push(q);
            }
            for gap in 0..=p.len() {
                let mut q = p.clone();
                q.insert(gap, vec![item]);
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// One player's side of the check: their payoffs over a common denominator (the LPs are
/// homogeneous, so one positive scale changes nothing) and each strategy's payoff against the
/// other player's equilibrium strategy.
struct Side {
    own: Vec<Vec<BigInt>>,
    level0: Vec<Q>,
}

impl Side {
    /// The player with payoffs `own` (rows their strategies) against `other`.
    fn new(own: &[Vec<Q>], other: &[Q]) -> Side {
        let width = other.len();
        let (flat, _) = over_common_denominator(own.iter().flatten());
        let level0 = own
            .iter()
            .map(|row| row.iter().zip(other).map(|(u, p)| u * p).sum())
            .collect();
        Side {
            own: flat.chunks(width.max(1)).map(<[BigInt]>::to_vec).collect(),
            level0,
        }
    }
}

/// Whether the other player's perturbation, its strategies appearing in the order `theirs`
/// (classes, the support of the other's equilibrium strategy first), can keep the payoffs of
/// the player of `side` in the order `mine`.
fn sustained(
    side: &Side,
    mine: &[Vec<usize>],
    theirs: &[Vec<usize>],
    spent: &mut u128,
) -> Result<bool> {
    let own = &side.own;
    let diff = |s: usize, t: usize| -> Vec<BigInt> {
        own[s].iter().zip(&own[t]).map(|(u, v)| u - v).collect()
    };
    *spent += (own.len() * theirs.iter().map(Vec::len).sum::<usize>()) as u128 * RATIONAL;
    // Order 0, the equilibrium strategy itself: payoffs inside a class equal, consecutive
    // classes not reversed.
    let payoff = |s: usize| &side.level0[s];
    if mine
        .iter()
        .any(|class| class.iter().any(|&s| payoff(s) != payoff(class[0])))
        || mine.windows(2).any(|w| payoff(w[0][0]) < payoff(w[1][0]))
    {
        return Ok(false);
    }
    // At the later orders: payoffs inside a class stay equal, and consecutive classes that
    // tie at order 0 are not reversed.
    let equal: Vec<Vec<BigInt>> = mine
        .iter()
        .flat_map(|class| class[1..].iter().map(move |&s| (s, class[0])))
        .map(|(s, t)| diff(s, t))
        .collect();
    let tied: Vec<Vec<BigInt>> = mine
        .windows(2)
        .filter(|w| payoff(w[0][0]) == payoff(w[1][0]))
        .map(|w| diff(w[0][0], w[1][0]))
        .collect();
    let mut appeared: Vec<usize> = theirs[0].clone();
    for class in &theirs[1..] {
        if !appears(&equal, &tied, &appeared, class, spent)? {
            return Ok(false);
        }
        appeared.extend(class.iter().copied());
    }
    Ok(true)
}

/// Whether the class `new` can appear: some vector free on `appeared`, positive on `new` and
/// zero elsewhere keeps every `equal` difference at zero and every `tied` one at or above zero.
fn appears(
    equal: &[Vec<BigInt>],
    tied: &[Vec<BigInt>],
    appeared: &[usize],
    new: &[usize],
    spent: &mut u128,
) -> Result<bool> {
    // Variables: v⁺ and v⁻ for each appeared strategy, v for each new one, then z for each
    // new one (z ≤ v, z ≤ 1); maximise Σz, which reaches the number of new strategies exactly
    // when all can be positive at once (the solutions form a cone closed under addition).
    if equal.is_empty() && tied.is_empty() {
        // Nothing to keep: the new class alone, everything else zero, will do.
        return Ok(true);
    }
    let (na, nn) = (appeared.len(), new.len());
    let cols = 2 * na + 2 * nn;
    let coefficients = |d: &[BigInt], sign: &BigInt| -> Vec<BigInt> {
        let mut row = vec![BigInt::zero(); cols];
        for (i, &t) in appeared.iter().enumerate() {
            row[i] = sign * &d[t];
            row[na + i] = -&row[i];
        }
        for (i, &t) in new.iter().enumerate() {
            row[2 * na + i] = sign * &d[t];
        }
        row
    };
    let (plus, minus) = (BigInt::one(), -BigInt::one());
    let mut a: Vec<Vec<BigInt>> = Vec::new();
    let mut b: Vec<BigInt> = Vec::new();
    for e in equal {
        a.push(coefficients(e, &plus));
        a.push(coefficients(e, &minus));
        b.extend([BigInt::zero(), BigInt::zero()]);
    }
    for d in tied {
        a.push(coefficients(d, &minus));
        b.push(BigInt::zero());
    }
    for i in 0..nn {
        let mut cap = vec![BigInt::zero(); cols];
        cap[2 * na + nn + i] = BigInt::one();
        let mut below = cap.clone();
        below[2 * na + i] = minus.clone();
        a.extend([below, cap]);
        b.extend([BigInt::zero(), BigInt::one()]);
    }
    let mut c = vec![BigInt::zero(); cols];
    for v in c.iter_mut().skip(2 * na + nn) {
        *v = BigInt::one();
    }
    let lp = maximize(&a, &b, &c)?;
    *spent += lp_work(a.len(), cols, lp.pivots);
    Ok(lp.value == Q::from_integer(BigInt::from(nn)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fubini_numbers() {
        let got: Vec<u128> = (0..8).map(fubini).collect();
        assert_eq!(got, vec![1, 1, 3, 13, 75, 541, 4683, 47293]);
        for k in 0..6 {
            let items: Vec<usize> = (0..k).collect();
            assert_eq!(ordered_partitions(&items).len() as u128, fubini(k));
        }
    }
}
