//! Games by name: the catalogue that turns what a user writes into a game.
//!
//! - [`impartial`]: sums of impartial games in the expression grammar (`nim 3 4 5 + kayles 7`,
//!   `octal 0.137 20`, `script:FILE 9`);
//! - [`sequential`]: the built-in two-player games of perfect information (`tictactoe`,
//!   `connect4:5x4`, …);
//! - [`trees`]: the built-in game trees (`kuhn`, `leduc`).
//!
//! The catalogue sits above the families and the script engine: it may import any of them, and
//! none of them imports it.

pub mod impartial;
pub mod partizan;
pub mod sequential;
pub mod trees;

/// The families whose catalogues name games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// A sum of impartial games, in the expression grammar ([`impartial`]).
    Impartial,
    /// A built-in two-player game of perfect information ([`sequential`]).
    Sequential,
    /// A built-in game tree ([`trees`]).
    Tree,
}

/// Which catalogue knows `name`: the built-in trees, then the two-player games, then the
/// impartial grammar (whose words the others do not use: `nim:3,4` is the two-player Nim,
/// `nim 3 4` the impartial sum). None when no catalogue reads it. A script's name
/// (`script:FILE`) is not looked up: the script's own functions say which family it is.
pub fn family_of(name: &str) -> Option<Family> {
    let name = name.trim();
    if name.starts_with("script:") {
        return None;
    }
    if trees::builtin(name).is_some() {
        Some(Family::Tree)
    } else if sequential::Builtin::parse(name).is_ok() {
        Some(Family::Sequential)
    } else if impartial::Parser::new().parse(name, "the name").is_ok() {
        Some(Family::Impartial)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_is_found_in_its_own_catalogue() {
        for (name, family) in [
            ("kuhn", Some(Family::Tree)),
            ("leduc", Some(Family::Tree)),
            ("tictactoe", Some(Family::Sequential)),
            ("connect4:5x4", Some(Family::Sequential)),
            ("nim:3,4,5", Some(Family::Sequential)),
            ("nim 3 4 5", Some(Family::Impartial)),
            ("kayles 7 + wythoff 3 5", Some(Family::Impartial)),
            ("octal 0.137 20", Some(Family::Impartial)),
            ("no such game", None),
            ("script:examples/take134.rhai 20", None),
        ] {
            assert_eq!(family_of(name), family, "{name}");
        }
    }
}
