//! The built-in game trees by name.

use crate::extensive::games::{kuhn, leduc};
use crate::extensive::Tree;

/// The names of the built-in trees.
pub const NAMES: &[&str] = &["kuhn", "leduc"];

/// The built-in tree called `name`, if there is one.
pub fn builtin(name: &str) -> Option<Tree> {
    match name.trim().to_ascii_lowercase().as_str() {
        "kuhn" | "kuhn-poker" => Some(kuhn()),
        "leduc" | "leduc-holdem" => Some(leduc()),
        _ => None,
    }
}
