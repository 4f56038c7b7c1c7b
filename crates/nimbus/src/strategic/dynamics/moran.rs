//! The Moran process (Moran 1958; for games, Nowak et al. 2004) on a well-mixed population of
//! `N` individuals, as nashpy's `moran_process` defines it: each individual's fitness is its
//! total payoff against every other individual (no play against itself); each generation one
//! individual is chosen to reproduce with probability proportional to fitness (uniformly when
//! every fitness is zero) and one, uniformly and independently, to die, replaced by the
//! offspring. With mutation probability `μ`, the offspring is instead any other strategy of
//! those present at the start, uniformly.
//!
//! With two strategies present (and no mutation) the number `i` playing the first is a
//! birth–death chain, and its probability of reaching `N` is exact: with `γ_j = T⁻_j / T⁺_j`
//! (the chances of going down and up from `j`), `ρ_i = Σ_{k<i} Π_{l≤k} γ_l / Σ_{k<N} Π_{l≤k}
//! γ_l` (Karlin and Taylor), in fractions. Where the chain cannot go up from some `j`, every
//! state at or below it never fixes the first strategy, and the sums start above it. With more
//! strategies present, the process is simulated.

use super::chance::{pick, uniform};
use crate::core::budget::{check_work, Limits};
use crate::core::error::{Error, Result};
use crate::exact::{over_common_denominator, Q};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

/// Checks the payoffs (fitness must not be negative) and the population (at least two).
pub fn check(a: &[Vec<Q>], counts: &[u64]) -> Result<u64> {
    if a.iter().flatten().any(Signed::is_negative) {
        return Err(Error::Invalid(
            "the Moran process takes fitness from payoffs, which must not be negative (as in \
             nashpy): add a constant to every payoff"
                .into(),
        ));
    }
    if counts.len() != a.len() {
        return Err(Error::Invalid(format!(
            "the population gives {} counts, and the game has {} strategies",
            counts.len(),
            a.len()
        )));
    }
    let total = counts.iter().try_fold(0u64, |s, &c| s.checked_add(c));
    match total {
        Some(n) if (2..=1 << 32).contains(&n) => Ok(n),
        _ => Err(Error::Invalid(
            "the population must have from 2 to 2^32 individuals".into(),
        )),
    }
}

/// The probability that each strategy takes over, exactly, when at most two are present;
/// `None` when more are.
pub fn fixation(a: &[Vec<Q>], counts: &[u64], limits: &Limits) -> Result<Option<Vec<Q>>> {
    let n = check(a, counts)?;
    let present: Vec<usize> = (0..counts.len()).filter(|&s| counts[s] > 0).collect();
    let mut out = vec![Q::zero(); counts.len()];
    match present[..] {
        [s] => {
            out[s] = Q::one();
            Ok(Some(out))
        }
        [s, t] => {
            // Whole-number payoffs (a common positive scale changes no ratio of fitnesses).
            let (w, _) = over_common_denominator([&a[s][s], &a[s][t], &a[t][s], &a[t][t]]);
            // A fitness has at most the payoffs' bits and n's; the sums' numbers grow by
            // that much a state.
            let bits = w.iter().map(BigInt::bits).max().unwrap_or(1)
                + u64::from(64 - n.leading_zeros())
                + 1;
            let words = n.saturating_mul(bits).div_ceil(64);
            // n steps, each four passes of one-word products over numbers of up to `words`
            // words: about 3 ns for each of n · words on this machine, a fifth of a step's
            // 15 ns; counted as half a step, for a margin.
            check_work(
                "the Moran process's exact fixation",
                n.saturating_mul(words) / 2 + n,
                limits.max_work,
            )?;
            let rho = first_fixes([&w[0], &w[1], &w[2], &w[3]], counts[s], n);
            out[t] = Q::one() - &rho;
            out[s] = rho;
            Ok(Some(out))
        }
        _ => Ok(None),
    }
}

/// The probability that the first of two strategies takes over from `i` of `n`, its
/// (whole-number) payoffs against itself and the other `ss`, `st`, the other's `ts`, `tt`.
///
/// The sums of products of `γ_l = f_b(l) / f_a(l)` are evaluated from the inside out
/// (`T_k = 1 + γ_{k+1} T_{k+1}`) as a numerator and a denominator of whole numbers, so that
/// each step multiplies by one-word factors and no fraction is reduced until the end: the
/// cost grows as n² word operations, where fractions reduced at every step grow as n³.
fn first_fixes([ss, st, ts, tt]: [&BigInt; 4], i: u64, n: u64) -> Q {
    let big = |v: u64| BigInt::from(v);
    // (f_a, f_b) at j, or (1, 1) when every fitness is zero (birth uniform: neutral).
    let fitness = |j: u64| -> (BigInt, BigInt) {
        let fa = big(j - 1) * ss + big(n - j) * st;
        let fb = big(j) * ts + big(n - j - 1) * tt;
        if (big(j) * &fa + big(n - j) * &fb).is_zero() {
            (BigInt::one(), BigInt::one())
        } else {
            (fa, fb)
        }
    };
    let f: Vec<(BigInt, BigInt)> = (0..n)
        .map(|j| {
            if j == 0 {
                (BigInt::one(), BigInt::one())
            } else {
                fitness(j)
            }
        })
        .collect();
    // The highest state the chain cannot leave upwards (f_a = 0): at or below it, never fixes.
    let floor = (1..n)
        .rev()
        .find(|&j| f[j as usize].0.is_zero())
        .unwrap_or(0);
    if i <= floor {
        return Q::zero();
    }
    // Σ_{k=floor}^{top} Π_{l=floor+1}^{k} γ_l, as (numerator, denominator).
    let sum_to = |top: u64| -> (BigInt, BigInt) {
        let (mut num, mut den) = (BigInt::one(), BigInt::one());
        for k in (floor..top).rev() {
            let (fa, fb) = &f[k as usize + 1];
            num = fa * &den + fb * &num;
            den *= fa;
        }
        (num, den)
    };
    let (a_num, a_den) = sum_to(i - 1);
    let (s_num, s_den) = sum_to(n - 1);
    Q::new(a_num * s_den, a_den * s_num)
}

/// One run from `counts`: the counts after each generation handed to `record` (with the
/// generation, from 1), until one strategy is left (without mutation) or `generations` have
/// passed. Returns the strategy that took over, if one did, and the generations run.
pub fn simulate(
    a: &[Vec<f64>],
    counts: &[u64],
    mutation: f64,
    generations: u64,
    rng: &mut XorShiftRng,
    mut record: impl FnMut(u64, &[u64]),
) -> (Option<usize>, u64) {
    let k = counts.len();
    let original: Vec<usize> = (0..k).filter(|&s| counts[s] > 0).collect();
    let mut c = counts.to_vec();
    let n: u64 = c.iter().sum();
    let mut fitness = vec![0.0; k];
    for g in 1..=generations {
        if mutation == 0.0 && c.iter().filter(|&&v| v > 0).count() == 1 {
            return (c.iter().position(|&v| v > 0), g - 1);
        }
        for s in 0..k {
            // Against every other individual: its own kind one fewer.
            fitness[s] = (0..k)
                .map(|t| a[s][t] * (c[t] - u64::from(s == t && c[t] > 0)) as f64)
                .sum();
        }
        let weights: Vec<f64> = (0..k).map(|s| c[s] as f64 * fitness[s]).collect();
        let total: f64 = weights.iter().sum();
        let born = if total > 0.0 {
            pick(&weights, total * uniform(rng))
        } else {
            pick_count(&c, rng.next_u64() % n)
        };
        let dies = pick_count(&c, rng.next_u64() % n);
        let child = if mutation > 0.0 && original.len() > 1 && uniform(rng) < mutation {
            let others: Vec<usize> = original.iter().copied().filter(|&s| s != born).collect();
            others[(rng.next_u64() % others.len() as u64) as usize]
        } else {
            born
        };
        c[dies] -= 1;
        c[child] += 1;
        record(g, &c);
    }
    let fixed = (mutation == 0.0 && c.iter().filter(|&&v| v > 0).count() == 1)
        .then(|| c.iter().position(|&v| v > 0))
        .flatten();
    (fixed, generations)
}

/// The strategy of the `at`-th individual, counting by strategy.
fn pick_count(counts: &[u64], mut at: u64) -> usize {
    for (s, &c) in counts.iter().enumerate() {
        if at < c {
            return s;
        }
        at -= c;
    }
    counts.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(v: i64) -> Q {
        Q::from_integer(v.into())
    }

    fn fixes(w: [i64; 4], i: u64, n: u64) -> Q {
        let b: Vec<BigInt> = w.iter().map(|&v| BigInt::from(v)).collect();
        first_fixes([&b[0], &b[1], &b[2], &b[3]], i, n)
    }

    /// Neutral drift: equal payoffs fix the first strategy with probability i / N.
    #[test]
    fn neutral_drift_fixes_in_proportion() {
        for n in [2u64, 5, 17] {
            for i in 1..n {
                let rho = fixes([1, 1, 1, 1], i, n);
                assert_eq!(rho, Q::new(i.into(), n.into()));
            }
        }
    }

    /// Constant fitness r against 1: the classical (1 − 1/r^i) / (1 − 1/r^N).
    #[test]
    fn constant_fitness_is_the_classical_formula() {
        let (r, n) = (q(2), 6u64);
        for i in 1..n {
            let rho = fixes([2, 2, 1, 1], i, n);
            let inv = Q::one() / &r;
            let pow = |e: u64| (0..e).fold(Q::one(), |p, _| p * &inv);
            assert_eq!(rho, (Q::one() - pow(i)) / (Q::one() - pow(n)));
        }
    }

    /// A strategy with no fitness among its own kind cannot grow from one.
    #[test]
    fn a_stuck_state_never_fixes() {
        // The first strategy earns nothing: it can never reproduce while the other can.
        let rho = fixes([0, 0, 1, 1], 3, 5);
        assert_eq!(rho, q(0));
    }
}
