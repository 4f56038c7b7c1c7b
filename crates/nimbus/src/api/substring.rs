//! The substring game (append a letter to one of the strings so that it stays a substring of
//! S; who cannot move loses, or wins under misère play): the position read from words, its
//! outcome, values, winning moves and remoteness.

use super::Limits;
use crate::core::error::{Result, Span};
use crate::impartial::games::substring::{
    analyze_substrings, parse_position, words_of, SubstringOptions,
};

// The words of the answer, for the front-ends.
pub use crate::impartial::games::substring::{quoted, SubstringAnalysis};

/// Where the position's words come from: S first, then (optionally the count, then) the
/// strings.
#[derive(Debug, Clone, Copy)]
pub enum Words<'a> {
    /// The text of a file, whitespace between the words; `source` names it in errors.
    Text {
        /// The file's text.
        text: &'a str,
        /// Its name in errors.
        source: &'a str,
    },
    /// Words given one by one (command-line arguments: "argument 1" is S).
    List(&'a [String]),
}

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
    /// Budgets.
    pub limits: Limits,
    /// At most this many winning moves are listed.
    pub max_moves: usize,
    /// At most this many strings are described one by one.
    pub max_strings: usize,
}

/// The analysis, with what was read.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The outcome, values, winning moves and remoteness.
    pub analysis: SubstringAnalysis,
    /// S.
    pub text: String,
    /// States of S's suffix automaton, which the game is played on.
    pub automaton_states: usize,
    /// How many strings the position has.
    pub strings: usize,
}

/// Analyses the position `words` give.
pub fn solve(words: Words, req: &Request) -> Result<Answer> {
    let words = match words {
        Words::Text { text, source } => words_of(text, source),
        Words::List(list) => list
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let span = Span {
                    source: format!("argument {}", i + 1),
                    line: 1,
                    column: 1,
                };
                (w.clone(), span)
            })
            .collect(),
    };
    let (game, strings) = parse_position(&words)?;
    let opts = SubstringOptions {
        misere: req.misere,
        limits: req.limits,
        max_moves: req.max_moves,
        max_strings: req.max_strings,
    };
    let analysis = analyze_substrings(&game, &strings, &opts)?;
    Ok(Answer {
        analysis,
        text: game.text().to_string(),
        automaton_states: game.automaton().len(),
        strings: strings.len(),
    })
}
