//! Stochastic fictitious play, run and recorded.

use super::fictitious::start_counts;
use super::{record_rounds, Answer, Input, Point, Rule};
use crate::core::error::Result;
use crate::exact::{to_f64, Q};
use crate::strategic::dynamics::stochastic;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// Stochastic fictitious play from the request's play counts.
pub(super) fn run(input: &Input) -> Result<Answer> {
    let Input {
        game,
        a,
        b,
        req,
        points,
        rounds,
        limits,
    } = *input;
    // Both checked (finite; the noise positive) with the other settings.
    let (eta, epsilon) = (req.noise, req.perturbation);
    let start = start_counts(req, [a.len(), a[0].len()])?;
    let float = |x: &[Vec<Q>]| -> Vec<Vec<f64>> {
        x.iter().map(|r| r.iter().map(to_f64).collect()).collect()
    };
    let wanted = record_rounds(rounds, points);
    let mut next = 0;
    let mut out = Vec::with_capacity(wanted.len());
    let mut rng = XorShiftRng::seed_from_u64(req.seed);
    stochastic::run(
        &float(a),
        &float(b),
        start,
        rounds,
        eta,
        epsilon,
        &mut rng,
        limits,
        |round, (counts, dist)| {
            if next < wanted.len() && wanted[next] == round {
                next += 1;
                let profile = counts
                    .iter()
                    .map(|v| {
                        let total: u64 = v.iter().sum();
                        let share = |c: u64| {
                            if total == 0 {
                                1.0 / v.len() as f64
                            } else {
                                c as f64 / total as f64
                            }
                        };
                        v.iter().map(|&c| share(c)).collect()
                    })
                    .collect();
                out.push(Point {
                    at: round as f64,
                    profile,
                    counts: Some(counts.to_vec()),
                    distributions: Some(dist.to_vec()),
                    ..Point::default()
                });
            }
        },
    )?;
    let counts = out.last().and_then(|p| p.counts.clone());
    Ok(Answer {
        rule: Rule::StochasticFictitiousPlay,
        described: format!(
            "stochastic fictitious play, {rounds} rounds, logit noise {eta}, perturbations up \
             to {epsilon}, seed {}",
            req.seed
        ),
        players: game.players.clone(),
        strategies: game.strategies.clone(),
        points: out,
        counts,
        notes: vec![
            "each round's strategies are drawn: the run repeats from its seed, and nashpy's \
             (NumPy's generator) differs draw by draw but not in distribution"
                .into(),
        ],
        ..Answer::default()
    })
}
