//! The tracing procedure of Harsanyi and Selten for two-player games, in the linear form of
//! van den Elzen and Talman ("A procedure for finding Nash equilibria in bi-matrix games",
//! 1991): the equilibrium that players reach when they start from a common prior `(p, q)`
//! and gradually replace it by what the other actually plays.
//!
//! At `t ∈ [0, 1]` each player best-responds to the mixture `t·(other's strategy) + (1 − t)·
//! (prior)`; at `t = 0` that is the best reply to the prior, at `t = 1` an equilibrium. The
//! profiles that satisfy this form a path from the one to the other (for a generic prior),
//! and the path is that of Lemke's algorithm on the linear complementarity problem below
//! (von Stengel, van den Elzen and Talman, "Computing normal form perfect equilibria for
//! extensive two-person games", Econometrica 2002). With `x̃ = t·x`, `ỹ = t·y` and
//! `z₀ = 1 − t`:
//!
//! ```text
//! w = u·1 − A ỹ − (A q) z₀ ≥ 0 ⊥ x̃ ≥ 0,     1ᵀx̃ + z₀ = 1,
//! s = v·1 − Bᵀx̃ − (Bᵀp) z₀ ≥ 0 ⊥ ỹ ≥ 0,     1ᵀỹ + z₀ = 1,
//! ```
//!
//! with `u`, `v` free (each player's best payoff against the mixture). The start `z₀ = 1` is
//! the basis where `u`, `v` are the payoffs of the best replies `i*`, `j*` to the prior; `ỹ_{j*}`
//! enters first, and each variable that leaves lets its complement in, until `z₀` leaves at
//! `t = 1`. Ties in the ratio test are broken lexicographically by the columns of the start
//! basis (a symbolic perturbation of the prior), so every step is unique and the path finite,
//! except that `z₀` leaves whenever it may: the path stops where it first reaches `t = 1`
//! (pivoting on through a degenerate end would reach another equilibrium, one that a
//! completely mixed prior need not make perfect); ties among the best replies to the prior go to the first strategy, as a prior perturbed
//! slightly toward it would. Pivots are exact and fraction-free (`i128`, then big integers),
//! and the end is checked exactly as an equilibrium.
//!
//! Harsanyi and Selten's theorem for 2 × 2 games (risk dominance is the tracing procedure's
//! choice from the bicentric prior) and von Stengel, van den Elzen and Talman's (from a
//! completely mixed prior the equilibrium reached is perfect) are what the tests check it by.

use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::{Error, Result};
use crate::exact::ring::{Overflow, Ring};
use crate::exact::tableau::Tableau;
use crate::exact::Q;
use crate::strategic::bimatrix::{Bimatrix, Equilibrium};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed};
use std::cmp::Ordering;

/// The equilibrium the procedure selects.
#[derive(Debug, Clone)]
pub struct Traced {
    /// The equilibrium, checked exactly.
    pub equilibrium: Equilibrium,
    /// Each player's best reply to the prior, where the path starts (the first when tied).
    pub start: [usize; 2],
    /// Pivots along the path.
    pub pivots: usize,
}

/// Work steps for one update of a one-word big-integer entry (a multiplication, a division
/// and an allocation).
const EXACT_STEP: u64 = 12;

/// Bytes a tableau entry is reckoned at (an `i128`, or a small big integer).
const ENTRY_BYTES: u64 = 24;

/// Follows the tracing procedure from the prior `p` (the first player's strategies) and `q`
/// (the second's), each a probability vector, to the equilibrium it selects.
pub fn trace(g: &Bimatrix, p: &[Q], q: &[Q], limits: &Limits) -> Result<Traced> {
    check_prior(p, g.m, "first")?;
    check_prior(q, g.n, "second")?;
    let rows = g.m + g.n + 2;
    let cols = 2 * rows + 1;
    check_memory(
        "the tracing procedure's tableau",
        (rows as u64)
            .saturating_mul(cols as u64)
            .saturating_mul(ENTRY_BYTES),
        limits.max_memory,
    )?;
    // Both priors over one denominator `l`, so that `z₀ = l·z₀'` keeps the tableau integral.
    let l = p
        .iter()
        .chain(q)
        .fold(BigInt::one(), |l, v| l.lcm(v.denom()));
    let scaled = |v: &[Q]| -> Vec<BigInt> {
        v.iter()
            .map(|x| x.numer() * (&l / x.denom()))
            .collect::<Vec<_>>()
    };
    let (lp, lq) = (scaled(p), scaled(q));
    // The payoff of each pure strategy against the prior, times `l`.
    let against_q: Vec<BigInt> = (0..g.m)
        .map(|i| (0..g.n).map(|j| &g.a[i][j] * &lq[j]).sum())
        .collect();
    let against_p: Vec<BigInt> = (0..g.n)
        .map(|j| (0..g.m).map(|i| &g.b[i][j] * &lp[i]).sum())
        .collect();
    let first_best =
        |v: &[BigInt]| (0..v.len()).fold(0, |best, i| if v[i] > v[best] { i } else { best });
    let start = [first_best(&against_q), first_best(&against_p)];
    let system = System {
        g,
        l: &l,
        against_q: &against_q,
        against_p: &against_p,
        start,
    };
    // The work of a first pass in i128 that overflowed counts too.
    let mut work = 0u64;
    let (x, y, pivots) = match system.path::<i128>(limits, &mut work, false) {
        Ok(r) => r?,
        Err(Overflow) => system
            .path::<BigInt>(limits, &mut work, true)
            .expect("BigInt arithmetic cannot overflow")?,
    };
    let equilibrium = g.equilibrium(&x, &y).ok_or_else(|| {
        Error::Invalid("internal inconsistency: the tracing path ended off equilibrium".into())
    })?;
    Ok(Traced {
        equilibrium,
        start,
        pivots,
    })
}

/// Refuses a prior that is not a probability vector over `n` strategies.
fn check_prior(v: &[Q], n: usize, whose: &str) -> Result<()> {
    if v.len() != n {
        return Err(Error::Invalid(format!(
            "the prior of the {whose} player has {} probabilities; the player has {n} strategies",
            v.len()
        )));
    }
    if let Some(x) = v.iter().find(|x| x.is_negative()) {
        return Err(Error::Invalid(format!(
            "the prior of the {whose} player has the negative probability {x}"
        )));
    }
    let total: Q = v.iter().sum();
    if !total.is_one() {
        return Err(Error::Invalid(format!(
            "the prior of the {whose} player sums to {total}, not 1"
        )));
    }
    Ok(())
}

/// The complementarity problem of one game and prior.
struct System<'a> {
    g: &'a Bimatrix,
    l: &'a BigInt,
    against_q: &'a [BigInt],
    against_p: &'a [BigInt],
    start: [usize; 2],
}

impl System<'_> {
    /// Lemke's path: the numerators of `x` and `y` at its end and the pivots made.
    ///
    /// Columns: `x̃` (`0..m`), `ỹ` (`m..m+n`), `z₀'` (`m+n`), `u`, `v`, then the slacks `w`
    /// (one per row strategy), `s` (one per column strategy) and two artificial slacks of the
    /// normalising equations, which stay nonbasic at zero. `big`: whether `T` is the big
    /// integers (for the work each pivot is charged).
    #[allow(clippy::type_complexity)]
    fn path<T: Ring>(
        &self,
        limits: &Limits,
        work: &mut u64,
        big: bool,
    ) -> std::result::Result<Result<(Vec<BigInt>, Vec<BigInt>, usize)>, Overflow> {
        let g = self.g;
        let (m, n) = (g.m, g.n);
        let (z0, u, v) = (m + n, m + n + 1, m + n + 2);
        let vars = m + n + 3;
        let entry = |x: &BigInt| T::from_big(x).ok_or(Overflow);
        let mut rows: Vec<Vec<T>> = Vec::with_capacity(m + n + 2);
        for i in 0..m {
            let mut r = vec![T::small(0); vars];
            for (cell, x) in r[m..m + n].iter_mut().zip(&g.a[i]) {
                *cell = entry(x)?;
            }
            r[z0] = entry(&self.against_q[i])?;
            r[u] = T::small(-1);
            rows.push(r);
        }
        for j in 0..n {
            let mut r = vec![T::small(0); vars];
            for (cell, row) in r.iter_mut().zip(&g.b) {
                *cell = entry(&row[j])?;
            }
            r[z0] = entry(&self.against_p[j])?;
            r[v] = T::small(-1);
            rows.push(r);
        }
        for range in [0..m, m..m + n] {
            let mut r = vec![T::small(0); vars];
            for cell in &mut r[range] {
                *cell = T::small(1);
            }
            r[z0] = entry(self.l)?;
            rows.push(r);
        }
        let mut rhs = vec![T::small(0); m + n];
        rhs.extend([T::small(1), T::small(1)]);
        let mut t = Tableau::new(rows, rhs);
        let slack = |row: usize| vars + row;
        let [i0, j0] = self.start;
        // The start basis: u and v for the best replies' slacks, z₀ for the second
        // normalisation, x̃_{i*} (at zero) for the first.
        for (row, var) in [(i0, u), (m + j0, v), (m + n + 1, z0), (m + n, i0)] {
            if t.t[row][var].is_zero_r() {
                return Ok(Err(inconsistent("its start basis is singular")));
            }
            t.pivot(row, var)?;
            t.normalise()?;
        }
        let ties: Vec<usize> = t.basis.clone();
        let free = [u, v];
        let complement = |var: usize| -> Option<usize> {
            match var {
                _ if var < m + n => Some(slack(var)),
                _ if var >= vars && var < vars + m + n => Some(var - vars),
                _ => None,
            }
        };
        let entries = ((m + n + 2) * (2 * (m + n) + 6)) as u64;
        // An i128 entry's update is one step; a big integer's costs an allocation and grows
        // with the square of its length in words (measured: 140 ns an entry at two or three
        // words, charged as 48 steps), as Lemke–Howson's enumeration counts it.
        let mut entering = m + j0;
        let mut pivots = 0usize;
        loop {
            let Some(r) = ratio_row(&t, entering, &ties, &free, z0)? else {
                return Ok(Err(inconsistent("it ended in a ray")));
            };
            let leaving = t.basis[r];
            t.pivot(r, entering)?;
            t.normalise()?;
            pivots += 1;
            let per_entry = if !big {
                1
            } else {
                let words = t.d.to_big().bits() / 64 + 1;
                EXACT_STEP * words * words
            };
            *work = work.saturating_add(entries.saturating_mul(per_entry));
            if let Err(e) = check_work("the tracing procedure's path", *work, limits.max_work) {
                return Ok(Err(e));
            }
            if pivots % 64 == 0 {
                if let Err(e) = crate::core::progress::tick(pivots as u64) {
                    return Ok(Err(e));
                }
            }
            if leaving == z0 {
                break;
            }
            let Some(next) = complement(leaving) else {
                return Ok(Err(inconsistent("a variable without complement left")));
            };
            entering = next;
        }
        let values = t.values(m + n);
        let to_big = |s: &[T]| s.iter().map(Ring::to_big).collect::<Vec<_>>();
        Ok(Ok((to_big(&values[..m]), to_big(&values[m..]), pivots)))
    }
}

/// The minimum-ratio row for entering column `e` among the rows whose basic variable is not
/// free; `None` when the column rises in no such row. When `z₀`'s row is among the rows tied
/// for the minimum, it wins (Lemke's rule: the path ends as soon as it can, at the point it
/// reaches, rather than pivoting on through a degenerate end to another equilibrium); other
/// ties are broken lexicographically.
fn ratio_row<T: Ring>(
    t: &Tableau<T>,
    e: usize,
    ties: &[usize],
    free: &[usize],
    z0: usize,
) -> std::result::Result<Option<usize>, Overflow> {
    let rhs = t.rhs();
    let mut tied: Vec<usize> = Vec::new();
    for i in 0..t.rows() {
        if free.contains(&t.basis[i]) || !t.t[i][e].is_pos() {
            continue;
        }
        match tied.first() {
            None => tied.push(i),
            Some(&r) => match t.cmp_ratio(i, r, e, rhs)? {
                Ordering::Less => {
                    tied.clear();
                    tied.push(i);
                }
                Ordering::Equal => tied.push(i),
                Ordering::Greater => {}
            },
        }
    }
    if let Some(&r) = tied.iter().find(|&&r| t.basis[r] == z0) {
        return Ok(Some(r));
    }
    let mut best: Option<usize> = None;
    for i in tied {
        let Some(r) = best else {
            best = Some(i);
            continue;
        };
        let mut order = Ordering::Equal;
        for &c in ties {
            order = t.cmp_ratio(i, r, e, c)?;
            if order != Ordering::Equal {
                break;
            }
        }
        if order == Ordering::Less {
            best = Some(i);
        }
    }
    Ok(best)
}

fn inconsistent(what: &str) -> Error {
    Error::Invalid(format!(
        "internal inconsistency: the tracing procedure's path failed ({what})"
    ))
}

/// The uniform prior over `n` strategies (Harsanyi and Selten's centroid).
pub fn uniform(n: usize) -> Vec<Q> {
    vec![Q::new(BigInt::one(), BigInt::from(n)); n]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategic::game::NormalForm;

    fn game(a: &[&[i64]], b: &[&[i64]]) -> Bimatrix {
        let m = |rows: &[&[i64]]| -> Vec<Vec<Q>> {
            rows.iter()
                .map(|r| r.iter().map(|&v| Q::from_integer(v.into())).collect())
                .collect()
        };
        Bimatrix::new(&NormalForm::bimatrix(&m(a), &m(b)).unwrap()).unwrap()
    }

    fn q(a: i64, b: i64) -> Q {
        Q::new(a.into(), b.into())
    }

    #[test]
    fn a_strict_equilibrium_of_best_replies_to_the_prior_is_kept() {
        // Coordination: both prefer (0, 0) under the uniform prior.
        let g = game(&[&[3, 0], &[0, 2]], &[&[3, 0], &[0, 2]]);
        let r = trace(&g, &uniform(2), &uniform(2), &Limits::default()).unwrap();
        assert_eq!(r.start, [0, 0]);
        assert_eq!(r.equilibrium.profile, vec![vec![q(1, 1), q(0, 1)]; 2]);
        // A prior leaning to the other strategy selects the other equilibrium.
        let lean = vec![q(1, 5), q(4, 5)];
        let r = trace(&g, &lean, &lean, &Limits::default()).unwrap();
        assert_eq!(r.equilibrium.profile, vec![vec![q(0, 1), q(1, 1)]; 2]);
    }

    #[test]
    fn matching_pennies_ends_at_its_only_equilibrium() {
        let g = game(&[&[1, -1], &[-1, 1]], &[&[-1, 1], &[1, -1]]);
        let prior = vec![q(1, 3), q(2, 3)];
        let r = trace(&g, &prior, &prior, &Limits::default()).unwrap();
        assert_eq!(r.equilibrium.profile, vec![vec![q(1, 2), q(1, 2)]; 2]);
        assert!(r.pivots >= 2);
    }

    #[test]
    fn bad_priors_are_refused() {
        let g = game(&[&[1, 0], &[0, 1]], &[&[1, 0], &[0, 1]]);
        let l = Limits::default();
        assert!(trace(&g, &uniform(3), &uniform(2), &l).is_err());
        assert!(trace(&g, &[q(1, 2), q(1, 3)], &uniform(2), &l).is_err());
        assert!(trace(&g, &[q(3, 2), q(-1, 2)], &uniform(2), &l).is_err());
    }
}
