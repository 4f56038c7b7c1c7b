//! Shapley's operator `T`: the values of the stage games given values for the next states,
//! solved exactly, and the test that makes an answer exact.
//!
//! `T` is a contraction with the game's factor β in the largest-difference norm, so its fixed
//! point is the game's value, and any `v` with `T v = v` exactly *is* the value; the stage
//! games' optimal strategies at that point are then optimal stationary strategies (Shapley
//! 1953). That is how a rational candidate — the simplest fraction in each state's certified
//! interval — becomes a proven exact value.

use super::game::StochasticGame;
use super::meter::{lp_steps, Meter};
use crate::core::error::Result;
use crate::exact::interval::simplest_between;
use crate::exact::Q;
use crate::strategic::solvers::zerosum::solve_within;
use num_traits::{Signed, Zero};

/// `T v`, with an optimal strategy of each stage game for each player.
#[derive(Debug, Clone)]
pub struct Stage {
    /// The stage games' values.
    pub values: Vec<Q>,
    /// The row player's optimal strategy in each stage game.
    pub row: Vec<Vec<Q>>,
    /// The column player's.
    pub column: Vec<Vec<Q>>,
    /// Simplex pivots made.
    pub pivots: usize,
}

impl Stage {
    /// Both players' stage strategies, each probability rounded within `eps`
    /// ([`round_strategy`]).
    pub fn rounded(&self, eps: &Q) -> (Vec<Vec<Q>>, Vec<Vec<Q>>) {
        let each = |s: &[Vec<Q>]| s.iter().map(|p| round_strategy(p, eps)).collect();
        (each(&self.row), each(&self.column))
    }
}

/// Applies Shapley's operator to `v`, each stage game solved by the exact LP within
/// `max_memory` bytes.
pub fn apply(game: &StochasticGame, v: &[Q], max_memory: u64, meter: &Meter) -> Result<Stage> {
    let mut stage = Stage {
        values: Vec::with_capacity(v.len()),
        row: Vec::with_capacity(v.len()),
        column: Vec::with_capacity(v.len()),
        pivots: 0,
    };
    for s in 0..game.states.len() {
        let a = game.stage(s, v);
        meter.charge("a stage game of the stochastic game", lp_steps(&a))?;
        let z = solve_within(&a, max_memory)?;
        stage.values.push(z.value);
        stage.row.push(z.row_strategy);
        stage.column.push(z.col_strategy);
        stage.pivots += z.pivots;
    }
    Ok(stage)
}

/// The largest difference between two value vectors.
pub fn distance(a: &[Q], b: &[Q]) -> Q {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .max()
        .unwrap_or_else(Q::zero)
}

/// The simplest fraction within `eps` of `q`: keeps the numbers of an iteration short where
/// their last digits do not matter (every bound is computed afterwards from what was used).
pub fn round(q: &Q, eps: &Q) -> Q {
    if eps.is_zero() {
        return q.clone();
    }
    simplest_between(&(q - eps), &(q + eps))
}

/// A mixed strategy rounded within `eps` a probability, still a distribution: the largest
/// probability takes up what the others' rounding left (the original is kept if that would
/// go negative).
pub fn round_strategy(p: &[Q], eps: &Q) -> Vec<Q> {
    let big = (0..p.len()).max_by(|&a, &b| p[a].cmp(&p[b])).unwrap_or(0);
    let mut r: Vec<Q> = p
        .iter()
        .map(|x| {
            if x.is_zero() {
                Q::zero()
            } else {
                round(x, eps).max(Q::zero())
            }
        })
        .collect();
    let others: Q = r
        .iter()
        .enumerate()
        .filter(|&(k, _)| k != big)
        .map(|(_, x)| x)
        .sum();
    r[big] = Q::from_integer(1.into()) - others;
    if r[big].is_negative() {
        return p.to_vec();
    }
    r
}

/// The candidate `c`, if it is the value: `T c = c`, checked exactly. Returns `T` at it
/// (whose strategies are optimal).
pub fn exact_candidate(
    game: &StochasticGame,
    c: &[Q],
    max_memory: u64,
    meter: &Meter,
) -> Result<Option<Stage>> {
    let stage = apply(game, c, max_memory, meter)?;
    Ok((stage.values == c).then_some(stage))
}
