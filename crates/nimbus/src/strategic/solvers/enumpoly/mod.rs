//! Every Nash equilibrium of a game with any number of players, by support enumeration with
//! certified solutions of the indifference equations (what Gambit's enumpoly attempts in
//! floating point).
//!
//! Every equilibrium has one support profile: the strategies each player uses with positive
//! probability. On a support profile the equilibria are the solutions, with every probability
//! positive, of a square system — each player's probabilities sum to one, and each player is
//! indifferent among the strategies of its support (multilinear polynomials in the others'
//! probabilities) — at which no strategy outside a support pays more. So every equilibrium is
//! found exactly once, on its own support, by solving that system everywhere.
//!
//! Support profiles are visited small and balanced first (Porter, Nudelman and Shoham 2008),
//! and one with a strategy that another strategy beats against every profile of the others'
//! supports (conditional dominance) is skipped: no mixture of those supports makes it a best
//! reply. Where at most two players mix, each one's indifferences are linear in the other's
//! probabilities, and exact linear algebra solves the profile (unless its solutions form a
//! continuum); where three mix two strategies each, or two mix two and one three, one quadratic
//! does (module `closed`). On the rest the system is solved by subdivision of a box around the
//! product of simplices, in interval arithmetic rounded outward:
//!
//! - a box where some equation cannot vanish, or where a strategy outside a support pays
//!   more everywhere, holds no equilibrium;
//! - the equations combined by the inverse Jacobian at the box's middle are still affine in
//!   each unknown, so their values at the box's vertices bound them exactly: a combination
//!   that keeps one sign excludes the box, and each unknown is narrowed to the roots of its
//!   combination at the vertices (on random 4×4×4 games this leaves six times fewer boxes);
//! - a box that would be cut is first tested as a whole: no solution is in it if no convex
//!   combination of its vertices' values solves the system (every function here is affine
//!   in each unknown, so its value anywhere in the box is such a combination), which a small
//!   linear program decides and a rigorous check of its answer proves (ten times fewer boxes
//!   again);
//! - a box where Krawczyk's operator maps an enlargement of the box into its interior holds
//!   exactly one solution, and the operator's iterates shrink the box around it;
//! - other boxes are cut in two, down to a width below which they are kept as unresolved:
//!   their solutions are not isolated (a continuum of equilibria) or not simple.
//!
//! Each isolated solution is then made exact where it is rational: the simplest rational in
//! each coordinate's interval is tried in exact arithmetic, at the interval of doubles and
//! again after each step of the same operator in rational intervals (about fifteen more
//! digits a step), and one that solves the system exactly is the solution. Irrational ones
//! are reported as their certified boxes, as narrow as asked, with a rigorous bound on the
//! regret. Positivity and the inequalities are decided exactly for rational solutions and by
//! the intervals (narrowed until they decide) for the others; what cannot be decided is
//! reported, never dropped.

use crate::core::error::Result;
use crate::core::progress;
use crate::exact::hull;
use crate::exact::interval::{down, up, Bound, Dy, Iv, Scalar};
use crate::exact::linalg::Solution;
use crate::exact::ring::{Overflow, Ring};
use crate::exact::Q;
use crate::strategic::game::NormalForm;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use rayon::prelude::*;
use std::cmp::Ordering as Order;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

mod boxes;
mod certify;
mod closed;
mod linear;
mod narrowing;
mod payoffs;
mod system;

use boxes::*;
use certify::*;
use linear::*;
use narrowing::*;
use payoffs::*;
use system::*;

/// Limits on one enumeration. The enumeration stops (with what it covered) rather than fail
/// when one is reached.
#[derive(Debug, Clone)]
pub struct Options {
    /// Support profiles to examine at most.
    pub max_supports: Option<u64>,
    /// Stop when this instant passes.
    pub deadline: Option<Instant>,
    /// Steps of work (boxes times the size of their equations) at most.
    pub max_work: u64,
    /// Certified boxes are narrowed below `10^-digits` in every coordinate.
    pub digits: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_supports: None,
            deadline: None,
            max_work: crate::core::budget::DEFAULT_MAX_WORK,
            digits: 16,
        }
    }
}

/// An isolated equilibrium that is not rational (or whose rational form was not found):
/// a box proved to hold exactly one solution of its support's system, and that solution is
/// an equilibrium.
#[derive(Debug, Clone)]
pub struct Certified {
    /// Each player's support (strategy indices).
    pub support: Vec<Vec<usize>>,
    /// Lower bounds of every probability (zero off the support).
    pub lower: Vec<Vec<Q>>,
    /// Upper bounds of every probability.
    pub upper: Vec<Vec<Q>>,
    /// Lower bounds of each player's payoff.
    pub payoffs_lower: Vec<Q>,
    /// Upper bounds of each player's payoff.
    pub payoffs_upper: Vec<Q>,
    /// An upper bound, over the box, of the most any player gains by deviating.
    pub regret_bound: Q,
}

/// A region of one support's system the enumeration could not resolve into isolated
/// solutions.
#[derive(Debug, Clone)]
pub struct Unresolved {
    /// Each player's support.
    pub support: Vec<Vec<usize>>,
    /// Lower bounds of the region's probabilities.
    pub lower: Vec<Vec<Q>>,
    /// Upper bounds.
    pub upper: Vec<Vec<Q>>,
    /// An exact equilibrium in the region, when one was found.
    pub point: Option<Vec<Vec<Q>>>,
    /// Why it is unresolved, in words.
    pub reason: String,
}

/// What the enumeration found and what it covered.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Equilibria found exactly (every probability rational), each a full profile.
    pub exact: Vec<Vec<Vec<Q>>>,
    /// Isolated equilibria with irrational probabilities, as certified boxes.
    pub certified: Vec<Certified>,
    /// Regions not resolved into isolated solutions.
    pub unresolved: Vec<Unresolved>,
    /// Support profiles in the game (saturating at `u64::MAX`).
    pub supports: u64,
    /// Support profiles examined completely, in the order of size.
    pub examined: u64,
    /// Of those, the ones skipped by conditional dominance.
    pub pruned: u64,
    /// Boxes examined.
    pub boxes: u64,
    /// Why the enumeration stopped before the last support profile, if it did.
    pub stopped: Option<String>,
}

/// Boxes a piece of a shared support examines, depth first, before it hands back its stack:
/// enough to reach the narrowest width (and give up on a continuum) on its own.
const DIVE: u64 = 1024;

/// Width below which a box that neither holds a proved solution nor can be discarded is kept
/// as unresolved.
const MIN_WIDTH: f64 = 1e-9;
/// Unresolved boxes one support profile may collect before the rest of its region is given up
/// as one unresolved region (a continuum is covered by ever more boxes as they shrink).
const MAX_UNRESOLVED: usize = 64;
/// How far below zero and above one the search box reaches, so that solutions on a face of
/// the simplex (those of smaller supports) are isolated inside it rather than on its edge.
const MARGIN: f64 = 1.0 / 64.0;

/// The smallest `d > 0` with every payoff of player `i` equal to its scaled value over `d`.
fn denominators(game: &NormalForm) -> Vec<BigInt> {
    (0..game.players.len())
        .map(|i| {
            let col: Vec<Q> = (0..game.profiles())
                .map(|k| game.payoffs_at(k)[i].clone())
                .collect();
            crate::exact::over_common_denominator(&col).1
        })
        .collect()
}

/// The number of support profiles: `prod (2^m_i - 1)`, saturating.
fn support_count(shape: &[usize]) -> u64 {
    shape.iter().fold(1u64, |acc, &m| {
        let s = if m >= 64 { u64::MAX } else { (1u64 << m) - 1 };
        acc.saturating_mul(s)
    })
}

/// The next `k`-subset of `0..m` in lexicographic order, or `false` after the last.
fn next_subset(c: &mut [usize], m: usize) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < m - k + i {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// Every Nash equilibrium of `game` (of two or more players), by support enumeration, within
/// the limits of `opts`.
pub fn enumerate(game: &NormalForm, opts: &Options) -> Result<Report> {
    let pay = Payoffs::new(game);
    let dens = denominators(game);
    let shape = pay.shape.clone();
    let n = shape.len();
    let mut report = Report {
        supports: support_count(&shape),
        ..Report::default()
    };
    // Size profiles, small and balanced first.
    let mut sizes: Vec<Vec<usize>> = vec![vec![]];
    for &m in &shape {
        sizes = sizes
            .into_iter()
            .flat_map(|s| {
                (1..=m).map(move |k| {
                    let mut t = s.clone();
                    t.push(k);
                    t
                })
            })
            .collect();
        crate::core::budget::check_memory(
            "the list of support sizes",
            (sizes.len() * n * 8) as u64,
            1 << 30,
        )?;
    }
    sizes.sort_by_key(|s| {
        let total: usize = s.iter().sum();
        let spread = s.iter().max().unwrap_or(&0) - s.iter().min().unwrap_or(&0);
        (total, spread)
    });
    progress::phase("support profiles", report.supports);
    let meter = Meter::new(opts);
    // Support profiles are independent: each batch is solved across the cores, and merged in
    // order, so that the answer is the same whatever the number of threads and a stop leaves
    // an exact prefix covered.
    let batch_size = 32 * rayon::current_num_threads().max(1);
    let mut batch: Vec<Vec<Vec<usize>>> = Vec::with_capacity(batch_size);
    let mut sizes = sizes.iter();
    let mut current: Option<Vec<Vec<usize>>> = None;
    loop {
        // The next support profile: the first player's subset fastest, then the next sizes.
        let next = match current.take() {
            None => sizes
                .next()
                .map(|ks| ks.iter().map(|&k| (0..k).collect()).collect()),
            Some(mut support) => {
                let mut advanced = false;
                for (i, s) in support.iter_mut().enumerate() {
                    if next_subset(s, shape[i]) {
                        advanced = true;
                        break;
                    }
                    *s = (0..s.len()).collect();
                }
                if advanced {
                    Some(support)
                } else {
                    sizes
                        .next()
                        .map(|ks| ks.iter().map(|&k| (0..k).collect()).collect())
                }
            }
        };
        let limit_reached = opts
            .max_supports
            .is_some_and(|m| report.examined + batch.len() as u64 >= m);
        if let Some(s) = &next {
            if !limit_reached {
                batch.push(s.clone());
            }
        }
        if batch.len() == batch_size || next.is_none() || limit_reached {
            if !solve_batch(&pay, &dens, &meter, opts.digits, &batch, &mut report)? {
                break;
            }
            batch.clear();
        }
        if limit_reached && next.is_some() {
            meter.halt(format!(
                "the limit of {} support profiles was reached",
                report.examined
            ));
            break;
        }
        match next {
            Some(s) => current = Some(s),
            None => break,
        }
    }
    report.stopped = meter.stopped.into_inner().unwrap_or(None);
    Ok(report)
}

/// The equilibria whose support profile is exactly `support` (each player's strategy
/// indices, increasing): the enumeration's work on that one profile.
pub fn on_support(game: &NormalForm, support: &[Vec<usize>], opts: &Options) -> Result<Report> {
    let pay = Payoffs::new(game);
    let dens = denominators(game);
    let meter = Meter::new(opts);
    let mut report = Report {
        supports: support_count(&pay.shape),
        ..Report::default()
    };
    if support.iter().any(Vec::is_empty) {
        // Not a support profile: a player would play nothing.
        return Ok(report);
    }
    solve_batch(
        &pay,
        &dens,
        &meter,
        opts.digits,
        &[support.to_vec()],
        &mut report,
    )?;
    report.stopped = meter.stopped.into_inner().unwrap_or(None);
    Ok(report)
}

/// A proved solution on `support` as the report lists it.
fn certified(
    pay: &Payoffs,
    support: &[Vec<usize>],
    (b, regret_bound, payoffs): Boxed,
) -> Certified {
    let (lower, upper) = spread_box(pay, support, &b);
    Certified {
        support: support.to_vec(),
        lower,
        upper,
        payoffs_lower: payoffs.iter().map(|p| p.lo.clone()).collect(),
        payoffs_upper: payoffs.iter().map(|p| p.hi.clone()).collect(),
        regret_bound,
    }
}

/// The equilibrium on `support` next to `point` (a profile of doubles near one, such as the
/// end of a path): Newton's method on the support's equations from there, Krawczyk's test on
/// small boxes around the result, and the enumeration's refinement (exact when rational, a
/// certified box otherwise). An empty report when no equilibrium is proved there.
pub fn near(
    game: &NormalForm,
    support: &[Vec<usize>],
    point: &[Vec<f64>],
    digits: u32,
) -> Result<Report> {
    let pay = Payoffs::new(game);
    let dens = denominators(game);
    if support.iter().any(Vec::is_empty) || point.iter().flatten().any(|v| !v.is_finite()) {
        // No support profile (a player plays nothing) or no point: nothing is near.
        return Ok(Report {
            supports: support_count(&pay.shape),
            ..Report::default()
        });
    }
    let (sys, cq) = system(&pay, support);
    let cf: Coefs<f64> = Coefs::of(&cq);
    let ci: Coefs<Iv<f64>> = Coefs::of(&cq);
    let cd: Coefs<Dy> = Coefs::of(&cq);
    let mut x: Vec<f64> = support
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            let total: f64 = s.iter().map(|&a| point[i][a]).sum();
            s.iter().map(move |&a| point[i][a] / total)
        })
        .collect();
    for _ in 0..30 {
        progress::check()?;
        sys.firsts(&mut x);
        let f = sys.residual(&cf, &x);
        let Some(y) = inverse(&sys.jacobian(&cf, &x)) else {
            break;
        };
        let mut size: f64 = 0.0;
        for (r, &t) in sys.free.iter().enumerate() {
            let step: f64 = -y[r].iter().zip(&f).map(|(a, b)| a * b).sum::<f64>();
            x[t] += step;
            size = size.max(step.abs());
        }
        if size < 1e-15 {
            break;
        }
    }
    sys.firsts(&mut x);
    let mut report = Report {
        supports: support_count(&pay.shape),
        examined: 0,
        ..Report::default()
    };
    for radius in [1e-12, 1e-9, 1e-6] {
        let mut b: Vec<Iv<f64>> = x.iter().map(|&v| Iv::new(v - radius, v + radius)).collect();
        for (i, s) in support.iter().enumerate() {
            if s.len() == 1 {
                b[sys.off[i]] = Iv::new(1.0, 1.0);
            }
        }
        let m: Vec<f64> = b.iter().map(Iv::mid).collect();
        let Some(y) = inverse(&sys.jacobian(&cf, &m)) else {
            break;
        };
        let k = sys.krawczyk(&ci, &b, &m, &y);
        if !k.iter().zip(&sys.free).all(|(a, &f)| a.inside(&b[f])) {
            continue;
        }
        let mut narrow = b;
        for (&f, v) in sys.free.iter().zip(&k) {
            narrow[f] = v.clone();
        }
        sys.firsts(&mut narrow);
        match refine(&sys, &cq, &cd, &ci, &cf, as_dyadic(&narrow), digits, true) {
            Isolated::Exact(q) => report.exact.push(full(&pay, support, &q)),
            Isolated::Certified(b) => {
                let (regret, payoffs) = regret_bound(&pay, &sys, &b, &dens, digits);
                report
                    .certified
                    .push(certified(&pay, support, (b, regret, payoffs)));
            }
            Isolated::NotEquilibrium | Isolated::Undecided(_) => {}
        }
        break;
    }
    Ok(report)
}

/// What became of one support profile.
enum Outcome {
    Pruned,
    Solved(Solved),
    Stopped,
}

/// Solves a batch of support profiles across the cores and merges them into the report in
/// order; `false` once a limit stopped the enumeration (the report then covers an exact
/// prefix of the support profiles).
fn solve_batch(
    pay: &Payoffs,
    dens: &[BigInt],
    meter: &Meter,
    digits: u32,
    batch: &[Vec<Vec<usize>>],
    report: &mut Report,
) -> Result<bool> {
    let n = pay.shape.len();
    // Pruning and the linear cases take microseconds: they run here, and only the profiles
    // left for subdivision go to the cores, when there are two or more of them (handing work
    // to the thread pool costs more than the small games' whole enumeration).
    let mut outcomes: Vec<Option<Result<Outcome>>> = batch
        .iter()
        .map(|support| {
            // Each profile is charged the size of its payoff table (what pruning and the
            // linear systems read), so that the limits hold where no box is ever explored.
            let size: usize = support.iter().map(Vec::len).product();
            match meter.spend((size * n) as u64) {
                Err(e) => return Some(Err(e)),
                Ok(false) => return Some(Ok(Outcome::Stopped)),
                Ok(true) => {}
            }
            // Each player's profiles of the others' supports, for pruning and the linear case.
            let mut bases: Vec<Vec<usize>> = Vec::with_capacity(n);
            for i in 0..n {
                let b = pay.bases(i, support);
                if support[i]
                    .iter()
                    .any(|&a| pay.conditionally_dominated(i, a, &b))
                {
                    return Some(Ok(Outcome::Pruned));
                }
                bases.push(b);
            }
            match linear(pay, support, &bases) {
                Linear::Nothing => Some(Ok(Outcome::Solved(Solved::default()))),
                Linear::Equilibrium(q) => Some(Ok(Outcome::Solved(Solved {
                    exact: vec![q],
                    ..Solved::default()
                }))),
                Linear::General => None,
            }
        })
        .collect();
    let mut general: Vec<usize> = (0..batch.len())
        .filter(|&k| outcomes[k].is_none())
        .collect();
    // The profiles with the most unknowns first: they are the longest, and the last ones of
    // the batch (the enumeration's order), so that one started last kept its core busy while
    // the other cores had nothing left. Each answer goes back to its place in the batch.
    general
        .sort_by_key(|&k| std::cmp::Reverse(batch[k].iter().map(|s| s.len() - 1).sum::<usize>()));
    let solve = |k: &usize| -> Result<Outcome> {
        Ok(match solve_support(pay, &batch[*k], dens, meter, digits)? {
            Some(s) => Outcome::Solved(s),
            None => Outcome::Stopped,
        })
    };
    let solved: Vec<Result<Outcome>> = if general.len() >= 2 {
        // A time limit set on the calling thread (a server's request) holds on every core.
        let deadline = crate::core::progress::current_deadline();
        // Each core takes the next profile in that order as soon as it is free (rayon's
        // halving of the list let the other core take the small ones first, and then left it
        // one of the longest to finish alone).
        let next = AtomicUsize::new(0);
        let slots: Vec<Mutex<Option<Result<Outcome>>>> =
            general.iter().map(|_| Mutex::new(None)).collect();
        let workers = rayon::current_num_threads().min(general.len());
        (0..workers).into_par_iter().for_each(|_| loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(k) = general.get(i) else {
                break;
            };
            let outcome = crate::core::progress::with_deadline(deadline, || solve(k));
            if let Ok(mut slot) = slots[i].lock() {
                *slot = Some(outcome);
            }
        });
        slots
            .into_iter()
            .map(|slot| {
                slot.into_inner().ok().flatten().unwrap_or_else(|| {
                    Err(crate::core::error::Error::Invalid(
                        "a support profile was not solved".into(),
                    ))
                })
            })
            .collect()
    } else {
        general.iter().map(solve).collect()
    };
    for (k, outcome) in general.into_iter().zip(solved) {
        outcomes[k] = Some(outcome);
    }
    let outcomes = outcomes.into_iter().flatten();
    for (support, outcome) in batch.iter().zip(outcomes) {
        match outcome? {
            Outcome::Stopped => return Ok(false),
            Outcome::Pruned => report.pruned += 1,
            Outcome::Solved(solved) => {
                report.boxes += solved.boxes;
                report
                    .exact
                    .extend(solved.exact.iter().map(|q| full(pay, support, q)));
                for boxed in solved.certified {
                    report.certified.push(certified(pay, support, boxed));
                }
                report.unresolved.extend(solved.unresolved);
            }
        }
        report.examined += 1;
    }
    progress::tick(report.examined)?;
    Ok(!meter.halted.load(Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_in_order() {
        let mut c = vec![0, 1];
        let mut all = vec![c.clone()];
        while next_subset(&mut c, 4) {
            all.push(c.clone());
        }
        assert_eq!(all.len(), 6);
        assert_eq!(all[5], vec![2, 3]);
        assert_eq!(support_count(&[2, 2, 2]), 27);
    }

    /// A 3-player game whose full-support indifferences vanish at `p` (each player's
    /// probabilities): random integer payoffs, each strategy's row then shifted by a constant
    /// so that it pays at `p` what the first strategy pays.
    fn game_with_root(shape: &[usize], raw: &[i64], p: &[Vec<Q>]) -> NormalForm {
        let n = shape.len();
        let count: usize = shape.iter().product();
        let strides: Vec<usize> = (0..n).map(|i| shape[..i].iter().product()).collect();
        let mut pay = raw_payoffs(shape, raw);
        let strategy = |k: usize, j: usize| (k / strides[j]) % shape[j];
        for i in 0..n {
            let expect = |pay: &Vec<Vec<Q>>, a: usize| -> Q {
                (0..count)
                    .filter(|&k| strategy(k, i) == a)
                    .map(|k| {
                        let w: Q = (0..n)
                            .filter(|&j| j != i)
                            .map(|j| p[j][strategy(k, j)].clone())
                            .product();
                        w * &pay[k][i]
                    })
                    .sum()
            };
            let base = expect(&pay, 0);
            for a in 1..shape[i] {
                let shift = &base - expect(&pay, a);
                for (k, row) in pay.iter_mut().enumerate() {
                    if strategy(k, i) == a {
                        row[i] += &shift;
                    }
                }
            }
        }
        game_of(shape, pay)
    }

    /// Payoffs for every profile of `shape`: `raw`, repeated as needed, profile by profile.
    fn raw_payoffs(shape: &[usize], raw: &[i64]) -> Vec<Vec<Q>> {
        let n = shape.len();
        (0..shape.iter().product::<usize>())
            .map(|k| {
                (0..n)
                    .map(|i| Q::from_integer(raw[(k * n + i) % raw.len()].into()))
                    .collect()
            })
            .collect()
    }

    fn game_of(shape: &[usize], pay: Vec<Vec<Q>>) -> NormalForm {
        let names = |m: usize| (0..m).map(|t| t.to_string()).collect::<Vec<_>>();
        NormalForm::new(
            String::new(),
            (0..shape.len()).map(|i| format!("P{i}")).collect(),
            shape.iter().map(|&m| names(m)).collect(),
            pay,
        )
        .unwrap()
    }

    /// Whether the vertex and hull tests keep a box of width about `10^width` around a
    /// solution of the full support profile of a game of `shape` built to have the profile
    /// of `weights` as an equilibrium (`below`: where the solution sits in the box).
    fn keeps_root(
        shape: &[usize],
        raw: &[i64],
        weights: &[i64],
        below: &[f64],
        width: i32,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut used = 0;
        let p: Vec<Vec<Q>> = shape
            .iter()
            .map(|&m| {
                let w = &weights[used..used + m];
                used += m;
                let total: i64 = w.iter().sum();
                w.iter().map(|&v| Q::new(v.into(), total.into())).collect()
            })
            .collect();
        let game = game_with_root(shape, raw, &p);
        let pay = Payoffs::new(&game);
        let support: Vec<Vec<usize>> = shape.iter().map(|&m| (0..m).collect()).collect();
        let (sys, cq) = system(&pay, &support);
        let ci: Coefs<Iv<f64>> = Coefs::of(&cq);
        let cf: Coefs<f64> = Coefs::of(&cq);
        let r = 10f64.powi(width);
        let mut x: Vec<Iv<f64>> = p
            .iter()
            .flatten()
            .enumerate()
            .map(|(t, q)| {
                let v = <f64 as Scalar>::of(q);
                Iv::new(down(v - r * below[t]), up(v + r * (1.0 - below[t])))
            })
            .collect();
        for &o in &sys.off {
            x[o] = Iv::new(-1.0, 2.0);
        }
        proptest::prop_assert!(sys.tighten(&mut x));
        let corners = sys.corner_tables(&ci, &x).unwrap();
        let (eq, _) = sys.ranges(&ci, &x, Some(&corners));
        proptest::prop_assert!(eq.iter().all(|v| v.sign() == Order::Equal));
        // Nor by the hull of the vertices' values.
        proptest::prop_assert!(!sys.hull_excludes(&ci, &corners, &x));
        let m: Vec<f64> = x.iter().map(Iv::mid).collect();
        if let Some(y) = inverse(&sys.jacobian(&cf, &m)) {
            // Neither excluded nor narrowed off the root.
            let mut narrow = x.clone();
            proptest::prop_assert!(sys.vertex_narrow(
                &corners,
                &y,
                &x,
                &mut narrow,
                &mut Vec::new()
            ));
            for (v, q) in narrow.iter().zip(p.iter().flatten()) {
                let (lo, hi) = (v.lo.exact(), v.hi.exact());
                proptest::prop_assert!(&lo <= q && q <= &hi);
            }
        }
        Ok(())
    }

    proptest::proptest! {
        /// The vertex and hull tests never exclude a box that holds a solution, whatever its
        /// size and wherever the solution sits in it: on 3 x 3 x 3 games, and on 2^5 games,
        /// where each indifference also narrows each unknown by itself.
        #[test]
        fn the_vertex_and_hull_tests_keep_boxes_with_a_root(
            raw in proptest::collection::vec(0i64..100, 160),
            weights in proptest::collection::vec(1i64..20, 10),
            below in proptest::collection::vec(0.0f64..1.0, 10),
            width in -17i32..0,
            five in proptest::bool::ANY,
        ) {
            let shape: &[usize] = if five { &[2, 2, 2, 2, 2] } else { &[3, 3, 3] };
            keeps_root(shape, &raw, &weights, &below, width)?;
        }
    }

    proptest::proptest! {
        /// Each corner value's midpoint and radius hold the exact value at that corner.
        #[test]
        fn corner_values_hold_the_exact_ones(
            coef in proptest::collection::vec(-1000i64..1000, 27),
            ends in proptest::collection::vec((-1.0f64..1.0, 0.0f64..1.0), 6),
        ) {
            let dims = [3usize, 3, 3];
            let coef: Vec<Q> = coef.iter().map(|&c| Q::from_integer(c.into())).collect();
            let ci: Vec<Iv<f64>> = coef.iter().map(Iv::of).collect();
            // Axis a's entries 1.. (entry 0 is not used): ends[..] as [lo, lo + width].
            let mut at = 0;
            let boxes: Vec<Vec<Iv<f64>>> = dims
                .iter()
                .map(|&k| {
                    (0..k)
                        .map(|t| {
                            if t == 0 {
                                return Iv::new(0.0, 0.0);
                            }
                            let (lo, w) = ends[at];
                            at += 1;
                            Iv::new(lo, lo + w)
                        })
                        .collect()
                })
                .collect();
            let xs: Vec<&[Iv<f64>]> = boxes.iter().map(Vec::as_slice).collect();
            let (mid, rad) = corner_mid_rad(&ci, &dims, &xs);
            proptest::prop_assert_eq!(mid.len(), 1 << 6);
            for c in 0..mid.len() {
                let mut bit = 0;
                let points: Vec<Vec<Q>> = boxes
                    .iter()
                    .map(|b| {
                        b.iter()
                            .enumerate()
                            .map(|(t, v)| {
                                if t == 0 {
                                    return <Q as Zero>::zero();
                                }
                                bit += 1;
                                let end = if c >> (bit - 1) & 1 == 1 { v.hi } else { v.lo };
                                <f64 as Bound>::exact(&end)
                            })
                            .collect()
                    })
                    .collect();
                let slices: Vec<&[Q]> = points.iter().map(Vec::as_slice).collect();
                let exact = contract(&coef, &dims, &slices, None);
                let lo = <f64 as Bound>::exact(&down(mid[c] - rad[c]));
                let hi = <f64 as Bound>::exact(&up(mid[c] + rad[c]));
                proptest::prop_assert!(lo <= exact && exact <= hi);
            }
        }
    }

    proptest::proptest! {
        /// Residues agree with BigInt's remainder, and a rational's residue times its
        /// denominator's is its numerator's.
        #[test]
        fn residues_modulo_the_prime(a in proptest::prelude::any::<i128>(), b in 1u64..u64::MAX) {
            let p = BigInt::from(PRIME);
            let n = BigInt::from(a) * BigInt::from(a);
            let n = if a < 0 { -n } else { n };
            let r = ((&n % &p) + &p) % &p;
            proptest::prop_assert_eq!(BigInt::from(Fp::of_integer(&n).0), r);
            let q = Q::new(n.clone(), BigInt::from(b));
            if let Some(f) = Fp::of_rational(&q) {
                let back = f.mul(&Fp::of_integer(q.denom()));
                proptest::prop_assert_eq!(back.0, Fp::of_integer(q.numer()).0);
            }
        }

        /// The folding reduction is the remainder, for every 128-bit number, and sums and
        /// differences of residues stay residues.
        #[test]
        fn the_fold_is_the_remainder(x in proptest::prelude::any::<u128>(), a in 0..PRIME, b in 0..PRIME) {
            proptest::prop_assert_eq!(Fp::reduce(x) as u128, x % PRIME as u128);
            proptest::prop_assert_eq!(Fp(a).add(&Fp(b)).0 as u128, (a as u128 + b as u128) % PRIME as u128);
            proptest::prop_assert_eq!(Fp(a).sub(&Fp(b)).0 as u128, (a as u128 + PRIME as u128 - b as u128) % PRIME as u128);
            proptest::prop_assert_eq!(Fp::reduce(u128::MAX) as u128, u128::MAX % PRIME as u128);
        }
    }

    /// Every support profile of a game (each player's nonempty subsets).
    fn all_supports(shape: &[usize]) -> Vec<Vec<Vec<usize>>> {
        let mut out: Vec<Vec<Vec<usize>>> = vec![vec![]];
        for &m in shape {
            let subsets: Vec<Vec<usize>> = (1..1usize << m)
                .map(|bits| (0..m).filter(|t| bits >> t & 1 == 1).collect())
                .collect();
            out = out
                .into_iter()
                .flat_map(|s| {
                    subsets.iter().map(move |t| {
                        let mut s = s.clone();
                        s.push(t.clone());
                        s
                    })
                })
                .collect();
        }
        out
    }

    fn random_game(shape: &[usize], raw: &[i64]) -> NormalForm {
        game_of(shape, raw_payoffs(shape, raw))
    }

    /// Compares the closed forms with the subdivision on every support profile of `game`
    /// where three players mix two strategies each, or two mix two and one three; the number
    /// of profiles the closed form decided, and of the roots it found (exact, certified).
    fn closed_against_subdivision(
        game: &NormalForm,
    ) -> std::result::Result<(usize, (usize, usize)), proptest::test_runner::TestCaseError> {
        let pay = Payoffs::new(game);
        let dens = denominators(game);
        let opts = Options::default();
        let meter = Meter::new(&opts);
        let (mut decided, mut exact, mut certified) = (0, 0, 0);
        for support in all_supports(&game.shape()) {
            let Some(got) = closed::solve(&pay, &support, &dens, 16) else {
                continue;
            };
            decided += 1;
            let want = subdivide(&pay, &support, &dens, &meter, 16)
                .unwrap()
                .unwrap();
            if !want.unresolved.is_empty() {
                // Where the subdivision could not decide (a singular solution on the simplex's
                // boundary, outside this support), each root the closed form lists is one it
                // found or in a region it left open.
                let within = |p: &[Vec<Q>]| {
                    want.unresolved.iter().any(|u| {
                        p.iter()
                            .flatten()
                            .zip(u.lower.iter().flatten())
                            .all(|(v, l)| v >= l)
                            && p.iter()
                                .flatten()
                                .zip(u.upper.iter().flatten())
                                .all(|(v, h)| v <= h)
                    })
                };
                for q in &got.exact {
                    proptest::prop_assert!(
                        want.exact.contains(q) || within(&full(&pay, &support, q)),
                        "support {:?}",
                        support
                    );
                }
                for (b, _, _) in &got.certified {
                    let lo: Vec<Q> = b.iter().map(|v| v.lo.clone()).collect();
                    let meets = want
                        .certified
                        .iter()
                        .any(|(c, _, _)| b.iter().zip(c).all(|(u, v)| u.meet(v).is_some()));
                    proptest::prop_assert!(meets || within(&full(&pay, &support, &lo)));
                }
                continue;
            }
            let mut w = want.exact.clone();
            w.sort();
            proptest::prop_assert_eq!(&got.exact, &w, "support {:?}", support);
            proptest::prop_assert_eq!(got.certified.len(), want.certified.len());
            for (b, regret, _) in &got.certified {
                proptest::prop_assert!(
                    want.certified
                        .iter()
                        .any(|(c, _, _)| b.iter().zip(c).all(|(u, v)| u.meet(v).is_some())),
                    "support {:?}",
                    support
                );
                proptest::prop_assert!(regret < &Q::new(1.into(), BigInt::from(10).pow(12)));
            }
            exact += got.exact.len();
            certified += got.certified.len();
        }
        Ok((decided, (exact, certified)))
    }

    /// A root where the first indifference of the three-strategy player vanishes whatever the
    /// second one's probability (its ratio has a pole there) and one coefficient of another
    /// player's indifference does not depend on that probability: the doubles took zero times
    /// the unbounded ratio as not a number and dropped the root, so the enumeration missed
    /// this equilibrium (found by `closed_form_agrees_with_subdivision`).
    #[test]
    fn a_root_at_a_pole_with_a_coefficient_free_of_the_ratio() {
        let shape = [2, 2, 2, 3];
        let game = random_game(&shape, &[2, 1, 2, 4, 1, 4, 5, 1, 5, 0, 5, 4, 5, 4, 0]);
        let pay = Payoffs::new(&game);
        let dens = denominators(&game);
        let support = vec![vec![0], vec![0, 1], vec![0, 1], vec![0, 1, 2]];
        let got = closed::solve(&pay, &support, &dens, 16).expect("decided in closed form");
        let q = |n: i64, d: i64| Q::new(n.into(), d.into());
        let want = vec![
            q(1, 1),
            q(5, 9),
            q(4, 9),
            q(4, 27),
            q(23, 27),
            q(7, 18),
            q(5, 23),
            q(163, 414),
        ];
        assert_eq!(got.exact, vec![want.clone()]);
        // And the enumeration reports it.
        let report = enumerate(&game, &Options::default()).unwrap();
        let spread = full(&pay, &support, &want);
        assert!(report.exact.contains(&spread), "{:?}", report.exact);
    }

    /// The closed forms on random 2×2×2 and 2×2×3 games with payoffs 0..9 (mostly isolated
    /// roots, some of them rational): what the subdivision finds, and both kinds of roots met.
    #[test]
    fn closed_form_on_random_games() {
        for shape in [[2, 2, 2], [2, 2, 3], [3, 2, 2]] {
            closed_form_on_random(&shape);
        }
    }

    /// `cells` payoffs 0..9 from a linear congruential generator.
    fn digits_from(seed: &mut u64, cells: usize) -> Vec<i64> {
        (0..cells)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((*seed >> 33) % 10) as i64
            })
            .collect()
    }

    fn closed_form_on_random(shape: &[usize]) {
        let mut seed: u64 = 7;
        let (mut decided, mut exact, mut certified) = (0, 0, 0);
        let cells = 3 * shape.iter().product::<usize>();
        for _ in 0..200 {
            let raw = digits_from(&mut seed, cells);
            let game = random_game(shape, &raw);
            let (d, (e, c)) = closed_against_subdivision(&game).unwrap();
            decided += d;
            exact += e;
            certified += c;
        }
        assert!(
            decided > 150 && exact > 0 && certified > 0,
            "{shape:?}: {decided} decided, {exact} exact, {certified} certified"
        );
    }

    /// The closed forms in big integers (payoffs times 2^58, whose quadratics overflow 128
    /// bits) give the answers they give in machine integers: scaling the payoffs changes no
    /// equilibrium.
    #[test]
    fn closed_forms_in_big_integers() {
        let mut seed: u64 = 11;
        let mut compared = 0;
        for shape in [[2, 2, 2], [2, 2, 3]] {
            let cells = 3 * shape.iter().product::<usize>();
            for _ in 0..60 {
                let raw = digits_from(&mut seed, cells);
                let big: Vec<i64> = raw.iter().map(|v| v << 58).collect();
                let (small_game, big_game) = (random_game(&shape, &raw), random_game(&shape, &big));
                let solve = |game: &NormalForm, support: &[Vec<usize>]| {
                    let (pay, dens) = (Payoffs::new(game), denominators(game));
                    closed::solve(&pay, support, &dens, 16)
                };
                for support in all_supports(&shape) {
                    let (a, b) = (solve(&small_game, &support), solve(&big_game, &support));
                    assert_eq!(a.is_some(), b.is_some(), "{raw:?} {support:?}");
                    let (Some(a), Some(b)) = (a, b) else { continue };
                    assert_eq!(a.exact, b.exact, "{raw:?} {support:?}");
                    assert_eq!(a.certified.len(), b.certified.len());
                    for ((x, _, _), (y, _, _)) in a.certified.iter().zip(&b.certified) {
                        assert!(x.iter().zip(y).all(|(u, v)| u.meet(v).is_some()));
                    }
                    compared += a.exact.len() + a.certified.len();
                }
            }
        }
        assert!(compared > 10, "{compared} roots compared");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Where at most two players mix, linear algebra finds what subdivision finds: the
        /// same equilibrium, or none, on every support profile it decides (small payoffs, so
        /// that ties and singular systems are common).
        #[test]
        fn linear_supports_agree_with_subdivision(
            shape in proptest::collection::vec(2usize..4, 3..5),
            raw in proptest::collection::vec(0i64..6, 1..200),
        ) {
            let game = random_game(&shape, &raw);
            let pay = Payoffs::new(&game);
            let dens = denominators(&game);
            let opts = Options::default();
            let meter = Meter::new(&opts);
            let mut decided = 0;
            for support in all_supports(&shape) {
                let bases: Vec<Vec<usize>> = (0..shape.len()).map(|i| pay.bases(i, &support)).collect();
                let want = match linear(&pay, &support, &bases) {
                    Linear::General => continue,
                    Linear::Nothing => vec![],
                    Linear::Equilibrium(q) => vec![q],
                };
                decided += 1;
                let got = solve_support(&pay, &support, &dens, &meter, 16).unwrap().unwrap();
                proptest::prop_assert_eq!(&got.exact, &want, "support {:?}", support);
                // The subdivision may leave a region undecided (a singular solution on the
                // simplex's boundary, outside this support) where linear algebra decides.
                proptest::prop_assert!(got.certified.is_empty());
                proptest::prop_assert!(got.unresolved.is_empty() || want.is_empty());
            }
            proptest::prop_assert!(decided > 0);
        }

        /// Where three players mix two strategies each, the closed form finds what the
        /// subdivision finds on every profile it decides: the same exact equilibria and as
        /// many certified ones, each box meeting one of the subdivision's (small payoffs, so
        /// that ties, poles and singular systems are common).
        #[test]
        fn closed_form_agrees_with_subdivision(
            shape in proptest::collection::vec(2usize..4, 3..5),
            raw in proptest::collection::vec(0i64..6, 1..200),
        ) {
            closed_against_subdivision(&random_game(&shape, &raw))?;
        }

        /// Machine integers give the big integers' answer whenever they do not overflow
        /// (payoffs near 2^60, so that many overflow).
        #[test]
        fn linear_supports_in_machine_integers(
            raw in proptest::collection::vec(-(1i64 << 60)..(1i64 << 60), 1..100),
            small in proptest::collection::vec(-3i64..4, 1..100),
            big in proptest::prelude::any::<bool>(),
        ) {
            let shape = [3usize, 3, 2];
            let game = random_game(&shape, if big { &raw } else { &small });
            let pay = Payoffs::new(&game);
            let table = pay.small.as_ref().unwrap();
            for support in all_supports(&shape) {
                let bases: Vec<Vec<usize>> = (0..3).map(|i| pay.bases(i, &support)).collect();
                let exact = linear_support(&pay, &pay.scaled, &support, &bases).unwrap();
                if let Ok(l) = linear_support(&pay, table, &support, &bases) {
                    proptest::prop_assert_eq!(l, exact);
                }
            }
        }
    }
}
