//! The front door: one call per question, a request in and a serialisable answer out.
//!
//! Every front-end (the `nimbus` command, the Python package, the web page) turns its own
//! syntax into a request, calls one function here and shows the answer, and imports nothing
//! else of the library; method choice, dominance, lifting and exact verification all happen
//! behind these calls, so every front-end gives the same answers. An answer serialised with
//! [`to_json`] is what `nimbus … --json` prints, under the schema documented in
//! `docs/schema.json` (versioned by [`SCHEMA`]).
//!
//! - [`game`]: a game as the front-ends are given it (`.nfg`, matrices with names, `.efg`, a
//!   built-in tree), read in one place;
//! - [`nash`]: the Nash equilibria of a strategic-form game;
//! - [`zerosum`]: a matrix game's value and optimal strategies;
//! - [`stochastic`]: a two-player zero-sum stochastic game: each state's value and stationary
//!   strategies;
//! - [`repeated`]: a two-player game repeated with discounting: its subgame-perfect equilibrium
//!   payoffs between proven bounds;
//! - [`verify`]: whether a mixed profile is an equilibrium;
//! - [`sg`]: a sum of impartial games under normal or misère play;
//! - [`cgt`]: a sum of partizan games: canonical form, thermograph, winning moves; tables;
//! - [`sequence`]: the nim-sequence of a heap game and its period;
//! - [`quotient`]: the misère quotient of a heap game, and positions answered with it;
//! - [`substring`]: the substring game;
//! - [`solve`]: a search, a strong solution or a query of one, for two-player games;
//! - [`play`]: a game against the solver, one call a turn;
//! - [`tree`]: extensive-form games: equilibria, what a tree is made of, conversions;
//! - [`host`]: what a front-end controls (Ctrl-C, a time limit, the file policy);
//! - [`custom`]: the traits of games written in a host's language.
//!
//! The words requests share are parsed here once: method names with their aliases
//! ([`nash::Method::parse`], [`tree::Method::parse`], [`solve::search_method`]), dominance
//! ([`nash::Dominance::parse`]), the misère rule ([`sg::misere_rule`]), and the Lemke–Howson
//! label, counted from 1 ([`nash::Request::label`]). An error that suggests a setting marks it
//! ([`crate::core::hint`]), and each front-end writes it in its own words.
//!
//! ```
//! use nimbus::api::game::{self, Source, StrategyNames};
//! use nimbus::api::{nash, to_json, Limits};
//!
//! // The prisoner's dilemma: (defect, defect) only.
//! let matrices = Source::Matrices {
//!     row: ("3 0; 5 1", "A"),
//!     col: Some(("3 5; 0 1", "B")),
//! };
//! let (game, _notes) = game::strategic(matrices, StrategyNames::default())?;
//! let answer = nash::solve(&game, &nash::Request::default(), &Limits::default())?;
//! assert_eq!(answer.equilibria.len(), 1);
//! assert!(to_json(&answer).contains("\"schema\":1"));
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod cgt;
pub mod correlated;
pub mod custom;
pub mod dynamics;
pub mod game;
pub mod host;
pub mod nash;
pub mod play;
pub mod quotient;
pub mod repeated;
pub mod sequence;
pub mod sg;
pub mod solve;
pub mod stochastic;
pub mod substring;
pub mod tree;
pub mod verify;
pub mod zerosum;

// The words every request and answer shares, so that a front-end needs nothing but `api`.
pub use crate::core::budget::{default_max_memory, Limits, DEFAULT_MAX_WORK};
pub use crate::core::error::{Error, Result, Span};
/// Writes the settings a note names (as errors name them) in a front-end's words; see
/// [`Error::render`].
pub use crate::core::hint::render as render_settings;
pub use crate::core::number::MOST_SECONDS;
pub use crate::core::show::show_bytes;
pub use crate::exact::{
    parse_number, show, show_decimal, show_decimal_outward, Shown, MOST_DIGITS, Q,
};
pub use crate::extensive::solvers::cfr::MOST_REPORTS;
pub use crate::script::{ScriptOptions, ScriptOutput};

/// The version of the JSON answers: raised whenever a field changes meaning or goes away
/// (adding a field does not raise it).
pub const SCHEMA: u32 = 1;

/// The value called `name` in a table of names, read as users type them (any case, `_` for
/// `-`).
pub(crate) fn named<T: Copy>(names: &[(&str, T)], name: &str) -> Option<T> {
    let key = name.trim().to_ascii_lowercase().replace('_', "-");
    names.iter().find(|(n, _)| *n == key).map(|&(_, m)| m)
}

/// An answer with the schema's version, as it is serialised: `{"schema": 1, ...answer}`.
#[derive(serde::Serialize)]
pub struct Versioned<'a, T> {
    /// [`SCHEMA`].
    pub schema: u32,
    /// The answer's own fields, after the version.
    #[serde(flatten)]
    pub answer: &'a T,
}

/// `answer` with the schema's version, for any serde format (the Python package converts it
/// straight into Python objects).
pub fn versioned<T: serde::Serialize>(answer: &T) -> Versioned<'_, T> {
    Versioned {
        schema: SCHEMA,
        answer,
    }
}

/// An answer as JSON, with the `"schema"` field first.
pub fn to_json<T: serde::Serialize>(answer: &T) -> String {
    serde_json::to_string(&versioned(answer))
        .unwrap_or_else(|e| format!("{{\"schema\":{SCHEMA},\"error\":\"{e}\"}}"))
}

/// An error as an answer: what front-ends print for `--json` when a question fails.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Failure {
    /// The message, as the command line prints it.
    pub error: String,
    /// Its kind ([`crate::Error::kind`]): `input`, `limit`, `io`, `interrupted`, …
    pub kind: &'static str,
}

impl Failure {
    /// The answer for `e`.
    pub fn of(e: &crate::Error) -> Self {
        Failure {
            error: e.to_string(),
            kind: e.kind(),
        }
    }
}
