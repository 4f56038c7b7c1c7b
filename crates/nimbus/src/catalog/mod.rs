//! Games by name: the catalogue that turns what a user writes into a game.
//!
//! - [`impartial`]: sums of impartial games in the expression grammar (`nim 3 4 5 + kayles 7`,
//!   `octal 0.137 20`, `script:FILE 9`);
//! - [`sequential`]: the built-in two-player games of perfect information (`tictactoe`,
//!   `connect4:5x4`, …);
//! - [`trees`]: the built-in game trees (`kuhn`, `leduc`).
//!
//! The catalogue sits above the families and the script engine: it may import any of them, and
//! none of them imports it.

pub mod impartial;
pub mod sequential;
pub mod trees;
