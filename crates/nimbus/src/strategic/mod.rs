//! Strategic-form (normal-form) games with exact rational payoffs.
//!
//! - [`game`]: the n-player game, payoffs indexed by pure profiles, and the exact check of a
//!   mixed profile ([`game::verify`]);
//! - [`nfg`]: Gambit's `.nfg` format, both the payoff and the outcome forms, read and written;
//! - [`matrix`]: plain matrices for quick use (`"3 0; 5 1"`, CSV);
//! - [`simplex`]: an exact LP solver with integer (fraction-free) pivoting and Bland's rule;
//! - [`zerosum`]: matrix games — saddle points, and the value with both players' optimal
//!   mixed strategies from one LP and its dual (von Neumann's minimax theorem).

//!
//! ```
//! use nimbus::formats::matrix::parse_matrix;
//! use nimbus::strategic::{show, zerosum};
//!
//! // Rock, paper, scissors: value 0, every strategy with probability 1/3.
//! let a = parse_matrix("0 -1 1; 1 0 -1; -1 1 0", "the matrix")?;
//! let s = zerosum::solve(&a)?;
//! assert_eq!(show(&s.value), "0");
//! assert!(s.row_strategy.iter().all(|p| show(p) == "1/3"));
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod bimatrix;
pub mod enumpoly;
pub mod envelope;
pub mod game;
pub mod gnm;
pub mod lemke;
pub mod logit;
pub mod pure;
pub mod simpdiv;
pub mod support;
pub mod two_by_two;
pub mod vertex;
pub mod zerosum;
