//! Two-player zero-sum (matrix) games: the row player receives `A[i][j]`, the column player
//! pays it.
//!
//! Pure strategies give the maximin `max_i min_j A[i][j]` and the minimax
//! `min_j max_i A[i][j]`; where they meet there are saddle points. In mixed strategies the
//! two always meet (von Neumann's minimax theorem), at the value, found by one LP (Dantzig's reduction):
//! with the entries made positive integers (scaled by a common denominator `L`, shifted by
//! `k`), `max Σy` s.t. `B y <= 1`, `y >= 0` has optimum `z = 1/v(B)`; the column player's
//! optimal strategy is `y/z`, and the row player's is the dual solution over `z`. Both are
//! checked before they are returned: each guarantees the value against every pure reply.

use crate::core::error::{Error, Result};
use crate::exact::simplex::maximize;
use crate::exact::{over_common_denominator, Q};
use num_bigint::BigInt;
use num_traits::{One, Signed};

/// A matrix game solved (serialised with exact numbers as strings; indices 0-based).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ZeroSum {
    /// The value of the game to the row player.
    #[serde(serialize_with = "crate::exact::json::one")]
    pub value: Q,
    /// An optimal mixed strategy of the row player (maximiser).
    #[serde(serialize_with = "crate::exact::json::list")]
    pub row_strategy: Vec<Q>,
    /// An optimal mixed strategy of the column player (minimiser).
    #[serde(serialize_with = "crate::exact::json::list")]
    pub col_strategy: Vec<Q>,
    /// `max_i min_j A[i][j]`: what the row player can guarantee with a pure strategy.
    #[serde(serialize_with = "crate::exact::json::one")]
    pub maximin: Q,
    /// The rows that guarantee the maximin.
    pub maximin_rows: Vec<usize>,
    /// `min_j max_i A[i][j]`: what the column player can hold the row player to, purely.
    #[serde(serialize_with = "crate::exact::json::one")]
    pub minimax: Q,
    /// The columns that achieve the minimax.
    pub minimax_cols: Vec<usize>,
    /// Every `(row, column)` whose entry is the least of its row and the greatest of its
    /// column.
    pub saddle_points: Vec<(usize, usize)>,
    /// Simplex pivots made.
    pub pivots: usize,
}

/// Checks that `a` is a non-empty, rectangular matrix.
pub fn check_matrix(a: &[Vec<Q>]) -> Result<(usize, usize)> {
    let m = a.len();
    let n = a.first().map_or(0, Vec::len);
    if m == 0 || n == 0 {
        return Err(Error::Invalid("the matrix is empty".into()));
    }
    if let Some(i) = a.iter().position(|r| r.len() != n) {
        return Err(Error::Invalid(format!(
            "row {} has {} entries, but row 1 has {n}: a matrix must not be ragged",
            i + 1,
            a[i].len()
        )));
    }
    Ok((m, n))
}

/// The bytes of the simplex tableau for an `m × n` game, `(m + 1) × (n + m + 1)` numbers of
/// `bytes_per_entry` bytes (saturating), for the memory budget.
pub fn tableau_bytes(m: usize, n: usize, bytes_per_entry: u64) -> u64 {
    (m as u64 + 1)
        .saturating_mul(n as u64 + m as u64 + 1)
        .saturating_mul(bytes_per_entry)
}

/// Solves the matrix game `a` exactly, within the default memory budget.
pub fn solve(a: &[Vec<Q>]) -> Result<ZeroSum> {
    solve_within(a, crate::core::budget::default_max_memory())
}

/// Solves the matrix game `a` exactly. A game with a saddle point is answered by its pure
/// strategies without an LP; otherwise the LP's tableau is checked against `max_memory` bytes
/// before it is built.
pub fn solve_within(a: &[Vec<Q>], max_memory: u64) -> Result<ZeroSum> {
    let (m, n) = check_matrix(a)?;
    let row_min: Vec<&Q> = a.iter().map(|r| r.iter().min().expect("n > 0")).collect();
    let col_max: Vec<&Q> = (0..n)
        .map(|j| a.iter().map(|r| &r[j]).max().expect("m > 0"))
        .collect();
    let maximin = (*row_min.iter().max().expect("m > 0")).clone();
    let minimax = (*col_max.iter().min().expect("n > 0")).clone();
    let maximin_rows = (0..m).filter(|&i| *row_min[i] == maximin).collect();
    let minimax_cols = (0..n).filter(|&j| *col_max[j] == minimax).collect();
    let mut saddle_points = Vec::new();
    for i in 0..m {
        for j in 0..n {
            if &a[i][j] == row_min[i] && &a[i][j] == col_max[j] {
                saddle_points.push((i, j));
            }
        }
    }
    if maximin == minimax {
        // A saddle point: its row guarantees the maximin against every column and its column
        // holds the row player to the minimax, so both pure strategies are optimal.
        let unit = |len: usize, at: usize| -> Vec<Q> {
            (0..len)
                .map(|i| Q::from_integer(BigInt::from(u8::from(i == at))))
                .collect()
        };
        return Ok(ZeroSum {
            value: maximin.clone(),
            row_strategy: unit(m, saddle_points[0].0),
            col_strategy: unit(n, saddle_points[0].1),
            maximin,
            maximin_rows,
            minimax,
            minimax_cols,
            saddle_points,
            pivots: 0,
        });
    }
    // The float guide's tableau and the exact one's, at a few words an entry.
    crate::core::budget::check_memory(
        &format!("the simplex tableau of the {m} x {n} game"),
        tableau_bytes(m, n, 40),
        max_memory,
    )?;
    // Positive integers: scaled by the common denominator l, shifted by k.
    let (b, l, k) = crate::strategic::bimatrix::positive_integers(a);
    let lp = maximize(&b, &vec![BigInt::one(); m], &vec![BigInt::one(); n])?;
    let z = lp.value.clone();
    let col_strategy: Vec<Q> = lp.primal.iter().map(|y| y / &z).collect();
    let row_strategy: Vec<Q> = lp.dual.iter().map(|u| u / &z).collect();
    let value = (z.recip() - Q::from_integer(k.clone())) / Q::from_integer(l.clone());
    // Checked in integers over common denominators: sums of rationals would spend their
    // time in gcds.
    let (xr, dx) = over_common_denominator(&row_strategy);
    let (yc, dy) = over_common_denominator(&col_strategy);
    let guarantee_row = (0..n)
        .map(|j| (0..m).map(|i| &xr[i] * &b[i][j]).sum::<BigInt>())
        .min()
        .expect("n > 0");
    let guarantee_col = (0..m)
        .map(|i| (0..n).map(|j| &yc[j] * &b[i][j]).sum::<BigInt>())
        .max()
        .expect("m > 0");
    let guarantee_row = Q::new(guarantee_row - &k * &dx, dx.clone() * &l);
    let guarantee_col = Q::new(guarantee_col - &k * &dy, dy.clone() * &l);
    let sums_ok = xr.iter().sum::<BigInt>() == dx
        && yc.iter().sum::<BigInt>() == dy
        && xr.iter().chain(&yc).all(|x| !x.is_negative());
    if !sums_ok || guarantee_row != value || guarantee_col != value {
        return Err(Error::Invalid(
            "internal inconsistency: the LP's strategies do not guarantee its value".into(),
        ));
    }
    Ok(ZeroSum {
        value,
        row_strategy,
        col_strategy,
        maximin,
        maximin_rows,
        minimax,
        minimax_cols,
        saddle_points,
        pivots: lp.pivots,
    })
}

/// A matrix game solved in floating point, with the evidence of how good the answer is.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FloatZeroSum {
    /// The LP's estimate of the value.
    pub value: f64,
    /// The row player's strategy (normalised to sum 1).
    pub row_strategy: Vec<f64>,
    /// The column player's strategy (normalised to sum 1).
    pub col_strategy: Vec<f64>,
    /// What the row strategy guarantees: its worst payoff against a pure column.
    pub row_guarantee: f64,
    /// What the column strategy concedes: the row player's best pure reply to it.
    pub col_guarantee: f64,
    /// `col_guarantee − row_guarantee`: zero for an exact solution; the true value lies
    /// between the two guarantees whatever the rounding.
    pub duality_gap: f64,
    /// Simplex pivots made.
    pub pivots: usize,
}

/// Solves the matrix game `a` in floating point (for games too large for exact arithmetic),
/// within the default memory budget.
pub fn solve_float(a: &[Vec<f64>]) -> Result<FloatZeroSum> {
    solve_float_within(a, crate::core::budget::default_max_memory())
}

/// [`solve_float`] with the LP's tableau checked against `max_memory` bytes before it is built.
pub fn solve_float_within(a: &[Vec<f64>], max_memory: u64) -> Result<FloatZeroSum> {
    let m = a.len();
    let n = a.first().map_or(0, Vec::len);
    if m == 0 || n == 0 || a.iter().any(|r| r.len() != n) {
        return Err(Error::Invalid("the matrix is empty or ragged".into()));
    }
    for (i, row) in a.iter().enumerate() {
        if let Some(j) = row.iter().position(|x| !x.is_finite()) {
            return Err(Error::Invalid(format!(
                "row {}, column {}: the entry is too large for floating point (solve without \
                 {}: exact arithmetic has no such limit)",
                i + 1,
                j + 1,
                crate::core::hint::setting("float")
            )));
        }
    }
    let lo = a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let hi = a
        .iter()
        .flatten()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    let row_min: Vec<f64> = a
        .iter()
        .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
        .collect();
    let col_max: Vec<f64> = (0..n)
        .map(|j| a.iter().map(|r| r[j]).fold(f64::NEG_INFINITY, f64::max))
        .collect();
    let best_row = (0..m).fold(0, |b, i| if row_min[i] > row_min[b] { i } else { b });
    let best_col = (0..n).fold(0, |b, j| if col_max[j] < col_max[b] { j } else { b });
    if row_min[best_row] == col_max[best_col] {
        // A saddle point: both pure strategies are optimal, exactly, with no LP.
        let unit = |len: usize, at: usize| (0..len).map(|i| f64::from(u8::from(i == at))).collect();
        return Ok(FloatZeroSum {
            value: row_min[best_row],
            row_strategy: unit(m, best_row),
            col_strategy: unit(n, best_col),
            row_guarantee: row_min[best_row],
            col_guarantee: col_max[best_col],
            duality_gap: 0.0,
            pivots: 0,
        });
    }
    crate::core::budget::check_memory(
        &format!("the simplex tableau of the {m} x {n} game"),
        tableau_bytes(m, n, 8),
        max_memory,
    )?;
    // Everything is computed on the entries divided by the largest in size, in [-1, 1], so
    // that no difference or sum of entries overflows (1e308 - (-1e308) would be infinite),
    // and multiplied back at the end.
    let scale = lo.abs().max(hi.abs());
    let (lo, hi) = (lo / scale, hi / scale);
    // Entries mapped into [1, 2]: positive, so the LP is bounded, and well scaled.
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    let b: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(|x| 1.0 + (x / scale - lo) / span).collect())
        .collect();
    let lp = crate::exact::float::maximize(&b, &vec![1.0; m], &vec![1.0; n])?;
    let normalise = |v: &[f64]| {
        let clipped: Vec<f64> = v.iter().map(|x| x.max(0.0)).collect();
        let s: f64 = clipped.iter().sum();
        clipped.into_iter().map(|x| x / s).collect::<Vec<f64>>()
    };
    let row_strategy = normalise(&lp.dual);
    let col_strategy = normalise(&lp.primal);
    let row_guarantee = (0..n)
        .map(|j| {
            (0..m)
                .map(|i| row_strategy[i] * (a[i][j] / scale))
                .sum::<f64>()
        })
        .fold(f64::INFINITY, f64::min);
    let col_guarantee = (0..m)
        .map(|i| {
            (0..n)
                .map(|j| col_strategy[j] * (a[i][j] / scale))
                .sum::<f64>()
        })
        .fold(f64::NEG_INFINITY, f64::max);
    let answer = FloatZeroSum {
        value: ((1.0 / lp.value - 1.0) * span + lo) * scale,
        row_strategy,
        col_strategy,
        row_guarantee: row_guarantee * scale,
        col_guarantee: col_guarantee * scale,
        duality_gap: (col_guarantee - row_guarantee) * scale,
        pivots: lp.pivots,
    };
    let numbers = [
        answer.value,
        answer.row_guarantee,
        answer.col_guarantee,
        answer.duality_gap,
    ];
    if numbers
        .iter()
        .chain(&answer.row_strategy)
        .chain(&answer.col_strategy)
        .any(|x| !x.is_finite())
    {
        // Never a NaN or an infinity printed as an answer.
        return Err(Error::Invalid(format!(
            "the floating-point solution overflowed (entries near 1e308): solve without {}",
            crate::core::hint::setting("float")
        )));
    }
    Ok(answer)
}
