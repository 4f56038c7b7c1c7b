//! Big fractions that are never reduced: a numerator and a positive denominator, multiplied
//! out and compared crosswise. A big fraction ([`super::Q`]) divides by a gcd after every
//! operation, and on numbers of a few words that gcd costs far more than the products; a short
//! computation whose numbers cannot grow far (the exact geometry of the repeated games: a few
//! operations deep) is several times faster without it. Equality is by value (`1/2` equals
//! `2/4`).

use super::Q;
use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A fraction `n / d`, `d > 0`, in whatever terms the operations left it.
#[derive(Debug, Clone)]
pub struct Unreduced {
    n: BigInt,
    d: BigInt,
}

impl Unreduced {
    /// The fraction `q`.
    pub fn of(q: &Q) -> Unreduced {
        Unreduced {
            n: q.numer().clone(),
            d: q.denom().clone(),
        }
    }

    /// The fraction in floating point (within a few units in the last place; NaN or
    /// infinite when a term is past floating point's range).
    pub fn to_f64(&self) -> f64 {
        use num_traits::ToPrimitive;
        let part = |v: &BigInt| v.to_f64().unwrap_or(f64::NAN);
        part(&self.n) / part(&self.d)
    }

    /// The fraction as a (reduced) big one.
    pub fn to_q(&self) -> Q {
        Q::new(self.n.clone(), self.d.clone())
    }
}

impl Add for Unreduced {
    type Output = Unreduced;
    fn add(self, o: Unreduced) -> Unreduced {
        if self.d == o.d {
            return Unreduced {
                n: self.n + o.n,
                d: self.d,
            };
        }
        Unreduced {
            n: &self.n * &o.d + &o.n * &self.d,
            d: self.d * o.d,
        }
    }
}

impl Neg for Unreduced {
    type Output = Unreduced;
    fn neg(self) -> Unreduced {
        Unreduced {
            n: -self.n,
            d: self.d,
        }
    }
}

impl Sub for Unreduced {
    type Output = Unreduced;
    fn sub(self, o: Unreduced) -> Unreduced {
        self + (-o)
    }
}

impl Mul for Unreduced {
    type Output = Unreduced;
    fn mul(self, o: Unreduced) -> Unreduced {
        Unreduced {
            n: self.n * o.n,
            d: self.d * o.d,
        }
    }
}

impl Div for Unreduced {
    type Output = Unreduced;
    /// Division by zero panics, as a big fraction's does.
    fn div(self, o: Unreduced) -> Unreduced {
        assert!(!o.n.is_zero(), "division of an unreduced fraction by zero");
        let (n, d) = (self.n * &o.d, self.d * o.n);
        if d.sign() == Sign::Minus {
            Unreduced { n: -n, d: -d }
        } else {
            Unreduced { n, d }
        }
    }
}

impl Zero for Unreduced {
    fn zero() -> Unreduced {
        Unreduced {
            n: BigInt::zero(),
            d: BigInt::one(),
        }
    }
    fn is_zero(&self) -> bool {
        self.n.is_zero()
    }
}

impl One for Unreduced {
    fn one() -> Unreduced {
        Unreduced {
            n: BigInt::one(),
            d: BigInt::one(),
        }
    }
}

impl PartialEq for Unreduced {
    fn eq(&self, o: &Unreduced) -> bool {
        self.cmp_value(o) == Ordering::Equal
    }
}

impl PartialOrd for Unreduced {
    fn partial_cmp(&self, o: &Unreduced) -> Option<Ordering> {
        Some(self.cmp_value(o))
    }
}

impl Unreduced {
    fn cmp_value(&self, o: &Unreduced) -> Ordering {
        if self.d == o.d {
            return self.n.cmp(&o.n);
        }
        // Signs first: most comparisons (a cross product against zero) end there.
        match (self.n.signum(), o.n.signum()) {
            (a, b) if a != b => a.cmp(&b),
            _ => (&self.n * &o.d).cmp(&(&o.n * &self.d)),
        }
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
                let (x, y) = (Unreduced::of(a), Unreduced::of(b));
                assert_eq!((x.clone() + y.clone()).to_q(), a + b);
                assert_eq!((x.clone() - y.clone()).to_q(), a - b);
                assert_eq!((x.clone() * y.clone()).to_q(), a * b);
                if !b.is_zero() {
                    assert_eq!((x.clone() / y.clone()).to_q(), a / b);
                }
                assert_eq!(x.partial_cmp(&y), a.partial_cmp(b));
                assert_eq!(x == y, a == b);
            }
        }
        // Equal values in other terms.
        let half = Unreduced::of(&q(1, 2));
        let two_quarters = Unreduced::of(&q(1, 4)) + Unreduced::of(&q(1, 4));
        assert_eq!(half, two_quarters);
    }
}
