//! The strategic-form game of `nash` and `verify`: a .nfg file, or payoff matrices on the
//! command line, with strategy names.

use crate::read_input;
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::matrix::parse_matrix;
use nimbus::strategic::zerosum::check_matrix;
use nimbus::strategic::Q;
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

fn read_matrix(arg: &str, what: &str) -> Result<Vec<Vec<Q>>, Error> {
    if std::path::Path::new(arg).is_file() {
        parse_matrix(&read_input(arg)?, arg)
    } else {
        parse_matrix(arg, what)
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
            (Some((path, text)), None, None) => nimbus::strategic::nfg::parse(&text, path)?,
            (None, Some(r), c) => {
                let a = read_matrix(r, "--row")?;
                check_matrix(&a)?;
                let b = match c {
                    Some(c) => read_matrix(c, "--col")?,
                    None => {
                        notes.push(
                            "zero-sum: without --col the column player's payoffs are the \
                             negatives of --row"
                                .to_string(),
                        );
                        a.iter().map(|r| r.iter().map(|x| -x).collect()).collect()
                    }
                };
                check_matrix(&b)?;
                if (a.len(), a[0].len()) != (b.len(), b[0].len()) {
                    return Err(Error::Invalid(format!(
                        "--row is {} x {} but --col is {} x {}: the two matrices must have one \
                         shape",
                        a.len(),
                        a[0].len(),
                        b.len(),
                        b[0].len()
                    )));
                }
                NormalForm::bimatrix(&a, &b)?
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
            let Some(names) = names else { continue };
            let names: Vec<String> = names.split(',').map(|s| s.trim().to_string()).collect();
            let have = game.strategies.get(player).map_or(0, Vec::len);
            if names.len() != have || names.iter().any(String::is_empty) {
                return Err(Error::Invalid(format!(
                    "{flag}: {} names for {have} strategies (give one non-empty name each, \
                     separated by commas)",
                    names.len()
                )));
            }
            game.strategies[player] = names;
        }
        Ok((game, notes))
    }
}
