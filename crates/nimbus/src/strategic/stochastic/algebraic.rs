//! The exact value of a one-state stochastic game whose value is irrational: the one root of
//! an integer polynomial between two fractions, and in closed form when that is a quadratic.
//!
//! With one state, Shapley's matrix is `M(v) = A + β v P` (`P` the chances that play goes
//! on), and the value is the `v` with `v = val M(v)`. Shapley and Snow: a matrix game's value
//! is `det K / 1ᵀ adj(K) 1` for some square submatrix `K` (a kernel), with the optimal
//! strategies `1ᵀ adj(K)` and `adj(K) 1` over the same sum. So the value is a root of
//! `f(v) = v · 1ᵀ adj(K(v)) 1 − det K(v)`, a polynomial of degree at most `k + 1`
//! (`1ᵀ adj(K) 1 = det(K + 11ᵀ) − det K`, the matrix determinant lemma), found here by
//! interpolating determinants at `k + 2` points.
//!
//! Nothing is assumed of the kernel: for a root `α` of `f` inside the proven bounds, the
//! strategies the formulas give are checked exactly at `α` (each sign decided exactly by
//! [`crate::exact::poly::Root::sign_of`]) to be probability vectors that guarantee `α` against
//! every action of the other player in `M(α)`. Then `α = val M(α)`: `α` is a fixed point of
//! Shapley's operator, which has only one, so it is the value. Kernels are tried from the
//! supports of the strategies the iteration ended with, then every other square submatrix
//! from the smallest, up to [`MAX_KERNEL`] actions a player, within the work budget.

use super::game::StochasticGame;
use super::meter::Meter;
use crate::core::error::Result;
use crate::exact::poly::{show_integer_poly, show_quadratic, Poly, Root};
use crate::exact::Q;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// The value, exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Algebraic {
    /// A squarefree integer polynomial, the constant first, with the value as its only root
    /// in `(lower, upper]`.
    pub polynomial: Vec<BigInt>,
    /// The interval's ends.
    pub lower: Q,
    /// (included)
    pub upper: Q,
    /// The value in closed form, when the polynomial is a quadratic: `-3 + sqrt(21)`.
    pub closed_form: Option<String>,
    /// The kernel's rows and columns: the actions the optimal strategies play.
    pub kernel: (Vec<usize>, Vec<usize>),
}

impl Algebraic {
    /// The polynomial in the variable `v`, highest power first: `v^2 + 6v - 12`.
    pub fn polynomial_text(&self) -> String {
        show_integer_poly(&self.polynomial, "v")
    }
}

/// Bisections allowed to isolate a root or decide a sign (each halves an interval already
/// narrower than the tolerance; far more than a kernel's roots ever need).
const MAX_BISECTIONS: usize = 4000;

/// Kernels tried at most.
const MAX_KERNELS: usize = 5_000;

/// Games with at most this many actions a player have every square submatrix tried when
/// those within the supports fail.
const SMALL: usize = 6;

/// The largest kernel tried, in actions a player. Its polynomial has degree up to one more,
/// with coefficients that grow with it: a kernel of 7 takes 0.05 s here, one of 12 half a
/// second, one of 20 ten seconds, which the bounds' answer should not wait for (the
/// polynomial would be too long to read anyway).
pub const MAX_KERNEL: usize = 10;

/// The value of the one-state `game` exactly, when it lies in `(lower, upper]` and a kernel
/// proves it; `None` for a game of more states, or when no kernel within the limits does
/// (at most [`MAX_KERNEL`] actions a player, and a few thousand kernels).
/// `row` and `column` are the strategies the iteration ended with: their supports are tried
/// first.
pub fn one_state_value(
    game: &StochasticGame,
    (lower, upper): (&Q, &Q),
    (row, column): (&[Q], &[Q]),
    meter: &Meter,
) -> Result<Option<Algebraic>> {
    if game.states.len() != 1 {
        return Ok(None);
    }
    let state = &game.states[0];
    let (m, n) = (state.rows.len(), state.columns.len());
    // Each entry of Shapley's matrix as `c0 + c1 v`.
    let entry = |i: usize, j: usize| -> Poly {
        let cell = state.cell(i, j);
        let goes_on: Q = cell.next.iter().map(|(_, p)| p.clone()).sum();
        Poly::linear(cell.payoff.clone(), goes_on * &game.discount)
    };
    let matrix: Vec<Vec<Poly>> = (0..m)
        .map(|i| (0..n).map(|j| entry(i, j)).collect())
        .collect();
    let support =
        |s: &[Q]| -> Vec<usize> { (0..s.len()).filter(|&k| s[k].is_positive()).collect() };
    let (si, sj) = (support(row), support(column));
    if si.len().min(sj.len()) > MAX_KERNEL {
        // The kernel is as large as the smaller support (at least, unless the game is
        // degenerate): beyond the largest tried.
        return Ok(None);
    }
    // The supports first (usually the kernel: the largest square submatrix within them, when
    // they are square), then the others within them, the largest first (degenerate games:
    // the supports of the strategies found hold more than a kernel), then, for small games
    // only, every square submatrix; each tried once.
    let within = |rows: Vec<usize>, columns: Vec<usize>| {
        let top = rows.len().min(columns.len()).min(MAX_KERNEL);
        (1..=top).rev().flat_map(move |k| {
            let (rows, columns) = (rows.clone(), columns.clone());
            subsets(rows.len(), k).flat_map(move |r| {
                let picked: Vec<usize> = r.iter().map(|&i| rows[i]).collect();
                let columns = columns.clone();
                subsets(columns.len(), k)
                    .map(move |c| (picked.clone(), c.iter().map(|&j| columns[j]).collect()))
            })
        })
    };
    let everything = (m.max(n) <= SMALL).then(|| within((0..m).collect(), (0..n).collect()));
    let mut tried = std::collections::HashSet::new();
    let candidates = within(si, sj)
        .chain(everything.into_iter().flatten())
        .filter(move |kernel: &(Vec<usize>, Vec<usize>)| tried.insert(kernel.clone()))
        .take(MAX_KERNELS);
    for (rows, columns) in candidates {
        crate::core::progress::check()?;
        let k = rows.len() as u64;
        // Determinants at k + 2 points and their interpolation, in fractions of a few words.
        meter.charge(
            "the exact value's kernels",
            (k + 2).saturating_mul(k.pow(3)).saturating_mul(40) + 400,
        )?;
        let kernel: Vec<Vec<Poly>> = rows
            .iter()
            .map(|&i| columns.iter().map(|&j| matrix[i][j].clone()).collect())
            .collect();
        if let Some(found) =
            proven_root(&matrix, &kernel, (&rows, &columns), (lower, upper), meter)?
        {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

/// The root of the kernel's polynomial in the bounds that the kernel's strategies prove to
/// be the value, if there is one.
fn proven_root(
    matrix: &[Vec<Poly>],
    kernel: &[Vec<Poly>],
    (rows, columns): (&[usize], &[usize]),
    (lower, upper): (&Q, &Q),
    meter: &Meter,
) -> Result<Option<Algebraic>> {
    let k = kernel.len();
    let Some(Adjugate { det, x, y }) = adjugate_sums(kernel) else {
        // Singular for every v: its value formula gives no irrational value.
        return Ok(None);
    };
    // 1ᵀ adj(K) 1, the sum of either.
    let sum = x.iter().fold(Poly::new(Vec::new()), |s, p| s.add(p));
    let f = Poly::linear(Q::zero(), Q::one()).mul(&sum).sub(&det);
    if f.degree().unwrap_or(0) == 0 {
        // Zero, or a constant without roots: this kernel fixes no value.
        return Ok(None);
    }
    let Some(roots) = Root::all_between(&f, lower, upper, MAX_BISECTIONS) else {
        return Ok(None);
    };
    if roots.is_empty() {
        return Ok(None);
    }
    meter.charge(
        "the exact value's check",
        ((matrix.len() + matrix[0].len()) as u64)
            .saturating_mul((k as u64 + 1).pow(3))
            .saturating_mul(40)
            + 400,
    )?;
    let v = Poly::linear(Q::zero(), Q::one());
    for mut root in roots {
        let Some(sum_sign) = root.sign_of(&sum, MAX_BISECTIONS) else {
            continue;
        };
        if sum_sign == Ordering::Equal {
            continue;
        }
        // `s · g(α) ≥ 0` for the sign `s` of the sum, i.e. `g(α) / sum(α) ≥ 0`.
        let mut holds = |g: &Poly| -> bool {
            matches!(root.sign_of(g, MAX_BISECTIONS), Some(o) if o == Ordering::Equal || o == sum_sign)
        };
        let probabilities = x.iter().chain(&y).all(&mut holds);
        // Each column j: Σ_i x_i M_ij(α) − α ≥ 0, times the sum.
        let columns_ok = probabilities
            && (0..matrix[0].len()).all(|j| {
                let paid = rows
                    .iter()
                    .zip(&x)
                    .fold(Poly::new(Vec::new()), |s, (&i, xi)| {
                        s.add(&xi.mul(&matrix[i][j]))
                    });
                holds(&paid.sub(&v.mul(&sum)))
            });
        // Each row i: α − Σ_j M_ij(α) y_j ≥ 0, times the sum.
        let rows_ok = columns_ok
            && (0..matrix.len()).all(|i| {
                let conceded = columns
                    .iter()
                    .zip(&y)
                    .fold(Poly::new(Vec::new()), |s, (&j, yj)| {
                        s.add(&matrix[i][j].mul(yj))
                    });
                holds(&v.mul(&sum).sub(&conceded))
            });
        if rows_ok {
            let closed_form = root.quadratic().map(|c| show_quadratic(&c));
            return Ok(Some(Algebraic {
                polynomial: root.poly.integer_coefficients(),
                lower: root.lower,
                upper: root.upper,
                closed_form,
                kernel: (rows.to_vec(), columns.to_vec()),
            }));
        }
    }
    Ok(None)
}

/// A kernel's determinant and the sums of its adjugate, as polynomials in `v`.
struct Adjugate {
    /// `det K(v)`.
    det: Poly,
    /// `1ᵀ adj K(v)`: the row player's strategy, times `1ᵀ adj K(v) 1`.
    x: Vec<Poly>,
    /// `adj K(v) 1`: the column player's.
    y: Vec<Poly>,
}

/// One point of the interpolation: `v`, `det K(v)`, `1ᵀ adj K(v)`, `adj K(v) 1`.
type Sample = (Q, Q, Vec<Q>, Vec<Q>);

/// [`Adjugate`] of a square matrix of polynomials of degree at most one, interpolated from
/// its values at `k + 1` integers where the matrix is invertible (there `adj = det · K⁻¹`:
/// one inversion a point, where the cofactors would take `k²` determinants); `None` when it is
/// singular for every `v` (then fewer than `k + 1` of the first `2k + 2` integers are such
/// points, as a determinant of degree at most `k` that is not zero has at most `k` roots).
fn adjugate_sums(matrix: &[Vec<Poly>]) -> Option<Adjugate> {
    let k = matrix.len();
    let mut points: Vec<Sample> = Vec::with_capacity(k + 1);
    for t in 0..(2 * k as i64 + 2) {
        if points.len() == k + 1 {
            break;
        }
        let at = Q::from_integer(t.into());
        let values: Vec<Vec<Q>> = matrix
            .iter()
            .map(|r| r.iter().map(|e| e.eval(&at)).collect())
            .collect();
        if let Some((d, inverse)) = inverse(values) {
            let x = (0..k)
                .map(|i| (0..k).map(|r| &inverse[r][i]).sum::<Q>() * &d)
                .collect();
            let y = (0..k).map(|j| inverse[j].iter().sum::<Q>() * &d).collect();
            points.push((at, d, x, y));
        }
    }
    if points.len() < k + 1 {
        return None;
    }
    let through = |value: &dyn Fn(&Sample) -> Q| {
        let pairs: Vec<(Q, Q)> = points.iter().map(|p| (p.0.clone(), value(p))).collect();
        Poly::interpolate(&pairs)
    };
    Some(Adjugate {
        det: through(&|p| p.1.clone()),
        x: (0..k).map(|i| through(&|p| p.2[i].clone())).collect(),
        y: (0..k).map(|j| through(&|p| p.3[j].clone())).collect(),
    })
}

/// The determinant and the inverse of a square matrix of fractions (Gauss and Jordan), or
/// `None` when it is singular.
fn inverse(mut a: Vec<Vec<Q>>) -> Option<(Q, Vec<Vec<Q>>)> {
    let k = a.len();
    for (r, row) in a.iter_mut().enumerate() {
        row.extend((0..k).map(|c| if c == r { Q::one() } else { Q::zero() }));
    }
    let mut d = Q::one();
    for c in 0..k {
        let p = (c..k).find(|&r| !a[r][c].is_zero())?;
        if p != c {
            a.swap(p, c);
            d = -d;
        }
        let pivot = a[c][c].clone();
        d *= &pivot;
        for x in a[c].iter_mut() {
            *x /= &pivot;
        }
        for r in 0..k {
            if r == c || a[r][c].is_zero() {
                continue;
            }
            let factor = a[r][c].clone();
            let pivot_row = a[c].clone();
            for (x, p) in a[r].iter_mut().zip(&pivot_row).skip(c) {
                *x -= &factor * p;
            }
        }
    }
    Some((d, a.into_iter().map(|row| row[k..].to_vec()).collect()))
}

/// Every `k`-element subset of `0..n`, in lexicographic order, one at a time.
fn subsets(n: usize, k: usize) -> impl Iterator<Item = Vec<usize>> {
    let mut current: Option<Vec<usize>> = (k <= n).then(|| (0..k).collect());
    std::iter::from_fn(move || {
        let out = current.clone()?;
        // The rightmost index that can still move right.
        current = (0..k).rev().find(|&i| out[i] < n - k + i).map(|i| {
            let mut next = out.clone();
            next[i] += 1;
            for t in i + 1..k {
                next[t] = next[t - 1] + 1;
            }
            next
        });
        Some(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_listed_once_each() {
        let all = |n, k| subsets(n, k).collect::<Vec<_>>();
        assert_eq!(all(4, 2).len(), 6);
        assert_eq!(all(5, 3).len(), 10);
        assert_eq!(all(3, 3), vec![vec![0, 1, 2]]);
        assert_eq!(all(2, 3), Vec::<Vec<usize>>::new());
        assert_eq!(all(3, 1), vec![vec![0], vec![1], vec![2]]);
        assert_eq!(all(3, 0), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn determinants_and_adjugates_of_polynomial_matrices() {
        let q = |n: i64| Q::from_integer(n.into());
        // [[v, 1], [2, v + 1]]: det v^2 + v - 2 (singular at v = 1 and v = -2), adj
        // [[v + 1, -1], [-2, v]]: 1ᵀ adj = (v - 1, v - 1), adj 1 = (v, v - 2).
        let m = vec![
            vec![Poly::linear(q(0), q(1)), Poly::constant(q(1))],
            vec![Poly::constant(q(2)), Poly::linear(q(1), q(1))],
        ];
        let a = adjugate_sums(&m).unwrap();
        assert_eq!(a.det, Poly::new(vec![q(-2), q(1), q(1)]));
        assert_eq!(
            a.x,
            vec![Poly::linear(q(-1), q(1)), Poly::linear(q(-1), q(1))]
        );
        assert_eq!(
            a.y,
            vec![Poly::linear(q(0), q(1)), Poly::linear(q(-2), q(1))]
        );
        // Singular for every v: [[v, v], [1, 1]].
        let flat = vec![
            vec![Poly::linear(q(0), q(1)), Poly::linear(q(0), q(1))],
            vec![Poly::constant(q(1)), Poly::constant(q(1))],
        ];
        assert!(adjugate_sums(&flat).is_none());
    }
}
