//! Two-player zero-sum games of perfect information, solved by search.
//!
//! A [`Game`] gives positions, moves, the side to move and the payoff at a terminal position.
//! Values follow the negamax convention: a value is always from the point of view of the side
//! to move, so a position's value is `max over moves m of reward(m) − value(after m)`. With no
//! rewards this is plain minimax; with rewards it is the sum-of-rewards model
//! Ṽ(s) = max_m w(m) − Ṽ(next).
//!
//! Solvers, one file each, all generic over [`Game`]:
//! - [`search::minimax`]: plain negamax over the whole tree, the reference every other solver is tested
//!   against;
//! - [`search::memo`]: minimax memoised on positions (exact values of score games such as the coin grid);
//! - [`search::alphabeta`]: negamax with alpha–beta pruning, an optional [`search::table`] (transposition table
//!   with a replacement policy), game-supplied move ordering and bounds, a depth limit with a
//!   heuristic evaluation, and a time limit;
//! - [`search::deepening`]: iterative deepening, ordering each iteration by the previous one's best moves;
//! - [`search::mtdf`]: null-window search, MTD(f) (Plaat et al. 1996) and its bisection variant;
//! - [`strong::retrograde`]: the strong solution of an [`Indexed`] game by retrograde analysis,
//!   in parallel; [`strong::tiers`]: tier by tier, two bits a position, on disk.
//!
//! Every search keeps its own stack of frames: the depth of a game does not grow the machine
//! stack.

//!
//! ```
//! use nimbus::sequential::games::tictactoe::TicTacToe;
//! use nimbus::sequential::search::{search, Method};
//! use nimbus::sequential::{Game, SearchLimits};
//!
//! // Tic-tac-toe is a draw, and every first move keeps it one.
//! let r = search(&TicTacToe, &TicTacToe.start(), Method::Auto, &SearchLimits::default(), u64::MAX)?;
//! assert_eq!(r.value, 0);
//! assert_eq!(r.best_moves.len(), 9);
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod explicit;
pub mod games;
pub mod search;
pub mod strong;

use crate::Result;
use serde::Serialize;
use std::fmt;
use std::time::{Duration, Instant};

/// A game value, from the side to move's point of view.
pub type Value = i64;

/// Larger than every value a game may produce; searches start from the window (−∞, +∞).
pub const INFINITY: Value = i64::MAX / 4;

/// Results a game written outside Rust (a script, a Python function) may give are below this
/// in size, so that the engines' sums, negations and remoteness adjustments cannot overflow.
pub const MAX_RESULT: Value = INFINITY / 4;

/// Whether a result given by a game written outside Rust is in range (below [`MAX_RESULT`]
/// in size; `i64::MIN`, whose negation does not exist, is not).
pub fn result_in_range(x: Value) -> bool {
    x.unsigned_abs() < MAX_RESULT as u64
}

/// The two players; [`Player::First`] moves at the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The player who moves first.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// A two-player zero-sum game of perfect information.
pub trait Game {
    /// A position, including whose turn it is.
    type Position: Clone;
    /// A move.
    type Move: Copy + PartialEq + fmt::Debug;

    /// The position play starts from.
    fn start(&self) -> Self::Position;
    /// Appends every legal move of `p` to `out` (which the caller has cleared). A position
    /// with no moves and no [`Game::outcome`] is scored 0 (nobody gains).
    fn moves(&self, p: &Self::Position, out: &mut Vec<Self::Move>);
    /// The position after playing `m`, a move that [`Game::moves`] gave for `p`.
    fn play(&self, p: &Self::Position, m: Self::Move) -> Self::Position;
    /// The payoff of a terminal position for the side to move, or `None` when play goes on.
    fn outcome(&self, p: &Self::Position) -> Option<Value>;
    /// Whose turn it is.
    fn to_move(&self, p: &Self::Position) -> Player;

    /// Whether [`Game::reward`] can be nonzero (score games).
    fn has_rewards(&self) -> bool {
        false
    }
    /// What the mover gains by playing `m` in `p` (the per-move reward w).
    fn reward(&self, _p: &Self::Position, _m: Self::Move) -> Value {
        0
    }
    /// A heuristic value of a non-terminal position for depth-limited search.
    fn evaluate(&self, _p: &Self::Position) -> Value {
        0
    }
    /// A key for the transposition table; `None` disables the table for this game. Two
    /// positions may share a key only when they have the same value at every depth and the
    /// same evaluation (a game may fold symmetric positions together); the best move the
    /// table remembers for a key is only a hint of where to start.
    fn key(&self, _p: &Self::Position) -> Option<u64> {
        None
    }
    /// Whether a search of `p` should first look up each child in the table, hoping that one
    /// of them already proves a cut-off (enhanced transposition cutoffs, Plaat et al. 1996).
    /// The look-ups cost a memory access a child, which pays only far from the leaves, where
    /// a cut-off saves a large subtree: the game says where that is.
    fn probe_children(&self, _p: &Self::Position) -> bool {
        false
    }
    /// The moves in the order a search should try them, and sound bounds `(lo, hi)` on the
    /// position's value. The list may leave out a move only when another listed move is
    /// provably at least as good; it is empty only when the bounds are equal (the value is
    /// then known) or the position has no moves.
    fn search_moves(&self, p: &Self::Position, out: &mut Vec<Self::Move>) -> (Value, Value) {
        self.moves(p, out);
        (-INFINITY, INFINITY)
    }
}

/// A game whose positions can be ranked into `0..size()`, for the array-based strong solver.
pub trait Indexed: Game {
    /// One more than the largest rank.
    fn size(&self) -> u64;
    /// The rank of a position.
    fn rank(&self, p: &Self::Position) -> u64;
    /// The position of a rank that [`Indexed::rank`] produced.
    fn unrank(&self, i: u64) -> Self::Position;
}

/// What the command line needs of a game: reading positions and moves, and drawing boards.
pub trait Notation: Game {
    /// The position reached by playing the moves written in `text` from the start (each
    /// game documents its own notation). Errors name the offending token.
    fn parse_position(&self, text: &str) -> Result<Self::Position>;
    /// One move typed by a user in position `p`; an illegal move is an error with the reason.
    fn parse_move(&self, p: &Self::Position, text: &str) -> Result<Self::Move>;
    /// A move as the user would type it.
    fn show_move(&self, m: Self::Move) -> String;
    /// A drawing of the position, several lines.
    fn show_position(&self, p: &Self::Position) -> String;
    /// What a value means at `p`, in words ("win", "X wins with its 12th stone").
    fn explain(&self, _p: &Self::Position, v: Value) -> String {
        format!("{} ({v})", result_word(v))
    }
    /// The move at `p` when it is a formality nobody chooses (a forced pass), so that a front-end
    /// plays it without asking.
    fn forced(&self, _p: &Self::Position) -> Option<Self::Move> {
        None
    }
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Search<M> {
    /// The value of the position for the side to move (at the searched depth when `exact` is
    /// false).
    pub value: Value,
    /// Every move that reaches the value (all of them, in search order).
    pub best_moves: Vec<M>,
    /// A principal variation: best moves for both sides from the position.
    pub pv: Vec<M>,
    /// Positions visited.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The depth searched, when the search was depth-limited.
    pub depth: Option<u32>,
    /// True when the value is the game's exact value (no depth limit or time limit cut it).
    pub exact: bool,
}

/// The options of a search that are not budgets: depth, time, the table's size (the budgets
/// are [`crate::core::budget::Limits`]).
#[derive(Debug, Clone, Copy)]
pub struct SearchLimits {
    /// Plies to search before the evaluation is used (`None`: to the end of the game).
    pub depth: Option<u32>,
    /// Stop at this instant with the best answer found so far.
    pub deadline: Option<Instant>,
    /// Entries of the transposition table, as a power of two.
    pub table_bits: u32,
    /// Stop after about this many nodes (the work budget), as at the deadline.
    pub max_nodes: Option<u64>,
    /// When set, the table starts at 2^`table_bits` entries and grows, up to 2^`grow_to_bits`,
    /// when a search outgrows it (see [`search::alphabeta::Searcher`]); otherwise its size is
    /// fixed.
    pub grow_to_bits: Option<u32>,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            depth: None,
            deadline: None,
            table_bits: 22,
            max_nodes: None,
            grow_to_bits: None,
        }
    }
}

/// The sign of a value as a result: win, loss or draw for the side to move.
pub fn result_word(v: Value) -> &'static str {
    match v.signum() {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    }
}
