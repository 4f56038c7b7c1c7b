//! The rest points of the one-population replicator equation, exactly, and their stability
//! decided from the linearisation, exactly.
//!
//! A point `x` of the simplex rests when every strategy it plays earns the average:
//! `(A x)_i = xᵀA x` on its support. On each support the shares solve a square linear system;
//! a unique positive solution is a rest point (a support whose system has many solutions holds
//! a continuum of rest points, reported as such). At a rest point with support `S` and average
//! `v`, the linearisation's eigenvalues are, for each strategy `j` outside `S`, the exact
//! number `(A x)_j − v` (the rate at which a few `j` players grow or die out), and those of the
//! Jacobian inside the face of `S`, `J_ij = x_i (A_ij − (xᵀA)_j − v)`, on the directions that
//! keep the shares summing to one. The latter's characteristic polynomial is computed in
//! fractions (Faddeev–LeVerrier) and its roots located by the Routh–Hurwitz criterion, so the
//! verdict — asymptotically stable (every real part negative), unstable (one positive), or
//! not decided by the linearisation (a real part zero: a centre, as in rock–paper–scissors) —
//! needs no floating-point eigenvalue.

use crate::core::budget::{check_work, Limits};
use crate::core::error::Result;
use crate::exact::linalg::{solve_fractions, Solution};
use crate::exact::simplex::maximize;
use crate::exact::{over_common_denominator, Q};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// What the linearisation says of a rest point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stability {
    /// Every eigenvalue's real part is negative: nearby shares return.
    Stable,
    /// Some eigenvalue's real part is positive: some nearby shares leave.
    Unstable,
    /// Not decided: some real part is zero and none positive (the linearisation does not
    /// decide), or, rarely, a doubly degenerate characteristic polynomial (a vanishing row of
    /// the Routh array followed by a leading zero) that this exact test does not settle.
    Undecided,
}

/// A rest point.
#[derive(Debug, Clone)]
pub struct RestPoint {
    /// The shares.
    pub shares: Vec<Q>,
    /// The population's average payoff there.
    pub payoff: Q,
    /// Whether no strategy outside the support earns more (so `(x, x)` is a Nash equilibrium).
    pub nash: bool,
    /// The linearisation's verdict.
    pub stability: Stability,
}

/// Every isolated rest point of the replicator equation of the symmetric game `a`, by support
/// (smaller supports first), and the supports that hold a continuum of rest points.
pub fn rest_points(a: &[Vec<Q>], limits: &Limits) -> Result<(Vec<RestPoint>, Vec<Vec<usize>>)> {
    let n = a.len();
    let supports = 1u64.checked_shl(n as u32).unwrap_or(u64::MAX);
    check_work(
        "the rest points of the replicator equation",
        supports.saturating_mul(((n + 1) as u64).pow(3)),
        limits.max_work,
    )?;
    let mut masks: Vec<u64> = (1..supports).collect();
    masks.sort_by_key(|s| (s.count_ones(), *s));
    let mut found = Vec::new();
    let mut continua = Vec::new();
    for mask in masks {
        let s: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
        let k = s.len();
        // (A x)_i − v = 0 for i in S, Σ x = 1: unknowns x_S and v.
        let mut rows: Vec<Vec<Q>> = s
            .iter()
            .map(|&i| {
                let mut r: Vec<Q> = s.iter().map(|&j| a[i][j].clone()).collect();
                r.push(-Q::one());
                r.push(Q::zero());
                r
            })
            .collect();
        let mut sum = vec![Q::one(); k];
        sum.push(Q::zero());
        sum.push(Q::one());
        rows.push(sum);
        match solve_fractions(&rows, k + 1) {
            Solution::Unique(sol, _) if sol[..k].iter().all(Signed::is_positive) => {
                let mut x = vec![Q::zero(); n];
                for (v, &i) in sol.iter().zip(&s) {
                    x[i] = v.clone();
                }
                found.push(classify(a, x, &s, sol[k].clone()));
            }
            // Many solutions: a continuum of rest points if one has every share positive.
            Solution::Dependent if continuum_inside(a, &s)? => continua.push(s),
            _ => {}
        }
    }
    Ok((found, continua))
}

/// Whether the rest-point equations on support `s`, which have many solutions, have one with
/// every share positive: an exact LP over the cone of solutions (the average payoff split
/// into its positive and negative parts), maximising the least share with the shares summing
/// to at most one. Its optimum is positive exactly when such a solution exists.
fn continuum_inside(a: &[Vec<Q>], s: &[usize]) -> Result<bool> {
    let k = s.len();
    // Variables: x_S (k), v⁺, v⁻, ε.
    let width = k + 3;
    let mut rows: Vec<Vec<Q>> = Vec::new();
    for &i in s {
        let mut r: Vec<Q> = s.iter().map(|&j| a[i][j].clone()).collect();
        r.extend([-Q::one(), Q::one(), Q::zero()]);
        rows.push(r.iter().map(|x| -x).collect());
        rows.push(r);
    }
    for p in 0..k {
        let mut r = vec![Q::zero(); width];
        r[p] = -Q::one();
        r[k + 2] = Q::one();
        rows.push(r);
    }
    let mut sum = vec![Q::one(); k];
    sum.extend([Q::zero(), Q::zero(), Q::zero()]);
    rows.push(sum);
    let ints: Vec<Vec<BigInt>> = rows
        .iter()
        .map(|r| over_common_denominator(r.iter()).0)
        .collect();
    let mut b = vec![BigInt::zero(); ints.len()];
    *b.last_mut().expect("the sum row") = BigInt::one();
    let mut c = vec![BigInt::zero(); width];
    c[k + 2] = BigInt::one();
    Ok(maximize(&ints, &b, &c)?.value.is_positive())
}

fn classify(a: &[Vec<Q>], x: Vec<Q>, s: &[usize], v: Q) -> RestPoint {
    let n = a.len();
    let ax: Vec<Q> = (0..n)
        .map(|i| (0..n).fold(Q::zero(), |acc, j| acc + &a[i][j] * &x[j]))
        .collect();
    let xa: Vec<Q> = (0..n)
        .map(|j| (0..n).fold(Q::zero(), |acc, i| acc + &x[i] * &a[i][j]))
        .collect();
    let transversal: Vec<Q> = (0..n)
        .filter(|i| !s.contains(i))
        .map(|j| &ax[j] - &v)
        .collect();
    let nash = transversal.iter().all(|e| !e.is_positive());
    // The Jacobian inside the face, on the directions e_l − e_{s0}.
    let jac = |i: usize, j: usize| &x[i] * (&a[i][j] - &xa[j] - &v);
    let k = s.len();
    let r: Vec<Vec<Q>> = (1..k)
        .map(|p| (1..k).map(|q| jac(s[p], s[q]) - jac(s[p], s[0])).collect())
        .collect();
    let internal = hurwitz(&characteristic(&r));
    let stability =
        if transversal.iter().any(Signed::is_positive) || internal == Stability::Unstable {
            Stability::Unstable
        } else if transversal.iter().all(Signed::is_negative) && internal == Stability::Stable {
            Stability::Stable
        } else {
            Stability::Undecided
        };
    RestPoint {
        shares: x,
        payoff: v,
        nash,
        stability,
    }
}

/// The characteristic polynomial `det(λI − M)` of a square matrix, monic, highest power
/// first, by Faddeev–LeVerrier in fractions.
fn characteristic(m: &[Vec<Q>]) -> Vec<Q> {
    let d = m.len();
    let mut coeffs = vec![Q::one()];
    let mut big: Vec<Vec<Q>> = vec![vec![Q::zero(); d]; d];
    for k in 1..=d {
        // M_k = M (M_{k−1} + c_{k−1} I), c_k = −tr(M_k) / k.
        let mut shifted = big.clone();
        for (i, row) in shifted.iter_mut().enumerate() {
            row[i] += &coeffs[k - 1];
        }
        big = (0..d)
            .map(|i| {
                (0..d)
                    .map(|j| (0..d).fold(Q::zero(), |acc, l| acc + &m[i][l] * &shifted[l][j]))
                    .collect()
            })
            .collect();
        let trace = (0..d).fold(Q::zero(), |acc, i| acc + &big[i][i]);
        coeffs.push(-trace / Q::from_integer(BigInt::from(k)));
    }
    coeffs
}

/// Where the roots of a real polynomial (highest power first, leading coefficient positive)
/// lie: all in the open left half-plane (stable), one in the right (unstable), or none in the
/// right and some on the imaginary axis (undecided). By the Routh array, exactly; a row that
/// vanishes (roots placed symmetrically about the origin) is replaced by the derivative of
/// the auxiliary polynomial above it, as the textbook rule goes, and a row that only starts
/// with a zero is avoided by multiplying the polynomial by `λ + 1` (a root in the left
/// half-plane changes neither count), at most a few times.
fn hurwitz(p: &[Q]) -> Stability {
    let mut poly = p.to_vec();
    for shift in 1..=4i64 {
        if let Some((right, axis)) = routh(&poly) {
            return if right > 0 {
                Stability::Unstable
            } else if axis {
                Stability::Undecided
            } else {
                Stability::Stable
            };
        }
        // × (λ + shift)
        let mut next = vec![Q::zero(); poly.len() + 1];
        for (k, c) in poly.iter().enumerate() {
            next[k] += c;
            next[k + 1] += c * Q::from_integer(shift.into());
        }
        poly = next;
    }
    // Still singular: a negative coefficient proves a root in the right half-plane (every
    // polynomial with no such root has non-negative coefficients); otherwise say undecided.
    if p.iter().any(Signed::is_negative) {
        Stability::Unstable
    } else {
        Stability::Undecided
    }
}

/// The Routh array of `p`: the number of sign changes in its first column (the roots in the
/// right half-plane) and whether a row vanished (roots on the imaginary axis possible), or
/// `None` when a row starts with a zero and is not all zeros.
fn routh(p: &[Q]) -> Option<(usize, bool)> {
    let degree = p.len() - 1;
    if degree == 0 {
        return Some((0, false));
    }
    let width = p.len().div_ceil(2);
    let row = |start: usize| -> Vec<Q> {
        (0..width)
            .map(|k| p.get(start + 2 * k).cloned().unwrap_or_else(Q::zero))
            .collect()
    };
    let mut above = row(0);
    let mut below = row(1);
    let mut column = vec![above[0].clone()];
    let mut vanished = false;
    for r in 1..=degree {
        if below.iter().all(Zero::is_zero) {
            // The auxiliary polynomial of the row above has degree degree − r + 1, in steps
            // of two; its derivative's coefficients take the row's place.
            vanished = true;
            let top = degree - r + 1;
            below = above
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    let power = top as i64 - 2 * k as i64;
                    if power > 0 {
                        c * Q::from_integer(power.into())
                    } else {
                        Q::zero()
                    }
                })
                .collect();
        }
        if below[0].is_zero() {
            return None;
        }
        column.push(below[0].clone());
        let next: Vec<Q> = (0..width)
            .map(|k| {
                let a = above.get(k + 1).cloned().unwrap_or_else(Q::zero);
                let b = below.get(k + 1).cloned().unwrap_or_else(Q::zero);
                (&below[0] * a - &above[0] * b) / &below[0]
            })
            .collect();
        above = std::mem::replace(&mut below, next);
    }
    let changes = column
        .windows(2)
        .filter(|w| w[0].is_positive() != w[1].is_positive())
        .count();
    Some((changes, vanished))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(x: i64) -> Q {
        Q::from_integer(x.into())
    }

    fn poly(roots: &[i64]) -> Vec<Q> {
        // Π (λ − r), highest power first.
        let mut p = vec![q(1)];
        for &r in roots {
            let mut next = vec![q(0); p.len() + 1];
            for (k, c) in p.iter().enumerate() {
                next[k] += c;
                next[k + 1] -= c * q(r);
            }
            p = next;
        }
        p
    }

    /// Routh–Hurwitz on polynomials with known roots, and LeVerrier on a known matrix.
    #[test]
    fn routh_and_leverrier() {
        assert_eq!(hurwitz(&poly(&[-1, -2, -3])), Stability::Stable);
        assert_eq!(hurwitz(&poly(&[-1, 2, -3])), Stability::Unstable);
        assert_eq!(hurwitz(&poly(&[1])), Stability::Unstable);
        // λ² + 1: roots ±i, on the axis.
        assert_eq!(hurwitz(&[q(1), q(0), q(1)]), Stability::Undecided);
        // λ² + 2λ + 5: roots −1 ± 2i.
        assert_eq!(hurwitz(&[q(1), q(2), q(5)]), Stability::Stable);
        // λ² − 2λ + 5: roots 1 ± 2i.
        assert_eq!(hurwitz(&[q(1), q(-2), q(5)]), Stability::Unstable);
        // λ² − 1/2: roots ±0.707, a zero row start.
        assert_eq!(
            hurwitz(&[q(1), q(0), Q::new((-1).into(), 2.into())]),
            Stability::Unstable
        );
        // λ⁴ + 4: roots ±1 ± i, every odd coefficient zero and none negative: the one kind
        // of case (a vanishing row, then a row starting with zero whatever the factor) left
        // undecided, though it has roots on the right.
        assert_eq!(
            hurwitz(&[q(1), q(0), q(0), q(0), q(4)]),
            Stability::Undecided
        );
        // (λ + 1)(λ² + 1): on the axis.
        assert_eq!(hurwitz(&[q(1), q(1), q(1), q(1)]), Stability::Undecided);
        assert_eq!(hurwitz(&poly(&[0, -2])), Stability::Undecided);
        assert_eq!(hurwitz(&poly(&[0, 2])), Stability::Unstable);
        // λ³ + λ² + 2λ + 8: roots −2 and 1/2 ± i√(15)/2: unstable, a regular array.
        assert_eq!(hurwitz(&[q(1), q(1), q(2), q(8)]), Stability::Unstable);
        let m = vec![vec![q(2), q(1)], vec![q(1), q(3)]];
        assert_eq!(characteristic(&m), vec![q(1), q(-5), q(5)]);
    }
}
