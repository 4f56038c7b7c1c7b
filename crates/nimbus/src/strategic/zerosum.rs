//! Two-player zero-sum (matrix) games: the row player receives `A[i][j]`, the column player
//! pays it.
//!
//! Pure strategies give the maximin `max_i min_j A[i][j]` and the minimax
//! `min_j max_i A[i][j]`; where they meet there are saddle points. In mixed strategies the
//! two always meet (von Neumann's minimax theorem), at the value, found by one LP (seed 003):
//! with the entries made positive integers (scaled by a common denominator `L`, shifted by
//! `k`), `max Σy` s.t. `B y <= 1`, `y >= 0` has optimum `z = 1/v(B)`; the column player's
//! optimal strategy is `y/z`, and the row player's is the dual solution over `z`. Both are
//! checked before they are returned: each guarantees the value against every pure reply.

use super::simplex::maximize;
use super::Q;
use crate::error::{Error, Result};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

/// A matrix game solved.
#[derive(Debug, Clone, PartialEq)]
pub struct ZeroSum {
    /// The value of the game to the row player.
    pub value: Q,
    /// An optimal mixed strategy of the row player (maximiser).
    pub row_strategy: Vec<Q>,
    /// An optimal mixed strategy of the column player (minimiser).
    pub col_strategy: Vec<Q>,
    /// `max_i min_j A[i][j]`: what the row player can guarantee with a pure strategy.
    pub maximin: Q,
    /// The rows that guarantee the maximin.
    pub maximin_rows: Vec<usize>,
    /// `min_j max_i A[i][j]`: what the column player can hold the row player to, purely.
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

/// Solves the matrix game `a` exactly.
pub fn solve(a: &[Vec<Q>]) -> Result<ZeroSum> {
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
    // Positive integers: scale by the common denominator, shift so the least entry is 1.
    let l = a
        .iter()
        .flatten()
        .fold(BigInt::one(), |l, q| l.lcm(q.denom()));
    let ints: Vec<Vec<BigInt>> = a
        .iter()
        .map(|r| r.iter().map(|q| q.numer() * (&l / q.denom())).collect())
        .collect();
    let least = ints.iter().flatten().min().expect("non-empty").clone();
    let k = BigInt::one() - least;
    let b: Vec<Vec<BigInt>> = ints
        .iter()
        .map(|r| r.iter().map(|x| x + &k).collect())
        .collect();
    let lp = maximize(&b, &vec![BigInt::one(); m], &vec![BigInt::one(); n])?;
    let z = lp.value.clone();
    let col_strategy: Vec<Q> = lp.primal.iter().map(|y| y / &z).collect();
    let row_strategy: Vec<Q> = lp.dual.iter().map(|u| u / &z).collect();
    let value = (z.recip() - Q::from_integer(k)) / Q::from_integer(l);
    let guarantee_row = (0..n)
        .map(|j| (0..m).map(|i| &row_strategy[i] * &a[i][j]).sum::<Q>())
        .min()
        .expect("n > 0");
    let guarantee_col = (0..m)
        .map(|i| (0..n).map(|j| &col_strategy[j] * &a[i][j]).sum::<Q>())
        .max()
        .expect("m > 0");
    let sums_ok = row_strategy.iter().sum::<Q>() == Q::one()
        && col_strategy.iter().sum::<Q>() == Q::one()
        && row_strategy
            .iter()
            .chain(&col_strategy)
            .all(|x| x >= &Q::zero());
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
