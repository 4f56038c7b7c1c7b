//! The strategic-form game of `nash` and `verify`: a .nfg file, or payoff matrices on the
//! command line, with strategy names.

use crate::read_input;
use nimbus::api::game::{self, NormalForm, Source, StrategyNames};
use nimbus::api::Error;

/// Where the game comes from.
#[derive(clap::Args, Debug, Clone)]
pub struct GameInput {
    /// The row player's payoffs: a matrix ("3 0; 5 1") or a CSV/text file. Alone, without
    /// --col, the game is zero-sum: the column player gets the negatives (as nashpy's Game(A)).
    #[arg(long, value_name = "MATRIX", allow_hyphen_values = true)]
    pub row: Option<String>,
    /// The column player's payoffs: a matrix or a file.
    #[arg(
        long,
        value_name = "MATRIX",
        requires = "row",
        allow_hyphen_values = true
    )]
    pub col: Option<String>,
    /// The row player's strategy names, separated by commas ("Opera,Football").
    #[arg(long, value_name = "NAMES")]
    pub row_names: Option<String>,
    /// The column player's strategy names, separated by commas.
    #[arg(long, value_name = "NAMES")]
    pub col_names: Option<String>,
}

/// The text of a matrix argument and the label errors name it by: the file it names (by its
/// path), or the argument itself (by its flag).
fn read_matrix_text<'a>(arg: &'a str, flag: &'a str) -> Result<(String, &'a str), Error> {
    if std::path::Path::new(arg).is_file() {
        Ok((read_input(arg)?, arg))
    } else {
        Ok((arg.to_string(), flag))
    }
}

impl GameInput {
    /// The game from `file` (a .nfg path) or the matrices, with the names applied; and notes
    /// on how it was read.
    pub fn load(&self, file: Option<&str>) -> Result<(NormalForm, Vec<String>), Error> {
        let text = match file {
            Some(path) => Some(read_input(path)?),
            None => None,
        };
        self.load_text(file.zip(text))
    }

    /// As [`GameInput::load`], with the file (path and text) already read.
    pub fn load_text(
        &self,
        file: Option<(&str, String)>,
    ) -> Result<(NormalForm, Vec<String>), Error> {
        let names = StrategyNames {
            row: self.row_names.as_deref().map(|n| (n, "--row-names")),
            col: self.col_names.as_deref().map(|n| (n, "--col-names")),
        };
        match (file, &self.row, &self.col) {
            (Some((path, text)), None, None) => game::strategic(
                Source::Nfg {
                    text: &text,
                    label: path,
                },
                names,
            ),
            (None, Some(r), c) => {
                let a = read_matrix_text(r, "--row")?;
                let b = match c {
                    Some(c) => Some(read_matrix_text(c, "--col")?),
                    None => None,
                };
                let col = b.as_ref().map(|(text, label)| (text.as_str(), *label));
                game::strategic(
                    Source::Matrices {
                        row: (&a.0, a.1),
                        col,
                    },
                    names,
                )
            }
            (Some(_), _, _) => Err(Error::Invalid(
                "give a .nfg file or --row (and --col), not both".into(),
            )),
            (None, None, _) => Err(Error::Invalid(
                "give a .nfg file, or --row (and --col)".into(),
            )),
        }
    }
}
