//! Games written in a host's own language (the Python package's games of Python functions):
//! the traits a host implements so that the solvers take its games as they take the built-in
//! ones, and the words those traits speak.

pub use crate::impartial::component::{Component, Positioned, Ruleset};
pub use crate::impartial::games::heap::{describe_take, HeapMove, HeapRule, Heaps};
pub use crate::impartial::Impartial;
pub use crate::partizan::term::{Played, Term};
pub use crate::partizan::Ruleset as PartizanRuleset;
pub use crate::sequential::search::Method;
pub use crate::sequential::{result_in_range, Game, Notation, Player, Value, MAX_RESULT};
