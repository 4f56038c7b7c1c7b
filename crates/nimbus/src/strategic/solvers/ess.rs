//! Evolutionarily stable strategies (Maynard Smith and Price) of symmetric two-player games,
//! decided exactly, with an invader found whenever a strategy is not stable.
//!
//! A strategy `x` of the symmetric game with payoffs `A` is an ESS when it is a best reply to
//! itself and every other best reply `y` to `x` does worse against itself than `x` does:
//! `xᵀA y > yᵀA y`. Writing `y = x + z`, the first-order terms cancel on the best replies
//! (`A x` is constant there), so the test is that the quadratic form `zᵀA z` is negative on
//! every nonzero direction `z` of the cone of moves from `x` inside the best replies: `z`
//! supported on the best replies `T`, summing to zero, nonnegative off the support `S` of `x`
//! (Haigh 1975; Bomze 1992). The form is not negative on a cone of this shape exactly when
//!
//! - after `z` is written in the coordinates of `T` without one strategy `s₀` of `S` (whose
//!   coordinate is minus the others' sum), the form is not negative definite on the free
//!   coordinates `S ∖ {s₀}` — tested by symmetric elimination, whose pivots are all positive
//!   exactly for a positive definite matrix; or
//! - the free coordinates maximised out (the Schur complement `M` of the form's negation
//!   left on the coordinates `K = T ∖ S`) `M` is not strictly copositive.
//!
//! `M` fails to be strictly copositive exactly when some principal block `M_JJ` has a solution
//! of `M_JJ u = λ·1`, `Σ u = 1` that is unique, positive, and has `λ ≤ 0`: the minimum of
//! `uᵀM u` over the simplex is at most zero, and on the smallest face where that happens the
//! minimiser is interior, so it satisfies those equations, and uniquely (a line of solutions
//! would reach the face's boundary at a point no worse). Every step is exact rational
//! arithmetic, and each failure yields the direction `z` that gives the invader.

use crate::core::budget::{check_work, Limits};
use crate::core::error::{Error, Result};
use crate::exact::linalg::{solve_fractions, Solution};
use crate::exact::Q;
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

/// Whether the mixed strategy `x` of the symmetric game whose row player's payoffs are `a`
/// is evolutionarily stable: `None` when it is, otherwise a strategy that invades it — a best
/// reply to `x` that does at least as well against itself as `x` does against it (or, when `x`
/// is not a best reply to itself, a pure strategy that does better against `x`).
pub fn invader(a: &[Vec<Q>], x: &[Q], limits: &Limits) -> Result<Option<Vec<Q>>> {
    let n = a.len();
    let ax: Vec<Q> = (0..n)
        .map(|i| (0..n).fold(Q::zero(), |acc, j| acc + &a[i][j] * &x[j]))
        .collect();
    let best = ax.iter().max().cloned().unwrap_or_else(Q::zero);
    let own = (0..n).fold(Q::zero(), |acc, i| acc + &x[i] * &ax[i]);
    if own < best {
        let i = ax.iter().position(|v| *v == best).unwrap_or(0);
        return Ok(Some(unit(n, i)));
    }
    let support: Vec<usize> = (0..n).filter(|&i| x[i].is_positive()).collect();
    let others: Vec<usize> = (0..n)
        .filter(|&i| ax[i] == best && !x[i].is_positive())
        .collect();
    let (f, k) = (support.len() - 1, others.len());
    if k >= 48 {
        return Err(Error::Invalid(format!(
            "the evolutionary-stability test tries every subset of the alternative best \
             replies, and this strategy has {k}"
        )));
    }
    // Every subset of the alternative best replies is tried, with a small elimination each.
    let steps = 1u64
        .checked_shl(k as u32)
        .unwrap_or(u64::MAX)
        .saturating_mul(((f + k + 2) as u64).pow(3) + k as u64);
    check_work("the evolutionary-stability test", steps, limits.max_work)?;

    let s0 = support[0];
    let vars: Vec<usize> = support[1..].iter().chain(&others).copied().collect();
    // zᵀA z only sees A's symmetric part; P is the negated form in the reduced coordinates.
    let sym = |i: usize, j: usize| (&a[i][j] + &a[j][i]) / Q::from_integer(2.into());
    let p: Vec<Vec<Q>> = vars
        .iter()
        .map(|&i| {
            vars.iter()
                .map(|&j| -(sym(i, j) - sym(i, s0) - sym(s0, j) + sym(s0, s0)))
                .collect()
        })
        .collect();

    let direction = match free_direction(&p, f) {
        Some(w) => Some(w),
        None => {
            let m = schur(&p, f);
            not_strictly_copositive(&m).map(|u| {
                // The free coordinates that maximise the form for this u.
                let mut w = vec![Q::zero(); f + k];
                let rows: Vec<Vec<Q>> = (0..f)
                    .map(|r| {
                        let mut row = p[r][..f].to_vec();
                        let rhs = (0..k).fold(Q::zero(), |acc, c| acc - &p[r][f + c] * &u[c]);
                        row.push(rhs);
                        row
                    })
                    .collect();
                let free = solve_q(rows, f).unwrap_or_else(|| vec![Q::zero(); f]);
                w[..f].clone_from_slice(&free);
                w[f..].clone_from_slice(&u);
                w
            })
        }
    };
    Ok(direction.map(|w| {
        let mut z = vec![Q::zero(); n];
        for (v, &i) in w.iter().zip(&vars) {
            z[i] = v.clone();
        }
        z[s0] = -w.iter().fold(Q::zero(), |acc, v| acc + v);
        // As far along z as the simplex allows: the strategies it takes weight from run out.
        let t = (0..n)
            .filter(|&i| z[i].is_negative())
            .map(|i| &x[i] / -&z[i])
            .min()
            .unwrap_or_else(Q::zero);
        (0..n).map(|i| &x[i] + &t * &z[i]).collect()
    }))
}

fn unit(n: usize, i: usize) -> Vec<Q> {
    (0..n)
        .map(|j| Q::from_integer(BigInt::from(u8::from(i == j))))
        .collect()
}

/// When the leading `f × f` block of the symmetric `p` is not positive definite, a vector `w`
/// (zero past `f`) with `wᵀp w ≤ 0`: at the first pivot that is not positive, the leading
/// block before it is positive definite, and minimising over its coordinates with this one
/// set to 1 leaves exactly that pivot.
fn free_direction(p: &[Vec<Q>], f: usize) -> Option<Vec<Q>> {
    let mut e: Vec<Vec<Q>> = p.iter().map(|r| r[..f].to_vec()).collect();
    for t in 0..f {
        if !e[t][t].is_positive() {
            let rows: Vec<Vec<Q>> = (0..t)
                .map(|r| {
                    let mut row = p[r][..t].to_vec();
                    row.push(-p[r][t].clone());
                    row
                })
                .collect();
            let lead = solve_q(rows, t)?;
            let mut w = vec![Q::zero(); p.len()];
            w[..t].clone_from_slice(&lead);
            w[t] = Q::from_integer(1.into());
            return Some(w);
        }
        eliminate(&mut e, t);
    }
    None
}

/// The Schur complement of the leading `f × f` block of `p` (positive definite) in `p`.
fn schur(p: &[Vec<Q>], f: usize) -> Vec<Vec<Q>> {
    let mut e = p.to_vec();
    for t in 0..f {
        eliminate(&mut e, t);
    }
    e[f..].iter().map(|r| r[f..].to_vec()).collect()
}

/// One step of symmetric Gaussian elimination on pivot `t` (nonzero).
fn eliminate(e: &mut [Vec<Q>], t: usize) {
    let pivot = e[t][t].clone();
    let row = e[t].clone();
    for below in e.iter_mut().skip(t + 1) {
        if below[t].is_zero() {
            continue;
        }
        let factor = &below[t] / &pivot;
        for (c, v) in row.iter().enumerate().skip(t) {
            below[c] -= &factor * v;
        }
    }
}

/// A vector `u ≥ 0`, not zero, with `uᵀm u ≤ 0`, when the symmetric `m` is not strictly
/// copositive; `None` when it is.
fn not_strictly_copositive(m: &[Vec<Q>]) -> Option<Vec<Q>> {
    let k = m.len();
    // Smaller blocks first, so the invader found uses as few new strategies as it can.
    let masks =
        (1..=k as u32).flat_map(|size| (1..1u64 << k).filter(move |s| s.count_ones() == size));
    for mask in masks {
        let block: Vec<usize> = (0..k).filter(|&i| mask >> i & 1 == 1).collect();
        let j = block.len();
        // [M_JJ  −1; 1ᵀ 0] (u, λ) = (0, 1)
        let mut rows: Vec<Vec<Q>> = block
            .iter()
            .map(|&r| {
                let mut row: Vec<Q> = block.iter().map(|&c| m[r][c].clone()).collect();
                row.push(Q::from_integer((-1).into()));
                row.push(Q::zero());
                row
            })
            .collect();
        let mut sum = vec![Q::from_integer(1.into()); j];
        sum.push(Q::zero());
        sum.push(Q::from_integer(1.into()));
        rows.push(sum);
        let Some(solution) = solve_q(rows, j + 1) else {
            continue;
        };
        if solution[..j].iter().all(Signed::is_positive) && !solution[j].is_positive() {
            let mut u = vec![Q::zero(); k];
            for (v, &i) in solution.iter().zip(&block) {
                u[i] = v.clone();
            }
            return Some(u);
        }
    }
    None
}

/// The unique solution of the rational system with augmented rows `[M | b]` and `cols`
/// unknowns, or `None` when it has none or many.
fn solve_q(rows: Vec<Vec<Q>>, cols: usize) -> Option<Vec<Q>> {
    match solve_fractions(&rows, cols) {
        Solution::Unique(x, _) => Some(x),
        _ => None,
    }
}
