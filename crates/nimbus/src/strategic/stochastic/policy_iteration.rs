//! Policy iteration (Hoffman and Karp 1966): the row player's stage-optimal strategy at the
//! current values, then the values that strategy guarantees (the column player's best reply,
//! an exact Markov decision problem), and again.
//!
//! Each round's values are what a stationary strategy of the row player guarantees, so they
//! are proven lower bounds, and they rise to the value; the column player's stage-optimal
//! strategy is evaluated the same way for proven upper bounds. Strategies are rounded to short
//! fractions (more finely as the bounds close: the squared width) before they are evaluated —
//! any strategy's guarantee is a valid bound, so the rounding costs no rigour, only keeps the
//! linear systems small. Where the value is rational, the simplest fractions in the bounds
//! become it once the bounds are narrow enough, and Shapley's operator proves it exactly.

use super::bounds::{exact_solution, guarantees, Bounds, Solution};
use super::game::StochasticGame;
use super::meter::Meter;
use super::operator::{apply, round};
use super::respond::joint_values;
use super::Options;
use crate::core::error::Result;
use crate::core::progress;
use crate::exact::Q;
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// Rounds without a narrower interval after which the iteration is taken to have stalled.
const PATIENCE: usize = 8;

/// Solves `game` by policy iteration to the tolerance of `opts`.
pub fn solve(game: &StochasticGame, opts: &Options, meter: &Meter) -> Result<Solution> {
    let one = Q::one();
    let scale = game.value_bound() + &one;
    // Below this a rounding is not worth its digits: the numbers are used exactly.
    let finest = Q::new(BigInt::one(), BigInt::one() << 320);
    let floor = Q::one() / (Q::from_integer(64.into()) * &scale);
    let mut bounds = Bounds::new(game);
    let (mut rounds, mut pivots, mut idle) = (0usize, 0usize, 0usize);
    // The floats' point, proven or refuted by one exact application of the operator: the
    // value lies within β r / (1 − β) of `T v` for the step r, and it may be the value itself.
    let mut v = start(game, opts, meter)?;
    rounds += 1;
    let stage = apply(game, &v, opts.max_memory, meter)?;
    pivots += stage.pivots;
    let beta = game.continuation();
    let factor = &beta / (&one - &beta);
    let e = bounds.narrow_by_step(&v, &stage.values, &factor) * &factor;
    if let Some((c, at)) = bounds.try_exact(game, opts.max_memory, meter)? {
        return exact_solution(game, c, at, rounds, pivots, meter);
    }
    let eps = (&e / Q::from_integer(64.into())).max(&floor * &opts.tolerance * &scale);
    v = stage.values.iter().map(|x| round(x, &eps)).collect();
    let mut best: Option<Best> = None;
    progress::phase("policy iteration", 0);
    loop {
        rounds += 1;
        progress::tick(rounds as u64)?;
        // Rounding by ε costs about ε times the scale in the guarantees: finer than the
        // squared width keeps Newton's steps quadratic, and finer than the tolerance is
        // never needed.
        let relative = bounds.width() / &scale;
        let mut eps = (&relative * &relative / Q::from_integer(64.into()))
            .min(one.clone())
            .max(&floor * &opts.tolerance);
        if eps < finest {
            eps = Q::zero();
        }
        let at: Vec<Q> = v.iter().map(|x| round(x, &(&eps * &scale))).collect();
        let stage = apply(game, &at, opts.max_memory, meter)?;
        pivots += stage.pivots;
        let (row, column) = stage.rounded(&eps);
        let (gx, gy) = guarantees(game, &row, &column, meter)?;
        let before = bounds.width();
        bounds.narrow(&gx.values, &gy.values);
        idle = if bounds.width() < before { 0 } else { idle + 1 };
        let (row_now, column_now) = (row.clone(), column.clone());
        let candidate = Best {
            row,
            column,
            row_guarantee: gx.values.clone(),
            column_guarantee: gy.values,
        };
        best = Some(match best {
            Some(b) => b.better(candidate),
            None => candidate,
        });
        if let Some((c, at)) = bounds.try_exact(game, opts.max_memory, meter)? {
            return exact_solution(game, c, at, rounds, pivots, meter);
        }
        let stalled = idle >= PATIENCE;
        if bounds.width() <= opts.tolerance || stalled {
            let b = best.expect("one round was made");
            let exact = bounds.lower == bounds.upper;
            return Ok(Solution {
                lower: bounds.lower,
                upper: bounds.upper,
                exact,
                row_strategy: b.row,
                column_strategy: b.column,
                row_guarantee: b.row_guarantee,
                column_guarantee: b.column_guarantee,
                rounds,
                pivots,
                stalled: stalled && !exact,
                algebraic: Vec::new(),
            });
        }
        // Newton's step (Pollatschek and Avi-Itzhak): the values of play under both stage
        // strategies, quadratically close near the value, but not sure to converge from afar;
        // where it leaves the proven bounds, Hoffman and Karp's step instead.
        let newton = joint_values(game, &row_now, &column_now, meter)?;
        let inside = newton
            .iter()
            .zip(bounds.lower.iter().zip(&bounds.upper))
            .all(|(x, (l, u))| l <= x && x <= u);
        v = if inside { newton } else { gx.values };
    }
}

/// The floating-point guide's values as short fractions (within a few units of the doubles'
/// last place: the doubles are no more exact than that).
fn start(game: &StochasticGame, opts: &Options, meter: &Meter) -> Result<Vec<Q>> {
    let guide = super::float_guide::guide(game, opts.max_memory, meter)?;
    Ok(guide
        .iter()
        .map(|&x| {
            let q = Q::from_float(x).unwrap_or_else(Q::zero);
            let eps = Q::from_float(x.abs() * f64::EPSILON * 4.0 + 1e-300).unwrap_or_else(Q::zero);
            round(&q, &eps)
        })
        .collect())
}

/// The best strategies met so far, with what they guarantee.
struct Best {
    row: Vec<Vec<Q>>,
    column: Vec<Vec<Q>>,
    row_guarantee: Vec<Q>,
    column_guarantee: Vec<Q>,
}

impl Best {
    /// Each player's strategy of the two whose guarantees add up to more for them.
    fn better(self, other: Best) -> Best {
        let sum = |v: &[Q]| v.iter().sum::<Q>();
        let (row, row_guarantee) = if sum(&other.row_guarantee) >= sum(&self.row_guarantee) {
            (other.row, other.row_guarantee)
        } else {
            (self.row, self.row_guarantee)
        };
        let (column, column_guarantee) =
            if sum(&other.column_guarantee) <= sum(&self.column_guarantee) {
                (other.column, other.column_guarantee)
            } else {
                (self.column, self.column_guarantee)
            };
        Best {
            row,
            column,
            row_guarantee,
            column_guarantee,
        }
    }
}
