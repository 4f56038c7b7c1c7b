//! What a user asks of a sum of partizan games: its canonical form, who wins, its stops, mean
//! and temperature, its thermograph, and each side's winning moves.

use super::atomic::atomic_weight;
use super::dyadic::Dyadic;
use super::form::{Forms, Id, ZERO};
use super::reduced::reduced;
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
    /// Its reduced canonical form: the simplest game equal to it up to an infinitesimal
    /// (what is left when `^`, `*` and tinies are ignored).
    pub reduced: String,
    /// The day the canonical form is born on.
    pub birthday: u32,
    /// Its thermograph.
    pub thermograph: Thermograph,
    /// Its atomic weight, when it is all-small (else none).
    pub atomic_weight: Option<String>,
    /// Left's incentives, when asked for: each Left option of the canonical form minus the
    /// form (what the move gains Left), equal ones once.
    pub left_incentives: Option<Vec<String>>,
    /// Right's incentives, when asked for: the form minus each Right option (what the move
    /// gains Right, as Siegel counts it), equal ones once.
    pub right_incentives: Option<Vec<String>>,
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

/// Analyses the sum of `terms`, listing at most `max_moves` winning moves a side, with the
/// incentives when `incentives` (each is a difference of two large forms when the value is
/// hot and complex: a Snort path of 12 vertices is valued in 10 ms, its incentives take 1 s).
pub fn analyse(
    terms: &[Box<dyn Term>],
    forms: &mut Forms,
    max_moves: usize,
    incentives: bool,
) -> Result<Analysis> {
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
    let others = others_of(&values, forms)?;
    let (left_wins, left_wins_total) = wins(terms, &others, true, forms, max_moves)?;
    let (right_wins, right_wins_total) = wins(terms, &others, false, forms, max_moves)?;
    let atomic_weight = match atomic_weight(forms, total)? {
        Some(w) => Some(show_all(forms, &[w])?.remove(0)),
        None => None,
    };
    let (left_incentives, right_incentives) = if incentives {
        let (left, right) = incentives_of(forms, total)?;
        (
            Some(show_all(forms, &left)?),
            Some(show_all(forms, &right)?),
        )
    } else {
        (None, None)
    };
    let reduced_form = reduced(forms, total)?;
    let mut shown = show_all(forms, &values)?;
    let [canonical, reduced] =
        <[String; 2]>::try_from(show_all(forms, &[total, reduced_form])?).expect("two forms shown");
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
        reduced,
        outcome,
        left_stop,
        right_stop,
        mean: thermograph.mean,
        temperature: thermograph.temperature,
        birthday: forms.birthday(total),
        thermograph,
        atomic_weight,
        left_incentives,
        right_incentives,
        components,
        left_wins,
        left_wins_total,
        right_wins,
        right_wins_total,
        forms: forms.len(),
    })
}

/// The incentives of `g`: `G^L - G` for each Left option, `G - G^R` for each Right option of
/// its canonical form, each side's distinct values in increasing id order.
fn incentives_of(forms: &mut Forms, g: Id) -> Result<(Vec<Id>, Vec<Id>)> {
    let mut left = Vec::new();
    for o in forms.left(g).to_vec() {
        left.push(forms.sub(o, g)?);
    }
    let mut right = Vec::new();
    for o in forms.right(g).to_vec() {
        right.push(forms.sub(g, o)?);
    }
    for side in [&mut left, &mut right] {
        side.sort_unstable();
        side.dedup();
    }
    Ok((left, right))
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

/// For each summand, the sum of the others, from the sums before and after it: subtracting a
/// summand from the total instead adds two large forms that cancel, which costs as much as the
/// whole value did (a second for a Snort path of 12 vertices, valued in 10 ms).
fn others_of(values: &[Id], forms: &mut Forms) -> Result<Vec<Id>> {
    let mut suffix = vec![ZERO; values.len() + 1];
    for i in (0..values.len()).rev() {
        suffix[i] = forms.add(values[i], suffix[i + 1])?;
    }
    let mut prefix = ZERO;
    let mut out = Vec::with_capacity(values.len());
    for (i, &v) in values.iter().enumerate() {
        out.push(forms.add(prefix, suffix[i + 1])?);
        prefix = forms.add(prefix, v)?;
    }
    Ok(out)
}

/// The winning moves of one side moving first: those to a sum Left (`left`) wins moving
/// second, that is at least zero (for Right, at most zero); `others[i]` is the sum of every
/// summand but the i-th.
fn wins(
    terms: &[Box<dyn Term>],
    others: &[Id],
    left: bool,
    forms: &mut Forms,
    max_moves: usize,
) -> Result<(Vec<Move>, usize)> {
    let mut found = Vec::new();
    let mut count = 0;
    for (i, t) in terms.iter().enumerate() {
        for o in t.options(left, forms)? {
            let v = o.value(forms)?;
            let after = forms.add(others[i], v)?;
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
