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
