//! Settings named in error messages, written by each front-end in its own words.
//!
//! An error that says what to change ("raise the work budget", "use the logit method") names a
//! setting of the request: its key is the API's field name (`max_work`, `method`), with a value
//! where one is meant (`method` = `logit`). The library marks the setting in the message with
//! [`setting`] or [`setting_value`]; [`render`] writes each mark with a front-end's function —
//! the command line as `--max-work` or `--method logit`, Python as `max_work` or
//! `method="logit"`, the web page as its JSON field — and [`plain`] writes it with the library's
//! own names, as [`crate::Error`]'s `Display` does.
//!
//! ```
//! use nimbus::core::hint::{plain, render, setting, setting_value};
//! let text = format!("raise {}, or use {}", setting("max_work"), setting_value("method", "gnm"));
//! assert_eq!(plain(&text), "raise max_work, or use method gnm");
//! let cli = |key: &str, value: Option<&str>| match value {
//!     Some(v) => format!("--{} {v}", key.replace('_', "-")),
//!     None => format!("--{}", key.replace('_', "-")),
//! };
//! assert_eq!(render(&text, &cli), "raise --max-work, or use --method gnm");
//! ```

/// Opens a mark (a character of Unicode's private use area, which no message contains).
const OPEN: char = '\u{E000}';
/// Separates a mark's key from its value.
const IS: char = '\u{E001}';
/// Closes a mark.
const CLOSE: char = '\u{E002}';

/// The setting `key` (an API field name such as `max_work`), marked for a front-end to name.
pub fn setting(key: &str) -> String {
    format!("{OPEN}{key}{CLOSE}")
}

/// The setting `key` with the value `value` (`method` = `logit`), marked likewise.
pub fn setting_value(key: &str, value: &str) -> String {
    format!("{OPEN}{key}{IS}{value}{CLOSE}")
}

/// `text` with every marked setting written by `name(key, value)`.
pub fn render(text: &str, name: &dyn Fn(&str, Option<&str>) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + OPEN.len_utf8()..];
        let Some(end) = after.find(CLOSE) else {
            // An unclosed mark is not a mark: keep the text as it is.
            out.push_str(&rest[start..]);
            return out;
        };
        let inside = &after[..end];
        out.push_str(&match inside.split_once(IS) {
            Some((key, value)) => name(key, Some(value)),
            None => name(inside, None),
        });
        rest = &after[end + CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// `text` with every marked setting written with the library's names: `max_work`, `method gnm`.
pub fn plain(text: &str) -> String {
    render(text, &|key, value| match value {
        Some(v) => format!("{key} {v}"),
        None => key.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_written_by_the_function_given_and_nothing_else_changes() {
        let text = format!("a {} b {} c", setting("x_y"), setting_value("m", "v w"));
        let seen = render(&text, &|k, v| format!("<{k}|{}>", v.unwrap_or("-")));
        assert_eq!(seen, "a <x_y|-> b <m|v w> c");
        assert_eq!(plain("no marks, é ü"), "no marks, é ü");
        let broken = format!("x {OPEN}y");
        assert_eq!(plain(&broken), broken);
    }
}
