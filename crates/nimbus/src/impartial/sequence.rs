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
use crate::core::budget::Limits;
use crate::core::error::Result;
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
/// periods, ten values, and as many values as come before it, the one with the smallest
/// `preperiod + period` (then the smallest `p`). Shorter repetitions are too easily chance: a
/// game with a long preperiod shows many brief patterns at the end of a short table.
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
        if len - pre < (3 * p).max(10).max(pre) {
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

/// The least period that the table proves by the rule's test (`horizon(preperiod, period)`:
/// the last index the test needs equal to the one a period later), with its preperiod.
/// `horizon` must grow with both arguments and be at least `preperiod + period` (as every
/// known test's is): then the first `p` proved is the least period of the sequence and its
/// preperiod the true one.
///
/// For every `p` at once, the periodic stretch at the end of the table is read off the
/// Z-function of the reversed table (`z[p]`: how far the table read backwards agrees with
/// itself shifted by `p`), so the whole search is linear in the table's length.
pub fn proved_period<T: Eq>(
    values: &[T],
    horizon: impl Fn(u64, u64) -> Option<u64>,
) -> Option<Period> {
    period_test(values, horizon, &mut Vec::new()).0
}

/// [`proved_period`], and when no period is proved, the shortest table that could prove one of
/// the periods the table ends in: the least `horizon(pre, p) + 1` over the `p` whose pattern
/// holds to the end (whether it goes on holding is for a longer table to say). A table that
/// grows in steps tests again there rather than far past it. `z` is scratch space, kept by
/// a caller that tests again (a fresh array of that size each time was mostly page faults).
pub(crate) fn period_test<T: Eq>(
    values: &[T],
    horizon: impl Fn(u64, u64) -> Option<u64>,
    z: &mut Vec<u32>,
) -> (Option<Period>, Option<u64>) {
    let len = values.len();
    let at = |i: usize| &values[len - 1 - i];
    // z[i]: the length of the longest common prefix of the reversed table and its suffix
    // from i (the classic linear algorithm).
    z.clear();
    z.resize(len, 0);
    let (mut l, mut r) = (0usize, 0usize);
    for i in 1..len {
        let mut k = if i < r {
            (z[i - l] as usize).min(r - i)
        } else {
            0
        };
        while i + k < len && at(k) == at(i + k) {
            k += 1;
        }
        z[i] = k as u32;
        if i + k > r {
            l = i;
            r = i + k;
        }
    }
    let mut needs: Option<u64> = None;
    for (p, &stretch) in z.iter().enumerate().skip(1) {
        // A test sees at least one whole period past the preperiod (`horizon(pre, p) >= pre
        // + p`), which needs `z[p] > 0`: most periods end here, before the call.
        if stretch == 0 {
            continue;
        }
        // G(n) = G(n + p) for n from `pre` to the end of the table.
        let pre = (len - p - stretch as usize) as u64;
        let Some(h) = horizon(pre, p as u64) else {
            continue;
        };
        if (h as u128) < len as u128 {
            return (
                Some(Period {
                    preperiod: pre,
                    period: p as u64,
                }),
                None,
            );
        }
        let h = h.saturating_add(1);
        needs = Some(needs.map_or(h, |x| x.min(h)));
    }
    (None, needs)
}

/// The CRC-32 of `values`, each a 64-bit little-endian integer, as 8 hex digits: the checksum
/// of a proved period's certificate (Python: `zlib.crc32(struct.pack("<%dQ" % len(v), *v))`).
pub fn checksum_of(values: impl Iterator<Item = u64>) -> String {
    let mut h = crc32fast::Hasher::new();
    for v in values {
        h.update(&v.to_le_bytes());
    }
    format!("{:08x}", h.finalize())
}

/// A proved period with its certificate, and the values that describe the whole sequence.
#[derive(Debug, Clone)]
pub struct Proof {
    /// `G(0..preperiod + period)`: every value, by the period.
    pub table: Vec<u64>,
    /// The period and where it starts.
    pub period: Period,
    /// The last `n` the periodicity test compared.
    pub checked_upto: u64,
    /// [`checksum_of`] `G(0..=checked_upto)`.
    pub checksum: String,
}

impl Proof {
    /// The proof that `table` (which reaches the test's horizon `checked_upto`) gives of
    /// `period`; the table is cut to what describes the sequence.
    pub fn of_table<T: Copy + Into<u64>>(table: &[T], period: Period, checked_upto: u64) -> Self {
        let checksum = checksum_of(table[..=checked_upto as usize].iter().map(|&v| v.into()));
        let keep = (period.preperiod + period.period) as usize;
        Proof {
            table: table[..keep].iter().map(|&v| v.into()).collect(),
            period,
            checked_upto,
            checksum,
        }
    }
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
