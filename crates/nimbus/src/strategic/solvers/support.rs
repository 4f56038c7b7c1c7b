//! All extreme equilibria of a two-player game by support enumeration (the textbook method,
//! and Nashpy's), made exact for degenerate games.
//!
//! For each pair of supports `(I, J)` of equal size, the row strategy on `I` that makes the
//! columns `J` indifferent is kept if it is positive on `I` and no column does better than
//! those of `J`; likewise the column strategy on `J` that makes the rows `I` indifferent. Each
//! kept strategy comes with its full set of best replies, ties outside the pair included. Then
//! `x` and `y` are an equilibrium exactly when each plays only best replies to the other.
//!
//! Treating the two sides separately is what makes degenerate games come out right. In a
//! nondegenerate game it is the classic method (equal supports, each pair at most one
//! equilibrium). In a degenerate game an equilibrium strategy may have more best replies than
//! its support, and the two supports may differ in size; but every extreme equilibrium
//! strategy `x` is a vertex of its best-response polytope, so it is the unique solution for
//! its support `I` and some `|I|` of its best replies — a pair this enumeration tries. The
//! result is every extreme equilibrium (the same set as vertex enumeration), and continua of
//! equilibria appear as their extreme points, grouped into components as vertex enumeration
//! groups them.

use crate::core::error::{Error, Result};
use crate::exact::linalg::{solve, Solution};
use crate::exact::ring::{convert, Overflow, Ring};
use crate::strategic::bimatrix::{Bimatrix, Equilibrium};
use num_bigint::BigInt;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

/// What support enumeration finds.
#[derive(Debug, Clone, Default)]
pub struct Supports {
    /// Every extreme equilibrium.
    pub equilibria: Vec<Equilibrium>,
    /// For each equilibrium, the indices of its two strategies among the distinct row and
    /// column equilibrium strategies (as [`crate::strategic::solvers::vertex::components`] takes them).
    pub pairs: Vec<(usize, usize)>,
    /// The components of equilibria.
    pub components: Vec<crate::strategic::solvers::vertex::Component>,
    /// Pairs of supports tried.
    pub pairs_tried: u64,
    /// Whether some candidate strategy has more best replies than its support (the game is
    /// then degenerate).
    pub degenerate: bool,
}

/// The largest side for which all pairs of supports are tried (`C(40, 20)` pairs is past any
/// reasonable time).
pub const MAX_SIDE: usize = 20;

/// Support enumeration of the game `g`.
pub fn enumerate(g: &Bimatrix) -> Result<Supports> {
    enumerate_within(g, u64::MAX)
}

/// [`enumerate`], refused before it starts when its work is more than `max_work`: each pair
/// of supports of size k costs, on each side, an elimination of k + 1 equations (k³ steps),
/// a check of the strategy against every strategy of the opponent (m + n times k) and the
/// vectors it allocates (32).
pub fn enumerate_within(g: &Bimatrix, max_work: u64) -> Result<Supports> {
    if g.m.max(g.n) <= MAX_SIDE {
        let work = (1..=g.m.min(g.n)).fold(0u64, |acc, k| {
            let pairs = (subsets_count(g.m, k) as u64).saturating_mul(subsets_count(g.n, k) as u64);
            let k = k as u64;
            let each = 2 * (k.pow(3) + (g.m + g.n) as u64 * k + 32);
            acc.saturating_add(pairs.saturating_mul(each))
        });
        crate::core::budget::check_work(
            &format!("support enumeration of the {} x {} game", g.m, g.n),
            work,
            max_work,
        )?;
    }
    if g.m.max(g.n) > MAX_SIDE {
        return Err(Error::Invalid(format!(
            "support enumeration tries every pair of supports of equal sizes, C({}, {}) \
             here: use --method vertex (faster) or --method lh (one equilibrium) for games \
             larger than {MAX_SIDE} strategies a side",
            g.m + g.n,
            g.m.min(g.n)
        )));
    }
    run(g)
}

/// The outcome of one side's indifference system.
enum Side<T> {
    /// Ruled out: no solution, or one that is not a best reply.
    Fails,
    /// The strategy (numerators on the support) and the opponent's best replies to it, as a
    /// bit set.
    Point(Vec<T>, u128),
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
        Solution::Inconsistent | Solution::Dependent => return Ok(Side::Fails),
    };
    if x[..k].iter().any(|v| !v.is_pos()) {
        return Ok(Side::Fails);
    }
    let v = &x[k];
    let mut best = other.iter().fold(0u128, |b, &o| b | 1 << o);
    for (o, row) in mat.iter().enumerate() {
        if best >> o & 1 == 1 {
            continue;
        }
        let mut pay = T::small(0);
        for (xi, &s) in x.iter().zip(own) {
            pay = pay.add(&row[s].mul(xi)?)?;
        }
        match pay.cmp(v) {
            std::cmp::Ordering::Greater => return Ok(Side::Fails),
            std::cmp::Ordering::Equal => best |= 1 << o,
            std::cmp::Ordering::Less => {}
        }
    }
    Ok(Side::Point(x[..k].to_vec(), best))
}

fn subsets_count(n: usize, k: usize) -> usize {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
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

/// A candidate equilibrium strategy: its support and its opponent's best replies (bit sets)
/// and its probabilities (numerators, any positive scale).
type Candidate = (u128, u128, Vec<BigInt>);

/// One side in `i128`, or in `BigInt` if `i128` overflows (per pair of supports: a few
/// large pairs do not slow down the rest).
fn side_exact(
    small: &Option<Vec<Vec<i128>>>,
    big: &[Vec<BigInt>],
    own: &[usize],
    other: &[usize],
) -> Side<BigInt> {
    if let Some(mat) = small {
        match side(mat, own, other) {
            Ok(Side::Point(x, best)) => {
                return Side::Point(x.iter().map(Ring::to_big).collect(), best)
            }
            Ok(Side::Fails) => return Side::Fails,
            Err(Overflow) => {}
        }
    }
    side(big, own, other).expect("BigInt arithmetic cannot overflow")
}

/// A strategy given on its support, written over all `len` strategies.
fn spread(v: Vec<BigInt>, support: &[usize], len: usize) -> Vec<BigInt> {
    let mut full = vec![BigInt::from(0); len];
    for (x, &i) in v.into_iter().zip(support) {
        full[i] = x;
    }
    full
}

/// The equilibrium candidate with row support `rows` and column support `cols`: the strategy
/// on each support that makes the other's support indifferent, if both exist, are positive and
/// meet no better reply outside. (Callers check the pair with [`Bimatrix::equilibrium`].)
pub(crate) fn solve_supports(
    g: &Bimatrix,
    rows: &[usize],
    cols: &[usize],
) -> Option<(Vec<BigInt>, Vec<BigInt>)> {
    let (bt, a) = (g.b_transposed(), g.a.clone());
    let Side::Point(x, _) = side_exact(&convert::<i128>(&bt), &bt, rows, cols) else {
        return None;
    };
    let Side::Point(y, _) = side_exact(&convert::<i128>(&a), &a, cols, rows) else {
        return None;
    };
    Some((spread(x, rows, g.m), spread(y, cols, g.n)))
}

fn run(g: &Bimatrix) -> Result<Supports> {
    let (m, n) = (g.m, g.n);
    // For the row player's strategy, the opponent (columns) payoffs: bt[j][i] = B[i][j].
    let (bt, a) = (g.b_transposed(), g.a.clone());
    let (bt_small, a_small) = (convert::<i128>(&bt), convert::<i128>(&a));
    let mut out = Supports::default();
    let mut xs: Vec<Candidate> = Vec::new();
    let mut ys: Vec<Candidate> = Vec::new();
    let mut seen_x = FxHashSet::default();
    let mut seen_y = FxHashSet::default();
    let mask = |s: &[usize]| s.iter().fold(0u128, |b, &i| b | 1 << i);
    crate::core::progress::phase("support enumeration: support sizes", m.min(n) as u64);
    for k in 1..=m.min(n) {
        crate::core::progress::tick(k as u64 - 1)?;
        let col_sets = subsets(n, k);
        // The row supports are shared out over the cores; each returns its candidates in
        // order, so the result does not depend on the scheduling.
        let per_row_set: Vec<(Vec<Candidate>, Vec<Candidate>, bool)> = subsets(m, k)
            .into_par_iter()
            .map(|i_set| {
                let (mut xs, mut ys, mut degenerate) = (Vec::new(), Vec::new(), false);
                for j_set in &col_sets {
                    if let Side::Point(x, best) = side_exact(&bt_small, &bt, &i_set, j_set) {
                        degenerate |= best.count_ones() as usize > k;
                        xs.push((mask(&i_set), best, spread(x, &i_set, m)));
                    }
                    if let Side::Point(y, best) = side_exact(&a_small, &a, j_set, &i_set) {
                        degenerate |= best.count_ones() as usize > k;
                        ys.push((mask(j_set), best, spread(y, j_set, n)));
                    }
                }
                (xs, ys, degenerate)
            })
            .collect();
        out.pairs_tried += (subsets_count(m, k) * col_sets.len()) as u64;
        for (x_found, y_found, degenerate) in per_row_set {
            out.degenerate |= degenerate;
            for c in x_found {
                if seen_x.insert((c.0, c.1)) {
                    xs.push(c);
                }
            }
            for c in y_found {
                if seen_y.insert((c.0, c.1)) {
                    ys.push(c);
                }
            }
        }
    }
    let mut found = Vec::new();
    for (xi, (sx, bx, x)) in xs.iter().enumerate() {
        for (yi, (sy, by, y)) in ys.iter().enumerate() {
            if sx & !by == 0 && sy & !bx == 0 {
                let eq = g
                    .equilibrium(x, y)
                    .expect("each plays only best replies to the other");
                found.push((eq, xi, yi));
            }
        }
    }
    found.sort();
    let mut rows = FxHashMap::default();
    let mut cols = FxHashMap::default();
    for (eq, xi, yi) in found {
        let r = rows.len();
        let r = *rows.entry(xi).or_insert(r);
        let c = cols.len();
        let c = *cols.entry(yi).or_insert(c);
        out.pairs.push((r, c));
        out.equilibria.push(eq);
    }
    out.components =
        crate::strategic::solvers::vertex::components(&out.pairs, rows.len(), cols.len());
    Ok(out)
}
