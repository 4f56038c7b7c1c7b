//! Two-player repeated games with discounting, perfect monitoring and public randomisation:
//! the set of payoffs of pure-action subgame-perfect equilibria (Abreu, Pearce and
//! Stacchetti's set `V`, the one Abreu and Sannikov's algorithm computes), between two
//! polygons proven to enclose it and to lie inside it.
//!
//! - [`stage`]: the stage game's payoffs and deviation gains, exactly and on a grid;
//! - [`polygon`]: convex polygons over exact numbers;
//! - [`outer`]: one round of the outer iteration, rounded outwards on the grid so that every
//!   round provably contains `V`;
//! - [`coarsen`]: fewer vertices for a round's set, merged only where the result provably
//!   contains it;
//! - [`inner`]: the exact test of self-generation, which proves a set lies inside `V`;
//! - [`picture`]: the folk-theorem picture.
//!
//! `V` is the largest set that generates itself; iterating the generating operator from the
//! feasible payoffs shrinks towards it from outside. Every round is a proven outer bound,
//! whatever the rounding (it only ever enlarges the set), so the iteration may stop at any
//! time; a candidate inside it (the outer set's vertices moved to short fractions) that
//! passes the exact self-generation test is a proven inner bound, and the distance between
//! the two bounds bounds the error. When `V`'s vertices are irrational, the candidate is the
//! outer set of a stricter game, each incentive constraint raised a little: its largest
//! self-generating set generates itself in the true game with room to spare where a
//! constraint binds, and once its iteration has reached the grid's fixed point the exact test
//! usually passes, a distance proportional to how much stricter it is.
//!
//! ```
//! use nimbus::exact::{parse_q, show};
//! use nimbus::strategic::game::NormalForm;
//! use nimbus::strategic::repeated::{solve, Options};
//!
//! // The prisoner's dilemma at δ = 9/10 (QuantEcon's example).
//! let q = |s: &str| parse_q(s).unwrap();
//! let a = vec![vec![q("9"), q("1")], vec![q("10"), q("3")]];
//! let b = vec![vec![q("9"), q("10")], vec![q("1"), q("3")]];
//! let game = NormalForm::bimatrix(&a, &b)?;
//! let s = solve(&game, &Options { discount: q("9/10"), ..Options::default() })?;
//! let inner: Vec<String> = s.inner.unwrap().iter().map(|(x, y)| format!("{}, {}", show(x), show(y))).collect();
//! assert_eq!(inner, ["3, 3", "39/4, 3", "9, 9", "3, 39/4"]);
//! assert!(s.distance < 1e-8);
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod coarsen;
pub mod inner;
pub mod outer;
pub mod picture;
pub mod polygon;
pub mod stage;

use crate::core::budget::{check_memory, check_work, default_max_memory, DEFAULT_MAX_WORK};
use crate::core::error::{Error, Result};
use crate::core::progress;
use crate::exact::Q;
use crate::strategic::game::NormalForm;
use num_traits::{One, Zero};
use polygon::{hausdorff, Point};
use stage::{Grid, Stage};

/// How far to go.
#[derive(Debug, Clone)]
pub struct Options {
    /// The discount factor δ, strictly between 0 and 1.
    pub discount: Q,
    /// Stop when a round moves the outer set by at most this much (payoff units).
    pub tolerance: f64,
    /// Rounds at most (the answer stays proven; only the bracket is wider).
    pub max_rounds: u64,
    /// Bytes the points of a round may take.
    pub max_memory: u64,
    /// Steps at most.
    pub max_work: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            discount: Q::new(9.into(), 10.into()),
            tolerance: 1e-10,
            max_rounds: 100_000,
            max_memory: default_max_memory(),
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

/// Where the set of equilibrium payoffs lies.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The stage game.
    pub stage: Stage,
    /// A polygon proven to contain every pure-action subgame-perfect equilibrium payoff
    /// (empty when the game has none: then that is proven).
    pub outer: Vec<Point<Q>>,
    /// A polygon proven to lie inside the set, when one was found.
    pub inner: Option<Vec<Point<Q>>>,
    /// How the inner polygon was found.
    pub inner_kind: InnerKind,
    /// The Hausdorff distance between the two (rounded up; infinite without an inner one):
    /// the set is at most this far from either.
    pub distance: f64,
    /// Rounds of the outer iteration.
    pub rounds: u64,
    /// Whether the last round moved the set by at most the tolerance (else the round limit
    /// stopped it).
    pub converged: bool,
    /// The tolerance used (raised to a few grid steps when finer).
    pub tolerance: f64,
}

/// Which candidate passed the self-generation test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InnerKind {
    /// The outer polygon's vertices, moved to the simplest fractions nearby.
    Snapped,
    /// The outer iteration's set in a stricter game, whose incentive constraints ask for a
    /// little more.
    Strict,
    /// The hull of the stage game's pure equilibria's payoffs.
    StageEquilibria,
    /// None passed.
    None,
}

/// The set of pure-action subgame-perfect equilibrium payoffs of the repeated `game`.
pub fn solve(game: &NormalForm, options: &Options) -> Result<Solution> {
    let delta = &options.discount;
    if *delta <= Q::zero() || *delta >= Q::one() {
        return Err(Error::Invalid(format!(
            "the discount must lie strictly between 0 and 1, and it is {delta}"
        )));
    }
    // The stage game's copy: each profile's payoffs and gains as fractions, and on the grid.
    let profiles = game.profiles() as u64;
    check_memory(
        "the repeated game's stage game",
        profiles.saturating_mul(256),
        options.max_memory,
    )?;
    check_work("the repeated game's stage game", profiles, options.max_work)?;
    let stage = Stage::of(game)?;
    let grid = Grid::of(&stage, delta)?;
    let cell = 1.0 / grid.scale as f64;
    let tolerance = options.tolerance.max(16.0 * cell);
    let mut spent = 0u64;
    // How many rounds it takes is not known in advance: the phase counts them.
    progress::phase("the repeated game's rounds", 0);
    let feasible = polygon::hull(grid.payoffs.clone());
    let run = iterate(
        &grid,
        feasible,
        (tolerance, true),
        options.max_rounds,
        options,
        &mut spent,
    )?;
    let outer: Vec<Point<Q>> = run.set.iter().map(|p| grid.exact(p)).collect();
    let (inner, inner_kind) = certify(&stage, delta, &outer, &grid, options, &run, spent)?;
    let distance = match &inner {
        Some(i) => {
            // Rounded up by far more than the few roundings of the computation.
            let d = hausdorff(&polygon::in_floats(i), &polygon::in_floats(&outer));
            d * (1.0 + 1e-9) + 1e-12 * cell
        }
        None if outer.is_empty() => 0.0,
        None => f64::INFINITY,
    };
    Ok(Solution {
        stage,
        outer,
        inner,
        inner_kind,
        distance,
        rounds: run.rounds,
        converged: run.converged,
        tolerance,
    })
}

/// Where the outer iteration ended.
struct Iteration {
    /// The last round's set, on the grid.
    set: Vec<Point<i128>>,
    /// Rounds made.
    rounds: u64,
    /// Whether the last round moved the set by at most the tolerance.
    converged: bool,
    /// How far the last round moved the set: the next rounds would move it about that much
    /// times a geometric factor, so the true set is within about this over (1 − δ).
    moved: f64,
}

/// Rounds of the outer iteration from `start` (a polygon on the grid) until one moves the
/// set by at most `tolerance` (or the round limit), each charged to the budgets first; with
/// `coarse`, each round's set has its clusters of vertices merged ([`coarsen`]: far quicker
/// rounds, but the sets may then alternate by a grid step instead of reaching a fixed point,
/// which the stricter games' candidates need).
fn iterate(
    grid: &Grid,
    start: Vec<Point<i128>>,
    (tolerance, coarse): (f64, bool),
    max_rounds: u64,
    options: &Options,
    spent: &mut u64,
) -> Result<Iteration> {
    let float = |w: &[Point<i128>]| w.iter().map(|p| grid.float(p)).collect::<Vec<_>>();
    let profiles = grid.payoffs.len() as u64;
    let mut run = Iteration {
        set: start,
        rounds: 0,
        converged: false,
        moved: f64::INFINITY,
    };
    while run.rounds < max_rounds {
        let points = profiles
            .saturating_mul(3 * run.set.len() as u64 + 1)
            .saturating_mul(4);
        check_memory(
            "a round of the repeated game",
            points.saturating_mul(32),
            options.max_memory,
        )?;
        *spent = spent.saturating_add(points);
        check_work("the repeated game's rounds", *spent, options.max_work)?;
        let mut next = outer::round(grid, &run.set);
        if coarse {
            next = coarsen::coarsened(next);
        }
        run.rounds += 1;
        progress::tick(run.rounds)?;
        if next.is_empty() {
            run.set = next;
            run.converged = true;
            break;
        }
        // The distance between two polygons costs as much as a round: it is measured every
        // fourth round only (stopping up to three rounds late only tightens the bound).
        if next == run.set {
            run.moved = 0.0;
        } else if run.rounds % 4 == 0 {
            run.moved = hausdorff(&float(&next), &float(&run.set));
        }
        run.set = next;
        if run.moved <= tolerance {
            run.converged = true;
            break;
        }
    }
    Ok(run)
}

/// The best inner polygon that passes the exact test: the snapped outer one; else the set of
/// a stricter game, whose every incentive constraint asks for a little more than it must
/// (its largest self-generating set generates itself in the true game too, with room to
/// spare where the constraints bind); else the stage equilibria's hull.
fn certify(
    stage: &Stage,
    delta: &Q,
    outer: &[Point<Q>],
    grid: &Grid,
    options: &Options,
    main: &Iteration,
    spent: u64,
) -> Result<(Option<Vec<Point<Q>>>, InnerKind)> {
    let (moved, main_rounds) = (main.moved, main.rounds);
    let spent = std::cell::Cell::new(spent);
    if outer.is_empty() {
        return Ok((None, InnerKind::None));
    }
    // A quick screen in floating point first: the exact test is slow on long fractions.
    let slack = 1e-14 * payoff_range(stage);
    let test = |set: &[Point<Q>]| -> Result<bool> {
        if !inner::nearly_self_generating(stage, delta, set, slack) {
            return Ok(false);
        }
        // A few exact operations a profile and a vertex, on fractions of up to a few words
        // (grid fractions: denominators of 40 bits and more), and their hull's comparisons:
        // a few microseconds each.
        let steps = (stage.payoffs.len() as u64)
            .saturating_mul(3 * set.len() as u64 + 1)
            .saturating_mul(2000);
        spent.set(spent.get().saturating_add(steps));
        check_work(
            "the repeated game's exact check",
            spent.get(),
            options.max_work,
        )?;
        progress::check()?;
        Ok(inner::self_generating(stage, delta, set))
    };
    // The outer set is within about the last round's move over (1 − δ) of the true one:
    // short fractions are looked for that far away, then farther. The reach is a whole
    // number of grid steps, so that its fractions stay machine-sized.
    let estimate = moved.min(options.tolerance) * grid.scale as f64
        / crate::exact::to_f64(&(Q::one() - delta));
    let mut cells = if estimate.is_finite() {
        (2.0 * estimate).clamp(8.0, 1e15) as i128
    } else {
        8
    };
    for _ in 0..3 {
        let snapped = inner::snapped_on_grid(&main.set, cells, grid, stage);
        if test(&snapped)? {
            return Ok((Some(snapped), InnerKind::Snapped));
        }
        cells *= 8;
    }
    // The stricter games: margins raised by more than the rounding of their own iteration
    // (about 2^-30 of the payoffs' scale), then 16 times more, up to about 2^-10; the first
    // that passes is the closest.
    let mut strict_cells = cells.max(1 << 10);
    for _ in 0..6 {
        let mut strict = grid.clone();
        for m in &mut strict.margins {
            *m = (m.0 + strict_cells, m.1 + strict_cells);
        }
        // To the grid's own fixed point (or a few times the rounds the tolerance took):
        // where no constraint binds, a set that is still shrinking does not generate itself.
        // From the true game's last set, which holds the stricter game's set (it holds the
        // true game's): the rounds from there are few. (Any start would do: the candidate
        // is tested exactly.)
        let mut spent_here = spent.get();
        let rounds = options.max_rounds.min(4 * main_rounds + 50);
        let run = iterate(
            &strict,
            main.set.clone(),
            (0.0, false),
            rounds,
            options,
            &mut spent_here,
        )?;
        spent.set(spent_here);
        // Without the vertices the grid's rounding leaves along its edges (a little inside
        // the set: still a candidate, and far quicker to test).
        let exact: Vec<Point<Q>> = run.set.iter().map(|p| grid.exact(p)).collect();
        let flat = (strict_cells / 64) as f64 / grid.scale as f64;
        let candidate = inner::without_flat_vertices(&exact, flat);
        if !candidate.is_empty() && test(&candidate)? {
            return Ok((Some(candidate), InnerKind::Strict));
        }
        strict_cells *= 16;
    }
    let nash = inner::stage_equilibria(stage);
    if !nash.is_empty() && test(&nash)? {
        return Ok((Some(nash), InnerKind::StageEquilibria));
    }
    Ok((None, InnerKind::None))
}

/// The widest range of either player's payoffs, at least 1.
fn payoff_range(stage: &Stage) -> f64 {
    let range = |pick: fn(&Point<Q>) -> &Q| {
        let values: Vec<f64> = stage
            .payoffs
            .iter()
            .map(|p| crate::exact::to_f64(pick(p)))
            .collect();
        let (lo, hi) = values
            .iter()
            .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        hi - lo
    };
    range(|p| &p.0).max(range(|p| &p.1)).max(1.0)
}
