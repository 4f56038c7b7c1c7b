//! Games as the front-ends are given them, read in one place: a strategic-form game from a
//! `.nfg` file's text or from payoff matrices with strategy names, a tree from an `.efg`
//! file's text or a built-in name, and both written back. The command line, Python and the
//! web page each turn their own syntax into a [`Source`] and call [`strategic`], so that the
//! same input means the same game everywhere. [`family_of`] says which family's catalogue
//! knows a game's name.

pub use crate::catalog::{family_of, Family};
use crate::core::error::{Error, Result};
pub use crate::extensive::Tree;
use crate::formats::{efg, nfg};
pub use crate::strategic::game::NormalForm;

/// Where a strategic-form game comes from, each text with the label errors name it by.
#[derive(Debug, Clone, Copy)]
pub enum Source<'a> {
    /// The text of a `.nfg` file.
    Nfg {
        /// The file's text.
        text: &'a str,
        /// Its name in errors: the path, or "the .nfg file".
        label: &'a str,
    },
    /// The row player's payoff matrix and the column player's; without the column player's
    /// the game is zero-sum (their payoffs are the negatives of the row player's).
    Matrices {
        /// The row player's matrix (`"3 0; 5 1"`, or one row a line) and its label.
        row: (&'a str, &'a str),
        /// The column player's, and its label.
        col: Option<(&'a str, &'a str)>,
    },
}

/// Strategy names for the two players of a game given by matrices (or to rename a `.nfg`
/// game's): each a comma-separated list with the label errors name it by.
#[derive(Debug, Clone, Copy, Default)]
pub struct StrategyNames<'a> {
    /// The row player's names, and their label.
    pub row: Option<(&'a str, &'a str)>,
    /// The column player's names, and their label.
    pub col: Option<(&'a str, &'a str)>,
}

/// The strategic-form game `source` describes, with `names` applied; and notes on how it was
/// read.
pub fn strategic(source: Source, names: StrategyNames) -> Result<(NormalForm, Vec<String>)> {
    let (mut game, notes) = match source {
        Source::Nfg { text, label } => (nfg::parse(text, label)?, Vec::new()),
        Source::Matrices { row, col } => game_of_matrices(row, col)?,
    };
    for (player, names) in [names.row, names.col].into_iter().enumerate() {
        if let Some((names, label)) = names {
            name_strategies(&mut game, player, names, label)?;
        }
    }
    Ok((game, notes))
}

/// The strategic-form game of a `.nfg` file's text; `label` names it in errors.
pub fn nfg(text: &str, label: &str) -> Result<NormalForm> {
    nfg::parse(text, label)
}

/// A payoff matrix written as text (`"3 0; 5 1"`, or one row a line, commas or spaces
/// between entries); `label` names it in errors.
pub fn matrix(text: &str, label: &str) -> Result<Vec<Vec<crate::exact::Q>>> {
    crate::formats::matrix::parse_matrix(text, label)
}

/// The two-player game of payoff matrices of exact numbers, each checked as a typed matrix is
/// (not empty, every row as long as the first, both of one shape).
pub fn bimatrix(a: &[Vec<crate::exact::Q>], b: &[Vec<crate::exact::Q>]) -> Result<NormalForm> {
    crate::strategic::solvers::zerosum::check_matrix(a)?;
    crate::strategic::solvers::zerosum::check_matrix(b)?;
    NormalForm::bimatrix(a, b)
}

/// Whether a game file's text is a tree (an `.efg` file) rather than a `.nfg` file.
pub fn is_tree(text: &str) -> bool {
    efg::is_efg(text)
}

/// The tree of an `.efg` file's text; `label` names it in errors. Refused past the default
/// memory budget; see [`tree_within`].
pub fn tree(text: &str, label: &str) -> Result<Tree> {
    efg::parse(text, label)
}

/// [`tree`], refused once the tree read would pass `limits.max_memory`.
pub fn tree_within(text: &str, label: &str, limits: &super::Limits) -> Result<Tree> {
    efg::parse_within(text, label, limits.max_memory)
}

/// The names of the built-in trees.
pub fn tree_names() -> &'static [&'static str] {
    crate::catalog::trees::NAMES
}

/// The built-in tree called `name` (Kuhn poker, Leduc hold'em), if there is one.
pub fn builtin_tree(name: &str) -> Option<Tree> {
    crate::catalog::trees::builtin(name)
}

/// The error for `name` when it is neither a built-in tree nor an `.efg` file: what a tree
/// file starts with, and which trees are built in.
pub fn not_a_tree(name: &str) -> Error {
    Error::Invalid(format!(
        "{name}: not a game tree (an .efg file starts with 'EFG 2 R'; built-in trees: {})",
        tree_names().join(", ")
    ))
}

/// `game` as a `.nfg` file (the outcome form, which keeps the strategy names).
pub fn nfg_text(game: &NormalForm) -> String {
    nfg::write(game)
}

/// `tree` as an `.efg` file.
pub fn efg_text(tree: &Tree) -> String {
    efg::write(tree)
}

/// The game of two payoff matrices written as text (`"3 0; 5 1"`, or rows on lines, as
/// [`crate::formats::matrix::parse_matrix`] reads them), each with the label errors name it
/// by; without the column player's matrix the game is zero-sum (the negatives of the row
/// player's). Returns the game and notes on how it was read.
fn game_of_matrices(
    row: (&str, &str),
    col: Option<(&str, &str)>,
) -> Result<(NormalForm, Vec<String>)> {
    use crate::formats::matrix::parse_matrix;
    use crate::strategic::solvers::zerosum::check_matrix;
    let mut notes = Vec::new();
    let a = parse_matrix(row.0, row.1)?;
    check_matrix(&a)?;
    let b = match col {
        Some((text, label)) => parse_matrix(text, label)?,
        None => {
            notes.push(format!(
                "zero-sum: without the column player's matrix, their payoffs are the negatives \
                 of {}",
                row.1
            ));
            a.iter().map(|r| r.iter().map(|x| -x).collect()).collect()
        }
    };
    check_matrix(&b)?;
    if (a.len(), a[0].len()) != (b.len(), b[0].len()) {
        return Err(Error::Invalid(format!(
            "{} is {} x {} but {} is {} x {}: the two matrices must have one shape",
            row.1,
            a.len(),
            a[0].len(),
            col.map_or("the column player's matrix", |c| c.1),
            b.len(),
            b[0].len()
        )));
    }
    Ok((NormalForm::bimatrix(&a, &b)?, notes))
}

/// Names `player`'s strategies from `names` (separated by commas); `label` names the list in
/// errors.
fn name_strategies(game: &mut NormalForm, player: usize, names: &str, label: &str) -> Result<()> {
    let names: Vec<String> = names.split(',').map(|s| s.trim().to_string()).collect();
    let have = game.strategies.get(player).map_or(0, Vec::len);
    if names.len() != have || names.iter().any(String::is_empty) {
        return Err(Error::Invalid(format!(
            "{label}: {} names for {have} strategies (give one non-empty name each, separated \
             by commas)",
            names.len()
        )));
    }
    game.strategies[player] = names;
    Ok(())
}
