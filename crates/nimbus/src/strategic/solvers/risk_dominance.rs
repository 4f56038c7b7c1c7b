//! Harsanyi and Selten's risk dominance between the pure equilibria of a two-player game:
//! for each pair, the tracing procedure from their *bicentric prior* reaches one of the two,
//! which risk-dominates the other, or neither.
//!
//! The bicentric prior of equilibria `e` and `f`: each player, unsure which of the two the
//! other will play, believes the other plays `e`'s strategy with a probability `z` drawn
//! uniformly from `[0, 1]` and `f`'s otherwise, and plays a best reply; the prior gives each
//! strategy the chance that it is the best reply — the length of its piece of the upper
//! envelope of the payoff lines over `z` ([`envelope::upper_envelope`]), exact, shared equally
//! by identical lines. In a 2 × 2 game with two strict equilibria the procedure from it picks
//! the larger product of deviation losses (Harsanyi and Selten's theorem, which the tests
//! check).

use crate::core::budget::Limits;
use crate::core::error::{Error, Resource, Result};
use crate::exact::Q;
use crate::strategic::bimatrix::Bimatrix;
use crate::strategic::solvers::{envelope, tracing};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// How one pair of pure equilibria compares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The procedure reaches the first: it risk-dominates the second.
    First,
    /// It reaches the second.
    Second,
    /// A player's best replies to the prior tie, so where the procedure goes would be the
    /// tie-break's choice, not the game's: neither dominates.
    Tie,
    /// It reaches another equilibrium: neither dominates.
    Neither,
}

/// One pair's comparison.
#[derive(Debug, Clone)]
pub struct Pair {
    /// The indices of the two equilibria in the list given.
    pub equilibria: [usize; 2],
    /// Their bicentric prior, each player's.
    pub prior: [Vec<Q>; 2],
    /// What the procedure from it found.
    pub outcome: Outcome,
}

/// Every pair of the pure equilibria `pure` (a row and a column each) compared, in order,
/// and the one that risk-dominates every other, if one does. All the pairs' paths are
/// charged to one work budget.
pub fn rank(
    g: &Bimatrix,
    pure: &[[usize; 2]],
    limits: &Limits,
) -> Result<(Vec<Pair>, Option<usize>)> {
    let mut pairs = Vec::new();
    let mut beaten = vec![false; pure.len()];
    // Each path runs within what the others left of the budget.
    let mut left = *limits;
    for i in 0..pure.len() {
        for j in i + 1..pure.len() {
            crate::core::progress::check()?;
            let (e, f) = (pure[i], pure[j]);
            let prior = bicentric(g, e, f);
            let outcome = if tied_best_replies(g, &prior[0], &prior[1]) {
                Outcome::Tie
            } else {
                let traced = match tracing::trace(g, &prior[0], &prior[1], &left) {
                    // Said of the whole comparison and the budget as given, not of the part
                    // of it this pair had left.
                    Err(Error::Budget {
                        resource: resource @ Resource::Work,
                        needed,
                        ..
                    }) => {
                        return Err(Error::Budget {
                            what: format!(
                                "risk dominance's tracing paths ({} pairs of pure equilibria)",
                                pure.len() * (pure.len() - 1) / 2
                            ),
                            resource,
                            needed: (limits.max_work - left.max_work).saturating_add(needed),
                            limit: limits.max_work,
                        });
                    }
                    other => other?,
                };
                left.max_work = left.max_work.saturating_sub(traced.work);
                let end = traced.equilibrium.profile;
                let plays = |p: [usize; 2]| (0..2).all(|k| end[k][p[k]].is_one());
                if plays(e) {
                    Outcome::First
                } else if plays(f) {
                    Outcome::Second
                } else {
                    Outcome::Neither
                }
            };
            match outcome {
                Outcome::First => beaten[j] = true,
                Outcome::Second => beaten[i] = true,
                Outcome::Tie | Outcome::Neither => {
                    beaten[i] = true;
                    beaten[j] = true;
                }
            }
            pairs.push(Pair {
                equilibria: [i, j],
                prior,
                outcome,
            });
        }
    }
    let dominant = (pure.len() >= 2)
        .then(|| beaten.iter().position(|b| !b))
        .flatten();
    Ok((pairs, dominant))
}

/// The bicentric prior of two pure equilibria `e` and `f` (a row and a column each), as the
/// module says.
pub fn bicentric(g: &Bimatrix, e: [usize; 2], f: [usize; 2]) -> [Vec<Q>; 2] {
    // Each strategy's payoff against the belief z: the line from f's (z = 0) to e's (z = 1).
    let rows: Vec<(Q, Q)> = (0..g.m)
        .map(|s| (q(&g.a[s][f[1]]), q(&g.a[s][e[1]])))
        .collect();
    let columns: Vec<(Q, Q)> = (0..g.n)
        .map(|t| (q(&g.b[f[0]][t]), q(&g.b[e[0]][t])))
        .collect();
    [best_reply_measure(&rows), best_reply_measure(&columns)]
}

fn q(x: &BigInt) -> Q {
    Q::from_integer(x.clone())
}

/// Whether a player has two or more best replies to the other's part of the prior `(p, q)`:
/// then where the procedure goes is decided by how the tie is broken, not by the game.
pub fn tied_best_replies(g: &Bimatrix, p: &[Q], q: &[Q]) -> bool {
    let tied = |values: Vec<Q>| {
        let top = values.iter().max().cloned();
        values.iter().filter(|v| Some(*v) == top.as_ref()).count() > 1
    };
    let rows = (0..g.m)
        .map(|s| {
            (0..g.n)
                .map(|t| &q[t] * Q::from_integer(g.a[s][t].clone()))
                .sum()
        })
        .collect();
    let columns = (0..g.n)
        .map(|t| {
            (0..g.m)
                .map(|s| &p[s] * Q::from_integer(g.b[s][t].clone()))
                .sum()
        })
        .collect();
    tied(rows) || tied(columns)
}

/// For lines given by their values at 0 and at 1, how much of `[0, 1]` each is highest on:
/// the length of its piece of the upper envelope, shared equally with the lines identical
/// to it (distinct lines are highest together only where they cross).
fn best_reply_measure(lines: &[(Q, Q)]) -> Vec<Q> {
    let mut measure = vec![Q::zero(); lines.len()];
    for piece in envelope::upper_envelope(lines) {
        let same: Vec<usize> = (0..lines.len())
            .filter(|&k| lines[k] == lines[piece.best])
            .collect();
        let share = (&piece.to - &piece.from) / Q::from_integer(same.len().into());
        for k in same {
            measure[k] += &share;
        }
    }
    measure
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bicentric_prior_measures_best_replies() {
        let q = |n: i64, d: i64| Q::new(n.into(), d.into());
        // Three lines: 0 → 3, 2 → 0 and 1 → 1 (flat). The first is highest from z = 2/5 on
        // (3z > 2 − 2z there, and 3z > 1), the second below (2 − 2z > 1 there): 3/5 and 2/5,
        // the flat one never.
        let lines = vec![(q(0, 1), q(3, 1)), (q(2, 1), q(0, 1)), (q(1, 1), q(1, 1))];
        assert_eq!(best_reply_measure(&lines), vec![q(3, 5), q(2, 5), q(0, 1)]);
        // Two equal lines share their stretch: both flat at 1, above the third (z) until 1.
        let tied = vec![(q(1, 1), q(1, 1)), (q(1, 1), q(1, 1)), (q(0, 1), q(1, 1))];
        assert_eq!(best_reply_measure(&tied), vec![q(1, 2), q(1, 2), q(0, 1)]);
    }
}
