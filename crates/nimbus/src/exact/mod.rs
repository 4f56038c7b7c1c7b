//! Exact arithmetic, shared by every family that solves equations or linear programs.
//!
//! - this module: exact rationals [`Q`] and how they are compared, printed, parsed and put over
//!   one denominator;
//! - [`ring`]: integers for fraction-free pivoting, with a machine-word fast path;
//! - [`tableau`]: the integer tableau every pivoting algorithm shares;
//! - [`linalg`]: exact linear systems by fraction-free Gauss–Jordan elimination;
//! - [`simplex`]: an exact LP solver (Bland's rule), guided by [`float`], a floating-point simplex;
//! - [`interval`]: interval arithmetic whose bounds enclose the exact result;
//! - [`small`]: fractions of machine words, which say when they overflowed;
//! - [`unreduced`]: big fractions never reduced by a gcd, for short computations;
//! - [`hull`]: whether the convex hull of points meets a cone (an LP over the points);
//! - [`json`]: exact numbers in JSON, as strings, so that no digit is lost.
//!
//! ```
//! use nimbus::exact::{parse_q, show};
//! assert_eq!(show(&parse_q("0.25").unwrap()), "1/4");
//! ```

pub mod float;
pub mod hull;
pub mod interval;
pub mod json;
pub mod linalg;
pub mod poly;
pub mod ring;
pub mod simplex;
pub mod small;
pub mod tableau;
pub mod unreduced;

/// Exact rational numbers: every payoff, probability and value.
pub type Q = num_rational::BigRational;

/// Writes rationals over one positive denominator: `(numerators, denominator)`, the least
/// common one.
pub fn over_common_denominator<'a, I>(v: I) -> (Vec<num_bigint::BigInt>, num_bigint::BigInt)
where
    I: IntoIterator<Item = &'a Q>,
    I::IntoIter: Clone,
{
    use num_integer::Integer;
    let v = v.into_iter();
    if let Some(small) = over_common_denominator_small(v.clone()) {
        return small;
    }
    let mut d = num_bigint::BigInt::from(1);
    for q in v.clone() {
        if &d % q.denom() != num_bigint::BigInt::from(0) {
            d = d.lcm(q.denom());
        }
    }
    let nums = v.map(|q| q.numer() * (&d / q.denom())).collect();
    (nums, d)
}

/// [`over_common_denominator`] in `i128`, or `None` when a number does not fit.
fn over_common_denominator_small<'a>(
    v: impl Iterator<Item = &'a Q> + Clone,
) -> Option<(Vec<num_bigint::BigInt>, num_bigint::BigInt)> {
    let (nums, d) = common_denominator_i128(v)?;
    Some((nums.into_iter().map(Into::into).collect(), d.into()))
}

/// [`over_common_denominator`] as machine integers, or `None` when a number does not fit.
pub(crate) fn common_denominator_i128<'a>(
    v: impl Iterator<Item = &'a Q> + Clone,
) -> Option<(Vec<i128>, i128)> {
    use num_traits::{One, ToPrimitive};
    let mut d: i128 = 1;
    for q in v.clone() {
        if q.denom().is_one() {
            continue;
        }
        let e = q.denom().to_i128()?;
        if d % e != 0 {
            d = (d / gcd_i128(d, e)).checked_mul(e)?;
        }
    }
    let nums = v
        .map(|q| {
            let n = q.numer().to_i128()?;
            if d == 1 {
                Some(n)
            } else {
                n.checked_mul(d / q.denom().to_i128()?)
            }
        })
        .collect::<Option<Vec<_>>>()?;
    Some((nums, d))
}

/// `n / d` in lowest terms (`d > 0`). Small numbers take a machine-word gcd: `BigInt`'s
/// gcd allocates at every step and was most of the time spent building equilibria.
pub fn ratio(n: &num_bigint::BigInt, d: &num_bigint::BigInt) -> Q {
    use num_traits::ToPrimitive;
    if let (Some(a), Some(b)) = (n.to_i128(), d.to_i128()) {
        if b > 0 && a != i128::MIN {
            return ratio_i128(a, b);
        }
    }
    Q::new(n.clone(), d.clone())
}

/// The greatest common divisor on the narrowest machine word that holds both numbers: a
/// 128-bit gcd shifts and subtracts in two words at every step.
pub(crate) fn gcd_i128(a: i128, b: i128) -> i128 {
    match (
        u64::try_from(a.unsigned_abs()),
        u64::try_from(b.unsigned_abs()),
    ) {
        (Ok(x), Ok(y)) => i128::from(num_integer::gcd(x, y)),
        _ => num_integer::gcd(a, b),
    }
}

/// `n / d` reduced, for `d > 0`, computed in machine integers.
pub(crate) fn ratio_i128(n: i128, d: i128) -> Q {
    if n == i128::MIN || d <= 0 {
        return Q::new(n.into(), d.into());
    }
    let g = gcd_i128(n, d);
    if g == 1 {
        return Q::new_raw(n.into(), d.into());
    }
    Q::new_raw((n / g).into(), (d / g).into())
}

/// Orders rationals by cross-multiplying, which for the small numbers of most games is
/// cheaper than `Ratio`'s own comparison (a continued-fraction expansion with a division at
/// every step).
pub fn cmp_q(a: &Q, b: &Q) -> std::cmp::Ordering {
    use num_traits::ToPrimitive;
    if a.denom() == b.denom() {
        a.numer().cmp(b.numer())
    } else if let (Some(p), Some(q), Some(r), Some(s)) = (
        a.numer().to_i64(),
        a.denom().to_i64(),
        b.numer().to_i64(),
        b.denom().to_i64(),
    ) {
        // Products of two 64-bit numbers fit in 128 bits: no big-integer product to allocate.
        (i128::from(p) * i128::from(s)).cmp(&(i128::from(r) * i128::from(q)))
    } else {
        (a.numer() * b.denom()).cmp(&(b.numer() * a.denom()))
    }
}

/// [`cmp_q`] lexicographically over lists.
pub fn cmp_qs(a: &[Q], b: &[Q]) -> std::cmp::Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| cmp_q(x, y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.len().cmp(&b.len()))
}

/// What one arithmetic operation on `q` costs against the work budget, in steps: one for a
/// number of a machine word, and the square of its words past that (an exact sum reduces by a
/// greatest common divisor, quadratic in the words: a chain of 20 000 chance moves of
/// probability 1/2 builds numbers of 20 000 bits).
pub fn arithmetic_cost(q: &Q) -> u64 {
    let words = (q.numer().bits() + q.denom().bits()) / 64;
    1 + words.saturating_mul(words)
}

/// The nearest `f64` (infinite when out of range).
pub fn to_f64(q: &Q) -> f64 {
    num_traits::ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
}

/// Writes a rational as `3`, `-1/2`: the form the command line and JSON use.
pub fn show(q: &Q) -> String {
    Shown(q).to_string()
}

/// A number written as [`show`] writes it, into any formatter: the JSON and the command
/// line's text write numbers through it without a string each.
pub struct Shown<'a>(pub &'a Q);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use num_traits::ToPrimitive;
        let q = self.0;
        // `BigInt`'s formatting converts through a general radix routine; most numbers are
        // small.
        match (q.numer().to_i64(), q.denom().to_i64()) {
            (Some(n), Some(1)) => write!(f, "{n}"),
            (Some(n), Some(d)) => write!(f, "{n}/{d}"),
            _ if q.is_integer() => write!(f, "{}", q.numer()),
            _ => write!(f, "{}/{}", q.numer(), q.denom()),
        }
    }
}

/// The most digits after the point a front-end asks [`show_decimal`] for: more than any
/// payoff's precision, and few enough that a number stays a line.
pub const MOST_DIGITS: usize = 1000;

/// `q` for a message: as [`show`] writes it when that is short, otherwise as a rounded decimal
/// marked "about", so that a number of ten thousand digits the user typed does not fill the
/// screen when an error quotes it back.
pub fn show_brief(q: &Q) -> String {
    const SHORT: usize = 40;
    let exact = show(q);
    if exact.len() <= SHORT {
        return exact;
    }
    let rounded = show_decimal(q, 12);
    if rounded.len() <= SHORT {
        return format!("about {rounded}");
    }
    // A huge number: its size, in digits before the point.
    let digits = rounded
        .trim_start_matches('-')
        .split('.')
        .next()
        .map_or(0, str::len);
    let sign = if rounded.starts_with('-') { "-" } else { "" };
    format!("about {sign}10^{}", digits - 1)
}

/// `q` as a decimal with `digits` digits after the point, rounded to nearest (Gambit's `-d`).
pub fn show_decimal(q: &Q, digits: usize) -> String {
    use num_bigint::BigInt;
    use num_integer::Integer;
    use num_traits::{Signed, Zero};
    let scale = num_traits::pow(BigInt::from(10), digits);
    // Rounded half away from zero by one integer division (a product of rationals would
    // reduce by a gcd first: most of the time on a certified box's long dyadic bounds).
    let (quotient, rest) = (q.numer().abs() * &scale).div_rem(q.denom());
    let rounded = if rest * 2u8 >= *q.denom() {
        quotient + 1u8
    } else {
        quotient
    };
    let negative = q.is_negative() && !rounded.is_zero();
    let (int, frac) = rounded.div_rem(&scale);
    let sign = if negative { "-" } else { "" };
    if digits == 0 {
        format!("{sign}{int}")
    } else {
        // Padded by hand: `format!`'s width stops at 65 535.
        let frac = frac.to_string();
        let zeros = "0".repeat(digits.saturating_sub(frac.len()));
        format!("{sign}{int}.{zeros}{frac}")
    }
}

/// `q` as a decimal with `digits` digits after the point, rounded down (`up`: up), so that a
/// lower and an upper bound shown this way still hold what they bound.
pub fn show_decimal_outward(q: &Q, digits: usize, up: bool) -> String {
    let scale = Q::from_integer(num_bigint::BigInt::from(10u8).pow(digits as u32));
    let scaled = q * &scale;
    let end = if up { scaled.ceil() } else { scaled.floor() };
    show_decimal(&(end / scale), digits)
}

/// Reads an exact number: an integer (`-3`), a decimal (`7.25`, `-.5`, `1e-3`, `2.5E2`) or a
/// fraction (`1/3`); `None` if `text` is none of these or a fraction's denominator is 0.
pub fn parse_q(text: &str) -> Option<Q> {
    parse_number(text).ok()
}

/// The largest power of ten an exact number may carry (`1e10000`): beyond it the digits alone
/// would take megabytes.
pub const MAX_EXPONENT: u32 = 10_000;

/// [`parse_q`], saying what is wrong when `text` is not a number: "'x' is not a number", or
/// why a number is refused.
pub fn parse_number(text: &str) -> std::result::Result<Q, String> {
    let not = || format!("'{text}' is not a number");
    if let Some((a, b)) = text.split_once('/') {
        let (a, b) = (parse_number(a)?, parse_number(b)?);
        if num_traits::Zero::is_zero(&b) {
            return Err(format!("'{text}' divides by zero"));
        }
        return Ok(a / b);
    }
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => {
            let e = &text[i + 1..];
            let digits = e.trim_start_matches(['+', '-']);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(not());
            }
            match e.parse::<i32>() {
                Ok(x) if x.unsigned_abs() <= MAX_EXPONENT => (&text[..i], x),
                _ => {
                    return Err(format!(
                        "'{text}' has an exponent beyond ±{MAX_EXPONENT}: exact numbers that \
                         large are not supported"
                    ))
                }
            }
        }
        None => (text, 0),
    };
    parse_decimal(mantissa, exp).ok_or_else(not)
}

fn parse_decimal(mantissa: &str, exp: i32) -> Option<Q> {
    use num_bigint::BigInt;
    let (neg, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    if frac.is_empty() && exp == 0 && int.len() <= 18 {
        // A plain integer, the common payoff: no string or big-integer parse (18 digits fit
        // in an i64).
        let n: i64 = int.parse().ok()?;
        return Some(Q::from_integer(BigInt::from(if neg { -n } else { n })));
    }
    let all: BigInt = format!("{int}{frac}").parse().ok()?;
    let scale = exp - frac.len() as i32;
    let ten = BigInt::from(10);
    let mut q = if scale >= 0 {
        Q::from_integer(all * num_traits::pow(ten, scale as usize))
    } else {
        Q::new(all, num_traits::pow(ten, (-scale) as usize))
    };
    if neg {
        q = -q;
    }
    Some(q)
}

#[cfg(test)]
mod brief_tests {
    use super::*;

    #[test]
    fn long_numbers_are_shown_rounded_and_huge_ones_by_size() {
        let q = |s: &str| parse_number(s).unwrap();
        assert_eq!(show_brief(&q("5/6")), "5/6");
        let long = format!("0.{}", "3".repeat(10_000));
        assert_eq!(
            show_brief(&(q(&long) * Q::from_integer(2.into()))),
            "about 0.666666666667"
        );
        let huge = format!("-{}", "9".repeat(500));
        assert_eq!(show_brief(&q(&huge)), "about -10^499");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    proptest::proptest! {
        /// The decimals are the rational rounded half away from zero (as `Ratio::round`
        /// does), signs and carries included.
        #[test]
        fn decimals_round_half_away_from_zero(
            n in proptest::prelude::any::<i64>(),
            d in 1i64..i64::MAX,
            digits in 0usize..25,
        ) {
            let q = Q::new(BigInt::from(n), BigInt::from(d));
            let scale = Q::from_integer(num_traits::pow(BigInt::from(10), digits));
            let rounded = (&q * &scale).round() / &scale;
            let shown = show_decimal(&q, digits);
            proptest::prop_assert_eq!(parse_q(&shown).unwrap(), rounded.clone());
            proptest::prop_assert_eq!(shown.starts_with('-'), rounded < Q::from_integer(0.into()));
            proptest::prop_assert_eq!(show_decimal(&Q::new(1.into(), 2.into()), 0), "1");
            proptest::prop_assert_eq!(show_decimal(&Q::new((-1).into(), 2.into()), 0), "-1");
        }

        /// Integers, read without a big-integer parse when they have at most 18 digits, are
        /// the same numbers as through the general path (leading zeros, signs, and lengths
        /// on both sides of the cut).
        #[test]
        fn integers_read_as_the_general_path_reads_them(
            n in proptest::prelude::any::<i128>(),
            zeros in 0usize..3,
            plus in proptest::prelude::any::<bool>(),
        ) {
            let digits = format!("{}{}", "0".repeat(zeros), n.unsigned_abs());
            let text = match (n < 0, plus) {
                (true, _) => format!("-{digits}"),
                (false, true) => format!("+{digits}"),
                (false, false) => digits.clone(),
            };
            let expected = Q::from_integer(BigInt::from(n));
            proptest::prop_assert_eq!(parse_number(&text).unwrap(), expected.clone());
            // The same number with an exponent or a point takes the general path.
            proptest::prop_assert_eq!(parse_number(&format!("{text}e0")).unwrap(), expected.clone());
            proptest::prop_assert_eq!(parse_number(&format!("{text}.0")).unwrap(), expected);
        }
    }

    #[test]
    fn integers_at_the_machine_cut() {
        for text in [
            "999999999999999999",
            "-999999999999999999",
            "1000000000000000000",
            "9223372036854775807",
            "-9223372036854775808",
            "-0",
            "+0",
            "0",
        ] {
            let general = Q::from_integer(text.parse::<BigInt>().unwrap());
            assert_eq!(parse_number(text).unwrap(), general, "{text}");
        }
        assert!(parse_number("-").is_err());
        assert!(parse_number("+").is_err());
        assert!(parse_number("1-2").is_err());
    }
}
