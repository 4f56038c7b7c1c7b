//! What a user asks of a sum of partizan games: its canonical form, who wins, its stops, mean
//! and temperature, its thermograph, and each side's winning moves.

use super::dyadic::Dyadic;
use super::form::{Forms, Id, ZERO};
use super::show::show_all;
use super::term::Term;
use super::thermograph::{Thermograph, Thermographs};
use crate::core::error::Result;
use serde::Serialize;

/// Who wins a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Outcome {
    /// Left wins whoever starts (the game is positive).
    L,
    /// Right wins whoever starts (negative).
    R,
    /// The player to move wins (fuzzy, confused with zero).
    N,
    /// The player to move loses (zero).
    P,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

/// The outcome of `g`.
pub fn outcome(forms: &mut Forms, g: Id) -> Result<Outcome> {
    let ge = forms.le(ZERO, g)?;
    let le = forms.le(g, ZERO)?;
    Ok(match (ge, le) {
        (true, true) => Outcome::P,
        (true, false) => Outcome::L,
        (false, true) => Outcome::R,
        (false, false) => Outcome::N,
    })
}

/// A summand and its value.
#[derive(Debug, Clone, Serialize)]
pub struct Part {
    /// The summand as the grammar writes it.
    pub game: String,
    /// Its canonical form.
    pub value: String,
}

/// A winning move.
#[derive(Debug, Clone, Serialize)]
pub struct Move {
    /// Which summand it is played in (from 1).
    pub component: usize,
    /// The summand after the move.
    pub to: String,
    /// The whole sum after the move, in the grammar.
    pub result: String,
    /// The value after the move.
    pub value: String,
}

/// The analysis of a sum.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The sum, in the grammar.
    pub expression: String,
    /// Its canonical form, as CGSuite writes it.
    pub canonical: String,
    /// Who wins.
    pub outcome: Outcome,
    /// Left's stop: where play ends with Left moving first, both stopping at a number.
    pub left_stop: Dyadic,
    /// Right's stop.
    pub right_stop: Dyadic,
    /// The mean (the thermograph's mast).
    pub mean: Dyadic,
    /// The temperature (for a number m/2^k, −1/2^k).
    pub temperature: Dyadic,
    /// The day the canonical form is born on.
    pub birthday: u32,
    /// Its thermograph.
    pub thermograph: Thermograph,
    /// Each summand's value, when there are several.
    pub components: Vec<Part>,
    /// Left's winning moves (moving first), at most the number asked for.
    pub left_wins: Vec<Move>,
    /// How many Left has.
    pub left_wins_total: usize,
    /// Right's winning moves.
    pub right_wins: Vec<Move>,
    /// How many Right has.
    pub right_wins_total: usize,
    /// Distinct canonical forms met on the way.
    pub forms: usize,
}

/// Analyses the sum of `terms`, listing at most `max_moves` winning moves a side.
pub fn analyse(terms: &[Box<dyn Term>], forms: &mut Forms, max_moves: usize) -> Result<Analysis> {
    let mut values = Vec::with_capacity(terms.len());
    let mut total = ZERO;
    for t in terms {
        let v = t.value(forms)?;
        values.push(v);
        total = forms.add(total, v)?;
    }
    let expression = write_sum(terms.iter().map(|t| t.expression()));
    let outcome = outcome(forms, total)?;
    let (left_stop, right_stop) = forms.stops(total);
    let thermograph = Thermographs::default().of(forms, total)?;
    let (left_wins, left_wins_total) = wins(terms, &values, total, true, forms, max_moves)?;
    let (right_wins, right_wins_total) = wins(terms, &values, total, false, forms, max_moves)?;
    let mut shown = show_all(forms, &values)?;
    let canonical = show_all(forms, &[total])?.remove(0);
    let components = if terms.len() > 1 {
        terms
            .iter()
            .zip(shown.drain(..))
            .map(|(t, value)| Part {
                game: t.expression(),
                value,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Analysis {
        expression,
        canonical,
        outcome,
        left_stop,
        right_stop,
        mean: thermograph.mean,
        temperature: thermograph.temperature,
        birthday: forms.birthday(total),
        thermograph,
        components,
        left_wins,
        left_wins_total,
        right_wins,
        right_wins_total,
        forms: forms.len(),
    })
}

/// Terms joined by `+`, a negated one written with `-`.
fn write_sum(parts: impl Iterator<Item = String>) -> String {
    let mut out = String::new();
    for (i, p) in parts.enumerate() {
        match (i, p.strip_prefix("-(").and_then(|q| q.strip_suffix(')'))) {
            (0, _) => out.push_str(&p),
            (_, Some(inner)) => {
                out.push_str(" - ");
                out.push_str(inner);
            }
            (_, None) => {
                out.push_str(" + ");
                out.push_str(&p);
            }
        }
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

/// The winning moves of one side moving first: those to a sum Left (`left`) wins moving
/// second, that is at least zero (for Right, at most zero).
fn wins(
    terms: &[Box<dyn Term>],
    values: &[Id],
    total: Id,
    left: bool,
    forms: &mut Forms,
    max_moves: usize,
) -> Result<(Vec<Move>, usize)> {
    let mut found = Vec::new();
    let mut count = 0;
    for (i, t) in terms.iter().enumerate() {
        let others = forms.sub(total, values[i])?;
        for o in t.options(left, forms)? {
            let v = o.value(forms)?;
            let after = forms.add(others, v)?;
            let good = if left {
                forms.le(ZERO, after)?
            } else {
                forms.le(after, ZERO)?
            };
            if !good {
                continue;
            }
            count += 1;
            if found.len() < max_moves {
                let result = write_sum(terms.iter().enumerate().map(|(j, s)| {
                    if j == i {
                        o.expression()
                    } else {
                        s.expression()
                    }
                }));
                found.push((i + 1, o.expression(), result, after));
            }
        }
    }
    let ids: Vec<Id> = found.iter().map(|f| f.3).collect();
    let texts = show_all(forms, &ids)?;
    let moves = found
        .into_iter()
        .zip(texts)
        .map(|((component, to, result, _), value)| Move {
            component,
            to,
            result,
            value,
        })
        .collect();
    Ok((moves, count))
}
