//! Dyadic rationals m / 2^k: the numbers that short games are, and the stops, means and
//! temperatures of every short game.

use crate::core::error::{Error, Result};
use std::cmp::Ordering;
use std::fmt;

/// `num / 2^exp` in lowest terms (`num` odd unless `exp` is 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dyadic {
    num: i64,
    exp: u32,
}

/// The largest denominator exponent kept: a short game born on day `d` has denominators of at
/// most 2^d, and no game this engine can store is born past day 60.
pub const MOST_EXP: u32 = 60;

fn overflow() -> Error {
    Error::Overflow("a number of the game is past 2^62 or finer than 2^-60".into())
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };

    /// The integer `n`.
    pub const fn int(n: i64) -> Dyadic {
        Dyadic { num: n, exp: 0 }
    }

    /// `num / 2^exp`, reduced; an error past the range kept.
    pub fn new(num: i64, exp: u32) -> Result<Dyadic> {
        let (mut num, mut exp) = (num, exp);
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        if exp > MOST_EXP || num.unsigned_abs() > 1 << 62 {
            return Err(overflow());
        }
        Ok(Dyadic { num, exp })
    }

    /// The numerator in lowest terms.
    pub fn numerator(self) -> i64 {
        self.num
    }

    /// The exponent of the denominator 2^exp.
    pub fn exponent(self) -> u32 {
        self.exp
    }

    /// Whether this is an integer.
    pub fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// Both numbers over the larger denominator: (a's numerator, b's numerator, exponent).
    fn common(self, other: Dyadic) -> Option<(i128, i128, u32)> {
        let e = self.exp.max(other.exp);
        let a = (self.num as i128).checked_shl(e - self.exp)?;
        let b = (other.num as i128).checked_shl(e - other.exp)?;
        Some((a, b, e))
    }

    fn from_wide(num: i128, exp: u32) -> Result<Dyadic> {
        let (mut num, mut exp) = (num, exp);
        while exp > 0 && num % 2 == 0 {
            num /= 2;
            exp -= 1;
        }
        let num = i64::try_from(num).map_err(|_| overflow())?;
        Dyadic::new(num, exp)
    }

    /// The sum.
    pub fn plus(self, other: Dyadic) -> Result<Dyadic> {
        let (a, b, e) = self.common(other).ok_or_else(overflow)?;
        Dyadic::from_wide(a + b, e)
    }

    /// The difference.
    pub fn minus(self, other: Dyadic) -> Result<Dyadic> {
        self.plus(other.negated())
    }

    /// The negative.
    pub fn negated(self) -> Dyadic {
        Dyadic {
            num: -self.num,
            exp: self.exp,
        }
    }

    /// Half of it.
    pub fn half(self) -> Result<Dyadic> {
        Dyadic::new(self.num, self.exp + 1)
    }

    /// The largest integer at most this number.
    pub fn floor(self) -> i64 {
        self.num >> self.exp
    }

    /// The simplest number strictly between `lo` and `hi` (either unbounded when `None`), as
    /// the simplicity theorem chooses: the integer of least magnitude when there is one,
    /// otherwise the one of least denominator. `None` when `lo >= hi`.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Result<Option<Dyadic>> {
        if let (Some(l), Some(h)) = (lo, hi) {
            if l >= h {
                return Ok(None);
            }
        }
        // Integers strictly between.
        let first = lo.map(|l| l.floor() + 1);
        let last = hi.map(|h| {
            let f = h.floor();
            if h.is_integer() {
                f - 1
            } else {
                f
            }
        });
        let ok = |n: i64| first.is_none_or(|f| n >= f) && last.is_none_or(|l| n <= l);
        if ok(0) {
            return Ok(Some(Dyadic::ZERO));
        }
        match (first, last) {
            (Some(f), _) if f > 0 && ok(f) => return Ok(Some(Dyadic::int(f))),
            (_, Some(l)) if l < 0 && ok(l) => return Ok(Some(Dyadic::int(l))),
            _ => {}
        }
        // No integer between: both bounds exist and lie within one unit interval; the answer
        // has the least denominator 2^k with a multiple strictly between.
        let (l, h) = (lo.ok_or_else(overflow)?, hi.ok_or_else(overflow)?);
        for k in 1..=MOST_EXP {
            let unit = Dyadic::new(1, k)?;
            let (a, u, e) = l.common(unit).ok_or_else(overflow)?;
            // The least multiple of 2^-k above l.
            let m = a.div_euclid(u) + 1;
            let candidate = Dyadic::from_wide(m * u, e)?;
            if candidate < h {
                return Ok(Some(candidate));
            }
        }
        Err(overflow())
    }
}

impl Ord for Dyadic {
    fn cmp(&self, other: &Self) -> Ordering {
        let e = self.exp.max(other.exp);
        // Exponents are at most MOST_EXP and numerators below 2^63: i128 holds the shifts.
        let a = (self.num as i128) << (e - self.exp);
        let b = (other.num as i128) << (e - other.exp);
        a.cmp(&b)
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u64 << self.exp)
        }
    }
}

impl serde::Serialize for Dyadic {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(n: i64, e: u32) -> Dyadic {
        Dyadic::new(n, e).unwrap()
    }

    #[test]
    fn simplest_numbers_follow_the_simplicity_rule() {
        let s = |l, h| Dyadic::simplest_between(l, h).unwrap();
        assert_eq!(s(None, None), Some(Dyadic::ZERO));
        assert_eq!(s(Some(Dyadic::int(0)), None), Some(Dyadic::int(1)));
        assert_eq!(s(None, Some(Dyadic::int(-2))), Some(Dyadic::int(-3)));
        assert_eq!(s(Some(Dyadic::int(0)), Some(Dyadic::int(1))), Some(d(1, 1)));
        assert_eq!(s(Some(d(1, 2)), Some(Dyadic::int(1))), Some(d(1, 1)));
        assert_eq!(s(Some(d(1, 1)), Some(Dyadic::int(1))), Some(d(3, 2)));
        assert_eq!(s(Some(d(-3, 1)), Some(d(7, 2))), Some(Dyadic::ZERO));
        assert_eq!(s(Some(d(5, 3)), Some(d(7, 3))), Some(d(3, 2)));
        assert_eq!(s(Some(d(1, 1)), Some(d(1, 1))), None);
        assert_eq!(d(6, 3).to_string(), "3/4");
        assert_eq!(d(-4, 2).to_string(), "-1");
    }
}
