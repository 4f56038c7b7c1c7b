//! What every family of games and every solver shares: the one error type, the budgets that
//! every table, search and LP asks before it allocates or runs, progress and interruption, and
//! the policy for reading input files.
//!
//! Nothing here knows a game or a solver; everything else may import it.

pub mod budget;
pub mod error;
pub mod hint;
pub mod input;
pub mod machine;
pub mod number;
pub mod progress;
pub mod sealed;
pub mod show;
pub mod svg;
