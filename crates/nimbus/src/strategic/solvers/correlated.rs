//! Correlated equilibria, exactly: a distribution over pure profiles from which no player,
//! told only their own strategy, gains by playing another (Aumann, 1974). Their set is a
//! polytope cut out by linear incentive constraints, so the one that maximises a linear
//! objective (the players' total payoff, one player's, any weights) is a linear program,
//! solved here with the exact simplex method. Coarse correlated equilibria (Hannan's: no
//! player gains by committing to one strategy before the draw) are the same with one
//! constraint per player and strategy.
//!
//! The LP is `max c·p` subject to the incentive constraints (`≤ 0`) and `Σp ≤ 1`, `p ≥ 0`: the
//! constraints are homogeneous, so with every `c_s > 0` (the objective shifted by a constant)
//! an optimum has `Σp = 1`, and the form of [`crate::exact::simplex::maximize`] (`b ≥ 0`)
//! needs no first phase.

use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::{Error, Result};
use crate::exact::simplex::maximize;
use crate::exact::{over_common_denominator, Q};
use crate::strategic::game::NormalForm;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// The objective: `weights[i]` times player `i`'s payoff, summed.
#[derive(Debug, Clone, PartialEq)]
pub struct Objective {
    /// One weight a player.
    pub weights: Vec<Q>,
}

/// A correlated equilibrium that maximises the objective.
#[derive(Debug, Clone, PartialEq)]
pub struct Correlated {
    /// The probability of each pure profile, numbered as [`NormalForm::index`] numbers them.
    pub distribution: Vec<Q>,
    /// Each player's expected payoff.
    pub payoffs: Vec<Q>,
    /// The objective's value.
    pub value: Q,
    /// Pivots the exact simplex method made (0 when the floating-point basis was proved).
    pub pivots: usize,
}

/// Each player's strategy at profile number `k` (the first player's changing fastest).
pub fn profile_of(shape: &[usize], mut k: usize) -> Vec<usize> {
    shape
        .iter()
        .map(|&n| {
            let s = k % n;
            k /= n;
            s
        })
        .collect()
}

/// The incentive constraints, one row each over the profiles: `Σ_s row[s]·p(s) ≤ 0` says the
/// deviation does not pay. Correlated: player `i` told `a` does not gain by `b` instead;
/// coarse: player `i` does not gain by committing to `b`.
pub fn incentive_rows(game: &NormalForm, coarse: bool) -> Vec<Vec<Q>> {
    let shape = game.shape();
    let profiles = game.profiles();
    let mut rows = Vec::new();
    for (i, &n) in shape.iter().enumerate() {
        for a in 0..if coarse { 1 } else { n } {
            for b in 0..n {
                if !coarse && a == b {
                    continue;
                }
                let mut row = vec![Q::zero(); profiles];
                for (k, entry) in row.iter_mut().enumerate() {
                    let mut s = profile_of(&shape, k);
                    if !coarse && s[i] != a {
                        continue;
                    }
                    let now = game.payoff(&s, i).clone();
                    s[i] = b;
                    *entry = game.payoff(&s, i) - now;
                }
                rows.push(row);
            }
        }
    }
    rows
}

/// The correlated (or, with `coarse`, coarse correlated) equilibrium that maximises
/// `objective`, within `limits` (the LP's size is checked before it is built).
pub fn maximize_objective(
    game: &NormalForm,
    objective: &Objective,
    coarse: bool,
    limits: &Limits,
) -> Result<Correlated> {
    let n = game.players.len();
    if objective.weights.len() != n {
        return Err(Error::Invalid(format!(
            "the objective has {} weights for {n} players",
            objective.weights.len()
        )));
    }
    let shape = game.shape();
    let profiles = game.profiles() as u64;
    let constraints: u64 = shape
        .iter()
        .map(|&k| {
            if coarse {
                k as u64
            } else {
                (k * (k - 1)) as u64
            }
        })
        .sum::<u64>()
        + 1;
    let cells = constraints.saturating_mul(profiles);
    // Each cell an exact number of a few words, and the simplex tableau about as many again;
    // building the rows is one payoff difference a cell, a pivot a pass over the tableau.
    check_memory(
        "the correlated equilibria's LP",
        cells.saturating_mul(96),
        limits.max_memory,
    )?;
    check_work(
        "the correlated equilibria's LP",
        cells.saturating_mul(constraints.min(profiles).max(1)),
        limits.max_work,
    )?;
    let mut rows = incentive_rows(game, coarse);
    rows.push(vec![Q::one(); profiles as usize]);
    // The objective at each profile, shifted so that every entry is positive.
    let weighted: Vec<Q> = (0..profiles as usize)
        .map(|k| {
            let u = game.payoffs_at(k);
            u.iter()
                .zip(&objective.weights)
                .fold(Q::zero(), |acc, (x, w)| acc + x * w)
        })
        .collect();
    let least = weighted.iter().min().cloned().unwrap_or_default();
    let shift = Q::one() - least.min(Q::zero());
    let c: Vec<Q> = weighted.iter().map(|w| w + &shift).collect();
    // Integer data: each row over its own common denominator (a positive scale changes no
    // constraint), the objective over its own.
    let mut a: Vec<Vec<BigInt>> = Vec::with_capacity(rows.len());
    for row in &rows {
        a.push(over_common_denominator(row.iter()).0);
    }
    let mut b = vec![BigInt::zero(); rows.len()];
    *b.last_mut().expect("the sum row") = BigInt::one();
    let (c, _) = over_common_denominator(c.iter());
    debug_assert!(c.iter().all(|x| x.is_positive()));
    let lp = maximize(&a, &b, &c)?;
    let distribution = lp.primal;
    let mut payoffs = vec![Q::zero(); n];
    for (k, p) in distribution.iter().enumerate() {
        if p.is_zero() {
            continue;
        }
        for (i, u) in game.payoffs_at(k).iter().enumerate() {
            payoffs[i] += u * p;
        }
    }
    let value = payoffs
        .iter()
        .zip(&objective.weights)
        .fold(Q::zero(), |acc, (x, w)| acc + x * w);
    Ok(Correlated {
        distribution,
        payoffs,
        value,
        pivots: lp.pivots,
    })
}
