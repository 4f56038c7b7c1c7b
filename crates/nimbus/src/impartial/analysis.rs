//! What an analysis of a sum of impartial games answers, whatever the play convention and
//! whether the games have cycles: the outcome, the components' values, the winning moves and
//! the remoteness; and how a move in one atom is written back as the whole sum after it.
//!
//! Normal play ([`super::sum`]), misère play ([`super::misere`]) and games with cycles
//! ([`super::loopy`]) each fill these in; none of them needs another to say what an answer is.

use super::component::{Component, ComponentMove};
use super::Outcome;
use crate::core::budget::Limits;
use serde::Serialize;

/// How much work [`super::sum::analyze`] may do.
#[derive(Debug, Clone, Copy)]
pub struct AnalyzeOptions {
    /// Limits for the Grundy values of the components.
    pub limits: Limits,
    /// Largest number of positions searched to find a remoteness (of a component or of the
    /// whole sum); past it the remoteness is reported as unknown rather than failing.
    pub remoteness_limit: u64,
    /// At most this many winning moves are listed (all are counted).
    pub max_moves: usize,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            limits: Limits::default(),
            remoteness_limit: 2_000_000,
            max_moves: 20,
        }
    }
}

/// One component of an analysed sum.
#[derive(Debug, Clone, Serialize)]
pub struct ComponentReport {
    /// The component in the expression grammar.
    pub game: String,
    /// Its Sprague–Grundy value (unknown only for a lone component decided by a closed form).
    pub grundy: Option<u64>,
    /// Its remoteness, when the search for it was small enough.
    pub remoteness: Option<u64>,
    /// Its generalised Sprague–Grundy value, for games with cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gamma: Option<String>,
}

/// A winning move of the sum.
#[derive(Debug, Clone, Serialize)]
pub struct WinningMove {
    /// The index of the component the move is made in.
    pub component: usize,
    /// The move as a person would say it.
    pub description: String,
    /// The whole sum after the move, in the expression grammar.
    pub result: String,
}

/// Everything known about a sum.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// N or P.
    pub outcome: Outcome,
    /// The value of the sum (the xor of its components' values).
    pub grundy: Option<u64>,
    /// The components, in the order written.
    pub components: Vec<ComponentReport>,
    /// The winning moves (at most [`AnalyzeOptions::max_moves`]).
    pub winning_moves: Vec<WinningMove>,
    /// How many winning moves there are in all (a lower bound when not complete).
    pub winning_moves_total: usize,
    /// False when some component had too many moves to search for winning ones.
    pub winning_moves_complete: bool,
    /// Moves left under optimal play, when known.
    pub remoteness: Option<u64>,
    /// How the answer was obtained, where that is not the plain xor rule.
    pub notes: Vec<String>,
    /// The generalised Sprague–Grundy value of the sum, for games with cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gamma: Option<String>,
    /// For a drawn position: the moves that keep the draw (no move wins there).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawing_moves: Vec<WinningMove>,
}

/// The whole sum after atom `i` makes move `m`, written with the user's components: atom `j`
/// is written `names[j]` and belongs to component `parents[j]`. Shared with the analysis of
/// games with cycles.
pub(crate) fn move_in_sum(
    parents: &[usize],
    names: &[String],
    components: &[Box<dyn Component>],
    i: usize,
    m: ComponentMove,
) -> WinningMove {
    let parent = parents[i];
    let mut parts = Vec::new();
    for (c, comp) in components.iter().enumerate() {
        if c != parent {
            parts.push(comp.expression());
            continue;
        }
        let exprs: Vec<String> = (0..names.len())
            .filter(|&j| parents[j] == c)
            .map(|j| {
                if j == i {
                    m.result.clone()
                } else {
                    names[j].clone()
                }
            })
            .collect();
        parts.push(join_atoms(&comp.game(), &exprs));
    }
    let description = if names.len() == 1 {
        m.description
    } else {
        format!("in {}: {}", names[i], m.description)
    };
    WinningMove {
        component: parent,
        description,
        result: parts.join(" + "),
    }
}

/// Writes atoms of one ruleset back as one component: `nim 1` and `nim 4` give `nim 1 4`
/// (empty heaps are left out unless nothing else is left).
pub(crate) fn join_atoms(game: &str, exprs: &[String]) -> String {
    if exprs.len() == 1 {
        return exprs[0].clone();
    }
    let prefix = format!("{game} ");
    let rests: Vec<&str> = exprs
        .iter()
        .map(|e| e.strip_prefix(&prefix).unwrap_or(e))
        .filter(|r| *r != "0")
        .collect();
    if rests.is_empty() {
        format!("{game} 0")
    } else {
        format!("{game} {}", rests.join(" "))
    }
}
