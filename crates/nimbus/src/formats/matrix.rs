//! Plain payoff matrices: `"3 0; 5 1"` on the command line, or a text or CSV file with one row
//! per line. Entries are separated by spaces or commas; `#` starts a comment.

use crate::core::error::{Error, Result, Span};
use crate::exact::{parse_number, Q};

/// Parses a matrix; `source` names it in errors ("--row", a file's path).
pub fn parse_matrix(text: &str, source: &str) -> Result<Vec<Vec<Q>>> {
    let mut rows: Vec<Vec<Q>> = Vec::new();
    let mut first_row: Option<Span> = None;
    for (ln, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let mut col = 0usize;
        for part in line.split_inclusive(';') {
            let body = part.strip_suffix(';').unwrap_or(part);
            let mut row = Vec::new();
            let mut at = col;
            for piece in body.split_inclusive(|c: char| c.is_whitespace() || c == ',') {
                let word = piece.trim_end_matches(|c: char| c.is_whitespace() || c == ',');
                if !word.is_empty() {
                    let span = Span {
                        source: source.to_string(),
                        line: ln + 1,
                        column: at + 1,
                    };
                    let q = parse_number(word).map_err(|why| Error::parse(span.clone(), why))?;
                    row.push(q);
                    if first_row.is_none() {
                        first_row = Some(span);
                    }
                }
                at += piece.chars().count();
            }
            col += part.chars().count();
            if row.is_empty() {
                continue;
            }
            if let Some(first) = rows.first() {
                if row.len() != first.len() {
                    return Err(Error::parse(
                        Span {
                            source: source.to_string(),
                            line: ln + 1,
                            column: col - part.chars().count() + 1,
                        },
                        format!(
                            "row {} has {} entries, but row 1 has {}: a matrix must not be ragged",
                            rows.len() + 1,
                            row.len(),
                            first.len()
                        ),
                    ));
                }
            }
            rows.push(row);
        }
    }
    if rows.is_empty() {
        return Err(Error::Invalid(format!(
            "{source}: the matrix is empty (write rows separated by ';', as in \"3 0; 5 1\")"
        )));
    }
    Ok(rows)
}
