//! Strategic-form (normal-form) games with exact rational payoffs.
//!
//! - [`game`]: the n-player game, payoffs indexed by pure profiles, and the exact check of a mixed
//!   profile ([`game::verify`]);
//! - [`bimatrix`]: two-player games as integer matrices, and the exact check of an equilibrium;
//! - [`solvers::zerosum`]: matrix games — saddle points, and the value with both players' optimal
//!   mixed strategies from one LP and its dual (von Neumann's minimax theorem);
//! - [`solvers::pure`]: pure equilibria of any number of players, and iterated dominance;
//! - [`solvers::vertex`]: every extreme equilibrium of a two-player game by vertex enumeration
//!   (reverse search), and the components they form;
//! - [`solvers::support`]: support enumeration, exact for degenerate games;
//! - [`solvers::lemke`]: Lemke–Howson, one path or the enumeration of Gambit's lcp;
//! - [`solvers::two_by_two`]: the indifference method for 2 × 2 games, and its picture;
//! - [`solvers::envelope`]: the upper envelope when one of two players has two strategies;
//! - [`solvers::enumpoly`]: every equilibrium of a game of any number of players (supports, boxes,
//!   Krawczyk's test, exact certification);
//! - [`repeated`]: repeated games with discounting — the set of subgame-perfect equilibrium
//!   payoffs between proven inner and outer polygons (Abreu–Pearce–Stacchetti, Abreu–Sannikov);
//! - [`solvers::logit`], [`solvers::simpdiv`], [`solvers::gnm`]: one equilibrium by the logit
//!   quantal-response path, simplicial subdivision, the global Newton method.
//!
//! Files (`.nfg`, matrices) are read in [`crate::formats`]; exact numbers and linear programs
//! are in [`crate::exact`].

//!
//! ```
//! use nimbus::formats::matrix::parse_matrix;
//! use nimbus::exact::show;
//! use nimbus::strategic::solvers::zerosum;
//!
//! // Rock, paper, scissors: value 0, every strategy with probability 1/3.
//! let a = parse_matrix("0 -1 1; 1 0 -1; -1 1 0", "the matrix")?;
//! let s = zerosum::solve(&a)?;
//! assert_eq!(show(&s.value), "0");
//! assert!(s.row_strategy.iter().all(|p| show(p) == "1/3"));
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod bimatrix;
pub mod dynamics;
pub mod game;
pub mod repeated;
pub mod solvers;
pub mod stochastic;
