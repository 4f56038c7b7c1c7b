//! Certified bounds on each state's value, narrowed as the solvers learn more, and the answer
//! they make.

use super::game::StochasticGame;
use super::meter::Meter;
use super::operator::{distance, exact_candidate, Stage};
use super::respond::{guarantee, Fixed, Guarantee};
use crate::core::error::{Error, Result};
use crate::exact::Q;
use num_traits::Zero;

/// A game solved: each state's value between two exact bounds (equal when exact), with
/// stationary strategies that guarantee them.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// A lower bound on each state's value (proven: a strategy guarantees it, or the
    /// contraction bound).
    pub lower: Vec<Q>,
    /// An upper bound on each state's value.
    pub upper: Vec<Q>,
    /// Whether the bounds meet: the values are exact and the strategies optimal.
    pub exact: bool,
    /// The row player's stationary strategy: a distribution over its actions in each state.
    pub row_strategy: Vec<Vec<Q>>,
    /// The column player's.
    pub column_strategy: Vec<Vec<Q>>,
    /// What the row strategy guarantees in each state, whatever the column player does.
    pub row_guarantee: Vec<Q>,
    /// What the column strategy concedes at most in each state, whatever the row player does.
    pub column_guarantee: Vec<Q>,
    /// Rounds of the iteration.
    pub rounds: usize,
    /// Simplex pivots in the stage games.
    pub pivots: usize,
    /// Whether the iteration stopped making progress (numbers too long) before the tolerance.
    pub stalled: bool,
    /// Each state's value exactly where it is irrational and proven as an algebraic number
    /// (one-state games; empty otherwise).
    pub algebraic: Vec<Option<super::algebraic::Algebraic>>,
}

/// Each state's value between two bounds, narrowed by every certificate found.
#[derive(Debug, Clone)]
pub struct Bounds {
    /// Lower bounds.
    pub lower: Vec<Q>,
    /// Upper bounds.
    pub upper: Vec<Q>,
    /// The candidate last tested for exactness (not tested twice).
    tried: Option<Vec<Q>>,
}

impl Bounds {
    /// The bounds every value respects: `±max|payoff| / (1 − β)`.
    pub fn new(game: &StochasticGame) -> Self {
        let b = game.value_bound();
        Bounds {
            lower: vec![-b.clone(); game.states.len()],
            upper: vec![b; game.states.len()],
            tried: None,
        }
    }

    /// Raises the lower bounds to `lo` and lowers the upper bounds to `hi` where they are
    /// better.
    pub fn narrow(&mut self, lo: &[Q], hi: &[Q]) {
        for (l, x) in self.lower.iter_mut().zip(lo) {
            if x > l {
                *l = x.clone();
            }
        }
        for (u, x) in self.upper.iter_mut().zip(hi) {
            if x < u {
                *u = x.clone();
            }
        }
    }

    /// The widest interval.
    pub fn width(&self) -> Q {
        self.lower
            .iter()
            .zip(&self.upper)
            .map(|(l, u)| u - l)
            .max()
            .unwrap_or_else(Q::zero)
    }

    /// The exact value, if the simplest fraction in each interval is it (each candidate is
    /// tested once).
    pub fn try_exact(
        &mut self,
        game: &StochasticGame,
        max_memory: u64,
        meter: &Meter,
    ) -> Result<Option<(Vec<Q>, Stage)>> {
        let c: Vec<Q> = self
            .lower
            .iter()
            .zip(&self.upper)
            .map(|(l, u)| crate::exact::interval::simplest_between(l, u))
            .collect();
        if self.tried.as_ref() == Some(&c) {
            return Ok(None);
        }
        let stage = exact_candidate(game, &c, max_memory, meter)?;
        self.tried = Some(c.clone());
        Ok(stage.map(|at| (c, at)))
    }

    /// Narrows the bounds by the contraction: after the step from `v` to `tv = T v`, of size
    /// `r`, every value lies within `factor · r` of `tv` (`factor` = β / (1 − β)). Returns `r`.
    pub fn narrow_by_step(&mut self, v: &[Q], tv: &[Q], factor: &Q) -> Q {
        let r = distance(tv, v);
        let e = &r * factor;
        let lo: Vec<Q> = tv.iter().map(|x| x - &e).collect();
        let hi: Vec<Q> = tv.iter().map(|x| x + &e).collect();
        self.narrow(&lo, &hi);
        r
    }
}

/// The guarantees of both players' stationary strategies.
pub fn guarantees(
    game: &StochasticGame,
    row: &[Vec<Q>],
    column: &[Vec<Q>],
    meter: &Meter,
) -> Result<(Guarantee, Guarantee)> {
    Ok((
        guarantee(game, Fixed::Row, row, meter)?,
        guarantee(game, Fixed::Column, column, meter)?,
    ))
}

/// The answer for the exact value `v` with `T v = v` (`stage`): the stage games' strategies,
/// whose guarantees are computed and must equal `v` (Shapley's theorem, checked).
pub fn exact_solution(
    game: &StochasticGame,
    v: Vec<Q>,
    stage: Stage,
    rounds: usize,
    pivots: usize,
    meter: &Meter,
) -> Result<Solution> {
    let (gx, gy) = guarantees(game, &stage.row, &stage.column, meter)?;
    if gx.values != v || gy.values != v {
        return Err(Error::Invalid(
            "internal inconsistency: the stage games' optimal strategies do not guarantee \
             the stochastic game's value"
                .into(),
        ));
    }
    Ok(Solution {
        lower: v.clone(),
        upper: v,
        exact: true,
        row_strategy: stage.row,
        column_strategy: stage.column,
        row_guarantee: gx.values,
        column_guarantee: gy.values,
        rounds,
        pivots: pivots + stage.pivots,
        stalled: false,
        algebraic: Vec::new(),
    })
}
