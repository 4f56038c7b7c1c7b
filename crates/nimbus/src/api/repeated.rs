//! Repeated games: the set of payoffs of pure-action subgame-perfect equilibria of a
//! two-player game repeated with discounting (perfect monitoring, public randomisation), as
//! QuantEcon's `RepeatedGame.equilibrium_payoffs` computes it (Abreu and Sannikov), here
//! between a proven outer and a proven inner polygon.

use super::Limits;
use crate::core::error::{Error, Result};
use crate::exact::{parse_number, show, show_decimal, to_f64, Q};
use crate::strategic::game::NormalForm;
use crate::strategic::repeated::picture::{picture, Shown};
use crate::strategic::repeated::polygon::{in_floats, Point};
use crate::strategic::repeated::{solve as solve_sets, InnerKind, Options};
use num_traits::{One, Signed};
use serde::Serialize;

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// The discount factor δ, strictly between 0 and 1.
    pub discount: Q,
    /// Stop when a round moves the outer set by at most this much.
    pub tolerance: Q,
    /// Draw the folk-theorem picture into [`Answer::plot`].
    pub plot: bool,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            discount: Q::new(9.into(), 10.into()),
            tolerance: Q::new(1.into(), 10_000_000_000i64.into()),
            plot: false,
        }
    }
}

/// Reads a discount factor: a number strictly between 0 and 1 (`0.9`, `9/10`).
pub fn parse_discount(text: &str) -> Result<Q> {
    let t = text.trim();
    let name = crate::core::hint::setting("discount");
    let q = parse_number(t).map_err(|why| Error::Invalid(format!("{name}: {why}")))?;
    if !q.is_positive() || q >= Q::one() {
        return Err(Error::Invalid(format!(
            "{name} must lie strictly between 0 and 1, not {t}"
        )));
    }
    Ok(q)
}

/// Reads a tolerance: a positive number (`1e-10`).
pub fn parse_tolerance(text: &str) -> Result<Q> {
    super::stochastic::parse_tolerance(text)
}

/// The answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The players.
    pub players: Vec<String>,
    /// The discount factor.
    pub discount: String,
    /// Whether the repeated game has a pure-action subgame-perfect equilibrium (when not,
    /// that is proven: the outer bound became empty).
    pub exists: bool,
    /// The set's vertices, counter-clockwise: the inner polygon's exact fractions when it is
    /// the outer one's vertices made short (`exact_vertices`), else the outer polygon's
    /// vertices in decimals, those on a straight edge left out.
    pub vertices: Vec<[String; 2]>,
    /// Whether `vertices` are fractions proven to span a set of equilibrium payoffs.
    pub exact_vertices: bool,
    /// A polygon proven to contain every equilibrium payoff, exactly.
    pub outer: Vec<[String; 2]>,
    /// A polygon proven to hold only equilibrium payoffs, exactly, when one was found.
    pub inner: Option<Vec<[String; 2]>>,
    /// How the inner polygon was found: `short fractions near the outer one`, `the stage
    /// game's pure equilibria` or absent.
    pub inner_kind: Option<String>,
    /// The Hausdorff distance between the two polygons, rounded up, when there is an inner
    /// one: the set is this close to both.
    pub distance: Option<String>,
    /// Each player's lowest equilibrium payoff (the harshest punishment), from `vertices`.
    pub threats: [String; 2],
    /// Each player's minmax payoff against pure punishments.
    pub minmax_pure: [String; 2],
    /// Each player's minmax payoff against mixed punishments (the folk theorem's bound).
    pub minmax_mixed: [String; 2],
    /// Rounds of the outer iteration.
    pub rounds: u64,
    /// Whether the last round moved the outer set by at most the tolerance.
    pub converged: bool,
    /// The tolerance used.
    pub tolerance: String,
    /// Remarks.
    pub notes: Vec<String>,
    /// The folk-theorem picture, when asked for.
    #[serde(skip)]
    pub plot: Option<String>,
}

fn pair(p: &Point<Q>) -> [String; 2] {
    [show(&p.0), show(&p.1)]
}

fn decimal(p: &Point<Q>) -> [String; 2] {
    let d = |x: &Q| {
        let s = show_decimal(x, 9);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    [d(&p.0), d(&p.1)]
}

/// The set of subgame-perfect equilibrium payoffs of `game` repeated with the request's
/// discount.
pub fn solve(game: &NormalForm, req: &Request, limits: &Limits) -> Result<Answer> {
    let options = Options {
        discount: req.discount.clone(),
        tolerance: to_f64(&req.tolerance),
        max_memory: limits.max_memory,
        max_work: limits.max_work,
        ..Options::default()
    };
    let s = solve_sets(game, &options)?;
    let minmax = s.stage.minmax(limits.max_memory)?;
    let exists = !s.outer.is_empty();
    let exact_vertices = s.inner_kind == InnerKind::Snapped;
    let shown: Vec<Point<Q>> = if exact_vertices {
        s.inner.clone().unwrap_or_default()
    } else {
        crate::strategic::repeated::inner::without_flat_vertices(&s.outer, s.tolerance)
    };
    let lowest = crate::strategic::repeated::polygon::lowest(&shown);
    let mut notes = Vec::new();
    if !exists {
        notes.push(
            "no pure-action subgame-perfect equilibrium: the outer bound became empty".into(),
        );
    } else if !exact_vertices {
        notes.push(format!(
            "the vertices are the outer bound's; the last round moved it by at most {:e}",
            to_f64(&req.tolerance)
        ));
    }
    if !s.converged {
        notes.push(format!(
            "stopped after {} rounds before a round moved the set by less than the tolerance",
            s.rounds
        ));
    }
    let plot = req.plot.then(|| {
        let outcomes: Vec<((f64, f64), bool)> = {
            let nash = s.stage.pure_equilibria();
            s.stage
                .payoffs
                .iter()
                .enumerate()
                .map(|(a, p)| ((to_f64(&p.0), to_f64(&p.1)), nash.contains(&a)))
                .collect()
        };
        let (outer, inner) = (in_floats(&s.outer), s.inner.as_deref().map(in_floats));
        let f = |p: &Point<Q>| (to_f64(&p.0), to_f64(&p.1));
        picture(&Shown {
            players: [&s.stage.players[0], &s.stage.players[1]],
            outcomes: &outcomes,
            minmax_pure: f(&minmax.pure),
            minmax_mixed: f(&minmax.mixed),
            outer: &outer,
            inner: inner.as_deref(),
        })
    });
    Ok(Answer {
        players: s.stage.players.to_vec(),
        discount: show(&req.discount),
        exists,
        vertices: shown
            .iter()
            .map(if exact_vertices { pair } else { decimal })
            .collect(),
        exact_vertices,
        outer: s.outer.iter().map(pair).collect(),
        inner: s.inner.as_ref().map(|v| v.iter().map(pair).collect()),
        inner_kind: match s.inner_kind {
            InnerKind::Snapped => Some("short fractions near the outer bound".into()),
            InnerKind::Strict => Some("a stricter game's set".into()),
            InnerKind::StageEquilibria => Some("the stage game's pure equilibria".into()),
            InnerKind::None => None,
        },
        distance: s
            .inner
            .as_ref()
            .map(|_| format!("{:.1e}", crate::exact::interval::up(s.distance))),
        threats: match &lowest {
            Some(p) if exact_vertices => pair(p),
            Some(p) => decimal(p),
            None => ["none".into(), "none".into()],
        },
        minmax_pure: pair(&minmax.pure),
        minmax_mixed: pair(&minmax.mixed),
        rounds: s.rounds,
        converged: s.converged,
        tolerance: format!("{:e}", to_f64(&req.tolerance)),
        notes,
        plot,
    })
}
