//! Stochastic fictitious play (Fudenberg and Kreps 1993; Hofbauer and Sandholm 2002), as
//! nashpy's `stochastic_fictitious_play` defines it: each round each player takes the other's
//! empirical frequencies so far (uniform before any play), adds to each strategy's expected
//! payoff a perturbation drawn uniformly from `[0, ε̄)`, and plays a strategy drawn from the
//! logit choice with noise `η` on the perturbed payoffs. The generator is seeded, so a run
//! repeats exactly; the logit reply subtracts the largest payoff first, so that no exponential
//! overflows (nashpy refuses such games).

use super::chance::{pick, uniform};
use super::field::logit;
use crate::core::budget::{check_work, Limits};
use crate::core::error::Result;
use rand_xorshift::XorShiftRng;

/// The play counts after a round and the mixed strategies the players drew from in it.
pub type Round<'a> = (&'a [Vec<u64>; 2], &'a [Vec<f64>; 2]);

/// The logit reply of a player with payoffs `pay(k, l)` (own strategy `k`, the other's `l`)
/// to the other's counts.
fn respond(
    own: usize,
    pay: impl Fn(usize, usize) -> f64,
    other: &[u64],
    eta: f64,
    epsilon: f64,
    rng: &mut XorShiftRng,
) -> Vec<f64> {
    let total: u64 = other.iter().sum();
    let belief: Vec<f64> = if total == 0 {
        vec![1.0 / other.len() as f64; other.len()]
    } else {
        other.iter().map(|&c| c as f64 / total as f64).collect()
    };
    let noisy: Vec<f64> = (0..own)
        .map(|k| {
            let u: f64 = belief.iter().enumerate().map(|(l, p)| pay(k, l) * p).sum();
            u + uniform(rng) * epsilon
        })
        .collect();
    let mut out = vec![0.0; own];
    logit(&noisy, eta, &mut out);
    out
}

/// Runs `rounds` rounds on `(a, b)` from the counts `start`, handing each round's counts and
/// distributions to `record` (round 0 first, with uniform distributions).
// Kept as one function: the two players' replies, the draws and the counts share one round.
#[allow(clippy::too_many_arguments)]
pub fn run(
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    start: [Vec<u64>; 2],
    rounds: u64,
    eta: f64,
    epsilon: f64,
    rng: &mut XorShiftRng,
    limits: &Limits,
    mut record: impl FnMut(u64, Round),
) -> Result<()> {
    let (m, n) = (a.len(), a[0].len());
    check_work(
        "stochastic fictitious play",
        rounds.saturating_mul(4 * (m * n) as u64 + 16),
        limits.max_work,
    )?;
    let mut counts = start;
    let mut dist = [vec![1.0 / m as f64; m], vec![1.0 / n as f64; n]];
    record(0, (&counts, &dist));
    crate::core::progress::phase("stochastic fictitious play (rounds)", rounds);
    for round in 1..=rounds {
        let p = respond(m, |k, l| a[k][l], &counts[1], eta, epsilon, rng);
        let q = respond(n, |k, l| b[l][k], &counts[0], eta, epsilon, rng);
        let (i, j) = (pick(&p, uniform(rng)), pick(&q, uniform(rng)));
        counts[0][i] += 1;
        counts[1][j] += 1;
        dist = [p, q];
        record(round, (&counts, &dist));
        if round % 4096 == 0 {
            crate::core::progress::tick(round)?;
        }
    }
    Ok(())
}
