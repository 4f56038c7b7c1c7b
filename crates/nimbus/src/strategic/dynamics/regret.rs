//! Regret matching (Hart and Mas-Colell, "A simple adaptive procedure leading to correlated
//! equilibrium", 2000), with exact regrets. Each player keeps, for each pair of its strategies
//! `j ≠ k`, the regret `R(j, k)`: how much more it would have earned, summed over the rounds so
//! far, had it played `k` every time it played `j`. After playing `j` in round `t`, it switches
//! to `k` with probability `max(R(j, k), 0) / (μ t)` and otherwise plays `j` again; the inertia
//! `μ` is `(m − 1)` times the spread of its payoffs, plus one, so that staying always keeps a
//! positive chance (as the theorem needs).
//!
//! `R(j, k) / t` is exactly the gain of the deviation "play `k` whenever told `j`" under the
//! empirical distribution of joint play, so the largest of them is how far that distribution is
//! from the set of correlated equilibria, and Hart and Mas-Colell's theorem says it goes to zero
//! (or below) almost surely. Payoffs are made whole numbers (each player's over its common
//! denominator), the regrets kept in 128-bit integers and the draws made by exact integer
//! comparison: a run is exact and repeats from its seed.

use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::{Error, Result};
use crate::exact::{over_common_denominator, Q};
use num_traits::ToPrimitive;
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

/// A player's side of the run.
struct Side {
    /// Payoffs, whole: `pay[own][other]`.
    pay: Vec<Vec<i128>>,
    /// The common denominator the payoffs were multiplied by.
    scale: Q,
    /// `regret[j][k]`.
    regret: Vec<Vec<i128>>,
    /// The inertia.
    mu: u128,
}

impl Side {
    fn new(pay: Vec<Vec<Q>>) -> Result<Side> {
        let (whole, den) = over_common_denominator(pay.iter().flatten());
        let cols = pay[0].len();
        let mut rows = Vec::with_capacity(pay.len());
        for r in whole.chunks(cols) {
            let mut row = Vec::with_capacity(cols);
            for v in r {
                match v.to_i64() {
                    Some(x) if x.unsigned_abs() < 1 << 62 => row.push(i128::from(x)),
                    _ => {
                        return Err(Error::Invalid(
                            "regret matching keeps exact regrets in 128 bits: the payoffs, over \
                             their common denominator, must be below 2^62"
                                .into(),
                        ))
                    }
                }
            }
            rows.push(row);
        }
        let flat = rows.iter().flatten();
        let spread = flat.clone().max().expect("a payoff") - flat.min().expect("a payoff");
        let m = rows.len();
        Ok(Side {
            mu: (m as u128 - 1) * spread as u128 + 1,
            regret: vec![vec![0; m]; m],
            scale: Q::from_integer(den),
            pay: rows,
        })
    }

    /// The next strategy after playing `j` in `t` rounds.
    fn next(&self, j: usize, t: u64, rng: &mut XorShiftRng) -> usize {
        let total = self.mu * u128::from(t);
        let r = below(total, rng);
        let mut run = 0u128;
        for (k, &v) in self.regret[j].iter().enumerate() {
            if k != j && v > 0 {
                run += v as u128;
                if r < run {
                    return k;
                }
            }
        }
        j
    }

    /// After playing `j` against `other`.
    fn learn(&mut self, j: usize, other: usize) {
        let base = self.pay[j][other];
        for k in 0..self.pay.len() {
            self.regret[j][k] += self.pay[k][other] - base;
        }
    }

    /// The largest regret, in the game's payoff units (whole-number units times `scale`).
    fn worst(&self) -> i128 {
        let m = self.pay.len();
        (0..m)
            .flat_map(|j| (0..m).filter(move |&k| k != j).map(move |k| (j, k)))
            .map(|(j, k)| self.regret[j][k])
            .max()
            .unwrap_or(0)
    }
}

/// A uniform number below `bound` (positive), by rejection.
fn below(bound: u128, rng: &mut XorShiftRng) -> u128 {
    let zone = u128::MAX - u128::MAX % bound;
    loop {
        let v = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
        if v < zone {
            return v % bound;
        }
    }
}

/// The run after a round.
pub struct Record<'a> {
    /// The joint play counts, `joint[i * n + j]`.
    pub joint: &'a [u64],
    sides: [&'a Side; 2],
    rounds: u64,
}

impl Record<'_> {
    /// The largest average regret of any player: how far the empirical joint distribution is
    /// from the correlated equilibria (at most 0 at one), exactly. Computed when asked: most
    /// rounds are not recorded.
    pub fn regret(&self) -> Q {
        let t = Q::from_integer(self.rounds.into());
        self.sides
            .iter()
            .map(|s| Q::from_integer(s.worst().into()) / (&s.scale * &t))
            .max()
            .expect("two players")
    }
}

/// Runs regret matching on `(a, b)` for `rounds` rounds from the profile `first` (played in
/// round 1), handing each round's record to `record` (from round 1).
pub fn run(
    a: &[Vec<Q>],
    b: &[Vec<Q>],
    first: [usize; 2],
    rounds: u64,
    rng: &mut XorShiftRng,
    limits: &Limits,
    mut record: impl FnMut(u64, Record),
) -> Result<()> {
    let (m, n) = (a.len(), a[0].len());
    check_memory(
        "regret matching",
        ((m * m + n * n + 2 * m * n) as u64).saturating_mul(24),
        limits.max_memory,
    )?;
    check_work(
        "regret matching",
        rounds.saturating_mul(2 * (m + n) as u64 + 8),
        limits.max_work,
    )?;
    let transposed: Vec<Vec<Q>> = (0..n)
        .map(|j| (0..m).map(|i| b[i][j].clone()).collect())
        .collect();
    let mut row = Side::new(a.to_vec())?;
    let mut col = Side::new(transposed)?;
    let mut joint = vec![0u64; m * n];
    let [mut i, mut j] = first;
    crate::core::progress::phase("regret matching (rounds)", rounds);
    for t in 1..=rounds {
        if t > 1 {
            let (ni, nj) = (row.next(i, t - 1, rng), col.next(j, t - 1, rng));
            (i, j) = (ni, nj);
        }
        joint[i * n + j] += 1;
        row.learn(i, j);
        col.learn(j, i);
        record(
            t,
            Record {
                joint: &joint,
                sides: [&row, &col],
                rounds: t,
            },
        );
        if t % 4096 == 0 {
            crate::core::progress::tick(t)?;
        }
    }
    Ok(())
}
