//! Polynomials in one variable over the rationals, and their real roots exactly: Sturm
//! sequences count the distinct roots in an interval, bisection with rational ends isolates
//! one, and the sign any other polynomial takes at that root is decided exactly (zero when
//! the two share it, else by narrowing the interval until the other has no root in it).
//!
//! This is what an irrational value needs to be stated exactly: as the one root of an integer
//! polynomial between two fractions. The degrees here are small (a stage game's kernel), so
//! the plain algorithms over big fractions are enough.

use super::Q;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// A polynomial: its coefficients, the constant first, without trailing zeros (the zero
/// polynomial has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Poly(Vec<Q>);

impl Poly {
    /// The polynomial with these coefficients, the constant first.
    pub fn new(mut coefficients: Vec<Q>) -> Poly {
        while coefficients.last().is_some_and(Zero::is_zero) {
            coefficients.pop();
        }
        Poly(coefficients)
    }

    /// The constant `c`.
    pub fn constant(c: Q) -> Poly {
        Poly::new(vec![c])
    }

    /// `c0 + c1 x`.
    pub fn linear(c0: Q, c1: Q) -> Poly {
        Poly::new(vec![c0, c1])
    }

    /// The coefficients, the constant first.
    pub fn coefficients(&self) -> &[Q] {
        &self.0
    }

    /// Whether this is the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    /// The degree (`None` for zero).
    pub fn degree(&self) -> Option<usize> {
        self.0.len().checked_sub(1)
    }

    /// The value at `x` (Horner's rule).
    pub fn eval(&self, x: &Q) -> Q {
        self.0.iter().rev().fold(Q::zero(), |acc, c| acc * x + c)
    }

    /// The sign of the value at `x`.
    pub fn sign_at(&self, x: &Q) -> Ordering {
        self.eval(x).cmp(&Q::zero())
    }

    /// The sum.
    pub fn add(&self, other: &Poly) -> Poly {
        let n = self.0.len().max(other.0.len());
        let at = |p: &Poly, k: usize| p.0.get(k).cloned().unwrap_or_else(Q::zero);
        Poly::new((0..n).map(|k| at(self, k) + at(other, k)).collect())
    }

    /// `self` times the constant `c`.
    pub fn scale(&self, c: &Q) -> Poly {
        Poly::new(self.0.iter().map(|a| a * c).collect())
    }

    /// The difference.
    pub fn sub(&self, other: &Poly) -> Poly {
        self.add(&other.scale(&-Q::one()))
    }

    /// The product.
    pub fn mul(&self, other: &Poly) -> Poly {
        if self.is_zero() || other.is_zero() {
            return Poly(Vec::new());
        }
        let mut out = vec![Q::zero(); self.0.len() + other.0.len() - 1];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in other.0.iter().enumerate() {
                out[i + j] += a * b;
            }
        }
        Poly::new(out)
    }

    /// The remainder of the division by `d` (not zero).
    pub fn rem(&self, d: &Poly) -> Poly {
        self.div_rem(d).1
    }

    /// Quotient and remainder of the division by `d` (not zero).
    pub fn div_rem(&self, d: &Poly) -> (Poly, Poly) {
        let dd = d.degree().expect("division by the zero polynomial");
        let lead = &d.0[dd];
        let mut r = self.0.clone();
        let mut quotient = vec![Q::zero(); r.len().saturating_sub(dd)];
        while r.len() > dd && !r.is_empty() {
            let k = r.len() - 1;
            let c = &r[k] / lead;
            for (j, b) in d.0.iter().enumerate() {
                r[k - dd + j] -= &c * b;
            }
            quotient[k - dd] = c;
            // The top coefficient is now zero exactly.
            r.pop();
            while r.last().is_some_and(Zero::is_zero) {
                r.pop();
            }
        }
        (Poly::new(quotient), Poly::new(r))
    }

    /// The derivative.
    pub fn derivative(&self) -> Poly {
        Poly::new(
            self.0
                .iter()
                .enumerate()
                .skip(1)
                .map(|(k, c)| c * Q::from_integer(k.into()))
                .collect(),
        )
    }

    /// The same polynomial divided by its leading coefficient (zero stays zero).
    pub fn monic(&self) -> Poly {
        match self.0.last() {
            Some(lead) => {
                let inverse = Q::one() / lead;
                self.scale(&inverse)
            }
            None => self.clone(),
        }
    }

    /// The greatest common divisor, monic (Euclid's algorithm).
    pub fn gcd(&self, other: &Poly) -> Poly {
        let (mut a, mut b) = (self.clone(), other.clone());
        while !b.is_zero() {
            let r = a.rem(&b);
            a = b;
            b = r.monic();
        }
        a.monic()
    }

    /// The polynomial with the same roots, each once: `self / gcd(self, self')`.
    pub fn squarefree(&self) -> Poly {
        if self.degree().unwrap_or(0) == 0 {
            return self.clone();
        }
        let g = self.gcd(&self.derivative());
        self.div_rem(&g).0
    }

    /// The same roots, as a primitive integer polynomial with a positive leading coefficient.
    pub fn integer_coefficients(&self) -> Vec<BigInt> {
        let Some(lead) = self.0.last() else {
            return Vec::new();
        };
        let denominators = self.0.iter().fold(BigInt::one(), |l, c| l.lcm(c.denom()));
        let mut ints: Vec<BigInt> = self
            .0
            .iter()
            .map(|c| (c * Q::from_integer(denominators.clone())).to_integer())
            .collect();
        let content = ints.iter().fold(BigInt::zero(), |g, c| g.gcd(c));
        let sign = if lead.is_negative() { -1 } else { 1 };
        let divisor = content * sign;
        for c in &mut ints {
            *c = &*c / &divisor;
        }
        ints
    }

    /// The polynomial of degree at most `points.len() − 1` through the points `(x, y)` (the
    /// `x` distinct), by Newton's divided differences.
    pub fn interpolate(points: &[(Q, Q)]) -> Poly {
        let n = points.len();
        let mut table: Vec<Q> = points.iter().map(|(_, y)| y.clone()).collect();
        for level in 1..n {
            for k in (level..n).rev() {
                table[k] = (&table[k] - &table[k - 1]) / (&points[k].0 - &points[k - level].0);
            }
        }
        // p = t0 + (x − x0)(t1 + (x − x1)(t2 + …)).
        let mut p = Poly(Vec::new());
        for k in (0..n).rev() {
            p = p
                .mul(&Poly::linear(-points[k].0.clone(), Q::one()))
                .add(&Poly::constant(table[k].clone()));
        }
        p
    }

    /// The coefficients of `self(c + t)` in `t`, the constant first (Taylor's shift, by
    /// repeated synthetic division).
    pub fn shifted(&self, c: &Q) -> Vec<Q> {
        let mut a = self.0.clone();
        let n = a.len();
        for start in 0..n {
            for k in (start..n - 1).rev() {
                let carry = &a[k + 1] * c;
                a[k] += carry;
            }
        }
        a
    }

    /// The sign of `self` throughout `[a, b]` when one bound proves it: the value at a point
    /// `c` of the interval larger than `Σ_k |coefficient_k of self(c + t)| r^k` (`k ≥ 1`, `r`
    /// the distance to the farther end), all it can change in the interval; `None` when that
    /// does not show it.
    pub fn sign_on(&self, a: &Q, b: &Q) -> Option<Ordering> {
        // The simplest fraction in the interval rather than its middle: far shorter numbers,
        // and the reach `r` to the farther end covers the interval all the same.
        let c = super::interval::simplest_between(a, b);
        let r = (&c - a).max(b - &c);
        let shifted = self.shifted(&c);
        let (value, rest) = shifted.split_first()?;
        let mut power = Q::one();
        let mut change = Q::zero();
        for coefficient in rest {
            power *= &r;
            change += coefficient.abs() * &power;
        }
        (value.abs() > change).then(|| value.cmp(&Q::zero()))
    }

    /// The Sturm sequence: `self`, its derivative, and the negated remainders.
    pub fn sturm(&self) -> Vec<Poly> {
        let mut chain = vec![self.clone(), self.derivative()];
        while !chain[chain.len() - 1].is_zero() {
            let k = chain.len();
            let r = chain[k - 2].rem(&chain[k - 1]);
            if r.is_zero() {
                break;
            }
            chain.push(r.scale(&-Q::one()));
        }
        chain.retain(|p| !p.is_zero());
        chain
    }
}

/// Sign changes along a Sturm sequence at `x` (zeros skipped); `None` stands for +∞.
fn variations(chain: &[Poly], x: Option<&Q>) -> usize {
    let signs = chain.iter().map(|p| match x {
        Some(x) => p.sign_at(x),
        None => p.0.last().map_or(Ordering::Equal, |c| c.cmp(&Q::zero())),
    });
    let mut last = Ordering::Equal;
    let mut count = 0;
    for s in signs.filter(|s| *s != Ordering::Equal) {
        if last != Ordering::Equal && s != last {
            count += 1;
        }
        last = s;
    }
    count
}

/// The number of distinct real roots of the polynomial whose Sturm sequence is `chain` in
/// `(a, b]` (`b = None`: up to +∞).
pub fn roots_between(chain: &[Poly], a: &Q, b: Option<&Q>) -> usize {
    variations(chain, Some(a)).saturating_sub(variations(chain, b))
}

/// A real root of a squarefree polynomial: the only one in `(lower, upper]`.
#[derive(Debug, Clone)]
pub struct Root {
    /// The polynomial, squarefree.
    pub poly: Poly,
    /// Its Sturm sequence.
    chain: Vec<Poly>,
    /// The interval's lower end (excluded).
    pub lower: Q,
    /// Its upper end (included).
    pub upper: Q,
}

impl Root {
    /// Every root of `poly` (any polynomial but zero) in `(a, b]`, each isolated in an
    /// interval of its own, in increasing order; `None` when more than `max_steps` bisections
    /// would be needed.
    pub fn all_between(poly: &Poly, a: &Q, b: &Q, max_steps: usize) -> Option<Vec<Root>> {
        let poly = poly.squarefree();
        let chain = poly.sturm();
        let mut pending = vec![(a.clone(), b.clone())];
        let mut out = Vec::new();
        let mut steps = 0;
        while let Some((lo, hi)) = pending.pop() {
            match roots_between(&chain, &lo, Some(&hi)) {
                0 => {}
                1 => out.push(Root {
                    poly: poly.clone(),
                    chain: chain.clone(),
                    lower: lo,
                    upper: hi,
                }),
                _ => {
                    steps += 1;
                    if steps > max_steps {
                        return None;
                    }
                    let mid = (&lo + &hi) / Q::from_integer(2.into());
                    pending.push((mid.clone(), hi));
                    pending.push((lo, mid));
                }
            }
        }
        out.sort_by(|x, y| x.lower.cmp(&y.lower));
        Some(out)
    }

    /// Halves the interval, keeping the root in it.
    pub fn bisect(&mut self) {
        let mid = (&self.lower + &self.upper) / Q::from_integer(2.into());
        if roots_between(&self.chain, &self.lower, Some(&mid)) == 1 {
            self.upper = mid;
        } else {
            self.lower = mid;
        }
    }

    /// The sign of `g` at the root: zero exactly when `g` vanishes there; `None` when more
    /// than `max_steps` bisections would be needed to tell (they narrow the interval, which
    /// stays narrowed).
    pub fn sign_of(&mut self, g: &Poly, max_steps: usize) -> Option<Ordering> {
        let g = g.rem(&self.poly);
        if g.is_zero() {
            return Some(Ordering::Equal);
        }
        // Quickest: `g` at the interval's middle outweighs all it can change across the
        // interval (then it has no root there, and its sign is that at the middle).
        if let Some(sign) = g.sign_on(&self.lower, &self.upper) {
            return Some(sign);
        }
        // A common root of `g` and the polynomial in the interval is the root itself.
        let common = g.gcd(&self.poly);
        if common.degree().unwrap_or(0) > 0
            && roots_between(&common.sturm(), &self.lower, Some(&self.upper)) > 0
        {
            return Some(Ordering::Equal);
        }
        let chain = g.sturm();
        for _ in 0..=max_steps {
            if roots_between(&chain, &self.lower, Some(&self.upper)) == 0 {
                // No root of `g` in the interval: its sign there is its sign at the root.
                return Some(g.sign_at(&self.upper));
            }
            self.bisect();
        }
        None
    }

    /// The root in closed form when the polynomial is a quadratic: `(p + s √d) / r` as
    /// `(p, s, d, r)` with `d > 1` free of squares (up to the trial divisions made), `r > 0`
    /// and no common factor of `p`, `s` and `r`.
    pub fn quadratic(&self) -> Option<(BigInt, BigInt, BigInt, BigInt)> {
        let c = self.poly.integer_coefficients();
        if c.len() != 3 {
            return None;
        }
        let (c0, c1, c2) = (&c[0], &c[1], &c[2]);
        let disc: BigInt = c1 * c1 - BigInt::from(4) * c2 * c0;
        if !disc.is_positive() {
            return None;
        }
        let (square, free) = split_square(&disc);
        if free.is_one() {
            return None;
        }
        // The larger root has the + sign (c2 > 0): it is ours when no root lies above.
        let larger = roots_between(&self.chain, &self.upper, None) == 0;
        let s = if larger { square } else { -square };
        let (p, r) = (-c1.clone(), BigInt::from(2) * c2);
        let g = p.gcd(&s).gcd(&r);
        Some((p / &g, s / &g, free, r / &g))
    }
}

/// `n = a² b` with `b` free of the squares of primes below 10⁴ (and of the whole rest when
/// that is a perfect square): `(a, b)`.
fn split_square(n: &BigInt) -> (BigInt, BigInt) {
    let mut a = BigInt::one();
    let mut b = n.clone();
    let mut p = BigInt::from(2);
    let limit = BigInt::from(10_000);
    while p < limit && &p * &p <= b {
        let square = &p * &p;
        while (&b % &square).is_zero() {
            b /= &square;
            a *= &p;
        }
        p += 1;
    }
    let root = b.sqrt();
    if &root * &root == b {
        a *= root;
        b = BigInt::one();
    }
    (a, b)
}

/// A root written as [`Root::quadratic`] gives it: `-3 + sqrt(21)`, `(1 - sqrt(5))/2`.
pub fn show_quadratic((p, s, d, r): &(BigInt, BigInt, BigInt, BigInt)) -> String {
    let root = if s.abs().is_one() {
        format!("sqrt({d})")
    } else {
        format!("{}*sqrt({d})", s.abs())
    };
    let sign = if s.is_negative() { "-" } else { "+" };
    let numerator = if p.is_zero() {
        format!("{}{root}", if s.is_negative() { "-" } else { "" })
    } else {
        format!("{p} {sign} {root}")
    };
    if r.is_one() {
        numerator
    } else if p.is_zero() {
        format!("{numerator}/{r}")
    } else {
        format!("({numerator})/{r}")
    }
}

/// An integer polynomial in `x`, highest power first: `x^2 + 6x - 12`.
pub fn show_integer_poly(coefficients: &[BigInt], x: &str) -> String {
    let mut out = String::new();
    for (k, c) in coefficients.iter().enumerate().rev() {
        if c.is_zero() {
            continue;
        }
        let first = out.is_empty();
        let sign = match (c.is_negative(), first) {
            (true, true) => "-",
            (true, false) => " - ",
            (false, true) => "",
            (false, false) => " + ",
        };
        let magnitude = c.abs();
        let factor = match (k, magnitude.is_one()) {
            (0, _) => magnitude.to_string(),
            (_, true) => String::new(),
            (_, false) => magnitude.to_string(),
        };
        let power = match k {
            0 => String::new(),
            1 => x.to_string(),
            _ => format!("{x}^{k}"),
        };
        out.push_str(&format!("{sign}{factor}{power}"));
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn q(n: i64) -> Q {
        Q::from_integer(n.into())
    }

    fn from_ints(c: &[i64]) -> Poly {
        Poly::new(c.iter().map(|&x| q(x)).collect())
    }

    #[test]
    fn the_root_of_a_quadratic_in_closed_form() {
        // x^2 + 6x - 12: roots -3 ± √21; the positive one is 1.58…
        let p = from_ints(&[-12, 6, 1]);
        let roots = Root::all_between(&p, &q(-100), &q(100), 200).unwrap();
        assert_eq!(roots.len(), 2);
        let shown: Vec<String> = roots
            .iter()
            .map(|r| show_quadratic(&r.quadratic().unwrap()))
            .collect();
        assert_eq!(shown, ["-3 - sqrt(21)", "-3 + sqrt(21)"]);
        assert_eq!(
            show_integer_poly(&p.integer_coefficients(), "v"),
            "v^2 + 6v - 12"
        );
        // The golden ratio's conjugate: x^2 + x - 1.
        let golden = from_ints(&[-1, 1, 1]);
        let r = Root::all_between(&golden, &q(0), &q(1), 100).unwrap();
        assert_eq!(
            show_quadratic(&r[0].quadratic().unwrap()),
            "(-1 + sqrt(5))/2"
        );
        // 2x^2 - 1: ±√2/2.
        let half = from_ints(&[-1, 0, 2]);
        let r = Root::all_between(&half, &q(-1), &q(0), 100).unwrap();
        assert_eq!(show_quadratic(&r[0].quadratic().unwrap()), "-sqrt(2)/2");
        // 8 = 2² · 2: x^2 - 8 has the roots ±2√2.
        let r = Root::all_between(&from_ints(&[-8, 0, 1]), &q(0), &q(9), 100).unwrap();
        assert_eq!(show_quadratic(&r[0].quadratic().unwrap()), "2*sqrt(2)");
        // A rational root has no surd.
        let r = Root::all_between(&from_ints(&[-4, 0, 1]), &q(0), &q(9), 100).unwrap();
        assert_eq!(r[0].quadratic(), None);
    }

    #[test]
    fn taylor_shifts_and_interval_signs() {
        // (x - 1)^2 + 1 around c = 1: t^2 + 1.
        let p = from_ints(&[2, -2, 1]);
        assert_eq!(p.shifted(&q(1)), vec![q(1), q(0), q(1)]);
        assert_eq!(p.shifted(&q(3)), vec![q(5), q(4), q(1)]);
        // Positive on [1/2, 3/2] (it is at least 1), and the bound shows it from 1: 1 + t².
        let half = |n: i64| Q::new(n.into(), 2.into());
        assert_eq!(p.sign_on(&half(1), &half(3)), Some(Ordering::Greater));
        // From 0 (the simplest point of [0, 2]) the bound is too wide to tell.
        assert_eq!(p.sign_on(&q(0), &q(2)), None);
        // x - 1 changes sign on [0, 2]: no sign there.
        assert_eq!(from_ints(&[-1, 1]).sign_on(&q(0), &q(2)), None);
        assert_eq!(
            from_ints(&[-1, 1]).sign_on(&half(5), &q(3)),
            Some(Ordering::Greater)
        );
    }

    #[test]
    fn signs_at_a_root_are_exact() {
        // √2 is the root of x^2 - 2 in (1, 2].
        let mut r = Root::all_between(&from_ints(&[-2, 0, 1]), &q(1), &q(2), 100)
            .unwrap()
            .remove(0);
        // x - 1.41421356 > 0 and x - 1.41421357 < 0 there; 2x^2 - 4 vanishes.
        let close = |n: i64| Poly::linear(-Q::new(n.into(), 100_000_000.into()), Q::one());
        assert_eq!(r.sign_of(&close(141_421_356), 200), Some(Ordering::Greater));
        assert_eq!(r.sign_of(&close(141_421_357), 200), Some(Ordering::Less));
        assert_eq!(
            r.sign_of(&from_ints(&[-4, 0, 2]), 200),
            Some(Ordering::Equal)
        );
        // (x - √2)(x + 3) shares the root after reduction: x^3 + 3x^2 - 2x - 6.
        assert_eq!(
            r.sign_of(&from_ints(&[-6, -2, 3, 1]), 200),
            Some(Ordering::Equal)
        );
    }

    /// Integer polynomials with known integer roots, multiplied out: Sturm counts and the
    /// isolation find exactly the roots in the interval, squarefree drops repeats, and the
    /// interpolation through points of a polynomial gives it back.
    fn roots_strategy() -> impl Strategy<Value = (Vec<i64>, i64, i64)> {
        (prop::collection::vec(-6i64..=6, 1..6), -7i64..=7, 0i64..=8)
    }

    proptest! {
        #[test]
        fn roots_are_counted_and_isolated((roots, a, width) in roots_strategy()) {
            let p = roots
                .iter()
                .fold(Poly::constant(q(3)), |p, &r| p.mul(&Poly::linear(q(-r), q(1))));
            let b = a + width;
            let mut expected: Vec<i64> = roots.iter().copied().filter(|&r| r > a && r <= b).collect();
            expected.sort();
            expected.dedup();
            prop_assert_eq!(roots_between(&p.squarefree().sturm(), &q(a), Some(&q(b))), expected.len());
            let found = Root::all_between(&p, &q(a), &q(b), 400).unwrap();
            prop_assert_eq!(found.len(), expected.len());
            for (mut f, r) in found.into_iter().zip(&expected) {
                prop_assert!(f.lower < q(*r) && q(*r) <= f.upper);
                prop_assert_eq!(f.sign_of(&Poly::linear(q(-r), q(1)), 400), Some(Ordering::Equal));
                // x − r + 1/3 is 1/3 there, x − r − 1/3 is −1/3.
                let third = Q::new(1.into(), 3.into());
                prop_assert_eq!(f.sign_of(&Poly::linear(q(-r) + &third, q(1)), 400), Some(Ordering::Greater));
                prop_assert_eq!(f.sign_of(&Poly::linear(q(-r) - &third, q(1)), 400), Some(Ordering::Less));
            }
            let mut distinct = roots.clone();
            distinct.sort();
            distinct.dedup();
            prop_assert_eq!(p.squarefree().degree(), Some(distinct.len()));
            let points: Vec<(Q, Q)> = (0..=roots.len() as i64).map(|x| (q(x), p.eval(&q(x)))).collect();
            prop_assert_eq!(Poly::interpolate(&points), p);
        }
    }
}
