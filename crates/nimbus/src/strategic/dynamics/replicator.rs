//! The replicator equation (Taylor and Jonker 1978): each strategy's share grows at the rate
//! by which its payoff exceeds the population's average. One population plays a symmetric
//! game against itself (`x_i' = x_i ((A x)_i − xᵀA x)`); two populations play the two sides
//! of a bimatrix game (`x_i' = x_i ((A y)_i − xᵀA y)`, `y_j' = y_j ((xᵀB)_j − xᵀB y)`), as
//! nashpy's `replicator_dynamics` and `asymmetric_replicator_dynamics` define them.

use super::ode::{integrate, Tolerance};
use crate::core::budget::Limits;
use crate::core::error::Result;

/// The shares at each of `times` from `start` (one strategy a player: one population when it
/// has one vector, two populations when it has two), and the steps the integrator took.
pub fn run(
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    start: &[Vec<f64>],
    times: &[f64],
    limits: &Limits,
) -> Result<(Vec<Vec<Vec<f64>>>, u64)> {
    let (m, n) = (a.len(), a[0].len());
    let two = start.len() == 2;
    let y0: Vec<f64> = start.iter().flatten().copied().collect();
    // The payoffs of each side's strategies, kept between evaluations (no allocation in the
    // integrator's inner loop).
    let (mut ay, mut xb) = (vec![0.0; m], vec![0.0; n]);
    let field = |z: &[f64], d: &mut [f64]| {
        let (x, y) = if two { z.split_at(m) } else { (z, z) };
        for (i, v) in ay.iter_mut().enumerate() {
            *v = a[i].iter().zip(y).map(|(u, w)| u * w).sum();
        }
        let mean: f64 = x.iter().zip(&ay).map(|(u, w)| u * w).sum();
        for i in 0..m {
            d[i] = x[i] * (ay[i] - mean);
        }
        if two {
            for (j, v) in xb.iter_mut().enumerate() {
                *v = (0..m).map(|i| x[i] * b[i][j]).sum();
            }
            let mean: f64 = y.iter().zip(&xb).map(|(u, w)| u * w).sum();
            for j in 0..n {
                d[m + j] = y[j] * (xb[j] - mean);
            }
        }
    };
    // A step evaluates the field seven times, each a pass over the payoffs.
    let per_step = 7 * (m * n) as u64 * if two { 2 } else { 1 } + 1;
    let (points, steps) = integrate(
        field,
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
