//! The work of a stochastic game's solution, counted as it is spent and checked against the
//! budget before each linear program and each linear system.
//!
//! The numbers here are fractions that lengthen as the bounds narrow, so a step is charged by
//! the length of its numbers: an exact LP on entries of `w` machine words costs about `w²`
//! times one on short entries, and an exact linear system of `n` unknowns with entries of `b`
//! bits builds numbers of up to `n b` bits on its way (fraction-free elimination).

use crate::core::budget::check_work;
use crate::core::error::Result;
use crate::core::progress;
use crate::exact::Q;
use std::cell::Cell;

/// Steps spent so far, and the budget.
#[derive(Debug)]
pub struct Meter {
    spent: Cell<u64>,
    max: u64,
}

impl Meter {
    /// A meter with nothing spent, against `max` steps.
    pub fn new(max: u64) -> Self {
        Meter {
            spent: Cell::new(0),
            max,
        }
    }

    /// Charges `steps` for `what` before it runs: an error naming the budget if the total
    /// would pass it, and a checkpoint for Ctrl-C and the time limit.
    pub fn charge(&self, what: &str, steps: u64) -> Result<()> {
        let total = self.spent.get().saturating_add(steps);
        check_work(what, total, self.max)?;
        self.spent.set(total);
        progress::check()
    }
}

/// The bits of a fraction: numerator and denominator.
pub fn bits(q: &Q) -> u64 {
    q.numer().bits() + q.denom().bits()
}

/// Machine words of `b` bits, at least one.
fn words(b: u64) -> u64 {
    1 + b / 64
}

/// The steps of the exact LP of a stage game `a`: its pivots' entries times the squared
/// length of its numbers (a fixed part for the floating-point guess and the exact check of
/// its basis).
pub fn lp_steps(a: &[Vec<Q>]) -> u64 {
    let (m, n) = (a.len() as u64, a.first().map_or(0, Vec::len) as u64);
    // The entries are scaled to a common denominator: their lengths add up along a row.
    let b: u64 = a
        .iter()
        .map(|r| r.iter().map(bits).sum::<u64>())
        .max()
        .unwrap_or(0);
    let w = words(b);
    (4000 + m * n * (m + n)).saturating_mul(w.saturating_mul(w))
}

/// The steps of an exact linear system of `n` unknowns whose entries have `b` bits: at the
/// `k`-th of fraction-free elimination's `n` pivots, `(n − k)²` products of numbers of `k b`
/// bits, about `n⁵ w² / 30` word products in all for entries of `w` words, twenty of them to
/// a step.
pub fn system_steps(n: usize, b: u64) -> u64 {
    let n = n as u64;
    let w = words(b);
    n.saturating_pow(5).saturating_mul(w.saturating_mul(w)) / 600 + n.saturating_pow(3) + 1000
}
