//! Wythoff's game (Wythoff 1907): two heaps; take any number from one heap, or the same number
//! from both.
//!
//! The P-positions are the pairs `(a_k, a_k + k)` with `a_k = floor(k·φ)`, φ the golden ratio
//! (Beatty sequences). `floor(k·φ) = floor((k + floor(k·√5)) / 2)` because `k·√5` is irrational
//! for `k > 0`, and `floor(k·√5) = isqrt(5k²)` is exact in 128-bit integers for every heap up to
//! 10^18 — no floating point. Grundy values other than 0 have no known closed form; they come
//! from the generic engine for positions small enough to search.

use crate::core::budget::Limits;
use crate::core::error::Result;
use crate::impartial::component::{Listed, Ruleset};
use crate::impartial::{Impartial, Outcome};
use std::cell::RefCell;

/// Wythoff's game. A position is the two heaps, in the order written.
#[derive(Debug, Default)]
pub struct Wythoff {
    /// The last table of values computed: its dimensions and `G(x, y)` at `x * (b + 1) + y`.
    table: RefCell<Option<(u64, u64, Vec<u64>)>>,
}

/// Words of each line's bitset of seen values in [`table`]: a mex is at most the number of
/// options, x + y + min(x, y), and one spare word makes sure the scan always finds a free bit.
fn table_words(rows: u64, cols: u64) -> u64 {
    (rows + cols + rows.min(cols)).div_ceil(64) + 1
}

/// Below this many lines across, a table is a strip: only its long lines keep bitsets, and
/// the few values of a cell's short column and diagonal are read from the table itself.
const STRIP: u64 = 128;

/// The bytes [`table`] allocates and the steps it takes (entries filled, bitset words cleared
/// and values read), saturating, for the limits to check before it runs.
pub fn table_cost(a: u64, b: u64) -> (u64, u64) {
    let (rows, cols) = (a.saturating_add(1), b.saturating_add(1));
    let words = table_words(rows.min(u64::MAX / 4), cols.min(u64::MAX / 4));
    let entries = rows.saturating_mul(cols);
    let short = rows.min(cols);
    let (bitset_words, reads) = if short < STRIP {
        // A bitset for each long line; each cell reads its column and diagonal (2 · short).
        (
            short.saturating_mul(words),
            entries.saturating_mul(2 * short),
        )
    } else {
        // A bitset for every row, column and diagonal.
        (
            rows.saturating_add(cols)
                .saturating_mul(2)
                .saturating_mul(words),
            0,
        )
    };
    (
        bitset_words.saturating_add(entries).saturating_mul(8),
        bitset_words.saturating_add(entries).saturating_add(reads),
    )
}

/// `G(x, y)` for every `x <= a`, `y <= b`, row by row, at `x * (b + 1) + y`. A value is the
/// mex of the values already placed in its row, its column and its diagonal. A square-ish
/// table keeps each of those lines' values as a bitset, so a cell costs a scan of a few
/// machine words instead of a walk over its options; a strip (fewer than 128 rows or
/// columns) keeps bitsets for its long lines only — 20 × 184 847 would otherwise need 4 GB of
/// column bitsets — and reads the few values of each cell's short lines from the table.
pub fn table(a: u64, b: u64) -> Vec<u64> {
    let (rows, cols) = (a as usize + 1, b as usize + 1);
    if (rows.min(cols) as u64) < STRIP {
        return strip(rows, cols);
    }
    let words = table_words(rows as u64, cols as u64) as usize;
    let mut row = vec![0u64; rows * words];
    let mut col = vec![0u64; cols * words];
    let mut diag = vec![0u64; (rows + cols) * words];
    let mut g = vec![0u64; rows * cols];
    for x in 0..rows {
        for y in 0..cols {
            let d = y + rows - 1 - x;
            let (r, c, dg) = (&row[x * words..], &col[y * words..], &diag[d * words..]);
            let mut v = 0u64;
            for w in 0..words {
                let used = r[w] | c[w] | dg[w];
                if used != u64::MAX {
                    v = (w * 64) as u64 + (!used).trailing_zeros() as u64;
                    break;
                }
            }
            g[x * cols + y] = v;
            let (w, bit) = (v as usize / 64, 1u64 << (v % 64));
            row[x * words + w] |= bit;
            col[y * words + w] |= bit;
            diag[d * words + w] |= bit;
        }
    }
    g
}

/// [`table`] for a strip: a bitset for each long line (a row when there are fewer rows than
/// columns, else a column), with the index of its first word not yet full, so that a scan
/// starts there; the values of the cell's short line and diagonal (fewer than [`STRIP`] each)
/// are read from the table and skipped over.
fn strip(rows: usize, cols: usize) -> Vec<u64> {
    let across = rows <= cols;
    // Lines: the long ones, indexed by `line`; a cell is at `pos` along its line.
    let (lines, length) = if across { (rows, cols) } else { (cols, rows) };
    let at = |line: usize, pos: usize| {
        if across {
            line * cols + pos
        } else {
            pos * cols + line
        }
    };
    let words = table_words(rows as u64, cols as u64) as usize;
    let mut seen = vec![0u64; lines * words];
    let mut full = vec![0usize; lines];
    let mut g = vec![0u64; rows * cols];
    let mut others: Vec<u64> = Vec::with_capacity(2 * lines);
    for line in 0..lines {
        for pos in 0..length {
            // The cell's short line (earlier lines at the same position) and its diagonal.
            others.clear();
            others.extend((0..line).map(|l| g[at(l, pos)]));
            others.extend((1..=line.min(pos)).map(|d| g[at(line - d, pos - d)]));
            others.sort_unstable();
            let bits = &seen[line * words..(line + 1) * words];
            let mut w = full[line];
            while bits[w] == u64::MAX {
                w += 1;
            }
            full[line] = w;
            // The least value free in the long line and not among the others.
            let mut v = (w * 64) as u64;
            loop {
                let word = bits[v as usize / 64] | ((1u64 << (v % 64)) - 1);
                if word == u64::MAX {
                    v = (v / 64 + 1) * 64;
                    continue;
                }
                v = (v / 64) * 64 + (!word).trailing_zeros() as u64;
                if others.binary_search(&v).is_err() {
                    break;
                }
                v += 1;
            }
            g[at(line, pos)] = v;
            seen[line * words + v as usize / 64] |= 1u64 << (v % 64);
        }
    }
    g
}

/// `floor(k·φ)`, exactly.
pub fn lower(k: u64) -> u128 {
    let k = k as u128;
    // Saturates past the documented range (k above about 8·10^18) instead of wrapping.
    match k.checked_mul(k).and_then(|s| s.checked_mul(5)) {
        Some(five_k2) => (k + five_k2.isqrt()) / 2,
        None => u128::MAX,
    }
}

/// Largest heap Wythoff positions may have: keeps `5k²` and `n + k` inside 128 and 64 bits.
pub const MAX_HEAP: u64 = (1 << 63) - 1;

/// The largest `k` with `f(k) <= n`, for an increasing `f` with `f(0) = 0`.
fn last_at_most(n: u64, f: impl Fn(u64) -> u128) -> u64 {
    // Both sequences grow faster than 1.6·k, so k <= 0.625·n + 1 bounds the search.
    let (mut lo, mut hi) = (0u64, n / 8 * 5 + 5);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if f(mid) <= n as u128 {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The P-position partner of `n` (at most [`MAX_HEAP`]): the `m` with `(n, m)` a P-position.
pub fn partner(n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    // Every positive integer is exactly one of a_k = floor(kφ) or b_k = a_k + k (k >= 1).
    let k = last_at_most(n, lower);
    if lower(k) == n as u128 {
        return n + k;
    }
    let j = last_at_most(n, |j| lower(j) + j as u128);
    debug_assert_eq!(lower(j) + j as u128, n as u128);
    lower(j) as u64
}

/// Whether `(a, b)` is a P-position.
pub fn is_p(a: u64, b: u64) -> bool {
    partner(a) == b
}

impl Impartial for Wythoff {
    type Position = (u64, u64);
    fn moves(&self, &(a, b): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((0..a).map(|x| (x, b)));
        out.extend((0..b).map(|y| (a, y)));
        out.extend((1..=a.min(b)).map(|d| (a - d, b - d)));
    }
    fn show(&self, p: &(u64, u64)) -> String {
        self.expression(p)
    }
}

impl Ruleset for Wythoff {
    fn name(&self) -> String {
        "wythoff".into()
    }
    fn expression(&self, &(a, b): &(u64, u64)) -> String {
        format!("wythoff {a} {b}")
    }
    fn describe(&self, &(a, b): &(u64, u64), &(x, y): &(u64, u64)) -> String {
        if x < a && y < b {
            format!("take {} from both heaps ({a},{b} -> {x},{y})", a - x)
        } else if x < a {
            format!("take {} from heap 1 ({a} -> {x})", a - x)
        } else {
            format!("take {} from heap 2 ({b} -> {y})", b - y)
        }
    }
    fn closed_grundy(&self, &(a, b): &(u64, u64), limits: Limits) -> Result<Option<u64>> {
        if is_p(a, b) {
            return Ok(Some(0));
        }
        let cached =
            self.table.borrow().as_ref().and_then(|(ta, tb, t)| {
                (a <= *ta && b <= *tb).then(|| t[(a * (tb + 1) + b) as usize])
            });
        if cached.is_some() {
            return Ok(cached);
        }
        let what = format!("the table of wythoff values up to ({a}, {b})");
        if self.size_hint(&(a, b)) > limits.max_states {
            return Err(crate::Error::StateLimit {
                explored: 0,
                limit: limits.max_states,
                what,
            });
        }
        let (bytes, steps) = table_cost(a, b);
        crate::core::budget::check_memory(&what, bytes, limits.max_memory)?;
        crate::core::budget::check_work(&what, steps, limits.max_work)?;
        let t = table(a, b);
        let g = t[(a * (b + 1) + b) as usize];
        *self.table.borrow_mut() = Some((a, b, t));
        Ok(Some(g))
    }
    fn closed_moves_to_value(
        &self,
        p: &(u64, u64),
        target: u64,
        _limits: Limits,
        max: usize,
    ) -> Result<Option<Listed<(u64, u64)>>> {
        Ok((target == 0).then(|| Listed::from_all(self.p_options(p), max)))
    }
    fn closed_outcome(&self, &(a, b): &(u64, u64)) -> Option<Outcome> {
        Some(if is_p(a, b) { Outcome::P } else { Outcome::N })
    }
    fn closed_winning_moves(&self, p: &(u64, u64)) -> Option<Vec<(u64, u64)>> {
        Some(self.p_options(p))
    }
    fn normalize(&self, &(a, b): &(u64, u64)) -> (u64, u64) {
        (a.min(b), a.max(b))
    }
    fn size_hint(&self, &(a, b): &(u64, u64)) -> u64 {
        a.saturating_add(1).saturating_mul(b.saturating_add(1))
    }
    fn search_cost(&self, &(a, b): &(u64, u64)) -> u64 {
        let options = a
            .saturating_add(b)
            .saturating_add(a.min(b))
            .saturating_add(1);
        self.size_hint(&(a, b)).saturating_mul(options)
    }
}

impl Wythoff {
    /// Every option of `(a, b)` that is a P-position, from the closed form.
    pub fn p_options(&self, &(a, b): &(u64, u64)) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        // Keep b, lower a to b's partner; keep a, lower b to a's partner.
        let pb = partner(b);
        if pb < a {
            out.push((pb, b));
        }
        let pa = partner(a);
        if pa < b {
            out.push((a, pa));
        }
        // Take d from both: the difference stays, so the target is the P-pair of that
        // difference, (a_k, a_k + k) in the right order.
        let k = a.abs_diff(b);
        let lo = lower(k) as u64;
        if lo < a.min(b) {
            let d = a.min(b) - lo;
            out.push((a - d, b - d));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}
