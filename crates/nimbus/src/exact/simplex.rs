//! An exact LP solver: maximise `c·y` subject to `A y <= b`, `y >= 0`, with `b >= 0` (so the
//! slack basis is feasible and no first phase is needed — the form matrix games take).
//!
//! The tableau is integer and fraction-free ([`crate::exact::tableau`]), on `i128` until it would
//! overflow and then on `BigInt` ([`crate::exact::ring`]). The entering column is the one with the
//! most negative reduced cost (Dantzig's rule: few pivots on dense games), except while the
//! objective stalls: after a degenerate pivot Bland's rule (smallest entering index, then
//! smallest leaving basic index among ties) is used until the objective moves again. Bland's
//! rule cannot cycle from any basis and every other pivot strictly improves the objective, so
//! the method terminates on degenerate problems too. The dual prices are read from the
//! objective row under the slack columns.
//!
//! Before any of that, the LP is solved in floating point ([`crate::exact::float`]) and the basis it
//! ends in is tried exactly: the square system of that basis is solved in integers and the
//! solution and its dual are checked for feasibility, which together prove optimality. Only
//! if rounding led the float solver astray does the exact simplex method run. On a random
//! 200 × 200 matrix game this is the difference between two small exact solves and a
//! thousand pivots on a tableau of 200-digit numbers.

use crate::core::error::{Error, Result};
use crate::exact::linalg::{solve, Solution};
use crate::exact::ring::{convert, with_fallback, Overflow, Ring};
use crate::exact::tableau::Tableau;
use crate::exact::Q;
use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

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
    if let Some(basis) = float_basis(a, b, c) {
        let exact = with_fallback(
            || from_basis::<i128>(a, b, c, &basis),
            || from_basis::<BigInt>(a, b, c, &basis),
        );
        if let Some(solution) = exact {
            return Ok(solution);
        }
    }
    maximize_by_pivoting(a, b, c)
}

/// The exact simplex method alone, without the floating-point guide (what [`maximize`] falls
/// back to; public so that the two paths can be compared).
pub fn maximize_by_pivoting(a: &[Vec<BigInt>], b: &[BigInt], c: &[BigInt]) -> Result<LpSolution> {
    if b.iter().any(Signed::is_negative) || b.len() != a.len() {
        return Err(Error::Invalid(
            "this LP solver needs b >= 0, one per row".into(),
        ));
    }
    with_fallback(|| run::<i128>(a, b, c), || run::<BigInt>(a, b, c))
}

/// The basis the floating-point simplex method ends in, if it finishes.
fn float_basis(a: &[Vec<BigInt>], b: &[BigInt], c: &[BigInt]) -> Option<(Vec<usize>, usize)> {
    // Scaling A, b and c by positive constants changes no basis, and keeps entries near 1.
    let scale = |v: &mut dyn Iterator<Item = &BigInt>| -> f64 {
        v.filter_map(|x| x.to_f64())
            .map(f64::abs)
            .fold(0.0, f64::max)
            .max(1e-300)
    };
    let sa = scale(&mut a.iter().flatten());
    let (sb, sc) = (scale(&mut b.iter()), scale(&mut c.iter()));
    let conv = |v: &[BigInt], s: f64| -> Option<Vec<f64>> {
        v.iter().map(|x| x.to_f64().map(|f| f / s)).collect()
    };
    let af: Vec<Vec<f64>> = a.iter().map(|r| conv(r, sa)).collect::<Option<_>>()?;
    // A degenerate LP (many right-hand sides 0, as the sequence form's) stalls the float
    // simplex in long runs of degenerate pivots; a tiny distinct perturbation of b makes every
    // step move. The basis it finds is still proved (or refused) on the exact data.
    let mut bf = conv(b, sb)?;
    for (i, x) in bf.iter_mut().enumerate() {
        *x += 1e-7 * (1.0 + ((i as u64 * 2_654_435_761) % 1000) as f64 / 1000.0);
    }
    let lp = crate::exact::float::maximize(&af, &bf, &conv(c, sc)?).ok()?;
    Some((lp.basis, lp.pivots))
}

/// The exact solution of the basis `basis`, if it is optimal.
fn from_basis<T: Ring>(
    a: &[Vec<BigInt>],
    b: &[BigInt],
    c: &[BigInt],
    (basis, pivots): &(Vec<usize>, usize),
) -> std::result::Result<Option<LpSolution>, Overflow> {
    let (m, n) = (a.len(), c.len());
    let (Some(a), Some(b), Some(c)) = (
        convert::<T>(a),
        b.iter().map(T::from_big).collect::<Option<Vec<T>>>(),
        c.iter().map(T::from_big).collect::<Option<Vec<T>>>(),
    ) else {
        return Err(Overflow);
    };
    let cols: Vec<usize> = basis.iter().copied().filter(|&v| v < n).collect();
    let slack_basic: Vec<bool> = (0..m).map(|i| basis.contains(&(n + i))).collect();
    let tight: Vec<usize> = (0..m).filter(|&i| !slack_basic[i]).collect();
    let k = cols.len();
    // The basis's square system `A[tight][cols] y = b[tight]`, and its transpose for the dual.
    let augmented =
        |rows: &[usize], cols: &[usize], entry: &dyn Fn(usize, usize) -> T, rhs: &[T]| {
            rows.iter()
                .map(|&r| {
                    let mut row: Vec<T> = cols.iter().map(|&c| entry(r, c)).collect();
                    row.push(rhs[r].clone());
                    row
                })
                .collect::<Vec<_>>()
        };
    let primal_rows = augmented(&tight, &cols, &|i, j| a[i][j].clone(), &b);
    let Solution::Unique(y, dy) = solve(primal_rows, k)? else {
        return Ok(None);
    };
    let dual_rows = augmented(&cols, &tight, &|j, i| a[i][j].clone(), &c);
    let Solution::Unique(u, du) = solve(dual_rows, k)? else {
        return Ok(None);
    };
    if y.iter().chain(&u).any(Ring::is_neg) {
        return Ok(None);
    }
    // Every constraint holds at y, and every dual constraint at u: both feasible with equal
    // objectives (by construction), so both are optimal.
    for i in 0..m {
        let mut lhs = T::small(0);
        for (x, &j) in y.iter().zip(&cols) {
            lhs = lhs.add(&a[i][j].mul(x)?)?;
        }
        if lhs > b[i].mul(&dy)? {
            return Ok(None);
        }
    }
    for j in 0..n {
        let mut lhs = T::small(0);
        for (x, &i) in u.iter().zip(&tight) {
            lhs = lhs.add(&a[i][j].mul(x)?)?;
        }
        if lhs < c[j].mul(&du)? {
            return Ok(None);
        }
    }
    let (dy, du) = (dy.to_big(), du.to_big());
    let mut primal = vec![Q::zero(); n];
    for (x, &j) in y.iter().zip(&cols) {
        primal[j] = Q::new(x.to_big(), dy.clone());
    }
    let mut dual = vec![Q::zero(); m];
    for (x, &i) in u.iter().zip(&tight) {
        dual[i] = Q::new(x.to_big(), du.clone());
    }
    let value = cols
        .iter()
        .map(|&j| Q::from_integer(c[j].to_big()) * &primal[j])
        .sum();
    Ok(Some(LpSolution {
        value,
        primal,
        dual,
        pivots: *pivots,
    }))
}

fn run<T: Ring>(
    a: &[Vec<BigInt>],
    b: &[BigInt],
    c: &[BigInt],
) -> std::result::Result<Result<LpSolution>, Overflow> {
    let (m, n) = (a.len(), c.len());
    let fit = |v: &[BigInt]| v.iter().map(T::from_big).collect::<Option<Vec<T>>>();
    let (Some(am), Some(bv), Some(cv)) = (convert::<T>(a), fit(b), fit(c)) else {
        return Err(Overflow);
    };
    let mut tab = Tableau::new(am, bv);
    let mut obj: Vec<T> = cv
        .iter()
        .map(|x| T::small(0).sub(x))
        .collect::<std::result::Result<_, _>>()?;
    obj.extend((0..=m).map(|_| T::small(0)));
    tab.t.push(obj);
    let rhs = n + m;
    let mut pivots = 0;
    let mut bland = false;
    loop {
        let entering = if bland {
            (0..rhs).find(|&j| tab.t[m][j].is_neg())
        } else {
            (0..rhs)
                .filter(|&j| tab.t[m][j].is_neg())
                .min_by(|&i, &j| tab.t[m][i].cmp(&tab.t[m][j]).then(i.cmp(&j)))
        };
        let Some(e) = entering else { break };
        let rows = tab.min_ratio_rows(e)?;
        let Some(&r) = rows.iter().min_by_key(|&&i| tab.basis[i]) else {
            return Ok(Err(Error::Invalid("the LP is unbounded".into())));
        };
        bland = tab.t[r][rhs].is_zero_r();
        tab.pivot(r, e)?;
        pivots += 1;
        if let Err(e) = crate::core::progress::tick(pivots as u64) {
            return Ok(Err(e));
        }
    }
    let d = tab.d.to_big();
    let at = |x: &T| Q::new(x.to_big(), d.clone());
    let primal = tab.values(n).iter().map(at).collect();
    let value = at(&tab.t[m][rhs]);
    let dual = (0..m).map(|i| at(&tab.t[m][n + i])).collect();
    debug_assert!(tab.d.cmp(&T::small(0)) == Ordering::Greater);
    Ok(Ok(LpSolution {
        value,
        primal,
        dual,
        pivots,
    }))
}
