//! Integers for fraction-free pivoting, with a fast path.
//!
//! Every pivoting algorithm here (simplex, Lemke–Howson, vertex enumeration, support
//! enumeration) is written once over [`Ring`] and run first on `i128` with checked arithmetic;
//! at the first overflow it is run again from the start on `BigInt`. That is lrs's approach
//! (machine integers while they suffice, then arbitrary precision): the small games people
//! type and most random games never leave `i128`, and nothing is ever rounded.

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt::Debug;
use std::hash::Hash;

/// An `i128` computation overflowed: run it again on `BigInt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow;

/// Exact integer arithmetic that may refuse (overflow) instead of wrapping.
pub trait Ring: Clone + Debug + Eq + Ord + Hash + Send + Sync {
    /// Converts from a big integer, `None` if it does not fit.
    fn from_big(x: &BigInt) -> Option<Self>;
    /// Converts to a big integer.
    fn to_big(&self) -> BigInt;
    /// Converts to a machine integer, `None` if it does not fit.
    fn to_small(&self) -> Option<i128>;
    /// A small constant.
    fn small(x: i64) -> Self;
    /// The sign: −1, 0 or 1.
    fn signum_i(&self) -> i32;
    /// `self · b`.
    fn mul(&self, b: &Self) -> Result<Self, Overflow>;
    /// `self + b`.
    fn add(&self, b: &Self) -> Result<Self, Overflow>;
    /// `self − b`.
    fn sub(&self, b: &Self) -> Result<Self, Overflow>;
    /// `self / b` when the division is known to be exact.
    fn div_exact(&self, b: &Self) -> Self;
    /// `self · p / d`, an exact division.
    fn mul_div_exact(&self, p: &Self, d: &Self) -> Result<Self, Overflow> {
        Ok(self.mul(p)?.div_exact(d))
    }
    /// Bytes an entry holds, for memory budgets (a typical size for big integers).
    const ENTRY_BYTES: u64;
    /// A divisor prepared for many exact divisions by it (one pivot divides every updated
    /// entry by the same determinant).
    type Divisor: Clone;
    /// Prepares `d` (nonzero) for [`Ring::pivot_by`].
    fn divisor(d: &Self) -> Self::Divisor;
    /// [`Ring::pivot`] with a prepared divisor.
    fn pivot_by(&self, p: &Self, f: &Self, y: &Self, d: &Self::Divisor) -> Result<Self, Overflow>;
    /// [`Ring::mul_div_exact`] with a prepared divisor.
    fn mul_div_by(&self, p: &Self, d: &Self::Divisor) -> Result<Self, Overflow>;
    /// The fraction-free update `(self·p − f·y) / d`, an exact division.
    fn pivot(&self, p: &Self, f: &Self, y: &Self, d: &Self) -> Result<Self, Overflow> {
        Ok(self.mul(p)?.sub(&f.mul(y)?)?.div_exact(d))
    }
    /// Compares `a·b` with `c·d`.
    fn cmp_products(a: &Self, b: &Self, c: &Self, d: &Self) -> Result<Ordering, Overflow> {
        Ok(a.mul(b)?.cmp(&c.mul(d)?))
    }
    /// True when positive.
    fn is_pos(&self) -> bool {
        self.signum_i() > 0
    }
    /// True when negative.
    fn is_neg(&self) -> bool {
        self.signum_i() < 0
    }
    /// True when zero.
    fn is_zero_r(&self) -> bool {
        self.signum_i() == 0
    }
}

impl Ring for i128 {
    fn from_big(x: &BigInt) -> Option<Self> {
        x.to_i128()
    }
    fn to_big(&self) -> BigInt {
        BigInt::from(*self)
    }
    fn to_small(&self) -> Option<i128> {
        Some(*self)
    }
    fn small(x: i64) -> Self {
        i128::from(x)
    }
    fn signum_i(&self) -> i32 {
        self.signum() as i32
    }
    fn mul(&self, b: &Self) -> Result<Self, Overflow> {
        mul_i128(*self, *b).ok_or(Overflow)
    }
    fn add(&self, b: &Self) -> Result<Self, Overflow> {
        self.checked_add(*b).ok_or(Overflow)
    }
    fn sub(&self, b: &Self) -> Result<Self, Overflow> {
        self.checked_sub(*b).ok_or(Overflow)
    }
    fn div_exact(&self, b: &Self) -> Self {
        // 128-bit division is a library call many times slower than the 64-bit instruction,
        // and most quotients in small games have 64-bit operands.
        match (i64::try_from(*self), i64::try_from(*b)) {
            (Ok(x), Ok(y)) => x.checked_div(y).map_or(self / b, i128::from),
            _ => self / b,
        }
    }
    // A fraction-free entry is a minor of the data, far smaller than the products it is made
    // from: when a product leaves i128 but the quotient does not, 256 bits finish the step.
    fn mul_div_exact(&self, p: &Self, d: &Self) -> Result<Self, Overflow> {
        match mul_i128(*self, *p) {
            Some(x) => Ok(Ring::div_exact(&x, d)),
            None => narrow(wide(*self) * wide(*p) / wide(*d)),
        }
    }
    const ENTRY_BYTES: u64 = 16;
    type Divisor = ExactDivisor;
    fn divisor(d: &Self) -> ExactDivisor {
        ExactDivisor::new(*d)
    }
    fn pivot_by(&self, p: &Self, f: &Self, y: &Self, d: &ExactDivisor) -> Result<Self, Overflow> {
        if let (Some(a), Some(b)) = (mul_i128(*self, *p), mul_i128(*f, *y)) {
            if let Some(x) = a.checked_sub(b) {
                return Ok(d.divide(x));
            }
        }
        d.divide_wide(wide(*self) * wide(*p) - wide(*f) * wide(*y))
    }
    fn mul_div_by(&self, p: &Self, d: &ExactDivisor) -> Result<Self, Overflow> {
        match mul_i128(*self, *p) {
            Some(x) => Ok(d.divide(x)),
            None => d.divide_wide(wide(*self) * wide(*p)),
        }
    }
    fn pivot(&self, p: &Self, f: &Self, y: &Self, d: &Self) -> Result<Self, Overflow> {
        if let (Some(a), Some(b)) = (mul_i128(*self, *p), mul_i128(*f, *y)) {
            if let Some(x) = a.checked_sub(b) {
                return Ok(Ring::div_exact(&x, d));
            }
        }
        narrow((wide(*self) * wide(*p) - wide(*f) * wide(*y)) / wide(*d))
    }
    fn cmp_products(a: &Self, b: &Self, c: &Self, d: &Self) -> Result<Ordering, Overflow> {
        match (mul_i128(*a, *b), mul_i128(*c, *d)) {
            (Some(x), Some(y)) => Ok(x.cmp(&y)),
            _ => Ok((wide(*a) * wide(*b)).cmp(&(wide(*c) * wide(*d)))),
        }
    }
}

/// A nonzero `i128` prepared for exact division: `d = 2^shift · odd`, and the inverse of
/// `odd` modulo 2^128. A quotient known to be exact is then a shift and one wrapping multiply
/// (Jebelean's exact division), where a 128-bit division is a library call of a hundred
/// cycles or more: fraction-free pivoting divides every updated entry by the determinant.
#[derive(Debug, Clone, Copy)]
pub struct ExactDivisor {
    d: i128,
    shift: u32,
    inverse: u128,
}

impl ExactDivisor {
    fn new(d: i128) -> Self {
        assert!(d != 0, "division by a zero determinant");
        let shift = d.trailing_zeros();
        let odd = (d >> shift) as u128;
        // Newton's iteration for the inverse modulo 2^128: `odd` is its own inverse modulo
        // 2^3, and each step doubles the bits that are right (3, 6, …, 192).
        let mut inverse = odd;
        for _ in 0..6 {
            inverse = inverse.wrapping_mul(2u128.wrapping_sub(odd.wrapping_mul(inverse)));
        }
        ExactDivisor { d, shift, inverse }
    }

    /// `x / d` for `x` a multiple of `d`.
    fn divide(&self, x: i128) -> i128 {
        let q = ((x >> self.shift) as u128).wrapping_mul(self.inverse) as i128;
        debug_assert_eq!(q.checked_mul(self.d), Some(x), "inexact division");
        q
    }

    /// `x / d` for a 256-bit multiple `x` of `d`, or [`Overflow`] when the quotient does not
    /// fit in `i128`. The inverse gives the quotient's low 128 bits; one product checks that
    /// they are all of it, where a 256-bit division would be a long loop.
    fn divide_wide(&self, x: ethnum::I256) -> Result<i128, Overflow> {
        let q = ((x >> self.shift).as_u128()).wrapping_mul(self.inverse) as i128;
        if wide(q) * wide(self.d) == x {
            Ok(q)
        } else {
            Err(Overflow)
        }
    }
}

/// `a · b`, or `None` when it leaves `i128`: the product of the magnitudes' 64-bit halves,
/// where `checked_mul` on `i128` is a runtime call several times slower, in the inner loop of
/// every fraction-free pivot.
#[inline]
fn mul_i128(a: i128, b: i128) -> Option<i128> {
    let (x, y) = (a.unsigned_abs(), b.unsigned_abs());
    let (xh, xl) = ((x >> 64) as u64, x as u64);
    let (yh, yl) = ((y >> 64) as u64, y as u64);
    let low = u128::from(xl) * u128::from(yl);
    let magnitude = if xh == 0 && yh == 0 {
        low
    } else if xh != 0 && yh != 0 {
        return None;
    } else {
        // One high half is zero, so one cross term is: x·y = xl·yl + cross · 2^64.
        let cross = u128::from(xh) * u128::from(yl) + u128::from(xl) * u128::from(yh);
        if cross >> 64 != 0 {
            return None;
        }
        low.checked_add(cross << 64)?
    };
    if (a < 0) != (b < 0) {
        // Down to −2^127, which is i128::MIN.
        (magnitude <= 1 << 127).then(|| (magnitude as i128).wrapping_neg())
    } else {
        (magnitude < 1 << 127).then_some(magnitude as i128)
    }
}

fn wide(x: i128) -> ethnum::I256 {
    ethnum::I256::from(x)
}

/// A 256-bit result back to `i128`, or [`Overflow`] when it does not fit.
fn narrow(x: ethnum::I256) -> Result<i128, Overflow> {
    if x >= wide(i128::MIN) && x <= wide(i128::MAX) {
        Ok(x.as_i128())
    } else {
        Err(Overflow)
    }
}

impl Ring for BigInt {
    fn from_big(x: &BigInt) -> Option<Self> {
        Some(x.clone())
    }
    fn to_big(&self) -> BigInt {
        self.clone()
    }
    fn to_small(&self) -> Option<i128> {
        self.to_i128()
    }
    fn small(x: i64) -> Self {
        BigInt::from(x)
    }
    fn signum_i(&self) -> i32 {
        if self.is_positive() {
            1
        } else if self.is_zero() {
            0
        } else {
            -1
        }
    }
    fn mul(&self, b: &Self) -> Result<Self, Overflow> {
        Ok(self * b)
    }
    fn add(&self, b: &Self) -> Result<Self, Overflow> {
        Ok(self + b)
    }
    fn sub(&self, b: &Self) -> Result<Self, Overflow> {
        Ok(self - b)
    }
    fn div_exact(&self, b: &Self) -> Self {
        self / b
    }
    // The value (a vector's pointer, length and capacity, and a sign) and three 64-bit limbs:
    // the pivots fall back to big integers when entries pass 128 bits.
    const ENTRY_BYTES: u64 = 32 + 24;
    type Divisor = BigInt;
    fn divisor(d: &Self) -> BigInt {
        d.clone()
    }
    fn pivot_by(&self, p: &Self, f: &Self, y: &Self, d: &BigInt) -> Result<Self, Overflow> {
        Ring::pivot(self, p, f, y, d)
    }
    fn mul_div_by(&self, p: &Self, d: &BigInt) -> Result<Self, Overflow> {
        Ring::mul_div_exact(self, p, d)
    }
    fn pivot(&self, p: &Self, f: &Self, y: &Self, d: &Self) -> Result<Self, Overflow> {
        Ok((self * p - f * y) / d)
    }
}

/// Converts a matrix, `None` if some entry does not fit.
pub fn convert<T: Ring>(m: &[Vec<BigInt>]) -> Option<Vec<Vec<T>>> {
    m.iter()
        .map(|r| r.iter().map(T::from_big).collect())
        .collect()
}

/// Runs `f` on `i128`, and again on `BigInt` if it overflowed.
pub fn with_fallback<R>(
    small: impl Fn() -> Result<R, Overflow>,
    big: impl Fn() -> Result<R, Overflow>,
) -> R {
    match small() {
        Ok(r) => r,
        Err(Overflow) => big().expect("BigInt arithmetic cannot overflow"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The exact division by a prepared inverse against `/`, on quotients and divisors of
    /// every size and sign, even ones with many factors of two, and at the ends of the range.
    fn check(q: i128, d: i128) {
        if d == 0 {
            return;
        }
        if let Some(x) = q.checked_mul(d) {
            assert_eq!(ExactDivisor::new(d).divide(x), x / d, "{x} / {d}");
        }
    }

    proptest! {
        #[test]
        fn exact_division(q in any::<i128>(), d in any::<i128>(), shift in 0u32..100,
                          small in -1000i128..1000) {
            check(q, d);
            check(q >> 64, d >> 64);
            check(q >> 100, (d >> 100) << (shift % 20));
            check(small, d >> shift);
            check(q >> shift, small);
        }
    }

    /// The product of halves against `checked_mul`, at every size and sign and at the ends.
    fn check_mul(a: i128, b: i128) {
        assert_eq!(mul_i128(a, b), a.checked_mul(b), "{a} * {b}");
        let w = wide(a) * wide(b);
        if let Some(x) = a.checked_mul(b) {
            assert_eq!(wide(x), w);
        }
    }

    /// The 256-bit exact division against ethnum's division: the quotient when it fits, an
    /// overflow when it does not.
    fn check_wide(q: ethnum::I256, d: i128) {
        if d == 0 {
            return;
        }
        let x = q.wrapping_mul(wide(d));
        if x / wide(d) != q {
            return;
        }
        assert_eq!(ExactDivisor::new(d).divide_wide(x), narrow(q), "{x} / {d}");
    }

    proptest! {
        #[test]
        fn products_of_halves(a in any::<i128>(), b in any::<i128>(), s in 0u32..127, t in 0u32..127) {
            check_mul(a, b);
            check_mul(a >> s, b >> t);
            check_mul(a >> s, b);
            check_mul((a >> s) | 1, -(b >> t));
        }

        #[test]
        fn wide_exact_division(q in any::<i128>(), hi in any::<i64>(), d in any::<i128>(), s in 0u32..127) {
            check_wide(wide(q), d >> s);
            check_wide(wide(q >> s), d);
            // Quotients past 128 bits must be refused.
            check_wide(wide(q) + (ethnum::I256::from(hi) << 128), d >> s);
        }
    }

    #[test]
    fn products_and_wide_division_at_the_ends() {
        let ends = [
            0,
            1,
            -1,
            2,
            -2,
            1 << 63,
            -(1 << 63),
            1 << 64,
            -(1 << 64),
            (1 << 64) - 1,
            1 << 126,
            -(1 << 126),
            i128::MAX,
            i128::MIN,
            i128::MIN + 1,
            i128::MAX / 3,
        ];
        for a in ends {
            for b in ends {
                check_mul(a, b);
                check_wide(wide(a), b);
                check_wide(wide(a) * wide(b), b);
            }
        }
    }

    #[test]
    fn exact_division_edges() {
        for d in [
            1,
            -1,
            2,
            -2,
            3,
            1 << 64,
            -(1 << 126),
            i128::MAX,
            i128::MIN + 1,
        ] {
            for q in [0, 1, -1, 7, -7, i128::MAX / 3] {
                check(q, d);
            }
        }
        check(1, i128::MIN);
        check(-1, i128::MIN);
    }
}
