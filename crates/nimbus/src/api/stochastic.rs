//! Two-player zero-sum stochastic games: each state's value, exactly where it is rational and
//! otherwise between proven bounds, with stationary strategies that guarantee them.

use super::Limits;
use crate::core::error::{Error, Result};
use crate::exact::{parse_number, show, to_f64, Q};
use crate::strategic::stochastic::{self, game::StochasticGame, Method, Options};
use num_traits::Signed;
use serde::Serialize;

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// Policy iteration (the default) or value iteration.
    pub method: Method,
    /// The widest interval acceptable for a state's value when it is not exact.
    pub tolerance: Q,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            method: Method::default(),
            tolerance: Options::default().tolerance,
        }
    }
}

/// Reads a method: `policy` (`policy-iteration`, `hoffman-karp`) or `value`
/// (`value-iteration`, `shapley`).
pub fn parse_method(text: &str) -> Result<Method> {
    super::named(
        &[
            ("policy", Method::PolicyIteration),
            ("policy-iteration", Method::PolicyIteration),
            ("hoffman-karp", Method::PolicyIteration),
            ("value", Method::ValueIteration),
            ("value-iteration", Method::ValueIteration),
            ("shapley", Method::ValueIteration),
        ],
        text,
    )
    .ok_or_else(|| {
        Error::Invalid(format!(
            "the method '{}' is not known for stochastic games: use policy or value",
            text.trim()
        ))
    })
}

/// Reads a tolerance: a positive number (`1e-9`, `1/1000`).
pub fn parse_tolerance(text: &str) -> Result<Q> {
    let t = text.trim();
    let q = parse_number(t).map_err(|why| {
        Error::Invalid(format!(
            "{}: {why}",
            crate::core::hint::setting("tolerance")
        ))
    })?;
    if !q.is_positive() {
        return Err(Error::Invalid(format!(
            "{} must be positive, not {t} (exact values are found whenever the bounds \
             isolate them; the tolerance only says when to stop otherwise)",
            crate::core::hint::setting("tolerance")
        )));
    }
    Ok(q)
}

/// One state's answer.
#[derive(Debug, Clone, Serialize)]
pub struct StateAnswer {
    /// The state's name.
    pub name: String,
    /// The value, when it is exact.
    pub value: Option<String>,
    /// A proven lower bound on the value (the value itself when exact).
    pub lower: String,
    /// A proven upper bound.
    pub upper: String,
    /// The middle of the bounds, as a float.
    pub approximate: f64,
    /// The row player's actions.
    pub rows: Vec<String>,
    /// The column player's actions.
    pub columns: Vec<String>,
    /// The row player's stationary strategy here.
    pub row_strategy: Vec<String>,
    /// The column player's.
    pub column_strategy: Vec<String>,
    /// What the row player's strategy guarantees from here, whatever the column player does.
    pub row_guarantee: String,
    /// What the column player's strategy concedes at most from here.
    pub column_guarantee: String,
    /// The value exactly when it is irrational and proven as an algebraic number (games of
    /// one state): the one root of a polynomial in an interval.
    pub algebraic: Option<AlgebraicValue>,
}

/// An irrational value, exactly.
#[derive(Debug, Clone, Serialize)]
pub struct AlgebraicValue {
    /// The polynomial in `v`, highest power first: `v^2 + 6v - 12`.
    pub polynomial: String,
    /// Its integer coefficients, the constant first.
    pub coefficients: Vec<String>,
    /// The interval's lower end (excluded): the value is the polynomial's only root in it.
    pub lower: String,
    /// Its upper end (included).
    pub upper: String,
    /// The value in closed form when the polynomial is a quadratic: `-3 + sqrt(21)`.
    pub closed_form: Option<String>,
    /// The rows the optimal strategies play (the kernel's).
    pub rows: Vec<String>,
    /// The columns they play.
    pub columns: Vec<String>,
}

/// The answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// Every state's value and strategies.
    pub states: Vec<StateAnswer>,
    /// Whether every value is exact (and the strategies optimal).
    pub exact: bool,
    /// The discount.
    pub discount: String,
    /// The contraction factor: the discount times the largest chance that play goes on.
    pub continuation: String,
    /// The method used: `policy iteration` or `value iteration`.
    pub method: &'static str,
    /// Rounds of the iteration.
    pub rounds: usize,
    /// Simplex pivots in the stage games.
    pub pivots: usize,
    /// Remarks.
    pub notes: Vec<String>,
}

/// A small positive number as people read it: `3.2e-13`, or `about 1e-1000` beyond floats.
fn magnitude(q: &Q) -> String {
    let f = to_f64(q);
    if f > 0.0 && f.is_finite() {
        return format!("{f:.1e}");
    }
    let bits = q.numer().bits() as f64 - q.denom().bits() as f64;
    format!(
        "about 1e{}",
        (bits * std::f64::consts::LOG10_2).round() as i64
    )
}

/// Reads a stochastic game from `text` (`source` names it in errors) and solves it.
pub fn solve(text: &str, source: &str, req: &Request, limits: &Limits) -> Result<Answer> {
    let game = crate::formats::stochastic::parse(text, source)?;
    solve_game(&game, req, limits)
}

/// Solves a stochastic game already read.
pub fn solve_game(game: &StochasticGame, req: &Request, limits: &Limits) -> Result<Answer> {
    if !req.tolerance.is_positive() {
        return Err(Error::Invalid(format!(
            "{} must be positive",
            crate::core::hint::setting("tolerance")
        )));
    }
    let opts = Options {
        method: req.method,
        tolerance: req.tolerance.clone(),
        max_memory: limits.max_memory,
        max_work: limits.max_work,
    };
    let s = stochastic::solve(game, &opts)?;
    let list = |v: &[Q]| v.iter().map(show).collect::<Vec<_>>();
    let two = Q::from_integer(2.into());
    let states = game
        .states
        .iter()
        .enumerate()
        .map(|(k, st)| StateAnswer {
            name: st.name.clone(),
            value: (s.lower[k] == s.upper[k]).then(|| show(&s.lower[k])),
            lower: show(&s.lower[k]),
            upper: show(&s.upper[k]),
            approximate: to_f64(&((&s.lower[k] + &s.upper[k]) / &two)),
            rows: st.rows.clone(),
            columns: st.columns.clone(),
            row_strategy: list(&s.row_strategy[k]),
            column_strategy: list(&s.column_strategy[k]),
            row_guarantee: show(&s.row_guarantee[k]),
            column_guarantee: show(&s.column_guarantee[k]),
            algebraic: s
                .algebraic
                .get(k)
                .cloned()
                .flatten()
                .map(|a| AlgebraicValue {
                    polynomial: a.polynomial_text(),
                    coefficients: a.polynomial.iter().map(|c| c.to_string()).collect(),
                    lower: show(&a.lower),
                    upper: show(&a.upper),
                    closed_form: a.closed_form.clone(),
                    rows: a.kernel.0.iter().map(|&i| st.rows[i].clone()).collect(),
                    columns: a.kernel.1.iter().map(|&j| st.columns[j].clone()).collect(),
                }),
        })
        .collect();
    let mut notes = Vec::new();
    if s.algebraic.iter().any(Option::is_some) {
        notes.push(
            "an irrational value is given exactly as the one root of its polynomial in its \
             interval: the strategies the polynomial's kernel gives at that root were checked \
             exactly to be optimal there, so it is the fixed point of Shapley's operator"
                .into(),
        );
    }
    if !s.exact && (s.algebraic.is_empty() || s.algebraic.iter().any(Option::is_none)) {
        notes.push(format!(
            "no exact form of an irrational value was sought or found: Nimbus gives one for \
             games of one state whose optimal strategies play at most {} actions each",
            crate::strategic::stochastic::algebraic::MAX_KERNEL
        ));
    }
    if !s.exact {
        notes.push(format!(
            "the values are between proven bounds at most {} apart{}: the strategies \
             guarantee what is shown (a value can be irrational, and then no fraction is it)",
            magnitude(
                &s.lower
                    .iter()
                    .zip(&s.upper)
                    .map(|(l, u)| u - l)
                    .max()
                    .unwrap_or_default()
            ),
            if s.stalled {
                ", where the iteration stopped gaining (the numbers grew too long)"
            } else {
                ""
            }
        ));
    }
    Ok(Answer {
        states,
        exact: s.exact,
        discount: show(&game.discount),
        continuation: show(&game.continuation()),
        method: match req.method {
            Method::PolicyIteration => "policy iteration",
            Method::ValueIteration => "value iteration",
        },
        rounds: s.rounds,
        pivots: s.pivots,
        notes,
    })
}
