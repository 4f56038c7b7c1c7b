//! Strategic-form (normal-form) games with exact rational payoffs.
//!
//! - [`game`]: the n-player game, payoffs indexed by pure profiles, and the exact check of a
//!   mixed profile ([`game::verify`]);
//! - [`nfg`]: Gambit's `.nfg` format, both the payoff and the outcome forms, read and written;
//! - [`matrix`]: plain matrices for quick use (`"3 0; 5 1"`, CSV);
//! - [`simplex`]: an exact LP solver with integer (fraction-free) pivoting and Bland's rule;
//! - [`zerosum`]: matrix games — saddle points, and the value with both players' optimal
//!   mixed strategies from one LP and its dual (von Neumann's minimax theorem).

pub mod bimatrix;
pub mod float;
pub mod game;
pub mod lemke;
pub mod linalg;
pub mod matrix;
pub mod nfg;
pub mod pure;
pub mod ring;
pub mod simplex;
pub mod support;
pub mod tableau;
pub mod two_by_two;
pub mod vertex;
pub mod zerosum;

/// Exact rational numbers: every payoff, probability and value.
pub type Q = num_rational::BigRational;

/// Writes rationals over one positive denominator: `(numerators, denominator)`.
pub fn over_common_denominator(v: &[Q]) -> (Vec<num_bigint::BigInt>, num_bigint::BigInt) {
    use num_integer::Integer;
    let mut d = num_bigint::BigInt::from(1);
    for q in v {
        if &d % q.denom() != num_bigint::BigInt::from(0) {
            d = d.lcm(q.denom());
        }
    }
    let nums = v.iter().map(|q| q.numer() * (&d / q.denom())).collect();
    (nums, d)
}

/// The nearest `f64` (infinite when out of range).
pub fn to_f64(q: &Q) -> f64 {
    num_traits::ToPrimitive::to_f64(q).unwrap_or(f64::NAN)
}

/// Writes a rational as `3`, `-1/2`: the form the command line and JSON use.
pub fn show(q: &Q) -> String {
    if q.is_integer() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// Reads an exact number: an integer (`-3`), a decimal (`7.25`, `-.5`, `1e-3`, `2.5E2`) or a
/// fraction (`1/3`); `None` if `text` is none of these or a fraction's denominator is 0.
pub fn parse_q(text: &str) -> Option<Q> {
    use num_bigint::BigInt;
    if let Some((a, b)) = text.split_once('/') {
        let (a, b) = (parse_q(a)?, parse_q(b)?);
        return (!num_traits::Zero::is_zero(&b)).then(|| a / b);
    }
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (neg, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
        || exp.unsigned_abs() > 10_000
    {
        return None;
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
