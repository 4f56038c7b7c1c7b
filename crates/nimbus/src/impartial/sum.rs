//! Disjunctive sums: the outcome, value and winning moves of a sum of components.
//!
//! By the Sprague–Grundy theorem the value of a sum is the xor `s` of its components' values.
//! The winning moves follow the constructive proof of Bouton's theorem (1901):
//! a move in component `i` wins exactly when it takes that component to value `g_i xor s`. When
//! `g_i xor s < g_i` such a move exists by the mex property; a move that *raises* a component
//! to `g_i xor s` wins as well, so every component is asked for its options of that value. The
//! moves are found inside single components; the sum's own game graph is never searched.
//!
//! Remoteness is different: it is not determined by the components' values, so the remoteness
//! of a sum of several components is found by searching the sum, and only when that search is
//! small enough (see [`AnalyzeOptions::remoteness_limit`]); otherwise it is reported unknown.

use super::analysis::{Analysis, AnalyzeOptions, ComponentReport, WinningMove};
use super::component::Component;
use super::explicit::{ExplicitGame, ProductGame};
use super::grundy::Engine;
use super::Outcome;
use crate::core::budget::Limits;
use crate::core::error::{Error, Result};

/// Analyses the sum of `components`.
pub fn analyze(components: &[Box<dyn Component>], opts: &AnalyzeOptions) -> Result<Analysis> {
    if components.is_empty() {
        return Err(Error::Invalid("the sum has no components".into()));
    }
    let mut notes = Vec::new();
    let mut values = Vec::with_capacity(components.len());
    for c in components {
        match c.grundy(opts.limits) {
            Ok(g) => values.push(g),
            Err(Error::Cycle { what, cycle }) => {
                let seen = format!("{what} has a cycle: {}", cycle.join(" -> "));
                return super::loopy::analyze_loopy(components, opts, &seen);
            }
            Err(err @ (Error::StateLimit { .. } | Error::Budget { .. })) => {
                if components.len() == 1 {
                    if let Some(a) = closed_form_only(c.as_ref(), &err, opts, &mut notes) {
                        return Ok(a);
                    }
                }
                return Err(err);
            }
            Err(err) => return Err(err),
        }
    }
    let total = values.iter().fold(0, |a, &g| a ^ g);
    let expressions: Vec<String> = components.iter().map(|c| c.expression()).collect();
    let mut winning_moves = Vec::new();
    let mut winning_moves_total = 0;
    let mut winning_moves_complete = true;
    if total != 0 {
        for (i, c) in components.iter().enumerate() {
            let target = values[i] ^ total;
            let room = opts.max_moves.saturating_sub(winning_moves.len());
            let moves = match c.moves_to_value(target, opts.limits, room) {
                Ok(m) => m,
                Err(Error::StateLimit { .. } | Error::Budget { .. }) => {
                    winning_moves_complete = false;
                    notes.push(format!(
                        "the moves of {} are too many to list within the position limit; its \
                         winning moves are not shown",
                        expressions[i]
                    ));
                    continue;
                }
                Err(e) => return Err(e),
            };
            if target < values[i] && moves.total == 0 {
                return Err(Error::Invalid(format!(
                    "internal inconsistency: {} has value {} but no option of value {target}",
                    expressions[i], values[i]
                )));
            }
            winning_moves_total += moves.total;
            for m in moves.items {
                let result = expressions
                    .iter()
                    .enumerate()
                    .map(|(j, e)| {
                        if j == i {
                            m.result.as_str()
                        } else {
                            e.as_str()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" + ");
                let description = if components.len() == 1 {
                    m.description
                } else {
                    format!("in {}: {}", expressions[i], m.description)
                };
                winning_moves.push(WinningMove {
                    component: i,
                    description,
                    result,
                });
            }
        }
    }
    let (component_remoteness, remoteness) = remoteness(components, opts, &mut notes);
    let reports = components
        .iter()
        .zip(&values)
        .zip(component_remoteness)
        .map(|((c, &g), r)| ComponentReport {
            game: c.expression(),
            grundy: Some(g),
            remoteness: r,
            gamma: None,
        })
        .collect();
    Ok(Analysis {
        outcome: Outcome::from_grundy(total),
        grundy: Some(total),
        components: reports,
        winning_moves,
        winning_moves_total,
        winning_moves_complete,
        remoteness,
        notes,
        gamma: None,
        drawing_moves: Vec::new(),
    })
}

/// The answer for a lone component whose value is out of reach but whose outcome has a closed
/// form (Wythoff's and Fibonacci Nim's P-positions).
fn closed_form_only(
    c: &dyn Component,
    refused: &Error,
    opts: &AnalyzeOptions,
    notes: &mut Vec<String>,
) -> Option<Analysis> {
    let outcome = c.closed_outcome()?;
    let moves = c.closed_winning_moves()?;
    notes.push(format!(
        "the Grundy value of {} is beyond {}; the outcome and the winning moves come from the \
         closed form of its P-positions",
        c.expression(),
        match refused {
            Error::Budget {
                resource: crate::core::error::Resource::Memory,
                limit,
                ..
            } => format!(
                "the memory budget ({})",
                crate::core::show::show_bytes(*limit)
            ),
            Error::Budget { limit, .. } => format!("the work budget ({limit} steps)"),
            _ => format!("the position limit ({})", opts.limits.max_states),
        }
    ));
    let grundy = (outcome == Outcome::P).then_some(0);
    let total = moves.len();
    Some(Analysis {
        outcome,
        grundy,
        components: vec![ComponentReport {
            game: c.expression(),
            grundy,
            remoteness: None,
            gamma: None,
        }],
        winning_moves: moves
            .into_iter()
            .take(opts.max_moves)
            .map(|m| WinningMove {
                component: 0,
                description: m.description,
                result: m.result,
            })
            .collect(),
        winning_moves_total: total,
        winning_moves_complete: true,
        remoteness: None,
        notes: notes.clone(),
        gamma: None,
        drawing_moves: Vec::new(),
    })
}

/// The remoteness of each component and of the sum, each `None` when its search would exceed
/// the remoteness limit.
fn remoteness(
    components: &[Box<dyn Component>],
    opts: &AnalyzeOptions,
    notes: &mut Vec<String>,
) -> (Vec<Option<u64>>, Option<u64>) {
    // Remoteness is extra: its searches get the remoteness share of the positions and a
    // matching share of the work, so that they never take longer than the answer itself.
    let max_states = opts.remoteness_limit.min(opts.limits.max_states);
    let limit = Limits {
        max_states,
        max_work: opts.limits.max_work.min(max_states.saturating_mul(16)),
        ..opts.limits
    };
    let mut graphs = Vec::new();
    let mut each = Vec::new();
    for c in components {
        // The graph is needed for the sum's remoteness even when the component's own has a
        // closed form; a search refused by the limits leaves both unknown.
        let alone_and_closed = components.len() == 1 && c.closed_remoteness().is_some();
        let g = (!alone_and_closed && c.size_hint() <= limit.max_states.saturating_mul(64))
            .then(|| c.explore(limit).ok())
            .flatten();
        let r = c.closed_remoteness().or_else(|| {
            g.as_ref().and_then(|g| {
                Engine::indexed(g, limit, c.expression())
                    .and_then(|mut e| e.entry(&0))
                    .ok()
                    .map(|e| e.remoteness)
            })
        });
        each.push(r);
        graphs.push(g);
    }
    if components.len() == 1 {
        if each[0].is_none() {
            notes.push(format!(
                "remoteness not computed: the search would exceed {} positions or {} moves",
                limit.max_states, limit.max_work
            ));
        }
        let r = each[0];
        return (each, r);
    }
    let parts: Option<Vec<_>> = graphs.into_iter().collect();
    let total = parts.as_ref().map(|p| {
        p.iter()
            .fold(1u64, |acc, g| acc.saturating_mul(g.len() as u64))
    });
    let sum = match (parts, total) {
        (Some(parts), Some(t))
            if t <= limit.max_states && product_moves(&parts) <= limit.max_work =>
        {
            let game = ProductGame { parts: &parts };
            Engine::hashed(&game, limit, "the sum")
                .entry(&vec![0; parts.len()])
                .ok()
                .map(|e| e.remoteness)
        }
        _ => None,
    };
    if sum.is_none() {
        notes.push(format!(
            "remoteness of the sum not computed: it needs a search of the sum's positions, more \
             than {} of them or {} moves",
            limit.max_states, limit.max_work
        ));
    }
    (each, sum)
}

/// The number of moves in the disjunctive sum of `parts`: each part's edges once for every
/// position of the others (saturating).
fn product_moves(parts: &[ExplicitGame]) -> u64 {
    (0..parts.len()).fold(0u64, |acc, i| {
        let others = parts
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(1u64, |a, (_, g)| a.saturating_mul(g.len() as u64));
        acc.saturating_add(others.saturating_mul(parts[i].edges() as u64))
    })
}
