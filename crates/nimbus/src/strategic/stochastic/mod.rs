//! Two-player zero-sum stochastic games (Shapley 1953): the value of every state and
//! stationary strategies that guarantee it, with proven bounds, exact where the value is
//! rational.
//!
//! - [`game`]: the game — states, each a matrix game whose cells say where play goes next;
//! - [`operator`]: Shapley's operator, its stage games solved by the exact LP, and the exact
//!   test of a candidate value;
//! - [`respond`]: what a stationary strategy guarantees (the other player's best reply, an
//!   exact Markov decision problem);
//! - [`bounds`]: the certified interval of each state's value, and the answer;
//! - [`meter`]: the work spent, charged by the length of the numbers;
//! - [`value_iteration`], [`policy_iteration`]: the two ways to narrow it, the second after
//!   [`float_guide`], Newton's method in doubles;
//! - [`algebraic`]: a one-state game's irrational value, exactly (a polynomial's root).
//!
//! The values of a stochastic game with rational data can be irrational (they are algebraic):
//! then the answer is an interval of the width asked for, with strategies that guarantee its
//! ends, and for a game of one state also the value exactly, as the one root of an integer
//! polynomial in an interval (in closed form when that is a quadratic).
//!
//! ```
//! use nimbus::exact::show;
//! use nimbus::strategic::stochastic::{game::*, solve, Method, Options};
//! use nimbus::exact::Q;
//!
//! // One state, matching pennies that ends with probability 1/2 after each stage.
//! let q = |n: i64, d: i64| Q::new(n.into(), d.into());
//! let cell = |x: i64| Cell { payoff: q(x, 1), next: vec![(0, q(1, 2))] };
//! let state = State {
//!     name: "s".into(),
//!     rows: vec!["H".into(), "T".into()],
//!     columns: vec!["H".into(), "T".into()],
//!     cells: vec![cell(1), cell(-1), cell(-1), cell(1)],
//! };
//! let game = StochasticGame { discount: q(1, 1), states: vec![state] };
//! let s = solve(&game, &Options::default())?;
//! assert!(s.exact);
//! assert_eq!(show(&s.lower[0]), "0");
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod algebraic;
pub mod bounds;
pub mod float_guide;
pub mod game;
pub mod meter;
pub mod operator;
pub mod policy_iteration;
pub mod respond;
pub mod value_iteration;

pub use bounds::Solution;

use crate::core::error::Result;
use crate::exact::Q;
use game::StochasticGame;

/// How to narrow the values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Hoffman and Karp's policy iteration (few rounds; each solves Markov decision problems).
    #[default]
    PolicyIteration,
    /// Shapley's value iteration (many cheap rounds; the contraction's bound).
    ValueIteration,
}

/// What a solution may spend, and how narrow it must be.
#[derive(Debug, Clone)]
pub struct Options {
    /// The method.
    pub method: Method,
    /// The widest interval acceptable for a state's value when it is not found exactly.
    pub tolerance: Q,
    /// Bytes one stage game's LP may hold.
    pub max_memory: u64,
    /// Steps the whole computation may take.
    pub max_work: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            method: Method::default(),
            tolerance: Q::new(1.into(), num_bigint::BigInt::from(10).pow(12)),
            max_memory: crate::core::budget::default_max_memory(),
            max_work: crate::core::budget::DEFAULT_MAX_WORK,
        }
    }
}

/// Bytes an exact linear system over `n` states may hold: `n²` fractions of a few hundred
/// bytes as elimination lengthens them.
pub(crate) fn system_bytes(n: usize) -> u64 {
    (n as u64).saturating_mul(n as u64).saturating_mul(512)
}

/// Solves `game` (checked first) by the method of `opts`.
pub fn solve(game: &StochasticGame, opts: &Options) -> Result<Solution> {
    game.check()?;
    crate::core::budget::check_memory(
        &format!("the linear systems of the {} states", game.states.len()),
        system_bytes(game.states.len()),
        opts.max_memory,
    )?;
    let meter = meter::Meter::new(opts.max_work);
    let mut s = match opts.method {
        Method::PolicyIteration => policy_iteration::solve(game, opts, &meter),
        Method::ValueIteration => value_iteration::solve(game, opts, &meter),
    }?;
    if !s.exact && game.states.len() == 1 {
        // An irrational value, stated exactly: the root of a polynomial inside the bounds.
        let found = algebraic::one_state_value(
            game,
            (&s.lower[0], &s.upper[0]),
            (&s.row_strategy[0], &s.column_strategy[0]),
            &meter,
        )?;
        s.algebraic = vec![found];
    }
    Ok(s)
}
