//! Nim-sequences of heap games and their periodicity.
//!
//! The nim-sequence of a heap game is `G(0), G(1), …`. Many are eventually periodic. Seeing a
//! repetition in a finite table is only evidence; for some families it is a proof once the
//! repetition has lasted long enough:
//! - octal games with a finite code (Guy and Smith 1956; Winning Ways ch. 4): if
//!   `G(n + p) = G(n)` for all `pre <= n < 2·pre + p + t`, where `t` is the largest number of
//!   tokens a move removes, then it holds for every `n >= pre`;
//! - subtraction games with a finite set whose largest element is `s`: `G(n)` depends only on
//!   the `s` values before it, so once `s` consecutive values repeat with period `p` the whole
//!   sequence does.
//!
//! Heap rules say which proof applies through [`HeapRule::proof_horizon`].

use super::games::heap::HeapRule;
use super::Limits;
use crate::error::Result;
use serde::Serialize;

/// An observed period of a finite table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    /// First index of the periodic part.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
}

/// The period that best explains `values`: among the periods `p` whose periodic part
/// (`G(n + p) = G(n)` from its start to the end of the table) covers at least three whole
/// periods and ten values, the one with the smallest `preperiod + period` (then the smallest
/// `p`). Shorter repetitions are too easily chance.
pub fn detect_period(values: &[u64]) -> Option<Period> {
    let len = values.len();
    let mut best: Option<Period> = None;
    for p in 1..=len / 2 {
        // The periodic part starts after the last index n with G(n) != G(n + p).
        let mut pre = 0;
        for n in (0..len - p).rev() {
            if values[n] != values[n + p] {
                pre = n + 1;
                break;
            }
        }
        if len - pre < (3 * p).max(10) {
            continue;
        }
        let cand = Period {
            preperiod: pre as u64,
            period: p as u64,
        };
        if best.is_none_or(|b| cand.preperiod + cand.period < b.preperiod + b.period) {
            best = Some(cand);
        }
        if let Some(b) = best {
            if (p as u64) >= b.preperiod + b.period {
                break;
            }
        }
    }
    best
}

/// Whether the observed `period` of `values` is proved by the rule's test.
pub fn is_proved<R: HeapRule + ?Sized>(rule: &R, values: &[u64], period: Period) -> bool {
    match rule.proof_horizon(period.preperiod, period.period) {
        Some(h) => (h as u128) < values.len() as u128,
        None => false,
    }
}

/// A computed nim-sequence with what is known of its period.
#[derive(Debug, Clone, Serialize)]
pub struct Sequence {
    /// The ruleset.
    pub game: String,
    /// `G(0..=upto)`.
    pub values: Vec<u64>,
    /// The period seen in the table, if any.
    pub period: Option<Period>,
    /// Whether that period is proved to go on for ever.
    pub proved: bool,
}

/// The nim-sequence of `rule` up to `upto`, computed directly (no shortcut from a period), with
/// its observed and, where a test applies, proved period.
pub fn nim_sequence<R: HeapRule + ?Sized>(rule: &R, upto: u64, limits: Limits) -> Result<Sequence> {
    let values = rule.table(upto, limits)?;
    let period = detect_period(&values);
    let proved = period.is_some_and(|p| is_proved(rule, &values, p));
    Ok(Sequence {
        game: rule.name(),
        values,
        period,
        proved,
    })
}
