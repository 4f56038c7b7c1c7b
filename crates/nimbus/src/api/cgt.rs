//! Sums of partizan games: canonical form, outcome, stops, mean, temperature, thermograph and
//! winning moves (`nimbus cgt EXPRESSION`), and tables of a family's values (`--table`).

use super::Limits;
use crate::catalog::partizan::{parse, parse_sharing, Memos};
use crate::core::error::{Error, Result};
use crate::partizan::analysis::analyse;
use crate::partizan::form::Forms;
use crate::partizan::show::show_all;
use serde::Serialize;

// The words of the answers, for the front-ends.
pub use crate::catalog::partizan::RULESETS;
pub use crate::partizan::analysis::{Analysis, Move, Outcome, Part};
pub use crate::partizan::dyadic::Dyadic;
pub use crate::partizan::thermograph::{Piece, Thermograph};

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// List at most this many winning moves a side (all are counted).
    pub max_moves: usize,
    /// Also compute the incentives of the value's options (costly for large hot values).
    pub incentives: bool,
    /// Budgets.
    pub limits: Limits,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            max_moves: 20,
            incentives: false,
            limits: Limits::default(),
        }
    }
}

/// Parses `text` (the grammar of [`crate::catalog::partizan`]; `source` names it in errors)
/// and analyses the sum.
pub fn solve(text: &str, source: &str, req: &Request) -> Result<Analysis> {
    let mut forms = Forms::new(req.limits);
    let terms = parse(text, source, &mut forms)?;
    analyse(&terms, &mut forms, req.max_moves, req.incentives)
}

/// Analyses the sum of summands a host made (positions of its own rulesets, as
/// [`crate::api::custom::Played`]).
pub fn analyse_terms(
    terms: &[Box<dyn crate::partizan::term::Term>],
    req: &Request,
) -> Result<Analysis> {
    let mut forms = Forms::new(req.limits);
    analyse(terms, &mut forms, req.max_moves, req.incentives)
}

/// The thermograph of an analysed sum as an SVG picture, titled with its value.
pub fn thermograph_picture(a: &Analysis) -> String {
    crate::partizan::draw::thermograph_svg(
        &a.thermograph,
        &format!("thermograph of {}", a.canonical),
    )
}

/// A table of a family's values.
#[derive(Debug, Clone)]
pub struct TableRequest {
    /// The family: an expression where `RxC` stands for the rows and columns and `X^n`
    /// (`X^m`) for the character X repeated by the row (column) parameter.
    pub family: String,
    /// The row parameter's first and last values.
    pub rows: (u32, u32),
    /// The column parameter's, when the family has one.
    pub cols: Option<(u32, u32)>,
    /// Budgets, for the whole table.
    pub limits: Limits,
}

/// The values of a family.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// The family as given.
    pub family: String,
    /// The row parameter's values.
    pub rows: Vec<u32>,
    /// The column parameter's values (one, 0, when the family has none).
    pub cols: Vec<u32>,
    /// Each entry's expression, row by row.
    pub games: Vec<Vec<String>>,
    /// Each entry's canonical form, row by row.
    pub values: Vec<Vec<String>>,
    /// Distinct canonical forms met.
    pub forms: usize,
}

/// The most entries a table may have.
pub const MOST_ENTRIES: u64 = 10_000;

/// The family with its parameters put in.
pub fn expand(family: &str, r: u32, c: u32) -> String {
    let text = family.replace("RxC", &format!("{r}x{c}"));
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len()
            && chars[i + 1] == '^'
            && (chars[i + 2] == 'n' || chars[i + 2] == 'm')
        {
            let times = if chars[i + 2] == 'n' { r } else { c };
            out.extend(std::iter::repeat_n(chars[i], times as usize));
            i += 3;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The values of every member of a family.
pub fn table(req: &TableRequest) -> Result<Table> {
    let range = |(a, b): (u32, u32), what: &str| -> Result<Vec<u32>> {
        if a > b {
            return Err(Error::Invalid(format!(
                "{what} {a}..{b}: the first is past the last"
            )));
        }
        Ok((a..=b).collect())
    };
    let rows = range(req.rows, "rows")?;
    let cols = match req.cols {
        Some(c) => range(c, "columns")?,
        None => vec![0],
    };
    let entries = rows.len() as u64 * cols.len() as u64;
    if entries > MOST_ENTRIES {
        return Err(Error::Invalid(format!(
            "a table of {entries} entries: at most {MOST_ENTRIES}"
        )));
    }
    let mut forms = Forms::new(req.limits);
    let memos = Memos::default();
    let mut games = Vec::new();
    let mut ids = Vec::new();
    for &r in &rows {
        let mut row = Vec::new();
        for &c in &cols {
            let text = expand(&req.family, r, c);
            let terms = parse_sharing(&text, "the family", &mut forms, &memos)?;
            let mut total = crate::partizan::form::ZERO;
            for t in &terms {
                let v = t.value(&mut forms)?;
                total = forms.add(total, v)?;
            }
            ids.push(total);
            row.push(text);
        }
        games.push(row);
    }
    let shown = show_all(&mut forms, &ids)?;
    let values = shown.chunks(cols.len()).map(<[String]>::to_vec).collect();
    Ok(Table {
        family: req.family.clone(),
        rows,
        cols,
        games,
        values,
        forms: forms.len(),
    })
}
