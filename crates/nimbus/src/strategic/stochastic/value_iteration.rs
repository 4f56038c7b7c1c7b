//! Value iteration (Shapley 1953): `v ← T v`, each stage game solved by the exact LP, with
//! the contraction's error bound.
//!
//! `T` shrinks distances by the factor β, so after a step of size `r = |T v − v|` the value
//! lies within `β r / (1 − β)` of `T v` in every state: a certified interval, whatever `v`
//! was. So `T v` is rounded to short fractions before the next step (by a small part of the
//! step, to keep the exact LPs cheap) without losing the certificate. The stage strategies
//! of the last step are stationary strategies whose guarantees are computed exactly at the
//! end, and the simplest fractions in the intervals are tested for being the value itself.

use super::bounds::{exact_solution, guarantees, Bounds, Solution};
use super::game::StochasticGame;
use super::meter::Meter;
use super::operator::{apply, round};
use super::Options;
use crate::core::error::Result;
use crate::core::progress;
use crate::exact::Q;
use num_traits::{One, Zero};

/// Solves `game` by value iteration to the tolerance of `opts`.
pub fn solve(game: &StochasticGame, opts: &Options, meter: &Meter) -> Result<Solution> {
    let n = game.states.len();
    let beta = game.continuation();
    let factor = &beta / (Q::one() - &beta);
    let mut bounds = Bounds::new(game);
    let mut v = vec![Q::zero(); n];
    let (mut rounds, mut pivots) = (0usize, 0usize);
    let gain = (Q::one() - &beta) / Q::from_integer(8.into());
    progress::phase("value iteration", 0);
    loop {
        rounds += 1;
        progress::tick(rounds as u64)?;
        let stage = apply(game, &v, opts.max_memory, meter)?;
        pivots += stage.pivots;
        let r = bounds.narrow_by_step(&v, &stage.values, &factor);
        if let Some((c, at)) = bounds.try_exact(game, opts.max_memory, meter)? {
            return exact_solution(game, c, at, rounds, pivots, meter);
        }
        if bounds.width() <= opts.tolerance {
            // The strategies are rounded (by less than the tolerance's worth) before their
            // guarantees are computed: the linear systems' numbers grow with their digits.
            let scale = game.value_bound() + Q::one();
            let eps = &opts.tolerance / (Q::from_integer(64.into()) * scale);
            let (row, column) = stage.rounded(&eps);
            let (gx, gy) = guarantees(game, &row, &column, meter)?;
            bounds.narrow(&gx.values, &gy.values);
            let exact = bounds.lower == bounds.upper;
            return Ok(Solution {
                lower: bounds.lower,
                upper: bounds.upper,
                exact,
                row_strategy: row,
                column_strategy: column,
                row_guarantee: gx.values,
                column_guarantee: gy.values,
                rounds,
                pivots,
                stalled: false,
                algebraic: Vec::new(),
            });
        }
        // Rounding by ε lengthens the next step by at most (1 + β) ε; with ε a small part of
        // what the contraction takes off, (1 − β) r / 8, the steps still shrink by at least
        // (3 + β) / 4 a round.
        let eps = r * &gain;
        v = stage.values.iter().map(|x| round(x, &eps)).collect();
    }
}
