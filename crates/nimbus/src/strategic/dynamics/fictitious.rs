//! Fictitious play (Brown 1951), exactly: at each round each player plays a best reply to the
//! other's empirical distribution of play so far, and the beliefs are fractions of whole
//! counts. Ties are broken by a stated rule: the first best reply, or one drawn uniformly by
//! a seeded generator (nashpy draws uniformly).

use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::Result;
use crate::exact::{over_common_denominator, Q};
use num_bigint::BigInt;
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// How a player picks among several best replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ties {
    /// The first (lowest-numbered) best reply.
    #[default]
    First,
    /// One drawn uniformly, by a generator seeded with this number.
    Random(u64),
}

/// The play counts after each recorded round: `counts[player][strategy]`.
pub type Counts = [Vec<u64>; 2];

/// Runs `rounds` rounds of fictitious play on the bimatrix game `(a, b)` from the play counts
/// `start`, handing the counts after every round (and before the first, as round 0) to
/// `record`, with the strategies just played (none at round 0).
pub fn run(
    a: &[Vec<Q>],
    b: &[Vec<Q>],
    start: Counts,
    rounds: u64,
    ties: Ties,
    limits: &Limits,
    mut record: impl FnMut(u64, &Counts, Option<[usize; 2]>),
) -> Result<()> {
    let (m, n) = (a.len(), a[0].len());
    // A round adds a column of payoffs to each player's totals and compares them: m + n
    // additions of big integers, each worth a few steps.
    check_work(
        "fictitious play",
        rounds.saturating_mul(4 * (m + n + 2) as u64),
        limits.max_work,
    )?;
    check_memory(
        "fictitious play",
        ((m * n) as u64).saturating_mul(64),
        limits.max_memory,
    )?;
    // Integer payoffs (each matrix over its own common denominator: a positive scale keeps
    // every best reply), and each strategy's total payoff against the other's counts, kept
    // up to date one play at a time.
    let (ai, _) = over_common_denominator(a.iter().flatten());
    let (bi, _) = over_common_denominator(b.iter().flatten());
    let pay_a = |i: usize, j: usize| &ai[i * n + j];
    let pay_b = |i: usize, j: usize| &bi[i * n + j];
    let mut against_a: Vec<BigInt> = (0..m)
        .map(|i| (0..n).map(|j| pay_a(i, j) * start[1][j]).sum())
        .collect();
    let mut against_b: Vec<BigInt> = (0..n)
        .map(|j| (0..m).map(|i| pay_b(i, j) * start[0][i]).sum())
        .collect();
    let mut rng = match ties {
        Ties::Random(seed) => Some(XorShiftRng::seed_from_u64(seed)),
        Ties::First => None,
    };
    let mut counts = start;
    record(0, &counts, None);
    crate::core::progress::phase("fictitious play (rounds)", rounds);
    for round in 1..=rounds {
        let i = pick(&against_a, &mut rng);
        let j = pick(&against_b, &mut rng);
        counts[0][i] += 1;
        counts[1][j] += 1;
        for (r, v) in against_a.iter_mut().enumerate() {
            *v += pay_a(r, j);
        }
        for (c, v) in against_b.iter_mut().enumerate() {
            *v += pay_b(i, c);
        }
        record(round, &counts, Some([i, j]));
        if round % 4096 == 0 {
            crate::core::progress::tick(round)?;
        }
    }
    Ok(())
}

/// A best reply: the largest total, first or drawn among the ties.
fn pick(totals: &[BigInt], rng: &mut Option<XorShiftRng>) -> usize {
    let best = totals.iter().max().expect("a strategy");
    let tied: Vec<usize> = (0..totals.len()).filter(|&k| totals[k] == *best).collect();
    match rng {
        Some(r) if tied.len() > 1 => tied[(r.next_u64() % tied.len() as u64) as usize],
        _ => tied[0],
    }
}
