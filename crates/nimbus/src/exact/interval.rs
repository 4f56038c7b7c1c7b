//! Interval arithmetic that encloses the exact result: over doubles with every bound rounded
//! outward, and over rationals (exact, with bounds rounded outward to a dyadic grid when asked,
//! so that they stay small).
//!
//! The enumeration of n-player equilibria proves with these that a box holds exactly one
//! solution of a polynomial system (Krawczyk's test) and bounds a profile's regret; a bound
//! computed here is a bound on the real number, not an estimate of it.
//!
//! Rounding outward by one unit in the last place after each operation is enough for doubles:
//! IEEE round-to-nearest errs by at most half a unit.

use crate::exact::Q;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// Numbers the evaluation of a polynomial works over: doubles, rationals, and intervals of
/// either.
pub trait Scalar: Clone {
    /// The number (or the smallest interval holding it).
    fn of(q: &Q) -> Self;
    /// Zero.
    fn nil() -> Self {
        Self::of(&<Q as Zero>::zero())
    }
    /// One.
    fn unit() -> Self {
        Self::of(&Q::one())
    }
    /// Sum.
    fn add(&self, o: &Self) -> Self;
    /// Difference.
    fn sub(&self, o: &Self) -> Self;
    /// Product.
    fn mul(&self, o: &Self) -> Self;
}

impl Scalar for f64 {
    fn of(q: &Q) -> f64 {
        q.to_f64().unwrap_or(f64::NAN)
    }
    fn add(&self, o: &f64) -> f64 {
        self + o
    }
    fn sub(&self, o: &f64) -> f64 {
        self - o
    }
    fn mul(&self, o: &f64) -> f64 {
        self * o
    }
}

impl Scalar for Q {
    fn of(q: &Q) -> Q {
        q.clone()
    }
    fn add(&self, o: &Q) -> Q {
        self + o
    }
    fn sub(&self, o: &Q) -> Q {
        self - o
    }
    fn mul(&self, o: &Q) -> Q {
        self * o
    }
}

/// The bounds of an interval: doubles rounded outward, or exact rationals.
pub trait Bound: Clone + PartialOrd + std::fmt::Debug {
    /// The bounds `[lo, hi]` of the smallest interval of this kind that holds `q`.
    fn enclose(q: &Q) -> (Self, Self);
    /// The bound as an exact rational.
    fn exact(&self) -> Q;
    /// A bound from a double (exactly).
    fn from_f64(x: f64) -> Self;
    /// A lower bound of `a + b`.
    fn add_down(a: &Self, b: &Self) -> Self;
    /// An upper bound of `a + b`.
    fn add_up(a: &Self, b: &Self) -> Self;
    /// A lower bound of `a - b`.
    fn sub_down(a: &Self, b: &Self) -> Self;
    /// An upper bound of `a - b`.
    fn sub_up(a: &Self, b: &Self) -> Self;
    /// A lower bound of `a b`.
    fn mul_down(a: &Self, b: &Self) -> Self;
    /// An upper bound of `a b`.
    fn mul_up(a: &Self, b: &Self) -> Self;
    /// A number between `a` and `b` (near the middle).
    fn middle(a: &Self, b: &Self) -> Self;
    /// The bound as a double (rounded).
    fn approx(&self) -> f64;
    /// A rational worth trying as the exact point of `[lo, hi]`: the simplest one in it (or in
    /// an interval a little wider, where that is much cheaper to find).
    fn simplest_near(lo: &Self, hi: &Self) -> Q {
        simplest_between(&lo.exact(), &hi.exact())
    }
}

impl Bound for f64 {
    fn enclose(q: &Q) -> (f64, f64) {
        // Integers below 2^53 (every scaled payoff of a game with small numbers) are exact.
        if q.is_integer() {
            if let Some(n) = q.numer().to_i64() {
                if n.unsigned_abs() < 1 << 53 {
                    return (n as f64, n as f64);
                }
            }
        }
        let x = q.to_f64().unwrap_or(0.0);
        let (mut lo, mut hi) = (x, x);
        // The conversion rounds; step outward until the exact value is inside.
        while Q::from_float(lo).is_some_and(|l| &l > q) {
            lo = down(lo);
        }
        while Q::from_float(hi).is_some_and(|h| &h < q) {
            hi = up(hi);
        }
        (lo, hi)
    }
    fn exact(&self) -> Q {
        Q::from_float(*self).unwrap_or_else(<Q as Zero>::zero)
    }
    fn from_f64(x: f64) -> f64 {
        x
    }
    fn add_down(a: &f64, b: &f64) -> f64 {
        down(a + b)
    }
    fn add_up(a: &f64, b: &f64) -> f64 {
        up(a + b)
    }
    fn sub_down(a: &f64, b: &f64) -> f64 {
        down(a - b)
    }
    fn sub_up(a: &f64, b: &f64) -> f64 {
        up(a - b)
    }
    fn mul_down(a: &f64, b: &f64) -> f64 {
        down(a * b)
    }
    fn mul_up(a: &f64, b: &f64) -> f64 {
        up(a * b)
    }
    fn middle(a: &f64, b: &f64) -> f64 {
        a + (b - a) / 2.0
    }
    fn approx(&self) -> f64 {
        *self
    }
}

impl Bound for Q {
    fn enclose(q: &Q) -> (Q, Q) {
        (q.clone(), q.clone())
    }
    fn exact(&self) -> Q {
        self.clone()
    }
    fn from_f64(x: f64) -> Q {
        Q::from_float(x).unwrap_or_else(<Q as Zero>::zero)
    }
    fn add_down(a: &Q, b: &Q) -> Q {
        a + b
    }
    fn add_up(a: &Q, b: &Q) -> Q {
        a + b
    }
    fn sub_down(a: &Q, b: &Q) -> Q {
        a - b
    }
    fn sub_up(a: &Q, b: &Q) -> Q {
        a - b
    }
    fn mul_down(a: &Q, b: &Q) -> Q {
        a * b
    }
    fn mul_up(a: &Q, b: &Q) -> Q {
        a * b
    }
    fn middle(a: &Q, b: &Q) -> Q {
        (a + b) / Q::from_integer(2.into())
    }
    fn approx(&self) -> f64 {
        self.to_f64().unwrap_or(f64::NAN)
    }
}

/// A dyadic rational `n / 2^e`. Sums and products of dyadics are dyadic, so interval
/// arithmetic over them is exact without the gcd a general rational pays on every operation;
/// the refinement of a box (whose centres are on a dyadic grid, and whose payoffs are integers)
/// spent most of its time in those gcds.
#[derive(Debug, Clone)]
pub struct Dy {
    n: BigInt,
    e: u64,
}

/// Bits below the point to which a rational that is not dyadic is rounded outward.
const DY_BITS: u64 = 256;

impl Dy {
    fn aligned(&self, o: &Dy) -> (BigInt, BigInt, u64) {
        let e = self.e.max(o.e);
        (&self.n << (e - self.e), &o.n << (e - o.e), e)
    }

    /// `op` on the numerators written over the larger exponent: only the operand with fewer
    /// bits below the point is shifted.
    fn with_aligned(&self, o: &Dy, op: impl Fn(&BigInt, &BigInt) -> BigInt) -> Dy {
        match self.e.cmp(&o.e) {
            Ordering::Equal => Dy {
                n: op(&self.n, &o.n),
                e: self.e,
            },
            Ordering::Less => Dy {
                n: op(&(&self.n << (o.e - self.e)), &o.n),
                e: o.e,
            },
            Ordering::Greater => Dy {
                n: op(&self.n, &(&o.n << (self.e - o.e))),
                e: self.e,
            },
        }
    }

    /// The largest multiple of `2^-bits` at most `self`.
    pub fn floor_to(&self, bits: u64) -> Dy {
        if self.e <= bits {
            return self.clone();
        }
        // `>>` on a BigInt rounds toward minus infinity.
        Dy {
            n: &self.n >> (self.e - bits),
            e: bits,
        }
    }

    /// The smallest multiple of `2^-bits` at least `self`.
    pub fn ceil_to(&self, bits: u64) -> Dy {
        let neg = Dy {
            n: -&self.n,
            e: self.e,
        }
        .floor_to(bits);
        Dy {
            n: -neg.n,
            e: neg.e,
        }
    }

    /// The largest double at most `self`.
    pub fn down_f64(&self) -> f64 {
        let mut x = self.approx();
        while x.is_finite() && &Dy::from_f64(x) > self {
            x = down(x);
        }
        x
    }

    /// The smallest double at least `self`.
    pub fn up_f64(&self) -> f64 {
        let mut x = self.approx();
        while x.is_finite() && &Dy::from_f64(x) < self {
            x = up(x);
        }
        x
    }

    /// The integer `n`.
    pub fn int(n: BigInt) -> Dy {
        Dy { n, e: 0 }
    }

    /// `self / d` (`d` not zero) rounded down, or up when `up`, to a multiple of `2^-bits`:
    /// one integer division, where a rational would reduce a fraction.
    pub fn div_to(&self, d: &Dy, bits: u64, up: bool) -> Dy {
        // self / d = (a 2^eb) / (b 2^ea) for self = a 2^-ea and d = b 2^-eb.
        let mut num = &self.n << (d.e + bits);
        let mut den = &d.n << self.e;
        if den.is_negative() {
            num = -num;
            den = -den;
        }
        let n = if up {
            -((-num).div_floor(&den))
        } else {
            num.div_floor(&den)
        };
        Dy { n, e: bits }
    }

    /// The dyadic equal to `q`, if there is one.
    pub fn exactly(q: &Q) -> Option<Dy> {
        let d = q.denom();
        let e = d.trailing_zeros().unwrap_or(0);
        (d == &(BigInt::one() << e)).then(|| Dy {
            n: q.numer().clone(),
            e,
        })
    }
}

impl PartialEq for Dy {
    fn eq(&self, o: &Dy) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Dy {}

impl PartialOrd for Dy {
    fn partial_cmp(&self, o: &Dy) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Dy {
    fn cmp(&self, o: &Dy) -> Ordering {
        // Signs, then magnitudes by their bit lengths, decide most comparisons without the
        // shifted copy an alignment allocates.
        let (s, t) = (self.n.sign(), o.n.sign());
        if s != t {
            return s.cmp(&t);
        }
        if s == num_bigint::Sign::NoSign {
            return Ordering::Equal;
        }
        if self.e == o.e {
            return self.n.cmp(&o.n);
        }
        // |n| 2^-e lies in [2^(bits - 1 - e), 2^(bits - e)).
        let top = |d: &Dy| d.n.bits() as i128 - d.e as i128;
        let (a, b) = (top(self), top(o));
        if a != b {
            let larger_magnitude = if a > b {
                Ordering::Greater
            } else {
                Ordering::Less
            };
            return if s == num_bigint::Sign::Minus {
                larger_magnitude.reverse()
            } else {
                larger_magnitude
            };
        }
        if self.e < o.e {
            (&self.n << (o.e - self.e)).cmp(&o.n)
        } else {
            self.n.cmp(&(&o.n << (self.e - o.e)))
        }
    }
}

impl Scalar for Dy {
    /// Exact for dyadic `q` (integers, and the centres of refined boxes); others are rounded
    /// to the nearest multiple of `2^-256` below.
    fn of(q: &Q) -> Dy {
        Dy::enclose(q).0
    }
    fn add(&self, o: &Dy) -> Dy {
        self.with_aligned(o, |a, b| a + b)
    }
    fn sub(&self, o: &Dy) -> Dy {
        self.with_aligned(o, |a, b| a - b)
    }
    fn mul(&self, o: &Dy) -> Dy {
        Dy {
            n: &self.n * &o.n,
            e: self.e + o.e,
        }
    }
}

impl Bound for Dy {
    fn enclose(q: &Q) -> (Dy, Dy) {
        if let Some(d) = Dy::exactly(q) {
            return (d.clone(), d);
        }
        let scaled = q * Q::from_integer(BigInt::one() << DY_BITS);
        let lo = Dy {
            n: scaled.floor().to_integer(),
            e: DY_BITS,
        };
        let hi = Dy {
            n: scaled.ceil().to_integer(),
            e: DY_BITS,
        };
        (lo, hi)
    }
    fn exact(&self) -> Q {
        // In lowest terms without a gcd: the only common factors are twos.
        let twos = self.n.trailing_zeros().unwrap_or(0).min(self.e);
        Q::new_raw(&self.n >> twos, BigInt::one() << (self.e - twos))
    }
    fn from_f64(x: f64) -> Dy {
        // From the bits: x = m 2^k with an integer m (no rational to reduce on the way).
        if !x.is_finite() || x == 0.0 {
            return Dy {
                n: BigInt::zero(),
                e: 0,
            };
        }
        let bits = x.to_bits();
        let exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, k) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, exp - 1075)
        };
        let n = BigInt::from(m);
        let n = if x < 0.0 { -n } else { n };
        if k >= 0 {
            Dy {
                n: n << k as u64,
                e: 0,
            }
        } else {
            Dy { n, e: (-k) as u64 }
        }
    }
    fn add_down(a: &Dy, b: &Dy) -> Dy {
        a.add(b)
    }
    fn add_up(a: &Dy, b: &Dy) -> Dy {
        a.add(b)
    }
    fn sub_down(a: &Dy, b: &Dy) -> Dy {
        a.sub(b)
    }
    fn sub_up(a: &Dy, b: &Dy) -> Dy {
        a.sub(b)
    }
    fn mul_down(a: &Dy, b: &Dy) -> Dy {
        a.mul(b)
    }
    fn mul_up(a: &Dy, b: &Dy) -> Dy {
        a.mul(b)
    }
    fn middle(a: &Dy, b: &Dy) -> Dy {
        let sum = a.add(b);
        Dy {
            n: sum.n,
            e: sum.e + 1,
        }
    }
    /// The simplest rational in `[lo, hi]` widened outward to a grid 2^8 times finer than its
    /// width: the same answer unless a simpler rational lies within a 256th of the width
    /// outside, and on machine integers while the grid is coarser than 2^-125 (a refined
    /// box's own bounds are multiples of 2^-200 and beyond, and the continued fractions of
    /// such big numbers were most of the time of making an irrational equilibrium's box).
    fn simplest_near(lo: &Dy, hi: &Dy) -> Q {
        let w = hi.sub(lo).approx();
        if w.is_nan() || w <= 0.0 {
            return simplest_between(&lo.exact(), &hi.exact());
        }
        let k = (-w.log2()).ceil().clamp(0.0, 4096.0) as u64 + 8;
        let (l, h) = (lo.floor_to(k), hi.ceil_to(k));
        let (a, b, e) = l.aligned(&h);
        if let (Some(a), Some(b), true) = (a.to_i128(), b.to_i128(), e < 125) {
            let den = 1i128 << e;
            if a > 0 {
                if let Some((n, d)) = simplest_positive_small((a, den), (b, den)) {
                    return Q::new_raw(n.into(), d.into());
                }
            } else if b < 0 {
                if let Some((n, d)) = simplest_positive_small((-b, den), (-a, den)) {
                    return Q::new_raw((-n).into(), d.into());
                }
            } else {
                return Q::zero();
            }
        }
        simplest_between(&l.exact(), &h.exact())
    }
    fn approx(&self) -> f64 {
        // The top 64 bits, scaled: exact enough, and no overflow for long numerators.
        let drop = self.n.bits().saturating_sub(64);
        let top = (&self.n >> drop).to_f64().unwrap_or(0.0);
        // In two factors, each a normal double, so that tiny values are not lost to
        // underflow along the way.
        let shift = (drop as i64 - self.e as i64).clamp(-2200, 2200) as i32;
        top * 2f64.powi(shift / 2) * 2f64.powi(shift - shift / 2)
    }
}

impl Iv<Dy> {
    /// The interval widened to bounds on the grid of multiples of `2^-bits`, so that long
    /// computations keep their numbers short.
    pub fn rounded(&self, bits: u32) -> Self {
        Iv {
            lo: self.lo.floor_to(bits as u64),
            hi: self.hi.ceil_to(bits as u64),
        }
    }
}

/// A double above `x`: one or two units in the last place (for a finite `x`), by arithmetic
/// rather than by stepping the bits, so that the interval products in the enumeration's inner
/// loops have no branches to mispredict. `|x| 2^-52` is at least one unit in the last place of
/// `x` and is computed exactly; the smallest subnormal covers zero and the subnormals.
#[inline]
pub fn up(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    x + (x.abs() * f64::EPSILON + f64::from_bits(1))
}

/// A double below `x`, as [`up`] does above.
#[inline]
pub fn down(x: f64) -> f64 {
    -up(-x)
}

/// A closed interval `[lo, hi]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Iv<B> {
    /// The lower bound.
    pub lo: B,
    /// The upper bound.
    pub hi: B,
}

fn min2<B: PartialOrd>(a: B, b: B) -> B {
    if b < a {
        b
    } else {
        a
    }
}

fn max2<B: PartialOrd>(a: B, b: B) -> B {
    if b > a {
        b
    } else {
        a
    }
}

impl<B: Bound> Iv<B> {
    /// `[lo, hi]`.
    pub fn new(lo: B, hi: B) -> Self {
        Iv { lo, hi }
    }

    /// The one-point interval of a bound.
    pub fn point(x: B) -> Self {
        Iv {
            lo: x.clone(),
            hi: x,
        }
    }

    /// Whether `x` is in the interval.
    pub fn contains(&self, x: &B) -> bool {
        &self.lo <= x && x <= &self.hi
    }

    /// Whether the interval is inside `o`'s interior.
    pub fn inside(&self, o: &Self) -> bool {
        o.lo < self.lo && self.hi < o.hi
    }

    /// The common part, if any.
    pub fn meet(&self, o: &Self) -> Option<Self> {
        let lo = max2(self.lo.clone(), o.lo.clone());
        let hi = min2(self.hi.clone(), o.hi.clone());
        (lo <= hi).then_some(Iv { lo, hi })
    }

    /// The width, as a double (rounded).
    pub fn width(&self) -> f64 {
        self.hi.approx() - self.lo.approx()
    }

    /// A point near the middle.
    pub fn mid(&self) -> B {
        B::middle(&self.lo, &self.hi)
    }

    /// Where zero lies: below the interval (`Greater`: every element is positive), above it
    /// (`Less`) or inside (`Equal`).
    pub fn sign(&self) -> Ordering {
        let zero = B::from_f64(0.0);
        if self.lo > zero {
            Ordering::Greater
        } else if self.hi < zero {
            Ordering::Less
        } else {
            Ordering::Equal
        }
    }
}

impl<B: Bound> Scalar for Iv<B> {
    fn of(q: &Q) -> Self {
        let (lo, hi) = B::enclose(q);
        Iv { lo, hi }
    }
    fn nil() -> Self {
        Iv::point(B::from_f64(0.0))
    }
    fn unit() -> Self {
        Iv::point(B::from_f64(1.0))
    }
    fn add(&self, o: &Self) -> Self {
        Iv {
            lo: B::add_down(&self.lo, &o.lo),
            hi: B::add_up(&self.hi, &o.hi),
        }
    }
    fn sub(&self, o: &Self) -> Self {
        Iv {
            lo: B::sub_down(&self.lo, &o.hi),
            hi: B::sub_up(&self.hi, &o.lo),
        }
    }
    fn mul(&self, o: &Self) -> Self {
        // Where either factor keeps one sign, the signs say which two bounds' products are
        // the ends (two products instead of four, and no comparisons of big numbers): most
        // products here are a coefficient, a point, times a probability.
        let zero = B::from_f64(0.0);
        let side = |v: &Self| {
            if v.lo >= zero {
                Ordering::Greater
            } else if v.hi <= zero {
                Ordering::Less
            } else {
                Ordering::Equal
            }
        };
        let ends = |a: &B, b: &B, c: &B, d: &B| Iv {
            lo: B::mul_down(a, b),
            hi: B::mul_up(c, d),
        };
        let (x, y) = (self, o);
        match (side(x), side(y)) {
            (Ordering::Greater, Ordering::Greater) => return ends(&x.lo, &y.lo, &x.hi, &y.hi),
            (Ordering::Greater, Ordering::Less) => return ends(&x.hi, &y.lo, &x.lo, &y.hi),
            (Ordering::Less, Ordering::Greater) => return ends(&x.lo, &y.hi, &x.hi, &y.lo),
            (Ordering::Less, Ordering::Less) => return ends(&x.hi, &y.hi, &x.lo, &y.lo),
            (Ordering::Greater, Ordering::Equal) => return ends(&x.hi, &y.lo, &x.hi, &y.hi),
            (Ordering::Less, Ordering::Equal) => return ends(&x.lo, &y.hi, &x.lo, &y.lo),
            (Ordering::Equal, Ordering::Greater) => return ends(&x.lo, &y.hi, &x.hi, &y.hi),
            (Ordering::Equal, Ordering::Less) => return ends(&x.hi, &y.lo, &x.lo, &y.lo),
            (Ordering::Equal, Ordering::Equal) => {}
        }
        let pairs = [
            (&self.lo, &o.lo),
            (&self.lo, &o.hi),
            (&self.hi, &o.lo),
            (&self.hi, &o.hi),
        ];
        let mut lo = B::mul_down(pairs[0].0, pairs[0].1);
        let mut hi = B::mul_up(pairs[0].0, pairs[0].1);
        for (a, b) in &pairs[1..] {
            lo = min2(lo, B::mul_down(a, b));
            hi = max2(hi, B::mul_up(a, b));
        }
        Iv { lo, hi }
    }
}

impl Iv<Q> {
    /// The interval widened to bounds on the grid of multiples of `2^-bits`, so that long
    /// computations keep their numbers short.
    pub fn rounded(&self, bits: u32) -> Self {
        let scale = Q::from_integer(BigInt::one() << bits);
        let lo = (&self.lo * &scale).floor() / &scale;
        let hi = (&self.hi * &scale).ceil() / &scale;
        Iv { lo, hi }
    }
}

/// The rational with the smallest denominator (and then numerator) in `[lo, hi]`, by the
/// continued fractions of the two ends (`lo <= hi`).
pub fn simplest_between(lo: &Q, hi: &Q) -> Q {
    if lo > hi {
        // Ends given the wrong way round describe the same interval (the walk below would
        // divide by zero on them).
        return simplest_between(hi, lo);
    }
    if lo.is_positive() {
        simplest_positive(lo, hi)
    } else if hi.is_negative() {
        -simplest_positive(&-hi, &-lo)
    } else {
        <Q as Zero>::zero()
    }
}

/// [`simplest_between`] for `[lo / den, hi / den]` (`den > 0`, `lo <= hi`) given as machine
/// integers, as the outer iteration's grid has them: no big fractions unless the walk would
/// overflow.
pub fn simplest_between_on_grid(lo: i128, hi: i128, den: i128) -> Q {
    debug_assert!(den > 0 && lo <= hi);
    let small = if lo > 0 {
        simplest_positive_small((lo, den), (hi, den))
    } else if hi < 0 {
        simplest_positive_small((-hi, den), (-lo, den)).map(|(n, d)| (-n, d))
    } else {
        Some((0, 1))
    };
    match small {
        Some((n, d)) => Q::new(n.into(), d.into()),
        None => simplest_between(
            &Q::new(lo.into(), den.into()),
            &Q::new(hi.into(), den.into()),
        ),
    }
}

fn simplest_positive(lo: &Q, hi: &Q) -> Q {
    let small = |q: &Q| Some((q.numer().to_i128()?, q.denom().to_i128()?));
    if let (Some(l), Some(h)) = (small(lo), small(hi)) {
        if let Some((n, d)) = simplest_positive_small(l, h) {
            return Q::new(n.into(), d.into());
        }
    }
    simplest_positive_big(lo, hi)
}

/// [`simplest_positive`] on machine integers: `lo = a/b`, `hi = c/d`, both positive, with the
/// continued-fraction terms folded as convergents on the way down; `None` on overflow.
fn simplest_positive_small(
    (mut a, mut b): (i128, i128),
    (mut c, mut d): (i128, i128),
) -> Option<(i128, i128)> {
    // Convergents p/q of the common prefix: x = (p1 t + p0) / (q1 t + q0) for the tail t.
    let (mut p0, mut q0, mut p1, mut q1) = (0i128, 1i128, 1i128, 0i128);
    loop {
        // The least integer >= a/b. Every product and sum is checked: numbers near the top
        // of the range wrap silently in a release build, and a wrapped walk returns a wrong
        // fraction (the big-integer walk takes over instead).
        let ceil = a.checked_add(b - 1)? / b;
        if ceil.checked_mul(d)? <= c {
            let p = p1.checked_mul(ceil)?.checked_add(p0)?;
            let q = q1.checked_mul(ceil)?.checked_add(q0)?;
            return Some((p, q));
        }
        let f = a / b;
        let (p2, q2) = (
            p1.checked_mul(f)?.checked_add(p0)?,
            q1.checked_mul(f)?.checked_add(q0)?,
        );
        p0 = p1;
        q0 = q1;
        p1 = p2;
        q1 = q2;
        // [a/b - f, c/d - f] = [(a - f b)/b, (c - f d)/d] inverted: [d/(c - f d), b/(a - f b)].
        let (na, nb) = (d, c.checked_sub(f.checked_mul(d)?)?);
        let (nc, nd) = (b, a.checked_sub(f.checked_mul(b)?)?);
        a = na;
        b = nb;
        c = nc;
        d = nd;
    }
}

fn simplest_positive_big(lo: &Q, hi: &Q) -> Q {
    // The machine-integer walk on big integers: floor divisions and products only, where the
    // walk on rationals reduced every intermediate fraction by a gcd (milliseconds on the
    // 140-bit bounds of a refined box).
    let (mut a, mut b) = (lo.numer().clone(), lo.denom().clone());
    let (mut c, mut d) = (hi.numer().clone(), hi.denom().clone());
    let (mut p0, mut q0) = (BigInt::zero(), BigInt::one());
    let (mut p1, mut q1) = (BigInt::one(), BigInt::zero());
    loop {
        let ceil = (&a + &b - 1u8) / &b;
        if &ceil * &d <= c {
            // Convergents are in lowest terms.
            return Q::new_raw(&p1 * &ceil + &p0, &q1 * &ceil + &q0);
        }
        let f = &a / &b;
        let p2 = &p1 * &f + &p0;
        let q2 = &q1 * &f + &q0;
        p0 = std::mem::replace(&mut p1, p2);
        q0 = std::mem::replace(&mut q1, q2);
        let nb = &c - &f * &d;
        let nd = &a - &f * &b;
        a = std::mem::replace(&mut d, nd);
        c = std::mem::replace(&mut b, nb);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(a: i64, b: i64) -> Q {
        Q::new(a.into(), b.into())
    }

    #[test]
    fn outward_rounding_holds_the_exact_value() {
        let third = Iv::<f64>::of(&q(1, 3));
        assert!(third.lo.exact() < q(1, 3) && q(1, 3) < third.hi.exact());
        let s = third.add(&third).add(&third);
        assert!(s.contains(&1.0));
        let p = third.mul(&Iv::<f64>::of(&q(3, 1)));
        assert!(p.contains(&1.0));
        let d = Iv::<f64>::of(&q(1, 10)).sub(&Iv::<f64>::of(&q(1, 10)));
        assert!(d.contains(&0.0));
    }

    proptest::proptest! {
        #[test]
        fn up_and_down_step_past_the_value(bits in proptest::prelude::any::<u64>()) {
            let x = f64::from_bits(bits);
            if x.is_finite() && x.abs() < f64::MAX / 4.0 {
                // next_up/next_down (Rust 1.86) as the bit steps they are.
                let step = |x: f64, dir: f64| {
                    if x == 0.0 {
                        dir * f64::from_bits(1)
                    } else if (x > 0.0) == (dir > 0.0) {
                        f64::from_bits(x.to_bits() + 1)
                    } else {
                        f64::from_bits(x.to_bits() - 1)
                    }
                };
                let (u, d) = (up(x), down(x));
                proptest::prop_assert!(u >= step(x, 1.0) && u <= step(step(step(x, 1.0), 1.0), 1.0));
                proptest::prop_assert!(d <= step(x, -1.0) && d >= step(step(step(x, -1.0), -1.0), -1.0));
            }
        }
    }

    #[test]
    fn simplest_rationals() {
        assert_eq!(simplest_between(&q(1, 3), &q(1, 2)), q(1, 2));
        assert_eq!(simplest_between(&q(3, 10), &q(4, 10)), q(1, 3));
        assert_eq!(simplest_between(&q(-7, 5), &q(-6, 5)), q(-4, 3));
        assert_eq!(simplest_positive_big(&q(6, 5), &q(7, 5)), q(4, 3));
        assert_eq!(simplest_between(&q(-1, 5), &q(6, 5)), q(0, 1));
        let a = Q::from_float(0.14285714285714).unwrap();
        let b = Q::from_float(0.14285714285715).unwrap();
        assert_eq!(simplest_between(&a, &b), q(1, 7));
        assert_eq!(simplest_between(&q(5, 2), &q(5, 2)), q(5, 2));
        assert_eq!(simplest_between(&q(1, 2), &q(1, 3)), q(1, 2));
        // The walk on big integers agrees with the one on machine integers.
        for (a, b, c, d) in [
            (1, 3, 1, 2),
            (3, 10, 4, 10),
            (6, 5, 7, 5),
            (5, 2, 5, 2),
            (7, 9, 8, 9),
        ] {
            assert_eq!(
                simplest_positive_big(&q(a, b), &q(c, d)),
                simplest_positive(&q(a, b), &q(c, d))
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn the_big_walk_finds_the_smallest_denominator(
            a in 1i64..400, b in 1i64..400, c in 1i64..400, d in 1i64..400
        ) {
            let (lo, hi) = if q(a, b) <= q(c, d) { (q(a, b), q(c, d)) } else { (q(c, d), q(a, b)) };
            let r = simplest_positive_big(&lo, &hi);
            proptest::prop_assert!(lo <= r && r <= hi);
            // By brute force: no smaller denominator has a fraction in the interval, and the
            // numerator is the smallest for this one.
            let den = r.denom().to_i64().unwrap();
            for e in 1..=den {
                let first = (&lo * Q::from_integer(e.into())).ceil();
                let fits = first <= &hi * Q::from_integer(e.into());
                proptest::prop_assert!(!fits || e == den);
                if e == den {
                    proptest::prop_assert_eq!(first.to_integer(), r.numer().clone());
                }
            }
        }
    }

    proptest::proptest! {
        /// Near the top of the machine integers the walk on them must give up (and the big
        /// one answer) rather than wrap: both agree on ends with numerators and denominators
        /// up to 2^127.
        #[test]
        fn the_machine_walk_never_wraps(
            a in 1u128..u128::MAX >> 1, b in 1u128..u128::MAX >> 1,
            c in 1u128..u128::MAX >> 1, d in 1u128..u128::MAX >> 1,
        ) {
            let big = |n: u128, m: u128| Q::new(BigInt::from(n), BigInt::from(m));
            let (x, y) = (big(a, b), big(c, d));
            let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
            let r = simplest_positive(&lo, &hi);
            proptest::prop_assert!(lo <= r && r <= hi);
            proptest::prop_assert_eq!(r, simplest_positive_big(&lo, &hi));
        }
    }

    proptest::proptest! {
        /// The simplest rational near a dyadic interval is the simplest rational of the
        /// interval widened to the grid it chooses, which holds the interval and is at most a
        /// 128th wider: computed on machine integers, checked against the rational walk.
        #[test]
        fn the_simplest_near_a_dyadic_box_is_the_widened_box_s(
            centre in -4.0f64..4.0,
            scale in 1u32..120,
            spread in 1u64..1_000_000,
            extra in 0u64..40,
        ) {
            let lo = Dy::from_f64(centre).sub(&Dy { n: BigInt::from(spread), e: scale as u64 + extra });
            let hi = Dy::from_f64(centre).add(&Dy { n: BigInt::from(spread + 7), e: scale as u64 + extra });
            let r = Dy::simplest_near(&lo, &hi);
            let w = hi.sub(&lo).approx();
            let k = (-w.log2()).ceil() as u64 + 8;
            let (l, h) = (lo.floor_to(k).exact(), hi.ceil_to(k).exact());
            proptest::prop_assert!(l <= lo.exact() && hi.exact() <= h);
            proptest::prop_assert!((&h - &l - (hi.exact() - lo.exact())).to_f64().unwrap() <= w / 64.0);
            proptest::prop_assert_eq!(r, simplest_between(&l, &h));
        }
    }

    proptest::proptest! {
        #[test]
        fn dyadics_from_doubles_are_exact(bits in proptest::prelude::any::<u64>()) {
            let x = f64::from_bits(bits);
            if x.is_finite() {
                let d = Dy::from_f64(x);
                proptest::prop_assert_eq!(d.exact(), Q::from_float(x).unwrap());
                if x.abs() > 1e-300 && x.abs() < 1e300 {
                    proptest::prop_assert_eq!(d.approx(), x);
                }
            }
        }
    }

    proptest::proptest! {
        /// Order, sums and differences of dyadics are those of the rationals they stand for
        /// (numerators of any sign and length, exponents equal or far apart).
        #[test]
        fn dyadic_order_and_sums_are_exact(
            a in proptest::prelude::any::<i128>(),
            b in proptest::prelude::any::<i64>(),
            ea in 0u64..200,
            eb in 0u64..200,
            wide in proptest::prelude::any::<bool>(),
        ) {
            let x = Dy { n: if wide { BigInt::from(a) * BigInt::from(a) } else { BigInt::from(a) }, e: ea };
            let y = Dy { n: BigInt::from(b), e: eb };
            let (qx, qy) = (x.exact(), y.exact());
            proptest::prop_assert_eq!(x.cmp(&y), qx.cmp(&qy));
            proptest::prop_assert_eq!(y.cmp(&x), qy.cmp(&qx));
            proptest::prop_assert_eq!(x.add(&y).exact(), &qx + &qy);
            proptest::prop_assert_eq!(x.sub(&y).exact(), &qx - &qy);
            proptest::prop_assert_eq!(y.sub(&x).exact(), &qy - &qx);
            // Equal values written with different exponents.
            let z = Dy { n: &y.n << 3u32, e: eb + 3 };
            proptest::prop_assert_eq!(z.cmp(&y), Ordering::Equal);
        }
    }

    /// The four products of the bounds, the general rule the sign cases shortcut.
    fn by_four<B: Bound>(x: &Iv<B>, y: &Iv<B>) -> Iv<B> {
        let pairs = [
            (&x.lo, &y.lo),
            (&x.lo, &y.hi),
            (&x.hi, &y.lo),
            (&x.hi, &y.hi),
        ];
        let lo = pairs
            .iter()
            .map(|(a, b)| B::mul_down(a, b))
            .reduce(min2)
            .unwrap();
        let hi = pairs
            .iter()
            .map(|(a, b)| B::mul_up(a, b))
            .reduce(max2)
            .unwrap();
        Iv { lo, hi }
    }

    proptest::proptest! {
        /// Products of intervals of every sign pattern equal the four-product rule, for exact
        /// bounds and for doubles rounded outward.
        #[test]
        fn interval_products_by_sign(v in proptest::collection::vec(-50i64..50, 4), e in 0u64..70) {
            let (mut a, mut b, mut c, mut d) = (v[0], v[1], v[2], v[3]);
            if a > b { std::mem::swap(&mut a, &mut b); }
            if c > d { std::mem::swap(&mut c, &mut d); }
            let dy = |n: i64| Dy { n: BigInt::from(n), e };
            let (x, y) = (Iv::new(dy(a), dy(b)), Iv::new(dy(c), dy(d)));
            let (p, q) = (x.mul(&y), by_four(&x, &y));
            proptest::prop_assert!(p.lo == q.lo && p.hi == q.hi);
            let f = |n: i64| n as f64 / 7.0;
            let (x, y) = (Iv::new(f(a), f(b)), Iv::new(f(c), f(d)));
            let (p, q) = (x.mul(&y), by_four(&x, &y));
            proptest::prop_assert!(p.lo == q.lo && p.hi == q.hi);
        }
    }
}
