//! The vertices of the polytope of correlated (or coarse correlated) equilibria, exactly, by
//! the double description method (Motzkin et al. 1953; Fukuda and Prodon 1996, the method of
//! cdd).
//!
//! The distributions `p ≥ 0` that meet every incentive constraint `g·p ≤ 0` form a pointed
//! cone, and the polytope is its slice `Σp = 1`, so the polytope's vertices are the cone's
//! extreme rays scaled to sum to one. The method starts from the extreme rays of the orthant
//! (the pure profiles) and adds the incentive constraints one at a time: rays that break the
//! new constraint are dropped, and each pair of adjacent rays on its two sides gives a new ray
//! on its hyperplane. Two extreme rays are adjacent exactly when no third one is tight on every
//! constraint both are tight on (the combinatorial test), so nothing is computed in floating
//! point and no ray is found twice; a count of the shared tight constraints rules out most
//! pairs first. The constraint added next is the one that makes the fewest pairs. Rays are
//! kept as primitive integer vectors.

use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::{Error, Result};
use crate::exact::{over_common_denominator, ratio, Q};
use crate::strategic::game::NormalForm;
use crate::strategic::solvers::correlated::incentive_rows;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// An extreme ray: its primitive integer coordinates and the constraints it is tight on (bit
/// `i < d` for `p_i = 0`, bit `d + j` for incentive constraint `j`).
struct Ray {
    point: Vec<BigInt>,
    tight: Vec<u64>,
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn contains(big: &[u64], small: &[u64]) -> bool {
    big.iter().zip(small).all(|(b, s)| s & !b == 0)
}

fn primitive(mut v: Vec<BigInt>) -> Vec<BigInt> {
    let g = v.iter().fold(BigInt::zero(), |g, x| g.gcd(x));
    if !g.is_zero() && !g.is_one() {
        for x in &mut v {
            *x /= &g;
        }
    }
    v
}

/// Every vertex of the polytope of correlated equilibria of `game` (coarse ones with
/// `coarse`), each a distribution over the pure profiles numbered as
/// [`NormalForm::index`] numbers them, in decreasing lexicographic order. The number of rays grows
/// with each constraint added, and is checked against the budgets as it does.
pub fn vertices(game: &NormalForm, coarse: bool, limits: &Limits) -> Result<Vec<Vec<Q>>> {
    let d = game.profiles();
    let rows: Vec<Vec<BigInt>> = incentive_rows(game, coarse)
        .iter()
        .map(|r| over_common_denominator(r.iter()).0)
        .filter(|r| r.iter().any(|x| !x.is_zero()))
        .collect();
    let words = (d + rows.len()).div_ceil(64);
    // A ray's bytes: its coordinates (a few words each) and its tight set.
    let ray_bytes = (d as u64) * 32 + (words as u64) * 8 + 64;
    let mut rays: Vec<Ray> = (0..d)
        .map(|i| {
            let mut tight = vec![0u64; words];
            for j in (0..d).filter(|&j| j != i) {
                set(&mut tight, j);
            }
            let mut point = vec![BigInt::zero(); d];
            point[i] = BigInt::one();
            Ray { point, tight }
        })
        .collect();
    let mut work: u64 = 0;
    let mut left: Vec<usize> = (0..rows.len()).collect();
    let dot = |g: &[BigInt], r: &Ray| -> BigInt {
        g.iter()
            .zip(&r.point)
            .filter(|(a, _)| !a.is_zero())
            .map(|(a, x)| a * x)
            .sum()
    };
    while !left.is_empty() {
        // The constraint that makes the fewest pairs next (as cdd's orderings do, this keeps
        // the rays in between from growing as much as a fixed order lets them).
        work = work.saturating_add((left.len() as u64) * (rays.len() as u64) * (d as u64));
        check_work(
            "the vertices of the correlated equilibria",
            work,
            limits.max_work,
        )?;
        let (at, values) = left
            .iter()
            .enumerate()
            .map(|(at, &j)| {
                (
                    at,
                    rays.iter().map(|r| dot(&rows[j], r)).collect::<Vec<_>>(),
                )
            })
            .min_by_key(|(_, values): &(usize, Vec<BigInt>)| {
                let plus = values.iter().filter(|v| v.is_positive()).count();
                let minus = values.iter().filter(|v| v.is_negative()).count();
                plus * minus
            })
            .expect("a constraint is left");
        let bit = d + left.swap_remove(at);
        rays = cut(rays, &values, bit, d, ray_bytes, &mut work, limits)?;
    }
    if rays.is_empty() {
        // Cannot happen: every game has a correlated equilibrium (a Nash equilibrium is one).
        return Err(Error::Invalid(
            "internal inconsistency: the correlated equilibria have no vertex".into(),
        ));
    }
    let mut out: Vec<Vec<Q>> = rays
        .iter()
        .map(|r| {
            let total: BigInt = r.point.iter().sum();
            r.point.iter().map(|x| ratio(x, &total)).collect()
        })
        .collect();
    out.sort_by(|a, b| crate::exact::cmp_qs(b, a));
    Ok(out)
}

/// The extreme rays after the constraint numbered `bit` (whose value on each ray is in
/// `values`) is added: those that meet it, and a new ray for each adjacent pair on its two
/// sides.
fn cut(
    rays: Vec<Ray>,
    values: &[BigInt],
    bit: usize,
    d: usize,
    ray_bytes: u64,
    work: &mut u64,
    limits: &Limits,
) -> Result<Vec<Ray>> {
    let words = rays.first().map_or(1, |r| r.tight.len());
    let plus: Vec<usize> = (0..rays.len())
        .filter(|&k| values[k].is_positive())
        .collect();
    let minus: Vec<usize> = (0..rays.len())
        .filter(|&k| values[k].is_negative())
        .collect();
    // Two adjacent rays span a face of dimension 2, so they share at least d − 2 tight
    // constraints: a count that rules out most pairs before the test against every ray.
    *work =
        work.saturating_add((plus.len() as u64).saturating_mul(minus.len() as u64) * words as u64);
    check_work(
        "the vertices of the correlated equilibria",
        *work,
        limits.max_work,
    )?;
    let mut candidates: Vec<(usize, usize, Vec<u64>)> = Vec::new();
    for &a in &plus {
        for &b in &minus {
            let common: Vec<u64> = rays[a]
                .tight
                .iter()
                .zip(&rays[b].tight)
                .map(|(x, y)| x & y)
                .collect();
            if common
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>()
                + 2
                >= d
            {
                candidates.push((a, b, common));
            }
        }
    }
    let mut next: Vec<Ray> = Vec::new();
    for (a, b, common) in candidates {
        // Counted as it runs: the test usually meets a ray that rules the pair out long
        // before the end of the list, so a bound made in advance would be far too high.
        let mut seen = 0u64;
        let adjacent = rays.iter().enumerate().all(|(k, r)| {
            seen += 1;
            k == a || k == b || !contains(&r.tight, &common)
        });
        *work = work.saturating_add(seen * words as u64 + d as u64);
        check_work(
            "the vertices of the correlated equilibria",
            *work,
            limits.max_work,
        )?;
        if !adjacent {
            continue;
        }
        // (g·a) b − (g·b) a: nonnegative weights, and on the hyperplane g·p = 0.
        let (va, vb) = (&values[a], &values[b]);
        let point = primitive(
            rays[a]
                .point
                .iter()
                .zip(&rays[b].point)
                .map(|(x, y)| va * y - vb * x)
                .collect(),
        );
        let mut tight = common;
        set(&mut tight, bit);
        for (i, x) in point.iter().enumerate() {
            if x.is_zero() {
                set(&mut tight, i);
            }
        }
        next.push(Ray { point, tight });
    }
    let kept = rays.len() - plus.len() + next.len();
    check_memory(
        "the vertices of the correlated equilibria",
        (kept as u64).saturating_mul(ray_bytes),
        limits.max_memory,
    )?;
    let mut all: Vec<Ray> = Vec::with_capacity(kept);
    for (k, mut r) in rays.into_iter().enumerate() {
        if values[k].is_positive() {
            continue;
        }
        if values[k].is_zero() {
            set(&mut r.tight, bit);
        }
        all.push(r);
    }
    all.extend(next);
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(bits: &[u64], i: usize) -> bool {
        bits[i / 64] >> (i % 64) & 1 == 1
    }

    /// Tight sets only grow along a ray's life, and the helpers agree with them.
    #[test]
    fn bit_helpers() {
        let mut b = vec![0u64; 2];
        set(&mut b, 3);
        set(&mut b, 70);
        assert!(has(&b, 3) && has(&b, 70) && !has(&b, 4));
        assert!(contains(&b, &[8, 0]));
        assert!(!contains(&[8, 0], &b));
        assert_eq!(
            primitive(vec![4.into(), 6.into(), 0.into()]),
            vec![BigInt::from(2), 3.into(), 0.into()]
        );
    }
}
