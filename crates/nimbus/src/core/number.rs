//! Whole numbers read from user input, with errors that say why a word is not one: not a
//! number, negative, or past the largest value the type holds.

use super::error::{Error, Result, Span};

/// Parses a whole number for `what` from `text` at `span`.
pub fn parse_u64(text: &str, span: &Span, what: &str) -> Result<u64> {
    if let Ok(v) = text.parse::<u64>() {
        return Ok(v);
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    let message = if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
        if text.starts_with('-') {
            format!(
                "'{text}' is negative: {what} is a whole number from 0 to {}",
                u64::MAX
            )
        } else {
            format!("'{text}' is too large: {what} is at most {}", u64::MAX)
        }
    } else {
        format!("'{text}' is not a whole number ({what} expected)")
    };
    Err(Error::parse(span.clone(), message))
}

/// The longest time limit a setting takes, in seconds (about 31 years): past it a limit means
/// nothing, and a clock's arithmetic would overflow.
pub const MOST_SECONDS: f64 = 1e9;

/// A time limit given for the setting called `setting`: a positive, finite number of seconds,
/// at most [`MOST_SECONDS`] (NaN, infinities, zero and negatives are refused by name).
pub fn seconds(setting: &str, x: f64) -> Result<std::time::Duration> {
    if x.is_finite() && x > 0.0 && x <= MOST_SECONDS {
        return Ok(std::time::Duration::from_secs_f64(x));
    }
    Err(Error::Invalid(format!(
        "{} is {x}: give a positive number of seconds, at most {MOST_SECONDS:e}",
        super::hint::setting(setting)
    )))
}

/// A whole number given for the setting called `setting`, checked to be from `least` to
/// `most`; `what` says what it counts ("digits", "reports").
pub fn in_range(setting: &str, x: u64, least: u64, most: u64, what: &str) -> Result<u64> {
    if (least..=most).contains(&x) {
        return Ok(x);
    }
    Err(Error::Invalid(format!(
        "{} is {x}: give from {least} to {most} {what}",
        super::hint::setting(setting)
    )))
}

/// A real number given for the setting called `setting`, checked to be finite and at least
/// `least`.
pub fn finite_at_least(setting: &str, x: f64, least: f64) -> Result<f64> {
    if x.is_finite() && x >= least {
        return Ok(x);
    }
    Err(Error::Invalid(format!(
        "{} is {x}: give a finite number, at least {least}",
        super::hint::setting(setting)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_settings_are_refused_by_name() {
        for x in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -1.0,
            1e20,
            1e300,
        ] {
            let e = seconds("time_limit", x).unwrap_err().to_string();
            assert!(e.starts_with("time_limit is "), "{e}");
        }
        assert_eq!(seconds("time-limit", 0.5).unwrap().as_millis(), 500);
        assert!(in_range("decimals", 65536, 0, 1000, "digits").is_err());
        assert!(in_range("reports", u64::MAX, 1, 1 << 20, "reports").is_err());
        assert!(finite_at_least("target", f64::NAN, 0.0).is_err());
        assert!(finite_at_least("target", -0.5, 0.0).is_err());
        assert_eq!(finite_at_least("target", 0.0, 0.0).unwrap(), 0.0);
    }
}
