//! Exact solution of linear systems by fraction-free Gauss–Jordan elimination.

use crate::exact::ring::{Overflow, Ring};

/// What a linear system `M x = b` admits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solution<T> {
    /// No solution.
    Inconsistent,
    /// Exactly one: `x[i] = numerators[i] / denominator`, the denominator positive.
    Unique(Vec<T>, T),
    /// The columns are dependent: no unique solution (a continuum, or none).
    Dependent,
}

/// Solves `M x = b` given the augmented rows `[M | b]` (any number of rows, `cols` unknowns).
pub fn solve<T: Ring>(mut m: Vec<Vec<T>>, cols: usize) -> Result<Solution<T>, Overflow> {
    let rows = m.len();
    let mut d = T::small(1);
    let mut pivot_rows = Vec::with_capacity(cols);
    let mut r = 0;
    for c in 0..cols {
        let Some(p) = (r..rows).find(|&i| !m[i][c].is_zero_r()) else {
            return Ok(Solution::Dependent);
        };
        m.swap(r, p);
        let p = m[r][c].clone();
        let pivot_row = std::mem::take(&mut m[r]);
        let dv = T::divisor(&d);
        for (i, row) in m.iter_mut().enumerate() {
            if i == r {
                continue;
            }
            let f = row[c].clone();
            for (x, y) in row.iter_mut().zip(&pivot_row).skip(c) {
                *x = x.pivot_by(&p, &f, y, &dv)?;
            }
            // Columns left of `c` are zero in every row but their pivot rows; the pivot rows
            // are rescaled so the common denominator stays `p`.
            if i < r {
                let k = pivot_rows[i];
                row[k] = p.clone();
            }
        }
        m[r] = pivot_row;
        d = p;
        pivot_rows.push(c);
        r += 1;
    }
    // Rows past the rank must read 0 = 0.
    if m[r..].iter().any(|row| !row[cols].is_zero_r()) {
        return Ok(Solution::Inconsistent);
    }
    let flip = d.is_neg();
    let neg = |x: &T| {
        if flip {
            T::small(0).sub(x)
        } else {
            Ok(x.clone())
        }
    };
    let x = (0..cols)
        .map(|i| neg(&m[i][cols]))
        .collect::<Result<Vec<T>, Overflow>>()?;
    Ok(Solution::Unique(x, neg(&d)?))
}

/// Solves a system of fractions given its augmented rows `[M | b]` (`cols` unknowns): each row
/// is put over its own common denominator (a row's positive scale changes no solution) and
/// solved in big integers. A unique solution comes back as the values themselves, over the
/// denominator 1.
pub fn solve_fractions(rows: &[Vec<crate::exact::Q>], cols: usize) -> Solution<crate::exact::Q> {
    use crate::exact::{over_common_denominator, ratio, Q};
    use num_bigint::BigInt;
    let ints: Vec<Vec<BigInt>> = rows
        .iter()
        .map(|r| over_common_denominator(r.iter()).0)
        .collect();
    // Big integers do not overflow.
    match solve::<BigInt>(ints, cols) {
        Ok(Solution::Unique(num, den)) => Solution::Unique(
            num.iter().map(|v| ratio(v, &den)).collect(),
            Q::from_integer(1.into()),
        ),
        Ok(Solution::Inconsistent) => Solution::Inconsistent,
        Ok(Solution::Dependent) | Err(_) => Solution::Dependent,
    }
}
