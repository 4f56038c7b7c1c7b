//! Fractions of machine words, for exact computations whose numbers are usually small:
//! `i128` numerators and denominators in lowest terms, several times faster than big
//! fractions (which reduce by a big-integer gcd after every operation).
//!
//! An operation that would overflow does not wrap or panic: it marks the thread's attempt as
//! failed and returns zero (comparisons never fail: they are exact, whatever the size). Code generic over its numbers (the polygons of the repeated
//! games, say) runs unchanged in [`Small`] inside [`attempt`], which says whether every
//! operation was exact; when one was not, the caller runs again in [`super::Q`]. A flag of
//! the thread rather than a `Result` from each operation is what lets the generic code stay
//! generic: its comparisons and sums cannot return errors.

use super::Q;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::cell::Cell;
use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Neg, Sub};

thread_local! {
    static OVERFLOWED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, and returns its result when no [`Small`] operation in it overflowed (`None`
/// otherwise: its result may be wrong). Attempts may nest.
pub fn attempt<T>(f: impl FnOnce() -> T) -> Option<T> {
    let outer = OVERFLOWED.replace(false);
    let value = f();
    let failed = OVERFLOWED.replace(outer);
    (!failed).then_some(value)
}

fn overflow() -> Small {
    OVERFLOWED.set(true);
    Small { n: 0, d: 1 }
}

/// A fraction `n / d` with `d > 0` and `gcd(n, d) = 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Small {
    n: i128,
    d: i128,
}

impl Small {
    /// `n / d`, reduced (`d` nonzero; a zero `d` counts as an overflow).
    pub fn new(n: i128, d: i128) -> Small {
        if d == 0 || n == i128::MIN || d == i128::MIN {
            return overflow();
        }
        let g = n.gcd(&d);
        let (n, d) = (n / g, d / g);
        if d < 0 {
            Small { n: -n, d: -d }
        } else {
            Small { n, d }
        }
    }

    /// The fraction `q`, when its numerator and denominator fit.
    pub fn of(q: &Q) -> Option<Small> {
        let (n, d) = (q.numer().to_i128()?, q.denom().to_i128()?);
        (n != i128::MIN && d != i128::MIN).then(|| Small::new(n, d))
    }

    /// The fraction in floating point (within a few units in the last place).
    pub fn to_f64(self) -> f64 {
        self.n as f64 / self.d as f64
    }

    /// The fraction as a big one.
    pub fn to_q(self) -> Q {
        Q::new(BigInt::from(self.n), BigInt::from(self.d))
    }
}

impl Add for Small {
    type Output = Small;
    fn add(self, o: Small) -> Small {
        let g = self.d.gcd(&o.d);
        let (x, y) = (self.d / g, o.d / g);
        match (
            self.n.checked_mul(y),
            o.n.checked_mul(x),
            self.d.checked_mul(y),
        ) {
            (Some(a), Some(b), Some(d)) => match a.checked_add(b) {
                Some(n) => Small::new(n, d),
                None => overflow(),
            },
            _ => overflow(),
        }
    }
}

impl Neg for Small {
    type Output = Small;
    fn neg(self) -> Small {
        Small {
            n: -self.n,
            d: self.d,
        }
    }
}

impl Sub for Small {
    type Output = Small;
    fn sub(self, o: Small) -> Small {
        self + (-o)
    }
}

impl Mul for Small {
    type Output = Small;
    fn mul(self, o: Small) -> Small {
        // Cancel across first, so that the products are as small as they can be.
        let g1 = self.n.gcd(&o.d).max(1);
        let g2 = o.n.gcd(&self.d).max(1);
        match (
            (self.n / g1).checked_mul(o.n / g2),
            (self.d / g2).checked_mul(o.d / g1),
        ) {
            (Some(n), Some(d)) => Small::new(n, d),
            _ => overflow(),
        }
    }
}

impl Div for Small {
    type Output = Small;
    fn div(self, o: Small) -> Small {
        if o.n == 0 {
            return overflow();
        }
        self * Small::new(o.d, o.n)
    }
}

impl Zero for Small {
    fn zero() -> Small {
        Small { n: 0, d: 1 }
    }
    fn is_zero(&self) -> bool {
        self.n == 0
    }
}

impl One for Small {
    fn one() -> Small {
        Small { n: 1, d: 1 }
    }
}

impl PartialOrd for Small {
    /// Always exact (in big integers when the products overflow): sorting needs a total
    /// order even in an attempt that has already failed.
    fn partial_cmp(&self, o: &Small) -> Option<Ordering> {
        Some(match (self.n.checked_mul(o.d), o.n.checked_mul(self.d)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => (BigInt::from(self.n) * o.d).cmp(&(BigInt::from(o.n) * self.d)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Q {
        Q::new(n.into(), d.into())
    }

    #[test]
    fn operations_agree_with_big_fractions() {
        let values = [q(3, 4), q(-5, 6), q(0, 1), q(7, 1), q(-1, 9), q(12, 35)];
        for a in &values {
            for b in &values {
                let (x, y) = (Small::of(a).unwrap(), Small::of(b).unwrap());
                let got = attempt(|| {
                    let mut out = vec![(x + y).to_q(), (x - y).to_q(), (x * y).to_q()];
                    if !b.is_zero() {
                        out.push((x / y).to_q());
                    }
                    (out, x.partial_cmp(&y))
                })
                .unwrap();
                let mut want = vec![a + b, a - b, a * b];
                if !b.is_zero() {
                    want.push(a / b);
                }
                assert_eq!(got, (want, a.partial_cmp(b)));
            }
        }
    }

    #[test]
    fn overflow_fails_the_attempt_and_nothing_else() {
        let big = Small::new(i128::MAX / 2, 1);
        assert_eq!(attempt(|| big * big), None);
        assert_eq!(
            attempt(|| big + Small::one()),
            Some(Small::new(i128::MAX / 2 + 1, 1))
        );
        // An inner attempt neither clears an outer failure nor passes its own on.
        let outer = attempt(|| {
            let _ = big * big;
            assert_eq!(attempt(Small::one), Some(Small::one()));
            Small::one()
        });
        assert_eq!(outer, None);
        let outer = attempt(|| {
            assert_eq!(attempt(|| big * big), None);
            Small::one()
        });
        assert_eq!(outer, Some(Small::one()));
        assert_eq!(
            attempt(|| Small::one() / Small::new(2, 1)),
            Some(Small::new(1, 2))
        );
        // Comparisons are exact past the words, and do not fail an attempt.
        let third = Small::new(i128::MAX / 3, 7);
        assert_eq!(
            attempt(|| big.partial_cmp(&third)),
            Some(Some(Ordering::Greater))
        );
    }
}
