//! Octal games (Guy and Smith 1956; Winning Ways ch. 4), given by their code `d0.d1d2d3…`.
//!
//! Digit `d_k` (0–7) says what a move that removes `k` tokens from one heap may leave: bit 1,
//! nothing (the heap had exactly `k`); bit 2, one non-empty heap; bit 4, two non-empty heaps.
//! The digit before the point is for `k = 0`: only 0 or 4 make sense (4: split a heap in two
//! without removing anything; 2 would be a pass, which is not an octal game's move).
//! Kayles is 0.77, Dawson's Kayles 0.07, Dawson's chess 0.137.
//!
//! Hexadecimal codes (`hex 0.8f`) have digits up to f: bit 8 also allows leaving three
//! non-empty heaps (Howse and Nowakowski 2004); the digit before the point may then be 0, 4,
//! 8 or c.
//!
//! The nim-sequence is computed by the sparse-space method (`games/sparse.rs`); periods are
//! proved by the Guy–Smith test, for hexadecimal codes in its form for moves that leave up to
//! three heaps.

use super::heap::{check_table, describe_take, values_by_doubling, HeapMove, HeapRule, HeapValues};
use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::impartial::period::{Period, Proof};
use crate::impartial::sparse::{self, Takes};

/// An octal game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Octal {
    /// `digits[k]` for removing `k` tokens, without trailing zeros.
    digits: Vec<u8>,
    /// The name it is written with ("kayles", or "octal 0.137").
    name: String,
    /// What the tokens are called in move descriptions.
    noun: &'static str,
}

impl Octal {
    /// The game of `code`, such as "0.77" or "4.07". Digits must be 0–7 and the digit before
    /// the point 0 or 4; the error names the offending character (0-based index in `code`).
    pub fn parse(code: &str) -> Result<Self, (usize, String)> {
        Self::parse_radix(code, 8)
    }

    /// The hexadecimal game of `code`, such as "0.8f": digits 0–f, the one before the point
    /// 0, 4, 8 or c (splits into two or three heaps without removal).
    pub fn parse_hex(code: &str) -> Result<Self, (usize, String)> {
        let mut g = Self::parse_radix(code, 16)?;
        g.name = format!("hex {code}");
        Ok(g)
    }

    fn parse_radix(code: &str, radix: u32) -> Result<Self, (usize, String)> {
        let (kind, example, splits) = match radix {
            8 => ("an octal", "0.77", "0 or 4 (a split without removal)"),
            _ => (
                "a hexadecimal",
                "0.8f",
                "0, 4, 8 or c (a split without removal)",
            ),
        };
        let (whole, frac) = match code.split_once('.') {
            Some((w, f)) => (w, f),
            None => {
                return Err((
                    0,
                    format!("'{code}' is not {kind} code: expected a form like {example}"),
                ))
            }
        };
        let mut digits = Vec::new();
        let d0 = match u8::from_str_radix(if whole.is_empty() { "0" } else { whole }, radix) {
            Ok(d) if d < 16 && d & 3 == 0 && (radix == 16 || d < 8) => d,
            _ => {
                return Err((
                    0,
                    format!("the digit before the point must be {splits}, not '{whole}'"),
                ))
            }
        };
        digits.push(d0);
        for (i, ch) in frac.char_indices() {
            match ch.to_digit(radix) {
                Some(d) => digits.push(d as u8),
                None => {
                    let range = if radix == 8 { "0-7" } else { "0-9, a-f" };
                    return Err((
                        whole.len() + 1 + i,
                        format!("'{ch}' is not {kind} digit ({range}) in the code '{code}'"),
                    ));
                }
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(Octal {
            digits,
            name: format!("octal {code}"),
            noun: "token",
        })
    }

    /// Kayles (0.77): knock down one pin or two adjacent pins from a row.
    pub fn kayles() -> Self {
        Self::named("0.77", "kayles")
    }

    /// Dawson's Kayles (0.07): knock down two adjacent pins.
    pub fn dawson() -> Self {
        Self::named("0.07", "dawson")
    }

    /// Dawson's chess (0.137): the pawn game whose positions are heaps of 0.137; its values
    /// are Dawson's Kayles' shifted by one heap.
    pub fn dawson_chess() -> Self {
        let mut g = Self::named("0.137", "dawson-chess");
        g.noun = "token";
        g
    }

    fn named(code: &str, name: &str) -> Self {
        let mut g = Self::parse(code).expect("built-in codes are valid");
        g.name = name.into();
        g.noun = "pin";
        g
    }

    /// Whether a move may leave three heaps (a hexadecimal digit with bit 8).
    fn three_heaps(&self) -> bool {
        self.digits.iter().any(|d| d & 8 != 0)
    }

    /// The largest number of tokens a move removes.
    pub fn max_take(&self) -> u64 {
        self.digits.len() as u64 - 1
    }

    /// The moves of the code, as lists of takes.
    pub(crate) fn takes(&self) -> Takes {
        Takes::of_digits(&self.digits)
    }

    /// [`HeapRule::prove`], from and to a checkpoint file when one is given.
    fn prove_with(&self, limits: Limits, checkpoint: Option<&std::path::Path>) -> Result<Proof> {
        let cap = limits.max_states.saturating_sub(1).min(u32::MAX as u64 - 1) as usize;
        let what = format!("a period of {}", self.name);
        crate::core::progress::phase(&what, cap as u64);
        let horizon = |pre, p| self.proof_horizon(pre, p);
        let (values, period) = sparse::grow(
            &self.takes(),
            cap,
            true,
            &limits,
            &what,
            &horizon,
            checkpoint,
        )?;
        let period = period.expect("grow with prove returns a period or an error");
        let h = self
            .proof_horizon(period.preperiod, period.period)
            .expect("octal games have a test");
        Ok(Proof::of_table(&values, period, h))
    }

    /// `G(0..=upto)` by the naive loop over every split (quadratic): the independent method
    /// the tests hold [`HeapRule::table`] to.
    pub fn naive_table(&self, upto: u64) -> Vec<u64> {
        sparse::naive(&self.takes(), upto as usize)
            .into_iter()
            .map(u64::from)
            .collect()
    }
}

impl HeapRule for Octal {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn heap_moves(&self, n: u64, out: &mut Vec<HeapMove>) {
        for (k, &d) in self.digits.iter().enumerate() {
            let k = k as u64;
            if k > n {
                break;
            }
            let m = n - k;
            if d & 1 != 0 && m == 0 && k > 0 {
                out.push(HeapMove::new(k, &[]));
            }
            if d & 2 != 0 && m > 0 && k > 0 {
                out.push(HeapMove::new(k, &[m]));
            }
            if d & 4 != 0 && m >= 2 {
                out.extend((1..=m / 2).map(|a| HeapMove::new(k, &[a, m - a])));
            }
            if d & 8 != 0 && m >= 3 {
                // a <= b <= c, a + b + c = m.
                for a in 1..=m / 3 {
                    out.extend((a..=(m - a) / 2).map(|b| HeapMove::new(k, &[a, b, m - a - b])));
                }
            }
        }
    }

    fn table(&self, upto: u64, limits: Limits) -> Result<Vec<u64>> {
        Ok(self.table_with_test(upto, limits)?.0)
    }

    fn table_with_test(
        &self,
        upto: u64,
        limits: Limits,
    ) -> Result<(Vec<u64>, Option<Option<Period>>)> {
        // The sparse method's work depends on how the values fall, so it is not known in
        // advance: the table's memory is checked here and the work as it is done.
        let n = check_table(upto, 0, limits, &self.name)?;
        if n >= u32::MAX as usize {
            return Err(Error::Overflow(format!("heap {upto} of {}", self.name)));
        }
        let what = format!("the nim-sequence of {} up to {upto}", self.name);
        let horizon = |pre, p| self.proof_horizon(pre, p);
        // `grow` tests the table it ends with (its last test is on the whole table, or on
        // the part the period was proved on, which the rest repeats).
        let (values, period) =
            sparse::grow(&self.takes(), n, false, &limits, &what, &horizon, None)?;
        Ok((values.into_iter().map(u64::from).collect(), Some(period)))
    }

    fn prove(&self, limits: Limits) -> Result<Proof> {
        self.prove_with(limits, None)
    }

    fn prove_resuming(&self, limits: Limits, checkpoint: &std::path::Path) -> Result<Proof> {
        self.prove_with(limits, Some(checkpoint))
    }

    fn values(&self, upto: u64, limits: Limits) -> Result<HeapValues> {
        values_by_doubling(self, upto, limits)
    }

    fn describe(&self, n: u64, heap: usize, heaps: usize, m: &HeapMove) -> String {
        if self.noun == "pin" {
            let which = if heaps > 1 {
                format!("row {heap} ({n} pins)")
            } else {
                format!("the row of {n}")
            };
            let left = match m.left() {
                [] => "leaving no pins".to_string(),
                [a] => format!("leaving a row of {a}"),
                [a, b] => format!("leaving rows of {a} and {b}"),
                [a, b, c] => format!("leaving rows of {a}, {b} and {c}"),
                _ => unreachable!("at most three parts"),
            };
            let what = if m.take == 1 {
                "1 pin".to_string()
            } else {
                format!("{} pins", m.take)
            };
            return format!("knock down {what} from {which}, {left}");
        }
        if m.take == 0 {
            return match m.left() {
                [a, b, c] => format!("split the heap of {n} into {a}, {b} and {c}"),
                [a, b] => format!("split the heap of {n} into {a} and {b}"),
                _ => unreachable!("a split leaves two or three heaps"),
            };
        }
        describe_take(n, heap, heaps, m, self.noun)
    }

    fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 12 != 0)
    }

    fn move_count(&self, n: u64) -> u64 {
        let per_take = if self.three_heaps() {
            (n / 2).saturating_mul(n / 6) + n / 2 + 2
        } else if self.splits() {
            n / 2 + 2
        } else {
            2
        };
        per_take.saturating_mul(self.digits.len() as u64)
    }

    fn proof_horizon(&self, preperiod: u64, period: u64) -> Option<u64> {
        // Guy–Smith: with moves that leave at most j heaps, equality for
        // preperiod <= m < j·preperiod + (j - 1)·period + t suffices (the largest heap a move
        // leaves is then past the preperiod by a period, in n and in n + period alike), so
        // the largest index compared is j·(preperiod + period) + t - 1; j = 2 for octal games.
        let t = self.max_take() as u128;
        let j: u128 = if self.three_heaps() { 3 } else { 2 };
        (j * (preperiod as u128 + period as u128) + t)
            .checked_sub(1)
            .and_then(|h| u64::try_from(h).ok())
    }
}
