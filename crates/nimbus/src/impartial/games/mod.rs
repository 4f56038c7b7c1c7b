//! The built-in rulesets, one file each. Closed forms live beside the rules they belong to;
//! the tests check each one against the generic engine.

pub mod digraph;
pub mod fibonacci;
pub mod grundy_game;
pub mod heap;
pub mod nim;
pub mod octal;
pub mod substring;
pub mod subtraction;
pub mod wythoff;
