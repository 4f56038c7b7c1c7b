//! Nimbus: exact, fast solvers for the games of combinatorial and classical game theory.
//!
//! The library keeps three things apart: **games** (what positions and moves are), **solvers**
//! (algorithms generic over a game trait) and **front-ends** (the `nimbus` command, later
//! scripts and bindings), which parse input, call the library and print. Nothing here prints.
//!
//! - [`impartial`]: Sprague–Grundy theory under normal play — the engine, sums, rulesets
//!   (Nim, subtraction games, Wythoff, Fibonacci Nim, octal games, Grundy's game, games on a
//!   directed graph), nim-sequences and their periods, and the expression grammar; misère
//!   play, games with cycles and the substring game.
//! - [`strategic`]: normal-form games with exact rational payoffs — Gambit's `.nfg` files,
//!   an exact simplex, matrix games.
//! - [`sequential`]: two-player zero-sum games — minimax, alpha–beta, strong solutions.
//! - [`script`]: games written by users in Rhai, driven by the engines above.

//!
//! One question, one call: a front-end builds the input, calls the library, prints the
//! result.
//!
//! ```
//! use nimbus::catalog::impartial::Parser;
//! use nimbus::impartial::sum::{analyze, AnalyzeOptions};
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
pub mod script;
pub mod sequential;
pub mod strategic;

pub use crate::core::error::{Error, Result, Span};
