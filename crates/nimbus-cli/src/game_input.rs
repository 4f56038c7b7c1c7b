//! The strategic-form game of `nash` and `verify`: a .nfg file, or payoff matrices on the
//! command line, with strategy names.

use crate::read_input;
use nimbus::api::nash;
use nimbus::strategic::game::NormalForm;
use nimbus::Error;

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
        let mut notes = Vec::new();
        let mut game = match (file, &self.row, &self.col) {
            (Some((path, text)), None, None) => nimbus::formats::nfg::parse(&text, path)?,
            (None, Some(r), c) => {
                let a = read_matrix_text(r, "--row")?;
                let b = match c {
                    Some(c) => Some(read_matrix_text(c, "--col")?),
                    None => None,
                };
                let b = b.as_ref().map(|(text, label)| (text.as_str(), *label));
                let (game, read) = nash::game_of_matrices((&a.0, a.1), b)?;
                notes.extend(read);
                game
            }
            (Some(_), _, _) => {
                return Err(Error::Invalid(
                    "give a .nfg file or --row (and --col), not both".into(),
                ))
            }
            (None, None, _) => {
                return Err(Error::Invalid(
                    "give a .nfg file, or --row (and --col)".into(),
                ))
            }
        };
        for (player, (flag, names)) in [
            ("--row-names", &self.row_names),
            ("--col-names", &self.col_names),
        ]
        .into_iter()
        .enumerate()
        {
            if let Some(names) = names {
                nash::name_strategies(&mut game, player, names, flag)?;
            }
        }
        Ok((game, notes))
    }
}
