//! The continuous dynamics, as vector fields on the players' mixed strategies, integrated with
//! error control:
//!
//! - the **replicator equation** (Taylor and Jonker 1978): each strategy's share grows at the
//!   rate by which its payoff exceeds the population's average. One population plays a
//!   symmetric game against itself (`x_i' = x_i ((A x)_i − xᵀA x)`); two populations play the
//!   two sides of a bimatrix game (`x_i' = x_i ((A y)_i − xᵀA y)`, `y_j' = y_j ((xᵀB)_j −
//!   xᵀB y)`), as nashpy's `replicator_dynamics` and `asymmetric_replicator_dynamics` define
//!   them;
//! - the **replicator–mutator equation** (one population): offspring of strategy `i` are born
//!   as strategy `j` with probability `Q_ij`, so `x_j' = Σ_i x_i (A x)_i Q_ij − x_j xᵀA x`
//!   (nashpy's `mutation_matrix`; `Q` the identity is the replicator equation);
//! - the **logit dynamics** (Fudenberg and Levine 1998): players revise towards the logit
//!   (smoothed best) reply with noise `η`, `x' = L(A y) − x` with `L(v)_i = e^{v_i/η} / Σ_k
//!   e^{v_k/η}`; its rest points are the logit quantal response equilibria.

use super::ode::{integrate, Tolerance};
use crate::core::budget::Limits;
use crate::core::error::Result;

/// Which field.
#[derive(Debug, Clone)]
pub enum Field {
    /// The replicator equation.
    Replicator,
    /// The replicator–mutator equation with this mutation matrix (rows sum to 1); one
    /// population only.
    Mutator(Vec<Vec<f64>>),
    /// The logit dynamics with this noise (positive).
    Logit(f64),
}

/// The logit reply to the payoffs `v` with noise `eta`, into `out` (the largest payoff
/// subtracted first, so that no exponential overflows).
pub fn logit(v: &[f64], eta: f64, out: &mut [f64]) {
    let top = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for (o, x) in out.iter_mut().zip(v) {
        *o = ((x - top) / eta).exp();
        total += *o;
    }
    for o in out.iter_mut() {
        *o /= total;
    }
}

/// The average payoff `Σ x_i pay_i / Σ x_i`. On the simplex the division is by one; off it,
/// it makes the sum of the shares an exact (linear) invariant of the replicator fields, which
/// Runge–Kutta steps keep exactly. With the textbook `Σ x_i pay_i`, the sum's error `s` obeys
/// `s' = −(average payoff) s` and grows as `e^t` where the average payoff is −1 (nashpy's
/// odeint leaves the simplex there: shares summing to 0.7 by time 40).
fn mean(x: &[f64], pay: &[f64]) -> f64 {
    let total: f64 = x.iter().sum();
    let paid: f64 = x.iter().zip(pay).map(|(u, w)| u * w).sum();
    if total == 0.0 {
        0.0
    } else {
        paid / total
    }
}

/// One side's rates: `x` the side's shares, `pay` its strategies' payoffs, into `d`.
fn side(field: &Field, x: &[f64], pay: &[f64], scratch: &mut [f64], d: &mut [f64]) {
    match field {
        Field::Replicator => {
            let mean = mean(x, pay);
            for i in 0..x.len() {
                d[i] = x[i] * (pay[i] - mean);
            }
        }
        Field::Mutator(q) => {
            let mean = mean(x, pay);
            for j in 0..x.len() {
                let born: f64 = (0..x.len()).map(|i| x[i] * pay[i] * q[i][j]).sum();
                d[j] = born - x[j] * mean;
            }
        }
        Field::Logit(eta) => {
            logit(pay, *eta, scratch);
            for i in 0..x.len() {
                d[i] = scratch[i] - x[i];
            }
        }
    }
}

/// `Σ u_k w_k`, summed in four interleaved parts: one running sum is a chain of dependent
/// additions the processor cannot overlap, four are not (a 30 × 30 game's field three times
/// faster). The order of the additions differs from a plain loop's only in rounding.
fn dot(u: &[f64], w: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (uc, wc) = (u.chunks_exact(4), w.chunks_exact(4));
    let tail: f64 = uc
        .remainder()
        .iter()
        .zip(wc.remainder())
        .map(|(p, q)| p * q)
        .sum();
    for (p, q) in uc.zip(wc) {
        for k in 0..4 {
            acc[k] += p[k] * q[k];
        }
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// The shares at each of `times` from `start` (one strategy a player: one population when it
/// has one vector, two populations when it has two), and the steps the integrator took.
pub fn run(
    field: &Field,
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    start: &[Vec<f64>],
    times: &[f64],
    limits: &Limits,
) -> Result<(Vec<Vec<Vec<f64>>>, u64)> {
    let (m, n) = (a.len(), a[0].len());
    let two = start.len() == 2;
    let y0: Vec<f64> = start.iter().flatten().copied().collect();
    // The payoffs of each side's strategies and a scratch vector, kept between evaluations (no
    // allocation in the integrator's inner loop).
    let (mut ay, mut xb) = (vec![0.0; m], vec![0.0; n]);
    let mut scratch = vec![0.0; m.max(n)];
    let rates = |z: &[f64], d: &mut [f64]| {
        let (x, y) = if two { z.split_at(m) } else { (z, z) };
        for (i, v) in ay.iter_mut().enumerate() {
            *v = dot(&a[i], y);
        }
        side(field, x, &ay, &mut scratch[..m], &mut d[..m]);
        if two {
            for (j, v) in xb.iter_mut().enumerate() {
                *v = (0..m).map(|i| x[i] * b[i][j]).sum();
            }
            side(field, y, &xb, &mut scratch[..n], &mut d[m..]);
        }
    };
    // A step evaluates the field seven times, each a pass over the payoffs (and, with
    // mutation, over the mutation matrix).
    let mutation = if matches!(field, Field::Mutator(_)) {
        m * m
    } else {
        0
    };
    let per_step = 7 * (m * n + mutation) as u64 * if two { 2 } else { 1 } + 1;
    let (points, steps) = integrate(
        rates,
        &y0,
        times,
        Tolerance::default(),
        limits.max_work / per_step,
    )?;
    Ok((
        points
            .into_iter()
            .map(|z| {
                if two {
                    vec![z[..m].to_vec(), z[m..].to_vec()]
                } else {
                    vec![z]
                }
            })
            .collect(),
        steps,
    ))
}
