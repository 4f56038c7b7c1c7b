//! The Lemke–Howson algorithm: one equilibrium of a two-player game per starting label, by
//! complementary pivoting on the two best-response polytopes (von Stengel, "Computing
//! equilibria for two-person games", Handbook of Game Theory 3, 2002).
//!
//! Starting from the artificial equilibrium (the origin of both polytopes), label `k` is
//! dropped by entering its variable; the variable that leaves has a label now doubly present,
//! whose partner in the other polytope enters next, until the leaving variable carries label
//! `k`. Ties in the ratio test are broken lexicographically by the rows of the basis inverse,
//! which is the perturbation that makes every game behave as a nondegenerate one, so the path
//! cannot cycle. Pivots are exact (fraction-free integers, `i128` first).
//!
//! Exact pivoting of a large game is slow (the tableau fills with numbers of hundreds of
//! digits), so the path is first followed in floating point; the supports where it ends are
//! then solved exactly and the result checked exactly. Only if that check fails (rounding led
//! the path astray) is the path followed again in exact arithmetic. On a nondegenerate game
//! the two paths are the same, so the equilibrium is the one exact pivoting reaches.

use crate::core::error::{Error, Result};
use crate::exact::ring::{convert, with_fallback, Overflow, Ring};
use crate::exact::tableau::Tableau;
use crate::strategic::bimatrix::{Bimatrix, Equilibrium};
use num_bigint::BigInt;

/// One run of Lemke–Howson.
#[derive(Debug, Clone)]
pub struct Run {
    /// The label dropped at the start (0-based: rows first, then columns).
    pub label: usize,
    /// The equilibrium it ends at.
    pub equilibrium: Equilibrium,
    /// Pivots made.
    pub pivots: usize,
}

/// Runs Lemke–Howson from label `label` (`0..m` a row, `m..m+n` a column).
pub fn lemke_howson(g: &Bimatrix, label: usize) -> Result<Run> {
    check_label(g, label)?;
    if let Some((rows, cols, pivots)) = float_path(g, label) {
        let exact = crate::strategic::solvers::support::solve_supports(g, &rows, &cols)
            .and_then(|(x, y)| g.equilibrium(&x, &y));
        if let Some(equilibrium) = exact {
            return Ok(Run {
                label,
                equilibrium,
                pivots,
            });
        }
    }
    lemke_howson_by_pivoting(g, label)
}

/// Lemke–Howson by exact pivoting alone, without the floating-point guide (what
/// [`lemke_howson`] falls back to; public so that the two can be compared).
pub fn lemke_howson_by_pivoting(g: &Bimatrix, label: usize) -> Result<Run> {
    check_label(g, label)?;
    let (x, y, pivots) = with_fallback(|| path::<i128>(g, label), || path::<BigInt>(g, label));
    let equilibrium = g.equilibrium(&x, &y).ok_or_else(|| {
        Error::Invalid("internal inconsistency: a Lemke–Howson path ended off equilibrium".into())
    })?;
    Ok(Run {
        label,
        equilibrium,
        pivots,
    })
}

fn check_label(g: &Bimatrix, label: usize) -> Result<()> {
    if label >= g.m + g.n {
        return Err(Error::Invalid(format!(
            "label {} is not a strategy: the game has {} + {} strategies",
            label + 1,
            g.m,
            g.n
        )));
    }
    Ok(())
}

/// Runs Lemke–Howson from every label; equal equilibria are kept once, each with the first
/// label that found it.
pub fn from_every_label(g: &Bimatrix) -> Result<Vec<Run>> {
    let mut runs: Vec<Run> = Vec::new();
    for k in 0..g.m + g.n {
        let run = lemke_howson(g, k)?;
        if !runs.iter().any(|r| r.equilibrium == run.equilibrium) {
            runs.push(run);
        }
    }
    Ok(runs)
}

/// The equilibria Lemke–Howson paths reach, as Gambit's `lcp` enumerates them: from the
/// artificial equilibrium with every label, then from each equilibrium found with every label,
/// until no path leads anywhere new. In a nondegenerate game the paths of one label pair the
/// equilibria and the artificial one, so the count found is odd. Pivots are exact; the search
/// stops with an error once its work passes `max_work`. A pivot counts as the entries it
/// updates times the square of their size in 64-bit words (the cost of multiplying them), so
/// a large game whose numbers grow to hundreds of digits meets the budget in seconds.
pub fn enumerate(g: &Bimatrix, max_work: u64) -> Result<Vec<Equilibrium>> {
    let mut work = 0u64;
    match enumerate_in::<i128>(g, max_work, &mut work) {
        Ok(r) => r,
        Err(Overflow) => enumerate_in::<BigInt>(g, max_work, &mut work)
            .expect("BigInt arithmetic cannot overflow"),
    }
}

/// Work steps for one update of a one-word exact entry: a multiplication, a division and the
/// allocation of a big integer cost about as much as a dozen steps of a table.
const EXACT_STEP: u64 = 12;

/// Both tableaux of a completely labelled pair.
type State<T> = [Tableau<T>; 2];

/// The artificial equilibrium, the origin of both polytopes. `[0]`: P, variables x (labels
/// 0..m) then slacks (labels m..m+n); `[1]`: Q, variables y (labels m..m+n) then slacks
/// (labels 0..m).
fn artificial<T: Ring>(g: &Bimatrix) -> std::result::Result<State<T>, Overflow> {
    let (Some(bt), Some(a)) = (convert::<T>(&g.b_transposed()), convert::<T>(&g.a)) else {
        return Err(Overflow);
    };
    Ok([
        Tableau::new(bt, vec![T::small(1); g.n]),
        Tableau::new(a, vec![T::small(1); g.m]),
    ])
}

fn enumerate_in<T: Ring>(
    g: &Bimatrix,
    max_work: u64,
    work: &mut u64,
) -> std::result::Result<Result<Vec<Equilibrium>>, Overflow> {
    let (m, n) = (g.m, g.n);
    let start = artificial::<T>(g)?;
    let key = |s: &State<T>| -> [Vec<usize>; 2] {
        let sorted = |t: &Tableau<T>| {
            let mut b = t.basis.clone();
            b.sort_unstable();
            b
        };
        [sorted(&s[0]), sorted(&s[1])]
    };
    let entries = ((m + n) * (m + n + 1)) as u64;
    let mut seen = std::collections::HashSet::new();
    seen.insert(key(&start));
    let mut found: Vec<Equilibrium> = Vec::new();
    let mut queue = vec![start];
    while let Some(state) = queue.pop() {
        for label in 0..m + n {
            if let Err(e) = crate::core::progress::check() {
                return Ok(Err(e));
            }
            let mut next = state.clone();
            let mut charge = |t: &Tableau<T>| {
                let words = t.d.to_big().bits() / 64 + 1;
                *work = work.saturating_add(entries.saturating_mul(EXACT_STEP * words * words));
                crate::core::budget::check_work(
                    &format!(
                        "Lemke-Howson enumeration ({} follows one path)",
                        crate::core::hint::setting_value("label", "K")
                    ),
                    *work,
                    max_work,
                )
            };
            if let Err(e) = walk(&mut next, m, n, label, &mut charge)? {
                return Ok(Err(e));
            }
            if !seen.insert(key(&next)) {
                continue;
            }
            let x: Vec<BigInt> = next[0].values(m).iter().map(Ring::to_big).collect();
            let y: Vec<BigInt> = next[1].values(n).iter().map(Ring::to_big).collect();
            if x.iter().all(num_traits::Zero::is_zero) {
                continue; // the artificial equilibrium, reached by another basis
            }
            let Some(eq) = g.equilibrium(&sign_fixed(x, &next[0].d), &sign_fixed(y, &next[1].d))
            else {
                return Ok(Err(Error::Invalid(
                    "internal inconsistency: a Lemke–Howson path ended off equilibrium".into(),
                )));
            };
            if !found.contains(&eq) {
                found.push(eq);
            }
            queue.push(next);
        }
    }
    Ok(Ok(found))
}

/// Coordinates known up to a factor of the sign of the determinant `d`, made non-negative.
fn sign_fixed<T: Ring>(v: Vec<BigInt>, d: &T) -> Vec<BigInt> {
    if d.is_neg() {
        v.into_iter().map(|x| -x).collect()
    } else {
        v
    }
}

/// Follows the Lemke–Howson path that drops `label` from the completely labelled pair
/// `tabs` to the pair where it ends, charging each pivot to `charge` (which refuses once the
/// budget is spent). The label is dropped on the side where its variable is nonbasic (with the
/// lexicographic perturbation, exactly one side).
fn walk<T: Ring>(
    tabs: &mut State<T>,
    m: usize,
    n: usize,
    label: usize,
    charge: &mut impl FnMut(&Tableau<T>) -> Result<()>,
) -> std::result::Result<Result<()>, Overflow> {
    let ties: [Vec<usize>; 2] = [(m..m + n).collect(), (n..n + m).collect()];
    let mut side = usize::from(tabs[0].basis.contains(&column_of(m, n, 0, label)));
    let mut entering = column_of(m, n, side, label);
    loop {
        let t = &mut tabs[side];
        let r = t
            .lex_min_ratio_row(entering, &ties[side])?
            .expect("a best-response polytope is bounded");
        let leaving = t.basis[r];
        t.pivot(r, entering)?;
        if let Err(e) = charge(t) {
            return Ok(Err(e));
        }
        let l = label_of(m, n, side, leaving);
        if l == label {
            return Ok(Ok(()));
        }
        side = 1 - side;
        entering = column_of(m, n, side, l);
    }
}

/// The game label of variable `v` of tableau `side` (0: P, variables x then the column
/// slacks; 1: Q, variables y then the row slacks).
fn label_of(m: usize, n: usize, side: usize, v: usize) -> usize {
    match side {
        0 => v,
        _ if v < n => m + v,
        _ => v - n,
    }
}

/// The column of tableau `side` whose variable carries game label `l`.
fn column_of(m: usize, n: usize, side: usize, l: usize) -> usize {
    match side {
        0 => l,
        _ if l >= m => l - m,
        _ => n + l,
    }
}

type Path = (Vec<BigInt>, Vec<BigInt>, usize);

fn path<T: Ring>(g: &Bimatrix, label: usize) -> std::result::Result<Path, Overflow> {
    let (m, n) = (g.m, g.n);
    let mut tabs = artificial::<T>(g)?;
    let mut pivots = 0;
    walk(&mut tabs, m, n, label, &mut |_| {
        pivots += 1;
        Ok(())
    })?
    .expect("counting pivots refuses none");
    let x = tabs[0].values(m).iter().map(Ring::to_big).collect();
    let y = tabs[1].values(n).iter().map(Ring::to_big).collect();
    Ok((x, y, pivots))
}

/// The supports where the path from `label` ends, followed in `f64`; `None` if it does not end
/// within a generous number of pivots.
fn float_path(g: &Bimatrix, label: usize) -> Option<(Vec<usize>, Vec<usize>, usize)> {
    use num_traits::ToPrimitive;
    const EPS: f64 = 1e-9;
    let (m, n) = (g.m, g.n);
    let scale = |mat: &[Vec<BigInt>]| -> Option<Vec<Vec<f64>>> {
        let big = mat
            .iter()
            .flatten()
            .filter_map(|x| x.to_f64())
            .fold(1.0, f64::max);
        mat.iter()
            .map(|r| r.iter().map(|x| x.to_f64().map(|v| v / big)).collect())
            .collect()
    };
    struct Tab {
        t: Vec<Vec<f64>>,
        basis: Vec<usize>,
    }
    let make = |mat: Vec<Vec<f64>>, vars: usize| {
        let k = mat.len();
        let t = mat
            .into_iter()
            .enumerate()
            .map(|(i, mut row)| {
                row.extend((0..k).map(|j| f64::from(u8::from(i == j))));
                row.push(1.0);
                row
            })
            .collect();
        Tab {
            t,
            basis: (vars..vars + k).collect(),
        }
    };
    let mut tabs = [make(scale(&g.b_transposed())?, m), make(scale(&g.a)?, n)];
    let label_of = |side: usize, v: usize| label_of(m, n, side, v);
    let column_of = |side: usize, l: usize| column_of(m, n, side, l);
    let ties: [Vec<usize>; 2] = [(m..m + n).collect(), (n..n + m).collect()];
    let mut side = usize::from(label >= m);
    let mut entering = column_of(side, label);
    let limit = 100 * (m + n) + 1000;
    for pivots in 1..=limit {
        let tab = &mut tabs[side];
        let rhs = tab.t[0].len() - 1;
        let mut rows: Vec<usize> = (0..tab.basis.len())
            .filter(|&i| tab.t[i][entering] > EPS)
            .collect();
        for col in std::iter::once(rhs).chain(ties[side].iter().copied()) {
            if rows.len() <= 1 {
                break;
            }
            let ratio = |i: usize| tab.t[i][col] / tab.t[i][entering];
            let best = rows.iter().map(|&i| ratio(i)).fold(f64::INFINITY, f64::min);
            rows.retain(|&i| ratio(i) <= best + EPS);
        }
        let &r = rows.first()?;
        let p = tab.t[r][entering];
        for x in &mut tab.t[r] {
            *x /= p;
        }
        let pivot_row = tab.t[r].clone();
        for (i, row) in tab.t.iter_mut().enumerate() {
            let f = row[entering];
            if i != r && f != 0.0 {
                for (x, y) in row.iter_mut().zip(&pivot_row) {
                    *x -= f * y;
                }
            }
        }
        let leaving = tab.basis[r];
        tab.basis[r] = entering;
        let l = label_of(side, leaving);
        if l == label {
            let support = |tab: &Tab, vars: usize| {
                let rhs = tab.t[0].len() - 1;
                let mut s: Vec<usize> = tab
                    .basis
                    .iter()
                    .enumerate()
                    .filter(|&(i, &v)| v < vars && tab.t[i][rhs] > EPS)
                    .map(|(_, &v)| v)
                    .collect();
                s.sort_unstable();
                s
            };
            return Some((support(&tabs[0], m), support(&tabs[1], n), pivots));
        }
        side = 1 - side;
        entering = column_of(side, l);
    }
    None
}
