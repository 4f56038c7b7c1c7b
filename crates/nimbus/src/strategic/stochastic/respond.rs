//! What a stationary strategy guarantees: the other player's best reply to it, exactly.
//!
//! With one player's stationary strategy fixed, the other faces a Markov decision process
//! with rational data, whose optimal value is rational and reached by a pure stationary
//! policy. Howard's policy iteration finds it: evaluate the policy (one exact linear system,
//! `(I − Q) w = c`, nonsingular because `Q`'s rows add up to at most the contraction factor
//! below 1), switch every state to an action that does strictly better against `w`, and stop
//! when none does (each switch improves the values, so no policy comes back). The values are
//! the strategy's guarantee in every state: a certificate that holds whatever strategy it is.

use super::game::StochasticGame;
use super::meter::{bits, system_steps, Meter};
use crate::core::error::{Error, Result};
use crate::exact::linalg::{solve_fractions, Solution};
use crate::exact::Q;
use num_traits::{One, Zero};
use std::collections::BTreeMap;

/// Which player's strategy is fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fixed {
    /// The row player's (maximiser's): the column player replies, minimising.
    Row,
    /// The column player's (minimiser's): the row player replies, maximising.
    Column,
}

/// A strategy's guarantee: the value of the best reply to it in each state, and that reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Guarantee {
    /// In each state: what the fixed player receives (row) or concedes (column) at worst.
    pub values: Vec<Q>,
    /// A best reply: one pure action a state.
    pub reply: Vec<usize>,
    /// Policies evaluated.
    pub rounds: usize,
}

/// One action of the replying player in one state, with the fixed strategy averaged in.
struct Action {
    cost: Q,
    next: Vec<(usize, Q)>,
}

/// The replies' actions in every state.
fn actions(game: &StochasticGame, fixed: Fixed, strategy: &[Vec<Q>]) -> Vec<Vec<Action>> {
    game.states
        .iter()
        .zip(strategy)
        .map(|(st, mix)| {
            let (mine, theirs) = match fixed {
                Fixed::Row => (st.rows.len(), st.columns.len()),
                Fixed::Column => (st.columns.len(), st.rows.len()),
            };
            (0..theirs)
                .map(|b| {
                    let mut cost = Q::zero();
                    let mut next: BTreeMap<usize, Q> = BTreeMap::new();
                    for (a, p) in mix.iter().enumerate().take(mine) {
                        if p.is_zero() {
                            continue;
                        }
                        let c = match fixed {
                            Fixed::Row => st.cell(a, b),
                            Fixed::Column => st.cell(b, a),
                        };
                        cost += p * &c.payoff;
                        for (t, q) in &c.next {
                            *next.entry(*t).or_insert_with(Q::zero) += p * q * &game.discount;
                        }
                    }
                    Action {
                        cost,
                        next: next.into_iter().filter(|(_, q)| !q.is_zero()).collect(),
                    }
                })
                .collect()
        })
        .collect()
}

/// The values of play when both players keep stationary strategies: one linear system.
pub fn joint_values(
    game: &StochasticGame,
    row: &[Vec<Q>],
    column: &[Vec<Q>],
    meter: &Meter,
) -> Result<Vec<Q>> {
    let acts = actions(game, Fixed::Row, row);
    let mixed: Vec<Vec<Action>> = acts
        .iter()
        .zip(column)
        .map(|(a, y)| {
            let mut cost = Q::zero();
            let mut next: BTreeMap<usize, Q> = BTreeMap::new();
            for (b, p) in a.iter().zip(y) {
                cost += p * &b.cost;
                for (t, q) in &b.next {
                    *next.entry(*t).or_insert_with(Q::zero) += p * q;
                }
            }
            vec![Action {
                cost,
                next: next.into_iter().filter(|(_, q)| !q.is_zero()).collect(),
            }]
        })
        .collect();
    meter.charge(
        "the values of a pair of stationary strategies",
        system_steps(mixed.len(), action_bits(&mixed)),
    )?;
    evaluate(&mixed, &vec![0; mixed.len()])
}

/// The longest number of the actions, in bits (what their linear systems are made of).
fn action_bits(acts: &[Vec<Action>]) -> u64 {
    acts.iter()
        .flatten()
        .map(|a| {
            a.next
                .iter()
                .map(|(_, q)| bits(q))
                .chain([bits(&a.cost)])
                .max()
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0)
}

/// The exact value of `action` against the values `w`.
fn worth(action: &Action, w: &[Q]) -> Q {
    &action.cost + action.next.iter().map(|(t, q)| q * &w[*t]).sum::<Q>()
}

/// The guarantee of `strategy` (one distribution a state over the fixed player's actions),
/// within `max_work` steps (a step: a number operation of the linear systems).
pub fn guarantee(
    game: &StochasticGame,
    fixed: Fixed,
    strategy: &[Vec<Q>],
    meter: &Meter,
) -> Result<Guarantee> {
    let acts = actions(game, fixed, strategy);
    let n = game.states.len();
    // The replier maximises against a column strategy and minimises against a row strategy.
    let better = |a: &Q, b: &Q| match fixed {
        Fixed::Row => a < b,
        Fixed::Column => a > b,
    };
    let zeros = vec![Q::zero(); n];
    let mut reply: Vec<usize> = acts
        .iter()
        .map(|a| best(a, &zeros, &better, None))
        .collect();
    let steps = system_steps(n, action_bits(&acts));
    let mut rounds = 0;
    loop {
        meter.charge(
            "the best reply to a stationary strategy of the stochastic game",
            steps,
        )?;
        rounds += 1;
        let w = evaluate(&acts, &reply)?;
        let mut changed = false;
        for (s, a) in acts.iter().enumerate() {
            let b = best(a, &w, &better, Some(reply[s]));
            if b != reply[s] {
                reply[s] = b;
                changed = true;
            }
        }
        if !changed {
            return Ok(Guarantee {
                values: w,
                reply,
                rounds,
            });
        }
    }
}

/// The first action that does best against `w`; `keep` stays unless another does strictly
/// better (so that policy iteration stops).
fn best(acts: &[Action], w: &[Q], better: &impl Fn(&Q, &Q) -> bool, keep: Option<usize>) -> usize {
    let mut at = keep.unwrap_or(0);
    let mut top = worth(&acts[at], w);
    for (b, a) in acts.iter().enumerate() {
        let x = worth(a, w);
        if better(&x, &top) {
            top = x;
            at = b;
        }
    }
    at
}

/// The values of the pure policy `reply`: `w = c + Q w`, solved exactly.
fn evaluate(acts: &[Vec<Action>], reply: &[usize]) -> Result<Vec<Q>> {
    let n = acts.len();
    let rows: Vec<Vec<Q>> = (0..n)
        .map(|s| {
            let a = &acts[s][reply[s]];
            let mut row = vec![Q::zero(); n + 1];
            row[s] = Q::one();
            for (t, q) in &a.next {
                row[*t] -= q;
            }
            row[n] = a.cost.clone();
            row
        })
        .collect();
    match solve_fractions(&rows, n) {
        Solution::Unique(w, _) => Ok(w),
        _ => Err(Error::Invalid(
            "internal inconsistency: a policy's values are not unique although play ends".into(),
        )),
    }
}
