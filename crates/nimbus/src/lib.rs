//! Nimbus: exact, fast solvers for the games of combinatorial and classical game theory.
//!
//! The library keeps three things apart: **games** (what positions and moves are), **solvers**
//! (algorithms generic over a game trait) and **front-ends** (the `nimbus` command, the Python
//! package, the web page), which turn their own syntax into an [`api`] request, call one
//! function and show the answer. Nothing here prints. The rooms, from the bottom up (an import
//! only ever points down; `scripts/check-architecture` keeps it so):
//!
//! - [`core`]: the one error type, the budgets, progress and Ctrl-C, the input policy, the
//!   settings that messages name, SVG;
//! - [`exact`]: rationals, the ring, the tableau, linear algebra, both simplex methods,
//!   intervals, hulls;
//! - the families: [`impartial`] (Sprague–Grundy theory, misère play, games with cycles,
//!   nim-sequences and their periods), [`sequential`] (two-player zero-sum games of perfect
//!   information: minimax, alpha–beta, strong solutions), [`strategic`] (normal-form games and
//!   their equilibria), [`extensive`] (game trees), and [`script`] (games written in Rhai,
//!   behind the families' traits);
//! - [`formats`]: Gambit's `.nfg` and `.efg`, plain matrices; [`catalog`]: games by name;
//! - [`api`]: one request and one function per question, and the words they share.
//!
//! One question, one call: a front-end builds the input, calls the library, prints the
//! result.
//!
//! ```
//! use nimbus::catalog::impartial::Parser;
//! use nimbus::impartial::analysis::AnalyzeOptions;
//! use nimbus::impartial::sum::analyze;
//! use nimbus::impartial::Outcome;
//!
//! let sum = Parser::new().parse("nim 3 4 5", "the expression")?;
//! let a = analyze(&sum, &AnalyzeOptions::default())?;
//! assert_eq!((a.outcome, a.grundy), (Outcome::N, Some(2)));
//! assert_eq!(a.winning_moves[0].result, "nim 1 4 5");
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod api;
pub mod catalog;
pub mod core;
pub mod exact;
pub mod extensive;
pub mod formats;
pub mod impartial;
pub mod partizan;
pub mod script;
pub mod sequential;
pub mod strategic;

pub use crate::core::error::{Error, Result, Span};
