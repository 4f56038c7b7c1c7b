//! Octal games (Guy and Smith 1956; Winning Ways ch. 4), given by their code `d0.d1d2d3…`.
//!
//! Digit `d_k` (0–7) says what a move that removes `k` tokens from one heap may leave: bit 1,
//! nothing (the heap had exactly `k`); bit 2, one non-empty heap; bit 4, two non-empty heaps.
//! The digit before the point is for `k = 0`: only 0 or 4 make sense (4: split a heap in two
//! without removing anything; 2 would be a pass, which is not an octal game's move).
//! Kayles is 0.77, Dawson's Kayles 0.07, Dawson's chess 0.137.
//!
//! The nim-sequence is computed by the sparse-space method (`games/sparse.rs`); periods are
//! proved by the Guy–Smith test.

use super::heap::{check_table, describe_take, values_by_doubling, HeapMove, HeapRule, HeapValues};
use super::sparse::{self, Takes};
use crate::error::{Error, Result};
use crate::impartial::sequence::Proof;
use crate::impartial::Limits;

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
        let (whole, frac) = match code.split_once('.') {
            Some((w, f)) => (w, f),
            None => {
                return Err((
                    0,
                    format!("'{code}' is not an octal code: expected a form like 0.77"),
                ))
            }
        };
        let mut digits = Vec::new();
        let d0 = match whole {
            "" | "0" => 0,
            "4" => 4,
            _ => {
                return Err((
                    0,
                    format!(
                        "the digit before the point must be 0 or 4 (a split without removal), not '{whole}'"
                    ),
                ))
            }
        };
        digits.push(d0);
        for (i, ch) in frac.char_indices() {
            match ch.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => {
                    return Err((
                        whole.len() + 1 + i,
                        format!("'{ch}' is not an octal digit (0-7) in the code '{code}'"),
                    ))
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
        crate::progress::phase(&what, cap as u64);
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
        }
    }

    fn table(&self, upto: u64, limits: Limits) -> Result<Vec<u64>> {
        // The sparse method's work depends on how the values fall, so it is not known in
        // advance: the table's memory is checked here and the work as it is done.
        let n = check_table(upto, 0, limits, &self.name)?;
        if n >= u32::MAX as usize {
            return Err(Error::Overflow(format!("heap {upto} of {}", self.name)));
        }
        let what = format!("the nim-sequence of {} up to {upto}", self.name);
        let horizon = |pre, p| self.proof_horizon(pre, p);
        let (values, _) = sparse::grow(&self.takes(), n, false, &limits, &what, &horizon, None)?;
        Ok(values.into_iter().map(u64::from).collect())
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
                _ => unreachable!("at most two parts"),
            };
            let what = if m.take == 1 {
                "1 pin".to_string()
            } else {
                format!("{} pins", m.take)
            };
            return format!("knock down {what} from {which}, {left}");
        }
        if m.take == 0 {
            let [a, b] = m.parts;
            return format!("split the heap of {n} into {a} and {b}");
        }
        describe_take(n, heap, heaps, m, self.noun)
    }

    fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    fn move_count(&self, n: u64) -> u64 {
        let per_take = if self.splits() { n / 2 + 2 } else { 2 };
        per_take.saturating_mul(self.digits.len() as u64)
    }

    fn proof_horizon(&self, preperiod: u64, period: u64) -> Option<u64> {
        // Guy–Smith: equality for preperiod <= m < 2·preperiod + period + t suffices, so the
        // largest index compared is 2·preperiod + 2·period + t - 1.
        let t = self.max_take();
        (2 * preperiod as u128 + 2 * period as u128 + t as u128)
            .checked_sub(1)
            .and_then(|h| u64::try_from(h).ok())
    }
}
