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
use super::period::{detect_period, proved_period, Period};
use crate::core::budget::Limits;
use crate::core::error::Result;
use serde::Serialize;

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
    let (values, tested) = rule.table_with_test(upto, limits)?;
    // A proved period first: the test may hold on a table too short for the evidence
    // `detect_period` asks of a period it cannot prove.
    let test =
        tested.unwrap_or_else(|| proved_period(&values, |pre, p| rule.proof_horizon(pre, p)));
    let (period, proved) = match test {
        Some(p) => (Some(p), true),
        None => {
            let period = detect_period(&values);
            (period, period.is_some_and(|p| is_proved(rule, &values, p)))
        }
    };
    Ok(Sequence {
        game: rule.name(),
        values,
        period,
        proved,
    })
}

/// Sums of heaps of one rule, as a game: a position is the sorted multiset of the heaps that
/// still have a move (heaps without one are the empty game, which adds nothing to a sum, even
/// in misère play). Equal heaps are never cancelled.
struct HeapSum<'a, R: ?Sized> {
    rule: &'a R,
}

impl<R: HeapRule + ?Sized> HeapSum<'_, R> {
    fn has_move(&self, n: u64, buf: &mut Vec<super::games::heap::HeapMove>) -> bool {
        buf.clear();
        self.rule.heap_moves(n, buf);
        !buf.is_empty()
    }
}

impl<R: HeapRule + ?Sized> super::Impartial for HeapSum<'_, R> {
    type Position = Vec<u64>;
    fn cost(&self, p: &Self::Position) -> u64 {
        crate::impartial::parts_cost(p.len())
    }

    fn moves(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        let mut moves = Vec::new();
        let mut probe = Vec::new();
        for i in 0..p.len() {
            // Equal heaps have the same moves: the first of them stands for all.
            if i > 0 && p[i] == p[i - 1] {
                continue;
            }
            moves.clear();
            self.rule.heap_moves(p[i], &mut moves);
            for m in &moves {
                let mut next: Vec<u64> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
                for &part in m.left() {
                    if self.has_move(part, &mut probe) {
                        next.push(part);
                    }
                }
                next.sort_unstable();
                out.push(next);
            }
        }
    }
}

/// The misère nim-sequence of a heap rule: `G⁻(n)`, the misère Grundy value of one heap of
/// `n` (a position with no move has value 1, any other the mex of its options' values), so a
/// heap is a misère P-position iff `G⁻(n) = 0`.
#[derive(Debug, Clone, Serialize)]
pub struct MisereSequence {
    /// The ruleset.
    pub game: String,
    /// `G⁻(0..=upto)`.
    pub values: Vec<u64>,
    /// Misère remoteness of each heap: moves until the game ends under optimal misère play.
    pub remoteness: Vec<u64>,
    /// The period seen in the table, if any.
    pub period: Option<Period>,
    /// Whether that period is proved to go on for ever (rules whose moves never split a heap,
    /// where the misère value of a heap depends only on the values of smaller heaps).
    pub proved: bool,
    /// How many positions (multisets of heaps) were searched.
    pub positions: u64,
}

/// The misère nim-sequence of `rule` up to `upto`. Misère values of a sum are not determined by
/// the values of its parts, so for a rule that splits heaps this is an exact search over the
/// multisets of heaps reachable, one memo shared by every `n`, bounded by `limits`.
pub fn misere_sequence<R: HeapRule + ?Sized>(
    rule: &R,
    upto: u64,
    limits: Limits,
) -> Result<MisereSequence> {
    super::games::heap::check_table(
        upto,
        rule.move_count(upto),
        limits,
        &format!("{} (misère)", rule.name()),
    )?;
    let game = super::misere::Misere(HeapSum { rule });
    let mut engine = super::grundy::Engine::hashed(
        &game,
        limits,
        format!("the misère nim-sequence of {}", rule.name()),
    );
    let mut values = Vec::with_capacity(upto as usize + 1);
    let mut remoteness = Vec::with_capacity(upto as usize + 1);
    let mut probe = Vec::new();
    for n in 0..=upto {
        let heap = if game.0.has_move(n, &mut probe) {
            vec![n]
        } else {
            Vec::new()
        };
        let e = engine.entry(&Some(heap))?;
        values.push(e.grundy);
        // The end move added by the misère transform is not a real move.
        remoteness.push(e.remoteness - 1);
    }
    let period = detect_period(&values);
    let proved = !rule.splits() && period.is_some_and(|p| is_proved(rule, &values, p));
    Ok(MisereSequence {
        game: rule.name(),
        values,
        remoteness,
        period,
        proved,
        positions: engine.explored(),
    })
}
