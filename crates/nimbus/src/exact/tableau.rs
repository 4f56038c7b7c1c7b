//! The integer tableau that every pivoting algorithm shares.
//!
//! A system `M z + s = b` (`k` rows, `d` variables `z`, one slack per row) is kept as the
//! integer matrix `[M | I | b]` under fraction-free pivoting (Edmonds; Bareiss; as in Avis's
//! lrs): every entry is the true tableau entry times the current determinant `D`, and a
//! pivot on `p = T[r][e]` sets `T[i][j] = (T[i][j]·p − T[i][e]·T[r][j]) / D` for `i != r`, an
//! exact division, then `D = p`. Numbers stay as small as the minors of the data, with no
//! gcds. Extra rows after the `k` constraint rows (an objective) are updated alike.

use crate::exact::ring::{Overflow, Ring};
use std::cmp::Ordering;

/// A tableau in fraction-free form.
#[derive(Debug, Clone)]
pub struct Tableau<T> {
    /// Rows `0..k`: the constraints; further rows: objectives. The last column is the
    /// right-hand side.
    pub t: Vec<Vec<T>>,
    /// The common denominator of every entry.
    pub d: T,
    /// The variable basic in each constraint row; variables `0..d` are the `z`s, `d..d+k` the
    /// slacks.
    pub basis: Vec<usize>,
}

impl<T: Ring> Tableau<T> {
    /// The tableau of `M z + s = b` with the slacks basic.
    pub fn new(m: Vec<Vec<T>>, b: Vec<T>) -> Self {
        let k = m.len();
        let dims = m.first().map_or(0, Vec::len);
        let t = m
            .into_iter()
            .zip(b)
            .enumerate()
            .map(|(i, (mut row, bi))| {
                row.extend((0..k).map(|j| T::small(i64::from(i == j))));
                row.push(bi);
                row
            })
            .collect();
        Tableau {
            t,
            d: T::small(1),
            basis: (dims..dims + k).collect(),
        }
    }

    /// Becomes a copy of `other`, reusing this tableau's rows: a search that copies a
    /// tableau for every basis it visits would otherwise allocate each row every time.
    pub fn copy_from(&mut self, other: &Self) {
        self.t.clone_from(&other.t);
        self.d.clone_from(&other.d);
        self.basis.clone_from(&other.basis);
    }

    /// The number of constraint rows.
    pub fn rows(&self) -> usize {
        self.basis.len()
    }

    /// The index of the right-hand-side column.
    pub fn rhs(&self) -> usize {
        self.t[0].len() - 1
    }

    /// Pivots variable `e` into the basis in row `r`.
    ///
    /// In a constraint row the columns of basic variables are known without arithmetic (`D`
    /// times a unit vector), so only the nonbasic columns are computed: half the work on a
    /// square game. Further rows (objectives, which may have entries under basic columns) are
    /// computed in full.
    pub fn pivot(&mut self, r: usize, e: usize) -> Result<(), Overflow> {
        let k = self.rows();
        let rhs = self.rhs();
        let p = self.t[r][e].clone();
        let u = self.basis[r];
        // The basic columns as bits when they fit in a word: this runs at every basis of a
        // search, where a vector per pivot was a good part of the allocations.
        let (mut small, mut big) = (0u128, Vec::new());
        if rhs <= 128 {
            for &v in &self.basis {
                small |= 1 << v;
            }
        } else {
            big = vec![false; rhs];
            for &v in &self.basis {
                big[v] = true;
            }
        }
        let basic = |j: usize| {
            if rhs <= 128 {
                small >> j & 1 == 1
            } else {
                big[j]
            }
        };
        let cols = (0..=rhs).filter(|&j| j == rhs || (!basic(j) && j != e));
        let dv = T::divisor(&self.d);
        let pivot_row = std::mem::take(&mut self.t[r]);
        for (i, row) in self.t.iter_mut().enumerate() {
            if i == r {
                continue;
            }
            let f = row[e].clone();
            if i >= k {
                update(row, 0..=rhs, &p, &f, &pivot_row, &dv)?;
                continue;
            }
            update(row, cols.clone(), &p, &f, &pivot_row, &dv)?;
            // Column u was D in row r only: (0·p − f·D) / D. Column e becomes p·(unit r).
            row[u] = T::small(0).sub(&f)?;
            row[e] = T::small(0);
            row[self.basis[i]] = p.clone();
        }
        self.t[r] = pivot_row;
        self.d = p;
        self.basis[r] = e;
        Ok(())
    }

    /// Compares the ratios `T[i][col]/T[i][e]` and `T[r][col]/T[r][e]` of two rows whose
    /// entries in column `e` are positive.
    pub fn cmp_ratio(
        &self,
        i: usize,
        r: usize,
        e: usize,
        col: usize,
    ) -> Result<Ordering, Overflow> {
        T::cmp_products(
            &self.t[i][col],
            &self.t[r][e],
            &self.t[r][col],
            &self.t[i][e],
        )
    }

    /// The rows that win the minimum-ratio test for entering column `e` (all of them, when
    /// the step is degenerate or tied); empty when the column has no positive entry.
    pub fn min_ratio_rows(&self, e: usize) -> Result<Vec<usize>, Overflow> {
        let mut best = Vec::new();
        self.min_ratio_rows_into(e, &mut best)?;
        Ok(best)
    }

    /// [`Tableau::min_ratio_rows`] into a buffer the caller reuses (a search asks for every
    /// column of every basis).
    pub fn min_ratio_rows_into(&self, e: usize, best: &mut Vec<usize>) -> Result<(), Overflow> {
        let rhs = self.rhs();
        best.clear();
        for i in 0..self.rows() {
            if !self.t[i][e].is_pos() {
                continue;
            }
            match best.first() {
                None => best.push(i),
                Some(&r) => match self.cmp_ratio(i, r, e, rhs)? {
                    Ordering::Less => {
                        best.clear();
                        best.push(i);
                    }
                    Ordering::Equal => best.push(i),
                    Ordering::Greater => {}
                },
            }
        }
        Ok(())
    }

    /// The lexicographic minimum-ratio row for entering column `e`: ties in the ratio of the
    /// right-hand side are broken by the columns `tie_cols` in order (the initial basis's
    /// columns, whose rows are those of the basis inverse, so the choice is unique and the
    /// perturbed problem is nondegenerate).
    pub fn lex_min_ratio_row(
        &self,
        e: usize,
        tie_cols: &[usize],
    ) -> Result<Option<usize>, Overflow> {
        let mut rows = self.min_ratio_rows(e)?;
        for &c in tie_cols {
            if rows.len() <= 1 {
                break;
            }
            let mut kept = vec![rows[0]];
            for &i in &rows[1..] {
                match self.cmp_ratio(i, kept[0], e, c)? {
                    Ordering::Less => kept = vec![i],
                    Ordering::Equal => kept.push(i),
                    Ordering::Greater => {}
                }
            }
            rows = kept;
        }
        Ok(rows.first().copied())
    }

    /// Keeps the common denominator positive, which ratio tests assume (a pivot on a negative
    /// entry makes it negative): negating every entry with it changes no true value.
    pub fn normalise(&mut self) -> Result<(), Overflow> {
        if self.d.is_neg() {
            let zero = T::small(0);
            for row in &mut self.t {
                for x in row.iter_mut() {
                    *x = zero.sub(x)?;
                }
            }
            self.d = zero.sub(&self.d)?;
        }
        Ok(())
    }

    /// The numerators of variables `0..vars` at the current basic solution (the denominator
    /// is [`Tableau::d`]).
    pub fn values(&self, vars: usize) -> Vec<T> {
        let rhs = self.rhs();
        let mut v = vec![T::small(0); vars];
        for (i, &b) in self.basis.iter().enumerate() {
            if b < vars {
                v[b] = self.t[i][rhs].clone();
            }
        }
        v
    }
}

/// The fraction-free update of the given columns of one row, `f` being its entry in the
/// entering column.
fn update<T: Ring>(
    row: &mut [T],
    cols: impl Iterator<Item = usize>,
    p: &T,
    f: &T,
    pivot_row: &[T],
    d: &T::Divisor,
) -> Result<(), Overflow> {
    if f.is_zero_r() {
        for j in cols {
            if !row[j].is_zero_r() {
                row[j] = row[j].mul_div_by(p, d)?;
            }
        }
    } else {
        for j in cols {
            row[j] = row[j].pivot_by(p, f, &pivot_row[j], d)?;
        }
    }
    Ok(())
}
