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
use crate::exact::{over_common_denominator, Q};
use crate::strategic::bimatrix::{Bimatrix, Equilibrium};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
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
    /// The work the path was charged (the steps counted against the work budget).
    pub work: u64,
    /// Whether the path was followed in floating point and its end solved exactly (else it
    /// was followed in exact arithmetic).
    pub guided: bool,
}

/// Work steps for one update of a one-word big-integer entry (a multiplication, a division
/// and an allocation).
const EXACT_STEP: u64 = 12;

/// Bytes a tableau entry is reckoned at (an `i128`, or a small big integer).
const ENTRY_BYTES: u64 = 24;

/// One player's strategies as sequences (von Stengel's sequence form): sequence 0 is the empty
/// one, and information set `k` follows sequence `parent[k]` and owns the `actions[k]`
/// sequences from `first[k]`, each set numbered after the one its parent sequence belongs
/// to. A strategic-form player is one set of all their strategies after the empty sequence.
#[derive(Debug, Clone)]
pub struct Plans {
    /// The sequence each information set follows.
    pub parent: Vec<usize>,
    /// Each set's first sequence.
    pub first: Vec<usize>,
    /// Each set's number of actions.
    pub actions: Vec<usize>,
    /// Sequences in all, the empty one included.
    pub count: usize,
}

impl Plans {
    /// A strategic-form player with `m` strategies: one set after the empty sequence.
    pub fn simplex(m: usize) -> Plans {
        Plans {
            parent: vec![0],
            first: vec![1],
            actions: vec![m],
            count: m + 1,
        }
    }

    /// The rows of the plan's constraints `E x = e`: row 0 is `x_∅ = 1`, row `1 + k` is
    /// `Σ x_{first[k] + a} − x_{parent[k]} = 0`.
    fn rows(&self) -> Vec<Vec<(usize, i64)>> {
        let mut rows = vec![vec![(0, 1)]];
        for k in 0..self.parent.len() {
            let mut row = vec![(self.parent[k], -1)];
            row.extend((0..self.actions[k]).map(|a| (self.first[k] + a, 1)));
            rows.push(row);
        }
        rows
    }

    /// The sequences of a pure best reply when sequence `σ` alone pays `c[σ]`: the empty one
    /// and, at every information set (reached or not), the first action of greatest value,
    /// by backward induction (a set's value adds to its parent sequence's).
    fn best_reply(&self, c: &[BigInt]) -> Vec<bool> {
        let mut value: Vec<BigInt> = c.to_vec();
        let mut best = vec![false; self.count];
        best[0] = true;
        for k in (0..self.parent.len()).rev() {
            let seqs = self.first[k]..self.first[k] + self.actions[k];
            let top = seqs.clone().fold(
                self.first[k],
                |b, s| if value[s] > value[b] { s } else { b },
            );
            best[top] = true;
            let v = value[top].clone();
            value[self.parent[k]] += v;
        }
        best
    }
}

/// A two-player game in sequence form: payoffs between sequences (chance-weighted, any
/// integer scale per player) and each player's sequences.
#[derive(Debug, Clone)]
pub struct Linear {
    /// The first player's payoffs, `a[σ][τ]`.
    pub a: Vec<Vec<BigInt>>,
    /// The second player's payoffs, `b[σ][τ]`.
    pub b: Vec<Vec<BigInt>>,
    /// Each player's sequences.
    pub plans: [Plans; 2],
}

/// The end of the tracing procedure's path in sequence form.
#[derive(Debug, Clone)]
pub struct End {
    /// Each player's realisation plan at `t = 1`.
    pub plans: [Vec<Q>; 2],
    /// Each player's sequences of the pure best reply to the prior where the path starts.
    pub start: [Vec<bool>; 2],
    /// Pivots along the path.
    pub pivots: usize,
    /// The work the path was charged (the steps counted against the work budget).
    pub work: u64,
    /// Whether the floating-point guide's end was accepted ([`trace_plans_guided`]).
    pub guided: bool,
}

/// Follows the tracing procedure on a game in sequence form from the prior's realisation
/// plans `p` and `q` (each `1` on the empty sequence) to the plans it selects.
///
/// With `x̃ = t·x`, `ỹ = t·y`, `z₀ = 1 − t` and each plan's constraints `E x = e`, `F y = f`:
/// `E x̃ + e z₀ = e`, `F ỹ + f z₀ = f`, `w = Eᵀu − A ỹ − (A q) z₀ ≥ 0 ⊥ x̃`,
/// `s = Fᵀv − Bᵀx̃ − (Bᵀp) z₀ ≥ 0 ⊥ ỹ`, `u` and `v` free. The start basis holds `z₀`, `u`, `v`,
/// the slacks of the sequences outside the pure best replies to the prior, and the best
/// replies' own sequences at zero but for the second player's empty one, which enters first.
pub fn trace_plans(form: &Linear, p: &[Q], q: &[Q], limits: &Limits) -> Result<End> {
    trace_plans_guided(form, p, q, limits, None)
}

/// [`trace_plans`], the path first followed in floating point (with `accept`): `accept` is given the
/// sequences where that path ends (each player's, with positive weight) and returns the
/// plans there, solved and checked exactly, or `None` to follow the path exactly instead.
/// Exact pivoting of a large game is slow (its tableau fills with numbers of hundreds of
/// digits), a floating-point pivot is one multiplication an entry. Ratios that agree to
/// twelve digits are taken as tied (the exact path's ties, as in games with small payoffs,
/// broken by its rule); the guide gives up (and the exact path is followed) wherever
/// rounding could otherwise decide a step: ratios closer than 10⁻⁸ but not that close, a
/// tie its rule cannot break, a path longer than any the exact one takes on such games.
pub fn trace_plans_guided(
    form: &Linear,
    p: &[Q],
    q: &[Q],
    limits: &Limits,
    accept: Option<Accept<'_>>,
) -> Result<End> {
    let (n1, n2) = (form.plans[0].count, form.plans[1].count);
    let (k1, k2) = (
        form.plans[0].parent.len() + 1,
        form.plans[1].parent.len() + 1,
    );
    let rows = n1 + n2 + k1 + k2;
    let cols = 2 * rows + 2;
    check_memory(
        "the tracing procedure's tableau",
        (rows as u64)
            .saturating_mul(cols as u64)
            .saturating_mul(ENTRY_BYTES),
        limits.max_memory,
    )?;
    // Both priors over one denominator `l`, so that `z₀ = l·z₀'` keeps the tableau integral.
    let (mut lp, l) = over_common_denominator(p.iter().chain(q));
    let lq = lp.split_off(p.len());
    // Each sequence's payoff against the prior, times `l`.
    let against_q: Vec<BigInt> = (0..n1)
        .map(|i| (0..n2).map(|j| &form.a[i][j] * &lq[j]).sum())
        .collect();
    let against_p: Vec<BigInt> = (0..n2)
        .map(|j| (0..n1).map(|i| &form.b[i][j] * &lp[i]).sum())
        .collect();
    let start = [
        form.plans[0].best_reply(&against_q),
        form.plans[1].best_reply(&against_p),
    ];
    let system = System {
        form,
        l: &l,
        against_q: &against_q,
        against_p: &against_p,
        start: &start,
    };
    // The work of a first pass in i128 that overflowed counts too.
    let mut work = 0u64;
    if let Some(guided) = accept.and_then(|a| Some((a, system.float_path(limits, &mut work)?))) {
        let (accept, guided) = guided;
        let (ends, pivots) = guided?;
        if let Some(plans) = accept(&ends) {
            return Ok(End {
                plans,
                start,
                pivots,
                work,
                guided: true,
            });
        }
    }
    let (x, y, pivots) = match system.path::<i128>(limits, &mut work, false) {
        Ok(r) => r?,
        Err(Overflow) => system
            .path::<BigInt>(limits, &mut work, true)
            .expect("BigInt arithmetic cannot overflow")?,
    };
    Ok(End {
        plans: [x, y],
        start,
        pivots,
        work,
        guided: false,
    })
}

/// What [`trace_plans_guided`] asks of the floating-point path's end: each player's sequences
/// of positive weight there, to the plans solved and checked exactly (`None`: not accepted).
pub type Accept<'a> = &'a dyn Fn(&[Vec<usize>; 2]) -> Option<[Vec<Q>; 2]>;

/// Follows the tracing procedure from the prior `p` (the first player's strategies) and `q`
/// (the second's), each a probability vector, to the equilibrium it selects.
pub fn trace(g: &Bimatrix, p: &[Q], q: &[Q], limits: &Limits) -> Result<Traced> {
    trace_with(g, p, q, limits, true)
}

/// [`trace`] by exact pivoting alone, without the floating-point guide (what it falls back
/// to; public so that the two can be compared).
pub fn trace_by_pivoting(g: &Bimatrix, p: &[Q], q: &[Q], limits: &Limits) -> Result<Traced> {
    trace_with(g, p, q, limits, false)
}

fn trace_with(g: &Bimatrix, p: &[Q], q: &[Q], limits: &Limits, guided: bool) -> Result<Traced> {
    check_prior(p, g.m, "first")?;
    check_prior(q, g.n, "second")?;
    // The game in sequence form: an empty sequence before each player's strategies, paying
    // nothing.
    let padded = |m: &[Vec<BigInt>]| -> Vec<Vec<BigInt>> {
        let mut out = vec![vec![BigInt::zero(); g.n + 1]];
        out.extend(m.iter().map(|row| {
            let mut r = vec![BigInt::zero()];
            r.extend(row.iter().cloned());
            r
        }));
        out
    };
    let form = Linear {
        a: padded(&g.a),
        b: padded(&g.b),
        plans: [Plans::simplex(g.m), Plans::simplex(g.n)],
    };
    let plan = |v: &[Q]| -> Vec<Q> { std::iter::once(Q::one()).chain(v.iter().cloned()).collect() };
    // Where the floating-point path ends, the strategies in use are solved exactly (each
    // player's mixture that makes the other's indifferent) and kept only if they make an
    // equilibrium. On a game without ties that is the end of the exact path too.
    let accept = |ends: &[Vec<usize>; 2]| -> Option<[Vec<Q>; 2]> {
        let strategies = |seqs: &[usize]| -> Vec<usize> {
            seqs.iter().filter(|&&s| s > 0).map(|&s| s - 1).collect()
        };
        let (rows, cols) = (strategies(&ends[0]), strategies(&ends[1]));
        let (x, y) = crate::strategic::solvers::support::solve_supports(g, &rows, &cols)?;
        let e = g.equilibrium(&x, &y)?;
        Some([plan(&e.profile[0]), plan(&e.profile[1])])
    };
    let end = trace_plans_guided(&form, &plan(p), &plan(q), limits, guided.then_some(&accept))?;
    let numerators = |v: &[Q]| over_common_denominator(v).0;
    let (x, y) = (
        numerators(&end.plans[0][1..]),
        numerators(&end.plans[1][1..]),
    );
    let equilibrium = g.equilibrium(&x, &y).ok_or_else(|| {
        Error::Invalid("internal inconsistency: the tracing path ended off equilibrium".into())
    })?;
    let first = |best: &[bool]| best[1..].iter().position(|&b| b).unwrap_or(0);
    Ok(Traced {
        equilibrium,
        start: [first(&end.start[0]), first(&end.start[1])],
        pivots: end.pivots,
        work: end.work,
        guided: end.guided,
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
    form: &'a Linear,
    l: &'a BigInt,
    against_q: &'a [BigInt],
    against_p: &'a [BigInt],
    start: &'a [Vec<bool>; 2],
}

/// Where each part of the tableau's columns lies.
#[derive(Clone, Copy)]
struct Layout {
    /// Sequences of each player.
    n1: usize,
    n2: usize,
    /// Rows of each player's plan equations.
    k1: usize,
    k2: usize,
    /// The column of `z₀'`; `u` and `v` start at `ou` and `ov`; the slacks at `vars`.
    z0: usize,
    ou: usize,
    ov: usize,
    vars: usize,
}

impl Layout {
    /// The variable complementary to `var`: a sequence's slack, or a slack's sequence (`u`,
    /// `v`, `z₀'` and the plans' artificial slacks have none).
    fn complement(&self, var: usize) -> Option<usize> {
        let (seqs, vars) = (self.n1 + self.n2, self.vars);
        match var {
            _ if var < seqs => Some(vars + var),
            _ if var >= vars && var < vars + seqs => Some(var - vars),
            _ => None,
        }
    }
}

impl System<'_> {
    fn layout(&self) -> Layout {
        let (n1, n2) = (self.form.plans[0].count, self.form.plans[1].count);
        let (k1, k2) = (
            self.form.plans[0].parent.len() + 1,
            self.form.plans[1].parent.len() + 1,
        );
        let z0 = n1 + n2;
        Layout {
            n1,
            n2,
            k1,
            k2,
            z0,
            ou: z0 + 1,
            ov: z0 + 1 + k1,
            vars: z0 + 1 + k1 + k2,
        }
    }

    /// Lemke's path: both plans at its end and the pivots made.
    ///
    /// Columns: `x̃` (`0..n1`), `ỹ` (`n1..n1+n2`), `z₀'`, `u` (`k1`), `v` (`k2`), then the
    /// slacks: `w` (one per sequence of the first player), `s` (the second's) and the
    /// artificial slacks of the plans' equations, which leave at the start and never return.
    /// `big`: whether `T` is the big integers (for the work each pivot is charged).
    #[allow(clippy::type_complexity)]
    fn path<T: Ring>(
        &self,
        limits: &Limits,
        work: &mut u64,
        big: bool,
    ) -> std::result::Result<Result<(Vec<Q>, Vec<Q>, usize)>, Overflow> {
        let layout = self.layout();
        let Layout {
            n1,
            n2,
            z0,
            ou,
            vars,
            ..
        } = layout;
        let mut t = match self.start::<T>()? {
            Ok(t) => t,
            Err(e) => return Ok(Err(e)),
        };
        let ties: Vec<usize> = t.basis.clone();
        let free: Vec<usize> = (ou..vars).collect();
        let entries = (t.rows() * t.t[0].len()) as u64;
        let mut entering = n1;
        let mut pivots = 0usize;
        loop {
            let Some(r) = ratio_row(&t, entering, &ties, &free, z0)? else {
                return Ok(Err(inconsistent("it ended in a ray")));
            };
            let leaving = t.basis[r];
            t.pivot(r, entering)?;
            t.normalise()?;
            pivots += 1;
            // An i128 entry's update is one step; a big integer's costs an allocation and
            // grows with the square of its length in words (measured: 140 ns an entry at two
            // or three words, charged as 48 steps), as Lemke–Howson's enumeration counts it.
            let per_entry = if !big {
                1
            } else {
                let words = t.d.to_big().bits() / 64 + 1;
                EXACT_STEP * words * words
            };
            if let Err(e) = charge(work, entries.saturating_mul(per_entry), pivots, limits) {
                return Ok(Err(e));
            }
            if leaving == z0 {
                break;
            }
            let Some(next) = layout.complement(leaving) else {
                return Ok(Err(inconsistent("a variable without complement left")));
            };
            entering = next;
        }
        let den = t.d.to_big();
        let values: Vec<Q> = t
            .values(n1 + n2)
            .iter()
            .map(|v| Q::new(v.to_big(), den.clone()))
            .collect();
        Ok(Ok((values[..n1].to_vec(), values[n1..].to_vec(), pivots)))
    }

    /// Lemke's path in floating point ([`trace_plans_guided`]): each player's sequences of
    /// positive weight where it ends, and the pivots made; `None` where rounding could have
    /// decided a step (or the start does not fit), `Some(Err)` at a budget or Ctrl-C.
    #[allow(clippy::type_complexity)]
    fn float_path(
        &self,
        limits: &Limits,
        work: &mut u64,
    ) -> Option<Result<([Vec<usize>; 2], usize)>> {
        let layout = self.layout();
        let Layout {
            n1,
            n2,
            z0,
            ou,
            vars,
            ..
        } = layout;
        // The start basis exactly (a few pivots), then as floating-point numbers.
        let (mut t, mut basis) = match self.start::<i128>() {
            Ok(Ok(t)) => to_floats(&t),
            Ok(Err(_)) => return None,
            Err(Overflow) => match self.start::<BigInt>() {
                Ok(Ok(t)) => to_floats(&t),
                _ => return None,
            },
        };
        let rows = basis.len();
        let width = t[0].len();
        let rhs = width - 1;
        let ties: Vec<usize> = basis.clone();
        let entries = (rows * width) as u64;
        let mut entering = n1;
        let mut pivots = 0usize;
        let limit = 50 * rows + 1000;
        loop {
            let r = float_ratio_row(&t, &basis, entering, (&ties, rhs), (ou..vars, z0))?;
            let p = t[r][entering];
            for x in &mut t[r] {
                *x /= p;
            }
            let pivot_row = t[r].clone();
            for (i, row) in t.iter_mut().enumerate() {
                let f = row[entering];
                if i != r && f != 0.0 {
                    for (x, y) in row.iter_mut().zip(&pivot_row) {
                        *x -= f * y;
                    }
                    row[entering] = 0.0;
                }
            }
            let leaving = basis[r];
            basis[r] = entering;
            pivots += 1;
            if let Err(e) = charge(work, entries, pivots, limits) {
                return Some(Err(e));
            }
            if leaving == z0 {
                break;
            }
            entering = layout.complement(leaving)?;
            if pivots > limit {
                return None;
            }
        }
        let scale = (0..rows).map(|i| t[i][rhs].abs()).fold(1.0, f64::max);
        let mut ends = [Vec::new(), Vec::new()];
        for (i, &v) in basis.iter().enumerate() {
            // A basic variable at a value rounding could leave this small is at zero.
            if v < n1 + n2 && t[i][rhs] > 1e-11 * scale {
                if v < n1 {
                    ends[0].push(v);
                } else {
                    ends[1].push(v - n1);
                }
            }
        }
        ends[0].sort_unstable();
        ends[1].sort_unstable();
        Some(Ok((ends, pivots)))
    }

    /// The tableau at the start basis (see [`trace_plans`]): the equations with the slacks
    /// basic, then pivots that bring in `z₀'`, `u`, `v` and the best replies' sequences.
    fn start<T: Ring>(&self) -> std::result::Result<Result<Tableau<T>>, Overflow> {
        let f = self.form;
        let (e_rows, f_rows) = (f.plans[0].rows(), f.plans[1].rows());
        let Layout {
            n1,
            n2,
            k1,
            k2,
            z0,
            ou,
            ov,
            vars,
        } = self.layout();
        let entry = |x: &BigInt| T::from_big(x).ok_or(Overflow);
        let mut rows: Vec<Vec<T>> = Vec::with_capacity(n1 + n2 + k1 + k2);
        for i in 0..n1 {
            let mut r = vec![T::small(0); vars];
            for (cell, x) in r[n1..n1 + n2].iter_mut().zip(&f.a[i]) {
                *cell = entry(x)?;
            }
            r[z0] = entry(&self.against_q[i])?;
            rows.push(r);
        }
        for j in 0..n2 {
            let mut r = vec![T::small(0); vars];
            for (cell, row) in r.iter_mut().zip(&f.b) {
                *cell = entry(&row[j])?;
            }
            r[z0] = entry(&self.against_p[j])?;
            rows.push(r);
        }
        // −Eᵀu in the first player's rows, −Fᵀv in the second's.
        for (k, row) in e_rows.iter().enumerate() {
            for &(seq, c) in row {
                rows[seq][ou + k] = T::small(-c);
            }
        }
        for (k, row) in f_rows.iter().enumerate() {
            for &(seq, c) in row {
                rows[n1 + seq][ov + k] = T::small(-c);
            }
        }
        // The plans' equations, `e` (and `f`) being 1 in row 0 alone.
        for (offset, plan_rows) in [(0, &e_rows), (n1, &f_rows)] {
            for (k, row) in plan_rows.iter().enumerate() {
                let mut r = vec![T::small(0); vars];
                for &(seq, c) in row {
                    r[offset + seq] = T::small(c);
                }
                if k == 0 {
                    r[z0] = entry(self.l)?;
                }
                rows.push(r);
            }
        }
        let mut rhs = vec![T::small(0); n1 + n2];
        for k in (0..k1).chain(0..k2) {
            rhs.push(T::small(i64::from(k == 0)));
        }
        let mut t = Tableau::new(rows, rhs);
        let slack = |row: usize| vars + row;
        // The start basis, reached by pivots from the slacks': each entering variable takes
        // the row of a slack that must leave (one always has a nonzero entry, the start basis
        // being nonsingular).
        let [b1, b2] = self.start;
        let mut entering: Vec<usize> = vec![z0];
        entering.extend(ou..vars);
        entering.extend((0..n1).filter(|&i| b1[i]));
        entering.extend((1..n2).filter(|&j| b2[j]).map(|j| n1 + j));
        let mut leaving: Vec<usize> = (0..n1).filter(|&i| b1[i]).map(slack).collect();
        leaving.extend((0..n2).filter(|&j| b2[j]).map(|j| slack(n1 + j)));
        leaving.extend((n1 + n2..n1 + n2 + k1 + k2).map(slack));
        for var in entering {
            let Some(r) =
                (0..t.rows()).find(|&r| leaving.contains(&t.basis[r]) && !t.t[r][var].is_zero_r())
            else {
                return Ok(Err(inconsistent("its start basis is singular")));
            };
            t.pivot(r, var)?;
            t.normalise()?;
        }
        Ok(Ok(t))
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

/// The row Lemke's rule pivots on in the floating-point tableau `t` (see
/// [`System::float_path`]): the least ratio of the right-hand side `rhs` to entering column `e`
/// among the rows whose basic variable is not free, `z₀`'s row when among the tied, else ties
/// broken by the start basis' columns `ties` in turn. Ratios that agree to twelve digits are
/// taken as equal; `None` where rounding could have ordered two rows either way, or the
/// column rises in no row.
fn float_ratio_row(
    t: &[Vec<f64>],
    basis: &[usize],
    e: usize,
    (ties, rhs): (&[usize], usize),
    (free, z0): (std::ops::Range<usize>, usize),
) -> Option<usize> {
    /// Entries below this (relative to the column's largest) count as zero.
    const TINY: f64 = 1e-11;
    /// Ratios this close (relative) are taken as equal: rounding leaves them further apart
    /// only after far longer paths than these.
    const SAME: f64 = 1e-12;
    /// Ratios closer than this (relative), but not that close, might be ordered either way
    /// in exact arithmetic.
    const CLOSE: f64 = 1e-8;
    let column_max = t.iter().map(|row| row[e].abs()).fold(0.0, f64::max);
    let candidates: Vec<usize> = (0..basis.len())
        .filter(|&i| !free.contains(&basis[i]) && t[i][e] > TINY * column_max)
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let ratio = |i: usize, c: usize| t[i][c] / t[i][e];
    // The rows whose ratio in column `c` is least: those within rounding of it count as equal
    // (a tie, which the exact path breaks by the next column as well); any other row close
    // enough that rounding could have put it first or not gives the guide up.
    let least = |rows: &[usize], c: usize| -> Option<Vec<usize>> {
        let low = rows
            .iter()
            .map(|&i| ratio(i, c))
            .fold(f64::INFINITY, f64::min);
        let scale = low.abs().max(1.0);
        let equal: Vec<usize> = rows
            .iter()
            .copied()
            .filter(|&i| ratio(i, c) <= low + SAME * scale)
            .collect();
        let close = rows
            .iter()
            .filter(|&&i| ratio(i, c) <= low + CLOSE * scale)
            .count();
        (close == equal.len()).then_some(equal)
    };
    let mut tied = least(&candidates, rhs)?;
    if let Some(&r) = tied.iter().find(|&&r| basis[r] == z0) {
        return Some(r);
    }
    for &c in ties {
        if tied.len() <= 1 {
            break;
        }
        tied = least(&tied, c)?;
    }
    (tied.len() == 1).then(|| tied[0])
}

/// A fraction-free tableau's entries as floating-point numbers (each over the common
/// denominator), and its basis.
fn to_floats<T: Ring>(t: &Tableau<T>) -> (Vec<Vec<f64>>, Vec<usize>) {
    let d = t.d.to_big();
    let value = |x: &T| crate::exact::to_f64(&Q::new(x.to_big(), d.clone()));
    let rows = t.t[..t.rows()]
        .iter()
        .map(|row| row.iter().map(value).collect())
        .collect();
    (rows, t.basis.clone())
}

/// Charges a pivot's `steps` to the work budget, and shows progress now and then.
fn charge(work: &mut u64, steps: u64, pivots: usize, limits: &Limits) -> Result<()> {
    *work = work.saturating_add(steps);
    check_work("the tracing procedure's path", *work, limits.max_work)?;
    if pivots % 64 == 0 {
        crate::core::progress::tick(pivots as u64)?;
    }
    Ok(())
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

    /// The floating-point guide ends where exact pivoting does: random games (small payoffs,
    /// so with ties, and wide ones; a few of 20 × 20) from random priors, each traced both
    /// ways.
    #[test]
    fn the_guided_path_ends_where_exact_pivoting_does() {
        use rand_core::{Rng, SeedableRng};
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(46);
        let mut draw = move |lo: i64, hi: i64| lo + (rng.next_u64() % (hi - lo + 1) as u64) as i64;
        let (mut guided, mut cases) = (0, 0);
        for case in 0..300 {
            // Now and then a larger game, whose exact path is long enough for rounding.
            let (m, n) = if case % 25 == 0 {
                (20, 20)
            } else {
                (draw(1, 7) as usize, draw(1, 7) as usize)
            };
            let range = if case % 2 == 0 { 4 } else { 100 };
            let mut payoffs = || -> Vec<Vec<i64>> {
                (0..m)
                    .map(|_| (0..n).map(|_| draw(-range, range)).collect())
                    .collect()
            };
            let (a, b) = (payoffs(), payoffs());
            let (ra, rb): (Vec<&[i64]>, Vec<&[i64]>) = (
                a.iter().map(Vec::as_slice).collect(),
                b.iter().map(Vec::as_slice).collect(),
            );
            let g = game(&ra, &rb);
            let mut prior = |k: usize| -> Vec<Q> {
                let w: Vec<i64> = (0..k).map(|_| draw(1, 19)).collect();
                let total: i64 = w.iter().sum();
                w.iter().map(|&x| q(x, total)).collect()
            };
            let (p, pq) = (prior(m), prior(n));
            let l = Limits::default();
            let fast = trace(&g, &p, &pq, &l).unwrap();
            let exact = trace_by_pivoting(&g, &p, &pq, &l).unwrap();
            assert!(!exact.guided);
            assert_eq!(
                fast.equilibrium.profile, exact.equilibrium.profile,
                "case {case}: {a:?} {b:?} from {p:?} {pq:?}"
            );
            assert_eq!(fast.start, exact.start);
            guided += usize::from(fast.guided);
            cases += 1;
        }
        // The guide is taken on most games, not given up on every one (293 of 300 when
        // written).
        assert!(guided * 10 > cases * 9, "{guided} of {cases}");
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
