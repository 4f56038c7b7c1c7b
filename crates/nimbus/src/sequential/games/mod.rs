//! Rulesets for the sequential solvers, one file each.

pub mod carrot;
pub mod coin_grid;
pub mod connect4;
pub mod nim;
pub mod tictactoe;

use crate::sequential::Notation;
use crate::{Error, Result, Span};

/// A parse error in a position string, at the 1-based character `column` of `text`.
pub(crate) fn bad_token(what: &str, column: usize, message: impl Into<String>) -> Error {
    Error::parse(
        Span {
            source: what.to_string(),
            line: 1,
            column,
        },
        message,
    )
}

/// The characters of `text` other than spaces and commas, each with its 1-based column.
pub(crate) fn char_tokens(text: &str) -> Vec<(usize, String)> {
    text.chars()
        .enumerate()
        .filter(|&(_, c)| !c.is_whitespace() && c != ',')
        .map(|(i, c)| (i + 1, c.to_string()))
        .collect()
}

/// The words of `text`, each with the 1-based column (in characters) where it starts.
pub(crate) fn word_tokens(text: &str) -> Vec<(usize, String)> {
    let mut words = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            words.extend(current.take());
        } else {
            current
                .get_or_insert_with(|| (i + 1, String::new()))
                .1
                .push(c);
        }
    }
    words.extend(current);
    words
}

/// "1 ply", "5 plies".
pub fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

/// Plays the moves `tokens` from the start; an illegal one is an error at its column.
pub(crate) fn play_tokens<G: Notation>(g: &G, tokens: Vec<(usize, String)>) -> Result<G::Position> {
    let mut p = g.start();
    for (column, t) in tokens {
        let m = g
            .parse_move(&p, &t)
            .map_err(|e| bad_token("the position", column, e.to_string()))?;
        p = g.play(&p, m);
    }
    Ok(p)
}
