//! Matrix games: the value, saddle points and both players' optimal mixed strategies.

use super::Limits;
use crate::core::error::{Error, Result};
use crate::exact::{show, to_f64, Q};
use crate::strategic::game::NormalForm;
use crate::strategic::solvers::zerosum::{solve_float_within, solve_within, FloatZeroSum, ZeroSum};
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
    /// The value, both optimal strategies, the pure maximin and minimax, saddle points.
    #[serde(flatten)]
    pub solution: ZeroSum,
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
    /// The value and strategies, with both guarantees and the duality gap.
    #[serde(flatten)]
    pub solution: FloatZeroSum,
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
             the second player minimises (the Nash equilibria of the game itself are its equilibria)"
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
            solution: s,
            notes: Vec::new(),
        }));
    }
    let s = solve_within(a, limits.max_memory)?;
    Ok(Answer::Exact(Box::new(Exact {
        rows: a.len(),
        columns: a[0].len(),
        solution: s,
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
