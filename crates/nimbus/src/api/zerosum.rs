//! Matrix games: the value, saddle points and both players' optimal mixed strategies.

use super::{exact, Limits};
use crate::error::{Error, Result};
use crate::strategic::game::NormalForm;
use crate::strategic::zerosum::{solve_float_within, solve_within};
use crate::strategic::{show, to_f64, Q};
use num_traits::Zero;
use serde::Serialize;

/// What to compute.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Solve in floating point (for large games), with the duality gap instead of an exact
    /// value.
    pub float: bool,
}

/// The exact solution.
#[derive(Debug, Clone, Serialize)]
pub struct Exact {
    /// Rows of the matrix (the row player's strategies).
    pub rows: usize,
    /// Columns.
    pub columns: usize,
    /// The value of the game to the row player.
    #[serde(serialize_with = "exact::one")]
    pub value: Q,
    /// An optimal strategy of the row player.
    #[serde(serialize_with = "exact::list")]
    pub row_strategy: Vec<Q>,
    /// An optimal strategy of the column player.
    #[serde(serialize_with = "exact::list")]
    pub col_strategy: Vec<Q>,
    /// The best the row player can guarantee with a pure strategy.
    #[serde(serialize_with = "exact::one")]
    pub maximin: Q,
    /// The rows (0-based) that guarantee it.
    pub maximin_rows: Vec<usize>,
    /// The least the column player can concede with a pure strategy.
    #[serde(serialize_with = "exact::one")]
    pub minimax: Q,
    /// The columns (0-based) that achieve it.
    pub minimax_cols: Vec<usize>,
    /// Pure saddle points (row, column), 0-based.
    pub saddle_points: Vec<(usize, usize)>,
    /// Simplex pivots.
    pub pivots: usize,
    /// Remarks (how a non-zero-sum game was read).
    pub notes: Vec<String>,
}

/// The floating-point solution.
#[derive(Debug, Clone, Serialize)]
pub struct Float {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub columns: usize,
    /// The value, approximately.
    pub value: f64,
    /// A near-optimal strategy of the row player.
    pub row_strategy: Vec<f64>,
    /// A near-optimal strategy of the column player.
    pub col_strategy: Vec<f64>,
    /// What the row strategy guarantees against every column.
    pub row_guarantee: f64,
    /// What the column strategy concedes at most against every row.
    pub col_guarantee: f64,
    /// `col_guarantee - row_guarantee`: how far from exact.
    pub duality_gap: f64,
    /// Simplex pivots.
    pub pivots: usize,
    /// Remarks.
    pub notes: Vec<String>,
}

/// Either solution.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// From the exact LP.
    Exact(Box<Exact>),
    /// From the floating-point LP.
    Float(Float),
}

/// The matrix game of a two-player game: the first player's payoffs, which the second
/// player minimises; with a note when the game is not zero-sum.
pub fn matrix_of(game: &NormalForm, source: &str) -> Result<(Vec<Vec<Q>>, Vec<String>)> {
    if game.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "{source}: a matrix game has two players, this game {}",
            game.players.len()
        )));
    }
    let total = |k| {
        let p = game.payoffs_at(k);
        &p[0] + &p[1]
    };
    let c = total(0);
    let constant = (1..game.profiles()).all(|k| total(k) == c);
    let mut notes = Vec::new();
    if constant && !c.is_zero() {
        notes.push(format!(
            "the game is constant-sum (the payoffs add up to {} everywhere): the same \
             strategies are optimal as in the zero-sum game of the first player's payoffs, \
             solved here; the second player's value is {} minus the value",
            show(&c),
            show(&c)
        ));
    } else if !constant {
        notes.push(
            "the game is not zero-sum: this is the game of the first player's payoffs, which \
             the second player minimises (use nimbus nash for the game itself)"
                .to_string(),
        );
    }
    Ok((game.matrix(0), notes))
}

/// Solves the matrix game `a` (the row player receives the entry).
pub fn solve(a: &[Vec<Q>], req: &Request, limits: &Limits) -> Result<Answer> {
    if req.float {
        let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(to_f64).collect()).collect();
        let s = solve_float_within(&af, limits.max_memory)?;
        return Ok(Answer::Float(Float {
            rows: a.len(),
            columns: a[0].len(),
            value: s.value,
            row_strategy: s.row_strategy,
            col_strategy: s.col_strategy,
            row_guarantee: s.row_guarantee,
            col_guarantee: s.col_guarantee,
            duality_gap: s.duality_gap,
            pivots: s.pivots,
            notes: Vec::new(),
        }));
    }
    let s = solve_within(a, limits.max_memory)?;
    Ok(Answer::Exact(Box::new(Exact {
        rows: a.len(),
        columns: a[0].len(),
        value: s.value,
        row_strategy: s.row_strategy,
        col_strategy: s.col_strategy,
        maximin: s.maximin,
        maximin_rows: s.maximin_rows,
        minimax: s.minimax,
        minimax_cols: s.minimax_cols,
        saddle_points: s.saddle_points,
        pivots: s.pivots,
        notes: Vec::new(),
    })))
}

impl Answer {
    /// Adds a remark.
    pub fn note(&mut self, text: String) {
        match self {
            Answer::Exact(e) => e.notes.push(text),
            Answer::Float(f) => f.notes.push(text),
        }
    }
}
