//! A floating-point simplex method, for games too large for exact arithmetic and as a guide
//! for the exact solver (whose answer is then checked exactly, never trusted).

use crate::core::error::{Error, Result};

/// Entries smaller than this (relative to the data's scale, which the callers keep near 1)
/// count as zero.
const EPS: f64 = 1e-9;

/// A floating-point LP solution.
#[derive(Debug, Clone)]
pub struct FloatLp {
    /// The value of `c·y`.
    pub value: f64,
    /// The primal solution `y`.
    pub primal: Vec<f64>,
    /// The dual prices `u`, one per constraint.
    pub dual: Vec<f64>,
    /// The basic variable of each row: `0..n` structural, `n..n+m` slacks.
    pub basis: Vec<usize>,
    /// Pivots made.
    pub pivots: usize,
}

/// Maximises `c·y` s.t. `A y <= b`, `y >= 0`, `b >= 0`, in `f64`: Dantzig's rule, and Bland's
/// after a degenerate pivot until the objective moves (so it cannot cycle).
pub fn maximize(a: &[Vec<f64>], b: &[f64], c: &[f64]) -> Result<FloatLp> {
    let (m, n) = (a.len(), c.len());
    let w = n + m + 1;
    let mut t = vec![0.0f64; (m + 1) * w];
    for i in 0..m {
        t[i * w..i * w + n].copy_from_slice(&a[i]);
        t[i * w + n + i] = 1.0;
        t[i * w + w - 1] = b[i];
    }
    for j in 0..n {
        t[m * w + j] = -c[j];
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    let mut bland = false;
    let mut pivots = 0;
    let limit = 50 * (m + n) + 1000;
    loop {
        let obj = &t[m * w..m * w + w - 1];
        let entering = if bland {
            obj.iter().position(|&x| x < -EPS)
        } else {
            let mut best = None;
            let mut low = -EPS;
            for (j, &x) in obj.iter().enumerate() {
                if x < low {
                    low = x;
                    best = Some(j);
                }
            }
            best
        };
        let Some(e) = entering else { break };
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..m {
            let x = t[i * w + e];
            if x > EPS {
                let ratio = t[i * w + w - 1] / x;
                let better = match leave {
                    None => true,
                    Some((r, best)) => {
                        ratio < best - EPS || (ratio <= best + EPS && basis[i] < basis[r])
                    }
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        let Some((r, ratio)) = leave else {
            return Err(Error::Invalid("the LP is unbounded".into()));
        };
        bland = ratio.abs() <= EPS;
        let p = t[r * w + e];
        for x in &mut t[r * w..(r + 1) * w] {
            *x /= p;
        }
        let pivot_row = t[r * w..(r + 1) * w].to_vec();
        for (i, row) in t.chunks_exact_mut(w).enumerate() {
            let f = row[e];
            if i == r || f == 0.0 {
                continue;
            }
            for (x, y) in row.iter_mut().zip(&pivot_row) {
                *x -= f * y;
            }
            row[e] = 0.0;
        }
        basis[r] = e;
        pivots += 1;
        crate::core::progress::tick(pivots as u64)?;
        if pivots > limit {
            return Err(Error::Invalid(format!(
                "the floating-point simplex method made {pivots} pivots without finishing: \
                 the problem is too badly conditioned for floating point"
            )));
        }
    }
    let mut primal = vec![0.0; n];
    for (i, &v) in basis.iter().enumerate() {
        if v < n {
            primal[v] = t[i * w + w - 1];
        }
    }
    Ok(FloatLp {
        value: t[m * w + w - 1],
        primal,
        dual: (0..m).map(|i| t[m * w + n + i]).collect(),
        basis,
        pivots,
    })
}
