//! The library's messages in the command line's words: each setting an error names (a budget
//! to raise, a method to use) written as the flag that sets it.

/// The flag of the API setting `key` (`max_work` → `--max-work`), with its value if one is meant
/// (`method` = `logit` → `--method logit`).
fn flag(key: &str, value: Option<&str>) -> String {
    let name = key.replace('_', "-");
    match value {
        Some(v) => format!("--{name} {v}"),
        None => format!("--{name}"),
    }
}

/// `e`'s message as the command line prints it.
pub(crate) fn message(e: &nimbus::api::Error) -> String {
    e.render(&flag)
}

/// A note of the library's, with the settings it names written as flags.
pub(crate) fn note(text: &str) -> String {
    nimbus::api::render_settings(text, &flag)
}

/// `e` as the one JSON object `--json` prints for a failure.
pub(crate) fn failure(e: &nimbus::api::Error) -> nimbus::api::Failure {
    nimbus::api::Failure {
        error: message(e),
        kind: e.kind(),
    }
}

/// `n` plies, in words.
pub(crate) fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}
