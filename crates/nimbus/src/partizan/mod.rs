//! Short partizan games: Left and Right have their own moves, and a position's value is a game
//! in canonical form, not a nimber.
//!
//! - [`dyadic`]: the numbers m / 2^k that stops, means and temperatures are;
//! - [`form`]: canonical forms, interned, with comparison, sums and negatives;
//! - [`engine`]: the value of a ruleset's position, each region once;
//! - [`thermograph`]: walls, mean and temperature; [`draw`]: its picture;
//! - [`show`]: values written as CGSuite writes them (`3/4`, `*2`, `^*`, `±1`, `{1|0||-1}`);
//! - [`term`]: a summand of an expression (a position, a value, a negative);
//! - [`atomic`]: the atomic weight of an all-small game;
//! - [`reduced`]: the reduced canonical form (the value modulo infinitesimals);
//! - [`analysis`]: outcome, stops, mean, temperature and winning moves of a sum;
//! - [`impartial`]: a position of any impartial ruleset as a summand (a nimber);
//! - [`games`]: the built-in rulesets, one a file;
//! - [`polyominoes`]: every fixed polyomino of a size, the single-region boards of grid games.
//!
//! ```
//! use nimbus::partizan::engine::value_of;
//! use nimbus::partizan::form::Forms;
//! use nimbus::partizan::games::domineering::Domineering;
//! use nimbus::partizan::show::show;
//!
//! let mut forms = Forms::default();
//! let board = Domineering::parse("..|..").unwrap(); // the 2 x 2 square: ±1
//! let g = value_of(&Domineering, &board, &mut forms)?;
//! assert_eq!(show(&mut forms, g)?, "±1");
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod analysis;
pub mod atomic;
pub mod draw;
pub mod dyadic;
pub mod engine;
pub mod form;
pub mod games;
pub mod impartial;
pub mod polyominoes;
pub mod reduced;
pub mod show;
pub mod term;
pub mod thermograph;

/// A partizan ruleset: what Left and Right may move to from a position.
pub trait Ruleset {
    /// A position.
    type Position: Clone + Eq + std::hash::Hash;

    /// Left's options.
    fn left_moves(&self, p: &Self::Position) -> Vec<Self::Position>;

    /// Right's options.
    fn right_moves(&self, p: &Self::Position) -> Vec<Self::Position>;

    /// The independent regions `p` falls into, whose values add up to its value, each in the
    /// form it is remembered by (symmetries of the board folded). By default `p` alone.
    fn regions(&self, p: &Self::Position) -> Vec<Self::Position> {
        vec![p.clone()]
    }

    /// How `p` is written, as the expression grammar reads it back.
    fn show(&self, p: &Self::Position) -> String;
}
