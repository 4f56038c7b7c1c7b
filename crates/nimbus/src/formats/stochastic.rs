//! Stochastic games as text: a discount, then states, each with its cells.
//!
//! ```text
//! # comments run from '#' to the end of the line
//! discount 9/10            # optional: 1 (no discounting) when absent
//! state home
//!   rows stay leave        # optional action names; without them rows and columns are 1, 2, …
//!   columns stay leave
//!   stay stay: 1 -> home   # row, column: payoff, then where play goes next
//!   stay leave: 0 -> away 1/2, home 1/4   # the remaining 1/4: the game ends
//!   leave stay: 2          # no arrow: the game ends
//!   leave leave: -1 -> away
//! state away
//!   1 1: 0 -> away
//! ```
//!
//! A next state without a probability takes what the others leave. Every cell of a state must
//! be given exactly once; names of states and actions are words without spaces, `:`, `,` or
//! `#`.

use crate::core::error::{Error, Result, Span};
use crate::exact::{parse_number, Q};
use crate::strategic::stochastic::game::{Cell, State, StochasticGame};
use num_traits::{One, Signed, Zero};
use std::collections::HashMap;

/// A state being read: its cells by (row, column) and where each was written.
struct Draft {
    name: String,
    span: Span,
    rows: Option<Vec<String>>,
    columns: Option<Vec<String>>,
    cells: HashMap<(usize, usize), DraftCell>,
}

/// A cell being read: its payoff, its next states by name (a probability each, or none for
/// the rest) with where each was written, and where the cell was written.
type DraftCell = (Q, Vec<(String, Option<Q>, Span)>, Span);

/// Reads a stochastic game; `source` names the text in errors (a file's path).
pub fn parse(text: &str, source: &str) -> Result<StochasticGame> {
    let mut discount: Option<Q> = None;
    let mut drafts: Vec<Draft> = Vec::new();
    for (ln, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let at = |word: &str| Span {
            source: source.to_string(),
            line: ln + 1,
            column: offset(raw, word) + 1,
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            continue;
        };
        if !line.contains(':') {
            keyword(&words, &at, &mut discount, &mut drafts)?;
            continue;
        }
        let Some(d) = drafts.last_mut() else {
            return Err(Error::parse(at(first), "a cell before any 'state'"));
        };
        read_cell(d, line, &at)?;
    }
    if drafts.is_empty() {
        return Err(Error::Invalid(format!(
            "{source}: no states (begin each with 'state NAME')"
        )));
    }
    let index: HashMap<String, usize> = drafts
        .iter()
        .enumerate()
        .map(|(k, d)| (d.name.clone(), k))
        .collect();
    let states = drafts
        .into_iter()
        .map(|d| finish(d, &index))
        .collect::<Result<Vec<State>>>()?;
    Ok(StochasticGame {
        discount: discount.unwrap_or_else(Q::one),
        states,
    })
}

/// Reads a line that is not a cell: `discount`, `state`, `rows` or `columns`.
fn keyword(
    words: &[&str],
    at: &impl Fn(&str) -> Span,
    discount: &mut Option<Q>,
    drafts: &mut Vec<Draft>,
) -> Result<()> {
    let first = words[0];
    match first {
        "discount" => {
            let [_, d] = words[..] else {
                return Err(Error::parse(
                    at(first),
                    "write the discount as 'discount 9/10'",
                ));
            };
            if discount.is_some() {
                return Err(Error::parse(at(first), "the discount is given twice"));
            }
            *discount = Some(parse_number(d).map_err(|why| Error::parse(at(d), why))?);
        }
        "state" => {
            let [_, name] = words[..] else {
                return Err(Error::parse(
                    at(first),
                    "write a state as 'state NAME' (a name without spaces)",
                ));
            };
            if drafts.iter().any(|d| d.name == name) {
                return Err(Error::parse(
                    at(name),
                    format!("the state {name} is given twice"),
                ));
            }
            drafts.push(Draft {
                name: name.to_string(),
                span: at(name),
                rows: None,
                columns: None,
                cells: HashMap::new(),
            });
        }
        "rows" | "columns" => {
            let Some(d) = drafts.last_mut() else {
                return Err(Error::parse(
                    at(first),
                    format!("'{first}' before any 'state'"),
                ));
            };
            if !d.cells.is_empty() {
                return Err(Error::parse(
                    at(first),
                    format!("name the {first} before the state's cells"),
                ));
            }
            let names: Vec<String> = words[1..].iter().map(|w| w.to_string()).collect();
            if names.is_empty() {
                return Err(Error::parse(
                    at(first),
                    format!("'{first}' names no actions"),
                ));
            }
            if let Some(w) = words[1..]
                .iter()
                .enumerate()
                .find_map(|(k, w)| words[1..k + 1].contains(w).then_some(*w))
            {
                return Err(Error::parse(
                    at(w),
                    format!("the action {w} is named twice"),
                ));
            }
            let slot = if first == "rows" {
                &mut d.rows
            } else {
                &mut d.columns
            };
            if slot.is_some() {
                return Err(Error::parse(
                    at(first),
                    format!("the {first} are named twice"),
                ));
            }
            *slot = Some(names);
        }
        _ => {
            return Err(Error::parse(
                at(first),
                format!(
                    "'{first}' is not 'discount', 'state', 'rows', 'columns' or a cell \
                         ('ROW COLUMN: PAYOFF -> STATE PROBABILITY, ...')"
                ),
            ))
        }
    }
    Ok(())
}

/// Where `word` (a slice of `line`) starts, in characters.
fn offset(line: &str, word: &str) -> usize {
    let at = (word.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    line.get(..at.min(line.len()))
        .map_or(0, |s| s.chars().count())
}

/// Reads `ROW COLUMN: PAYOFF [-> STATE [P], ...]` into the state `d`.
fn read_cell(d: &mut Draft, line: &str, at: &impl Fn(&str) -> Span) -> Result<()> {
    let (head, tail) = line.split_once(':').expect("the caller saw a ':'");
    let who: Vec<&str> = head.split_whitespace().collect();
    let [r, c] = who[..] else {
        return Err(Error::parse(
            at(head.trim_start()),
            "a cell starts with its row and its column: 'ROW COLUMN: PAYOFF'",
        ));
    };
    let i = action(d.rows.as_deref(), r, "row", at)?;
    let j = action(d.columns.as_deref(), c, "column", at)?;
    let (pay, next) = match tail.split_once("->") {
        Some((p, n)) => (p.trim(), Some(n)),
        None => (tail.trim(), None),
    };
    if pay.is_empty() {
        return Err(Error::parse(at(r), "the cell has no payoff after ':'"));
    }
    let payoff = parse_number(pay).map_err(|why| Error::parse(at(pay), why))?;
    let mut targets = Vec::new();
    for part in next
        .map(|n| n.split(',').collect::<Vec<_>>())
        .unwrap_or_default()
    {
        let w: Vec<&str> = part.split_whitespace().collect();
        match w[..] {
            [name] => targets.push((name.to_string(), None, at(name))),
            [name, p] => {
                let q = parse_number(p).map_err(|why| Error::parse(at(p), why))?;
                if q.is_negative() || q > Q::one() {
                    return Err(Error::parse(
                        at(p),
                        format!("the probability {p} is not in [0, 1]"),
                    ));
                }
                targets.push((name.to_string(), Some(q), at(name)));
            }
            _ => {
                return Err(Error::parse(
                    at(part.trim_start()),
                    "write where play goes as 'STATE PROBABILITY', separated by commas",
                ))
            }
        }
    }
    if targets.iter().filter(|t| t.1.is_none()).count() > 1 {
        return Err(Error::parse(
            at(r),
            "only one next state may go without a probability (it takes the rest)",
        ));
    }
    if d.cells.insert((i, j), (payoff, targets, at(r))).is_some() {
        return Err(Error::parse(
            at(r),
            format!("the cell {r} {c} is given twice"),
        ));
    }
    Ok(())
}

/// The index of the action `word`: a declared name, or a number from 1.
fn action(
    names: Option<&[String]>,
    word: &str,
    what: &str,
    at: &impl Fn(&str) -> Span,
) -> Result<usize> {
    if let Some(k) = names.and_then(|ns| ns.iter().position(|n| n == word)) {
        return Ok(k);
    }
    match word.parse::<usize>() {
        Ok(k) if k >= 1 && names.is_none_or(|ns| k <= ns.len()) => Ok(k - 1),
        _ => Err(Error::parse(
            at(word),
            match names {
                Some(ns) => format!("no {what} {word} (the {what}s are {})", ns.join(", ")),
                None => {
                    format!("the {what} {word} is not a number from 1 (or name the {what}s first)")
                }
            },
        )),
    }
}

/// The state of a draft, every cell present and every next state resolved.
fn finish(d: Draft, index: &HashMap<String, usize>) -> Result<State> {
    let numbered = |n: Option<usize>| (1..=n.unwrap_or(0)).map(|k| k.to_string()).collect();
    let rows: Vec<String> = d
        .rows
        .clone()
        .unwrap_or_else(|| numbered(d.cells.keys().map(|k| k.0 + 1).max()));
    let columns: Vec<String> = d
        .columns
        .clone()
        .unwrap_or_else(|| numbered(d.cells.keys().map(|k| k.1 + 1).max()));
    let mut cells = Vec::with_capacity(rows.len() * columns.len());
    let mut draft_cells = d.cells;
    for (i, r) in rows.iter().enumerate() {
        for (j, c) in columns.iter().enumerate() {
            let Some((payoff, targets, span)) = draft_cells.remove(&(i, j)) else {
                return Err(Error::parse(
                    d.span.clone(),
                    format!(
                        "the state {} has no cell for row {r} and column {c}",
                        d.name
                    ),
                ));
            };
            let given: Q = targets.iter().filter_map(|t| t.1.as_ref()).sum();
            if given > Q::one() {
                return Err(Error::parse(
                    span,
                    "the probabilities add up to more than 1",
                ));
            }
            let mut next = Vec::with_capacity(targets.len());
            for (name, p, at) in targets {
                let Some(&t) = index.get(&name) else {
                    return Err(Error::parse(at, format!("no state is called {name}")));
                };
                let p = p.unwrap_or_else(|| Q::one() - &given);
                if !p.is_zero() {
                    next.push((t, p));
                }
            }
            cells.push(Cell { payoff, next });
        }
    }
    Ok(State {
        name: d.name,
        rows,
        columns,
        cells,
    })
}
