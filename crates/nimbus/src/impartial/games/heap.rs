//! Heap games: games played on a row of heaps where a move changes one heap into at most two.
//!
//! Nim, subtraction games, octal games and Grundy's game all have this shape. A position of
//! several heaps is the disjunctive sum of its heaps, so its value is the xor of the heaps'
//! values `G(n)` (the nim-sequence), which every rule computes by a loop over `n` — heaps only
//! shrink, so no search and no stack is needed.

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::impartial::component::{Listed, Ruleset};
use crate::impartial::Impartial;
use std::cell::RefCell;

/// One move on one heap: `take` tokens are removed and the rest is left as `parts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapMove {
    /// Tokens removed.
    pub take: u64,
    /// The heaps left; only the first `count` are used.
    pub parts: [u64; 3],
    /// How many heaps are left: 0 to 3 (three for hexadecimal games).
    pub count: u8,
}

impl HeapMove {
    /// A move that leaves the heaps `parts` (zero-sized parts are dropped).
    pub fn new(take: u64, parts: &[u64]) -> Self {
        let mut m = HeapMove {
            take,
            parts: [0; 3],
            count: 0,
        };
        for &p in parts.iter().filter(|&&p| p > 0) {
            m.parts[m.count as usize] = p;
            m.count += 1;
        }
        m
    }
    /// The heaps left.
    pub fn left(&self) -> &[u64] {
        &self.parts[..self.count as usize]
    }
}

/// The nim-sequence of a heap rule, or the part of it computed so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapValues {
    /// `G(n) = n` (Nim).
    Identity,
    /// `G(0..table.len())`.
    Table(Vec<u64>),
    /// The table, and a proof that `G(n + period) = G(n)` for every `n >= preperiod`.
    Periodic {
        /// `G(0..table.len())`, with `table.len() >= preperiod + period`.
        table: Vec<u64>,
        /// First index of the periodic part.
        preperiod: u64,
        /// The period.
        period: u64,
    },
}

impl HeapValues {
    /// `G(n)`, if known.
    pub fn get(&self, n: u64) -> Option<u64> {
        match self {
            HeapValues::Identity => Some(n),
            HeapValues::Table(t) => t.get(usize::try_from(n).ok()?).copied(),
            HeapValues::Periodic {
                table,
                preperiod,
                period,
            } => {
                let i = if n < *preperiod {
                    n
                } else {
                    preperiod + (n - preperiod) % period
                };
                table.get(i as usize).copied()
            }
        }
    }

    /// Whether `G(n)` is known for every `n <= upto`.
    pub fn covers(&self, upto: u64) -> bool {
        match self {
            HeapValues::Identity | HeapValues::Periodic { .. } => true,
            HeapValues::Table(t) => (upto as u128) < t.len() as u128,
        }
    }
}

/// The rules of one heap.
pub trait HeapRule {
    /// The ruleset's name in the expression grammar.
    fn name(&self) -> String;
    /// The moves from a heap of `n`. Every heap left is smaller than `n`.
    fn heap_moves(&self, n: u64, out: &mut Vec<HeapMove>);
    /// `G(0..=upto)` computed directly. The default lists every move of every heap; rules
    /// override it with faster loops, which tests check against this default.
    fn table(&self, upto: u64, limits: Limits) -> Result<Vec<u64>> {
        generic_table(self, upto, limits)
    }
    /// [`HeapRule::table`], with the result of the rule's periodicity test on the table when
    /// the table was grown with it (octal games test as they grow): `Some(Some(p))`, the
    /// least period proved; `Some(None)`, none is; `None`, not tested.
    fn table_with_test(
        &self,
        upto: u64,
        limits: Limits,
    ) -> Result<(Vec<u64>, Option<Option<crate::impartial::period::Period>>)> {
        Ok((self.table(upto, limits)?, None))
    }
    /// Computes `G(0), G(1), …` until the rule's periodicity test
    /// ([`HeapRule::proof_horizon`]) proves a period, or the table would pass
    /// `limits.max_states` entries (the error): the period with its certificate. The default
    /// computes tables of doubling length; rules override it to grow one table.
    fn prove(&self, limits: Limits) -> Result<crate::impartial::period::Proof> {
        prove_by_doubling(self, limits)
    }
    /// [`HeapRule::prove`], starting from the values saved in `checkpoint` (when the file
    /// exists) and saving the values reached there as it goes (every minute, and when it stops
    /// on a budget or an interruption), for rules whose proofs run for hours: octal games.
    /// Others refuse.
    fn prove_resuming(
        &self,
        limits: Limits,
        checkpoint: &std::path::Path,
    ) -> Result<crate::impartial::period::Proof> {
        let _ = (limits, checkpoint);
        Err(crate::core::error::Error::Invalid(format!(
            "{} applies to the proofs of octal games, not to {}",
            crate::core::hint::setting("checkpoint"),
            self.name()
        )))
    }
    /// What is needed to know `G(0..=upto)`: the table, or a proved periodic form that covers
    /// it (and may reach far beyond what a table could hold).
    fn values(&self, upto: u64, limits: Limits) -> Result<HeapValues> {
        Ok(HeapValues::Table(self.table(upto, limits)?))
    }
    /// The moves from a heap of `n` to positions of value `target`, when the rule can find
    /// them without listing every move (Nim).
    fn moves_to_value(&self, _n: u64, _target: u64) -> Option<Vec<HeapMove>> {
        None
    }
    /// A move as a person would say it. `heap` is 1-based; `heaps` is how many there are.
    fn describe(&self, n: u64, heap: usize, heaps: usize, m: &HeapMove) -> String;
    /// Whether a move can split a heap in two.
    fn splits(&self) -> bool;
    /// Whether every non-terminal position reachable from a heap of `n` with value 0 has an
    /// option of value 1 (the SJ precondition), when a closed form says so.
    fn sj_closed(&self, _n: u64) -> Option<bool> {
        None
    }
    /// An upper bound on the number of moves from a heap of `n`.
    fn move_count(&self, n: u64) -> u64 {
        n
    }
    /// The largest `n` such that checking `G(m + period) = G(m)` for every `m` with
    /// `preperiod <= m` and `m + period <= n` proves that the period goes on for ever; `None`
    /// when the rule has no such test.
    fn proof_horizon(&self, _preperiod: u64, _period: u64) -> Option<u64> {
        None
    }
    /// The remoteness of a lone heap of `n` from a closed form, when there is one.
    fn closed_remoteness(&self, _n: u64) -> Option<u64> {
        None
    }
}

/// The standard description of a move that removes tokens, used by most rules.
pub fn describe_take(n: u64, heap: usize, heaps: usize, m: &HeapMove, noun: &str) -> String {
    let which = if heaps > 1 {
        format!("heap {heap}")
    } else {
        "the heap".to_string()
    };
    let left = match m.left() {
        [] => "leaving nothing".to_string(),
        [a] => format!("leaving {a}"),
        [a, b] => format!("leaving heaps of {a} and {b}"),
        [a, b, c] => format!("leaving heaps of {a}, {b} and {c}"),
        _ => unreachable!("at most three parts"),
    };
    let what = if m.take == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", m.take)
    };
    format!("take {what} from {which} of {n}, {left}")
}

/// A heap rule played on a row of heaps: the [`Ruleset`] for every heap game.
pub struct Heaps<R> {
    /// The rule of one heap.
    pub rule: R,
    values: RefCell<Option<HeapValues>>,
}

impl<R: HeapRule> Heaps<R> {
    /// The heap game of `rule`.
    pub fn new(rule: R) -> Self {
        Heaps {
            rule,
            values: RefCell::new(None),
        }
    }

    /// `G(n)` for one heap, computing and caching the nim-sequence as far as needed.
    pub fn heap_value(&self, n: u64, limits: Limits) -> Result<u64> {
        let known = self.values.borrow().as_ref().and_then(|v| v.get(n));
        if let Some(g) = known {
            return Ok(g);
        }
        let v = self.rule.values(n, limits)?;
        let g = v.get(n).ok_or_else(|| {
            Error::Invalid(format!(
                "{}: no value computed for heap {n}",
                self.rule.name()
            ))
        })?;
        *self.values.borrow_mut() = Some(v);
        Ok(g)
    }

    fn replace(p: &[u64], i: usize, m: &HeapMove) -> Vec<u64> {
        let mut q = Vec::with_capacity(p.len() + 1);
        q.extend_from_slice(&p[..i]);
        q.extend_from_slice(m.left());
        q.extend_from_slice(&p[i + 1..]);
        q
    }
}

impl<R: HeapRule> Impartial for Heaps<R> {
    type Position = Vec<u64>;
    fn cost(&self, p: &Self::Position) -> u64 {
        crate::impartial::parts_cost(p.len())
    }

    fn moves(&self, p: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        let mut ms = Vec::new();
        for (i, &n) in p.iter().enumerate() {
            ms.clear();
            self.rule.heap_moves(n, &mut ms);
            out.extend(ms.iter().map(|m| Self::replace(p, i, m)));
        }
    }
    fn show(&self, p: &Vec<u64>) -> String {
        self.expression(p)
    }
}

impl<R: HeapRule> Ruleset for Heaps<R> {
    fn name(&self) -> String {
        self.rule.name()
    }

    fn expression(&self, p: &Vec<u64>) -> String {
        let heaps: Vec<String> = if p.is_empty() {
            vec!["0".into()]
        } else {
            p.iter().map(u64::to_string).collect()
        };
        format!("{} {}", self.rule.name(), heaps.join(" "))
    }

    fn heap_size(&self, p: &Vec<u64>) -> Option<u64> {
        match p[..] {
            [n] => Some(n),
            _ => None,
        }
    }

    fn heap_parts(&self, n: u64, out: &mut Vec<Vec<u64>>) {
        let mut moves = Vec::new();
        self.rule.heap_moves(n, &mut moves);
        out.extend(moves.iter().map(|m| m.left().to_vec()));
    }

    fn heap_position(&self, parts: &[u64]) -> Option<Vec<u64>> {
        Some(parts.to_vec())
    }

    fn describe(&self, from: &Vec<u64>, to: &Vec<u64>) -> String {
        // Moves replace heap i by its parts in place, so the heap is the first difference.
        // A heap's parts are never equal to the heap itself, so the first difference is exact.
        let i = (0..from.len())
            .find(|&i| to.get(i) != Some(&from[i]))
            .unwrap_or(from.len() - 1);
        let count = to.len() + 1 - from.len();
        let parts = &to[i..i + count];
        let m = HeapMove::new(from[i] - parts.iter().sum::<u64>(), parts);
        self.rule.describe(from[i], i + 1, from.len(), &m)
    }

    fn closed_grundy(&self, p: &Vec<u64>, limits: Limits) -> Result<Option<u64>> {
        let mut g = 0;
        for &n in p {
            g ^= self.heap_value(n, limits)?;
        }
        Ok(Some(g))
    }

    fn closed_moves_to_value(
        &self,
        p: &Vec<u64>,
        target: u64,
        limits: Limits,
        max: usize,
    ) -> Result<Option<Listed<Vec<u64>>>> {
        let total = self.closed_grundy(p, limits)?.unwrap_or(0);
        let mut out = Listed::new();
        let mut ms = Vec::new();
        for (i, &n) in p.iter().enumerate() {
            let want = self.heap_value(n, limits)? ^ total ^ target;
            if let Some(direct) = self.rule.moves_to_value(n, want) {
                for m in &direct {
                    out.push_with(max, || Self::replace(p, i, m));
                }
                continue;
            }
            // Listing the moves of a heap takes memory in proportion to their number: refuse
            // beyond the state limit or the memory budget rather than exhaust memory.
            let count = self.rule.move_count(n);
            let what = format!("the moves of a heap of {n} in {}", self.rule.name());
            if count > limits.max_states {
                return Err(Error::StateLimit {
                    explored: 0,
                    limit: limits.max_states,
                    what,
                });
            }
            let each = (std::mem::size_of::<HeapMove>() + 16) as u64;
            crate::core::budget::check_memory(
                &what,
                count.saturating_mul(each),
                limits.max_memory,
            )?;
            ms.clear();
            self.rule.heap_moves(n, &mut ms);
            for m in &ms {
                let mut v = 0;
                for &part in m.left() {
                    v ^= self.heap_value(part, limits)?;
                }
                if v == want {
                    out.push_with(max, || Self::replace(p, i, m));
                }
            }
        }
        Ok(Some(out))
    }

    fn atoms(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
        p.iter().map(|&n| vec![n]).collect()
    }

    fn sj_closed(&self, p: &Vec<u64>) -> Option<bool> {
        match p.as_slice() {
            [n] => self.rule.sj_closed(*n),
            _ => None,
        }
    }

    fn normalize(&self, p: &Vec<u64>) -> Vec<u64> {
        let mut q: Vec<u64> = p.iter().copied().filter(|&n| n > 0).collect();
        q.sort_unstable();
        q
    }

    fn search_cost(&self, p: &Vec<u64>) -> u64 {
        let moves = p
            .iter()
            .fold(0u64, |a, &n| a.saturating_add(self.rule.move_count(n)));
        self.size_hint(p).saturating_mul(moves.max(1))
    }

    fn options_bytes(&self, p: &Vec<u64>) -> Option<u64> {
        let moves = p
            .iter()
            .fold(0u64, |a, &n| a.saturating_add(self.rule.move_count(n)));
        // Each option is a vector of heaps (one more after a split) with its allocation.
        let each = (std::mem::size_of::<Vec<u64>>() + 8 * (p.len() + 2) + 16) as u64;
        Some(moves.saturating_mul(each))
    }

    fn closed_remoteness(&self, p: &Vec<u64>) -> Option<u64> {
        let mut heaps = p.iter().filter(|&&n| n > 0);
        match (heaps.next(), heaps.next()) {
            (None, _) => Some(0),
            (Some(&n), None) => self.rule.closed_remoteness(n),
            _ => None,
        }
    }

    fn size_hint(&self, p: &Vec<u64>) -> u64 {
        if self.rule.splits() {
            // Positions are multisets of heaps with at most as many tokens in all: bounded by
            // the number of partitions of the numbers up to the total.
            let total: u64 = p.iter().fold(0u64, |a, &n| a.saturating_add(n));
            partitions_up_to(total)
        } else {
            p.iter()
                .fold(1u64, |a, &n| a.saturating_mul(n.saturating_add(1)))
        }
    }
}

/// `p(0) + p(1) + … + p(n)` (integer partitions), saturating; `u64::MAX` for large `n`.
fn partitions_up_to(n: u64) -> u64 {
    if n > 400 {
        return u64::MAX;
    }
    let n = n as usize;
    let mut p = vec![0u64; n + 1];
    p[0] = 1;
    for part in 1..=n {
        for m in part..=n {
            p[m] = p[m].saturating_add(p[m - part]);
        }
    }
    p.iter().fold(0u64, |a, &x| a.saturating_add(x))
}

/// Checks the limits before building a table of `upto + 1` values of which the last has at
/// most `moves` moves: the positions, the memory (8 bytes a value) and the work (the move
/// counts grow with the heap, so about half of `moves` a value).
pub fn check_table(upto: u64, moves: u64, limits: Limits, what: &str) -> Result<usize> {
    let what = format!("the nim-sequence of {what} up to {upto}");
    if upto >= limits.max_states {
        return Err(Error::StateLimit {
            explored: 0,
            limit: limits.max_states,
            what,
        });
    }
    let values = upto.saturating_add(1);
    crate::core::budget::check_memory(&what, values.saturating_mul(8), limits.max_memory)?;
    crate::core::budget::check_work(&what, values.saturating_mul(moves) / 2, limits.max_work)?;
    crate::core::progress::phase(&what, values);
    Ok(upto as usize)
}

/// `G(0..=upto)` by the definition: the mex of the values of every move's heaps.
pub fn generic_table<R: HeapRule + ?Sized>(
    rule: &R,
    upto: u64,
    limits: Limits,
) -> Result<Vec<u64>> {
    let upto = check_table(upto, rule.move_count(upto), limits, &rule.name())?;
    let mut g = Vec::with_capacity(upto + 1);
    let mut ms = Vec::new();
    let mut seen = Vec::new();
    for n in 0..=upto as u64 {
        if n % 1024 == 0 {
            crate::core::progress::tick(n)?;
        }
        ms.clear();
        rule.heap_moves(n, &mut ms);
        seen.clear();
        seen.extend(
            ms.iter()
                .map(|m| m.left().iter().fold(0, |a, &h| a ^ g[h as usize])),
        );
        g.push(crate::impartial::mex(&mut seen));
    }
    Ok(g)
}

/// The values of `rule` as far as `upto`, from tables of doubling length that stop as soon as
/// a period is proved ([`HeapRule::proof_horizon`]); so a heap far beyond any table, such as
/// `kayles 10^18`, gets its exact value once the period of its rule is proved.
pub fn values_by_doubling<R: HeapRule + ?Sized>(
    rule: &R,
    upto: u64,
    limits: Limits,
) -> Result<HeapValues> {
    use crate::impartial::period::proved_period;
    let cap = limits.max_states.saturating_sub(1);
    let mut len = 255u64;
    loop {
        let n = len.min(upto).min(cap);
        let table = rule.table(n, limits)?;
        // A proved period needs no further evidence, so the least one the table proves.
        if let Some(p) = proved_period(&table, |pre, p| rule.proof_horizon(pre, p)) {
            return Ok(HeapValues::Periodic {
                table,
                preperiod: p.preperiod,
                period: p.period,
            });
        }
        if n >= upto {
            return Ok(HeapValues::Table(table));
        }
        if n >= cap {
            return Err(Error::StateLimit {
                explored: table.len() as u64,
                limit: limits.max_states,
                what: format!(
                    "the nim-sequence of {} up to {upto} (no period proved within the limit)",
                    rule.name()
                ),
            });
        }
        len = len.saturating_mul(2).saturating_add(1);
    }
}

/// [`HeapRule::prove`] by tables of doubling length.
pub fn prove_by_doubling<R: HeapRule + ?Sized>(
    rule: &R,
    limits: Limits,
) -> Result<crate::impartial::period::Proof> {
    use crate::impartial::period::{proved_period, Proof};
    if rule.proof_horizon(0, 1).is_none() {
        return Err(Error::Invalid(format!(
            "no periodicity test is known for {}, so no period can be proved (octal games and \
             subtraction games with a finite set have one)",
            rule.name()
        )));
    }
    let cap = limits.max_states.saturating_sub(1);
    let mut len = 1023u64;
    loop {
        let n = len.min(cap);
        let table = rule.table(n, limits)?;
        if let Some(p) = proved_period(&table, |pre, p| rule.proof_horizon(pre, p)) {
            let h = rule
                .proof_horizon(p.preperiod, p.period)
                .expect("a proved period has a horizon");
            return Ok(Proof::of_table(&table, p, h));
        }
        if n >= cap {
            return Err(Error::StateLimit {
                explored: table.len() as u64,
                limit: limits.max_states,
                what: format!("a period of {} (none proved)", rule.name()),
            });
        }
        len = len.saturating_mul(2).saturating_add(1);
    }
}
