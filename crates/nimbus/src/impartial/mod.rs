//! Impartial games under normal play: Sprague–Grundy theory.
//!
//! An impartial game gives both players the same moves; under normal play the player who
//! cannot move loses. The Sprague–Grundy theorem (Sprague 1935, Grundy 1939) says every such
//! finite game is equivalent to a Nim heap of size `G(p) = mex { G(q) : q an option of p }`, and
//! a disjunctive sum has the xor of its components' values. A position is a P-position (the
//! previous player wins) exactly when its value is 0.
//!
//! The cut inside this module:
//! - [`Impartial`] is what a ruleset implements: positions and their options;
//! - [`grundy`] is the generic engine (iterative, memoised) that needs nothing else;
//! - [`games`] holds the rulesets, with their closed forms where one is known;
//! - [`component`] erases rulesets behind one object-safe interface so that sums of
//!   different games can be written, and [`sum`] analyses such sums by the xor rule;
//! - [`analysis`] is what an analysis of a sum answers, whatever the convention;
//! - the expression grammar that names these games is the catalogue's
//!   ([`crate::catalog::impartial`]);
//! - [`sequence`] computes nim-sequences of heap games, and [`period`] finds and proves their
//!   periods; the sparse-space engine that octal games and Grundy's game use for long
//!   sequences is `sparse`;
//! - [`loopy`] handles games with cycles: retrograde analysis and the generalised
//!   Sprague–Grundy function;
//! - [`misere`] answers misère play: the SJ rule where its precondition is checked, exact
//!   search otherwise;
//! - [`quotient`] computes misère quotients of heap games, which answer misère sums by
//!   multiplying.

//!
//! ```
//! use nimbus::catalog::impartial::Parser;
//! use nimbus::impartial::analysis::AnalyzeOptions;
//! use nimbus::impartial::sum::analyze;
//!
//! // Kayles 7 has value 2 and Wythoff (3, 5) is a P-position: the sum is N.
//! let sum = Parser::new().parse("kayles 7 + wythoff 3 5", "the expression")?;
//! let a = analyze(&sum, &AnalyzeOptions::default())?;
//! assert_eq!(a.grundy, Some(2));
//! assert_eq!(a.components[1].grundy, Some(0));
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod analysis;
pub mod component;
pub mod explicit;
pub mod games;
pub mod grundy;
pub mod loopy;
pub mod misere;
pub mod period;
pub mod plot;
pub mod quotient;
pub mod sequence;
pub(crate) mod sparse;
pub mod sum;

use serde::Serialize;
use std::fmt::Debug;
use std::hash::Hash;

pub use grundy::{Engine, Entry};

/// The rules of an impartial game: what the options of a position are.
///
/// Implementations push every option of `p` onto `out` (without clearing it; the engine
/// relies on this to keep all pending options in one buffer). A position without options is
/// terminal: under normal play the player to move there loses.
pub trait Impartial {
    /// A position. Equal positions must have equal options.
    type Position: Clone + Eq + Hash + Debug;

    /// Appends the options of `p` to `out`.
    fn moves(&self, p: &Self::Position, out: &mut Vec<Self::Position>);

    /// A short human-readable name of a position, used in error messages (cycles).
    fn show(&self, p: &Self::Position) -> String {
        format!("{p:?}")
    }

    /// What listing the option `p` costs against the work budget, in steps: one for a
    /// position of fixed size; a position that grows with the game (a multiset of heaps)
    /// costs one more a part, as copying, hashing and comparing it do.
    fn cost(&self, _p: &Self::Position) -> u64 {
        1
    }
}

/// The steps of listing one option that is a multiset of `parts` parts (heaps, tokens,
/// atoms), held in a hash memo: copying, hashing and comparing it cost about 75 ns a part here
/// (misère Kayles sums, bench/RESULTS.md), 5 steps a part at the 15 ns a step the default
/// work budget assumes.
pub fn parts_cost(parts: usize) -> u64 {
    5 * (1 + parts as u64)
}

/// A game whose positions can be numbered `0..size()`, so that the engine can memoise in a flat
/// array instead of a hash map.
pub trait Indexed: Impartial {
    /// One more than the largest index.
    fn size(&self) -> usize;
    /// The index of a position, below [`Indexed::size`].
    fn index(&self, p: &Self::Position) -> usize;
}

/// The outcome class of a position under optimal play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Outcome {
    /// The player to move wins (Next player).
    N,
    /// The player who just moved wins (Previous player).
    P,
    /// Neither player can force a win (games with cycles).
    D,
}

impl Outcome {
    /// N for a non-zero Grundy value, P for zero.
    pub fn from_grundy(g: u64) -> Self {
        if g == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outcome::N => "N",
            Outcome::P => "P",
            Outcome::D => "D",
        })
    }
}

/// The least non-negative integer not in `values` (the minimum excludant). `values` is
/// reordered.
pub fn mex(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    let mut m = 0u64;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}
