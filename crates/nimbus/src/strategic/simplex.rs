//! An exact LP solver: maximise `c·y` subject to `A y <= b`, `y >= 0`, with `b >= 0` (so the
//! slack basis is feasible and no first phase is needed — the form matrix games take).
//!
//! The tableau is kept in integers by fraction-free pivoting (Edmonds; Bareiss; as in Avis's
//! lrs): every entry is the true tableau entry times the current determinant `D`, and a pivot
//! on `p = T[r][e]` sets `T[i][j] = (T[i][j]·p − T[i][e]·T[r][j]) / D` for `i != r`, an exact
//! division, then `D = p`. Numbers stay as small as the determinants of the data, with no
//! gcds. Bland's rule (smallest entering index, then smallest leaving basic index among ties)
//! cannot cycle, so degenerate problems terminate. The dual prices are read from the
//! objective row under the slack columns.

use super::Q;
use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// An optimal solution of the LP and of its dual.
#[derive(Debug, Clone, PartialEq)]
pub struct LpSolution {
    /// The optimal value of `c·y`.
    pub value: Q,
    /// An optimal `y`.
    pub primal: Vec<Q>,
    /// An optimal dual `u >= 0` (minimise `b·u` subject to `Aᵀu >= c`).
    pub dual: Vec<Q>,
    /// Pivots made.
    pub pivots: usize,
}

/// Solves `max c·y` s.t. `A y <= b`, `y >= 0`, for integer data with `b >= 0` (scale rational
/// data by a common denominator first: the optimal `y` does not change, the value scales).
pub fn maximize(a: &[Vec<BigInt>], b: &[BigInt], c: &[BigInt]) -> Result<LpSolution> {
    let (m, n) = (a.len(), c.len());
    if b.len() != m || a.iter().any(|r| r.len() != n) {
        return Err(Error::Invalid("the LP's dimensions do not agree".into()));
    }
    if b.iter().any(Signed::is_negative) {
        return Err(Error::Invalid(
            "this LP solver needs b >= 0 (the slack basis must be feasible)".into(),
        ));
    }
    let rhs = n + m;
    // Rows 0..m are the constraints, row m the objective (−c: optimal once non-negative).
    let mut t: Vec<Vec<BigInt>> = Vec::with_capacity(m + 1);
    for i in 0..m {
        let mut row = a[i].clone();
        row.extend((0..m).map(|k| BigInt::from(u8::from(k == i))));
        row.push(b[i].clone());
        t.push(row);
    }
    let mut obj: Vec<BigInt> = c.iter().map(|x| -x).collect();
    obj.extend((0..=m).map(|_| BigInt::zero()));
    t.push(obj);
    let mut d = BigInt::one();
    let mut basis: Vec<usize> = (n..n + m).collect();
    let mut pivots = 0;
    while let Some(e) = (0..rhs).find(|&j| t[m][j].is_negative()) {
        let mut leave: Option<usize> = None;
        for i in 0..m {
            if !t[i][e].is_positive() {
                continue;
            }
            leave = match leave {
                None => Some(i),
                Some(r) => {
                    // Compare t[i][rhs]/t[i][e] with t[r][rhs]/t[r][e] (positive denominators).
                    let lhs = &t[i][rhs] * &t[r][e];
                    let rhs_ = &t[r][rhs] * &t[i][e];
                    match lhs.cmp(&rhs_) {
                        std::cmp::Ordering::Less => Some(i),
                        std::cmp::Ordering::Equal if basis[i] < basis[r] => Some(i),
                        _ => Some(r),
                    }
                }
            };
        }
        let Some(r) = leave else {
            return Err(Error::Invalid("the LP is unbounded".into()));
        };
        let p = t[r][e].clone();
        let pivot_row = t[r].clone();
        for (i, row) in t.iter_mut().enumerate() {
            if i == r {
                continue;
            }
            let f = row[e].clone();
            if f.is_zero() {
                // (T·p − 0)/D: only a rescaling.
                for x in row.iter_mut() {
                    *x = &*x * &p / &d;
                }
                continue;
            }
            for (x, y) in row.iter_mut().zip(&pivot_row) {
                *x = (&*x * &p - &f * y) / &d;
            }
        }
        d = p;
        basis[r] = e;
        pivots += 1;
    }
    let at = |x: &BigInt| Q::new(x.clone(), d.clone());
    let mut primal = vec![Q::zero(); n];
    for (i, &v) in basis.iter().enumerate() {
        if v < n {
            primal[v] = at(&t[i][rhs]);
        }
    }
    let value = at(&t[m][rhs]);
    let dual = (0..m).map(|i| at(&t[m][n + i])).collect();
    Ok(LpSolution {
        value,
        primal,
        dual,
        pivots,
    })
}
