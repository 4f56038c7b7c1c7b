//! All equilibria of a two-player game by support enumeration (seed 000's method, and
//! Nashpy's): for each pair of supports `(I, J)`, the row strategy on `I` that makes the
//! columns `J` indifferent and the column strategy on `J` that makes the rows `I`
//! indifferent, kept when both are positive on their supports and no strategy outside does
//! better.
//!
//! In a nondegenerate game supports have equal sizes and each pair determines at most one
//! equilibrium. A degenerate game has a vertex of a best-response polytope with more labels
//! than its dimension, and the pass over equal sizes meets it: some pair's system is singular,
//! or its solution has a best reply outside the pair (a tie). After either, every pair of
//! supports of any sizes is tried too, and the pairs whose systems leave a
//! continuum of solutions are reported (their equilibria, if any, are not isolated: vertex
//! enumeration gives their extreme points and components).

use super::bimatrix::{Bimatrix, Equilibrium};
use super::linalg::{solve, Solution};
use super::ring::{convert, with_fallback, Overflow, Ring};
use crate::error::{Error, Result};
use num_bigint::BigInt;

/// What support enumeration finds.
#[derive(Debug, Clone, Default)]
pub struct Supports {
    /// Every equilibrium determined by its supports.
    pub equilibria: Vec<Equilibrium>,
    /// Pairs of supports tried.
    pub pairs_tried: u64,
    /// Whether the game may be degenerate (a singular system was met) or showed itself so.
    pub degenerate: bool,
    /// Pairs of supports `(I, J)` whose indifference equations have a continuum of solutions
    /// (and are not otherwise ruled out).
    pub continua: Vec<(Vec<usize>, Vec<usize>)>,
}

/// The largest side for which all pairs of supports are tried (`4^20` pairs is past any
/// reasonable time).
pub const MAX_SIDE: usize = 20;

/// Support enumeration of the game `g`.
pub fn enumerate(g: &Bimatrix) -> Result<Supports> {
    if g.m.max(g.n) > MAX_SIDE {
        return Err(Error::Invalid(format!(
            "support enumeration tries every pair of supports, about 4^{} here: use --method \
             vertex (faster) or --method lh (one equilibrium) for games larger than {MAX_SIDE} \
             strategies a side",
            g.m.max(g.n)
        )));
    }
    Ok(with_fallback(|| run::<i128>(g), || run::<BigInt>(g)))
}

/// The outcome of one side's indifference system.
enum Side<T> {
    /// Ruled out: no solution, or one that is not a best reply.
    Fails,
    /// The strategy (numerators on the support) and whether some strategy outside the
    /// opponent's support ties (a sign of degeneracy).
    Point(Vec<T>, bool),
    /// A continuum of solutions.
    Continuum,
}

/// The strategy on `own` (rows of `mat`, a player's own payoffs transposed as needed) that
/// makes the opponent indifferent among `other`, checked against the opponent's other
/// strategies. `mat[o][s]`: the opponent's payoff at their strategy `o` against own `s`.
fn side<T: Ring>(
    mat: &[Vec<T>],
    own: &[usize],
    other: &[usize],
) -> std::result::Result<Side<T>, Overflow> {
    let k = own.len();
    let mut rows: Vec<Vec<T>> = Vec::with_capacity(other.len() + 1);
    for &o in other {
        let mut row: Vec<T> = own.iter().map(|&s| mat[o][s].clone()).collect();
        row.push(T::small(-1));
        row.push(T::small(0));
        rows.push(row);
    }
    let mut sum: Vec<T> = vec![T::small(1); k];
    sum.push(T::small(0));
    sum.push(T::small(1));
    rows.push(sum);
    // The denominator is positive and common to x and v, so numerators compare directly.
    let x = match solve(rows, k + 1)? {
        Solution::Unique(x, _) => x,
        Solution::Inconsistent => return Ok(Side::Fails),
        Solution::Dependent => return Ok(Side::Continuum),
    };
    if x[..k].iter().any(|v| !v.is_pos()) {
        return Ok(Side::Fails);
    }
    let v = &x[k];
    let mut tie = false;
    for (o, row) in mat.iter().enumerate() {
        if other.contains(&o) {
            continue;
        }
        let mut pay = T::small(0);
        for (xi, &s) in x.iter().zip(own) {
            pay = pay.add(&row[s].mul(xi)?)?;
        }
        match pay.cmp(v) {
            std::cmp::Ordering::Greater => return Ok(Side::Fails),
            std::cmp::Ordering::Equal => tie = true,
            std::cmp::Ordering::Less => {}
        }
    }
    Ok(Side::Point(x[..k].to_vec(), tie))
}

fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(cur.clone());
        let Some(i) = (0..k).rev().find(|&i| cur[i] < n - k + i) else {
            return out;
        };
        cur[i] += 1;
        for j in i + 1..k {
            cur[j] = cur[j - 1] + 1;
        }
    }
}

fn run<T: Ring>(g: &Bimatrix) -> std::result::Result<Supports, Overflow> {
    let (m, n) = (g.m, g.n);
    // For the row player's strategy, the opponent (columns) payoffs: bt[j][i] = B[i][j].
    let (Some(bt), Some(a)) = (convert::<T>(&g.b_transposed()), convert::<T>(&g.a)) else {
        return Err(Overflow);
    };
    let rows_by_size: Vec<Vec<Vec<usize>>> = (0..=m).map(|k| subsets(m, k)).collect();
    let cols_by_size: Vec<Vec<Vec<usize>>> = (0..=n).map(|k| subsets(n, k)).collect();
    let mut out = Supports::default();
    let mut sizes: Vec<(usize, usize)> = (1..=m.min(n)).map(|k| (k, k)).collect();
    let mut pass = 0;
    while pass < 2 {
        for &(ki, kj) in &sizes {
            for i_set in &rows_by_size[ki] {
                for j_set in &cols_by_size[kj] {
                    out.pairs_tried += 1;
                    // Both sides always: a tie on either side proves degeneracy, and that
                    // proof is what makes the pass over unequal sizes run when it must.
                    let xs = side(&bt, i_set, j_set)?;
                    let ys = side(&a, j_set, i_set)?;
                    for s in [&xs, &ys] {
                        match s {
                            Side::Point(_, true) | Side::Continuum => out.degenerate = true,
                            _ => {}
                        }
                    }
                    match (xs, ys) {
                        (_, Side::Fails) | (Side::Fails, _) => {}
                        (Side::Point(x, _), Side::Point(y, _)) => {
                            let mut xf = vec![BigInt::from(0); m];
                            for (v, &i) in x.iter().zip(i_set) {
                                xf[i] = v.to_big();
                            }
                            let mut yf = vec![BigInt::from(0); n];
                            for (v, &j) in y.iter().zip(j_set) {
                                yf[j] = v.to_big();
                            }
                            let eq = g
                                .equilibrium(&xf, &yf)
                                .expect("indifferent on the supports, no better reply outside");
                            out.equilibria.push(eq);
                        }
                        _ => {
                            out.continua.push((i_set.clone(), j_set.clone()));
                        }
                    }
                }
            }
        }
        pass += 1;
        if !out.degenerate {
            break;
        }
        // Degenerate: the pairs of unequal sizes too.
        sizes = (1..=m)
            .flat_map(|ki| (1..=n).map(move |kj| (ki, kj)))
            .filter(|&(ki, kj)| ki != kj)
            .collect();
    }
    out.equilibria.sort();
    Ok(out)
}
