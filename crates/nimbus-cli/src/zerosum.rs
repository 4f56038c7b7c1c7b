//! `nimbus zerosum`: value, saddle points and optimal mixed strategies of a matrix game.

use crate::{print_json, read_input, Common};
use nimbus::strategic::matrix::parse_matrix;
use nimbus::strategic::zerosum::{solve_float_within, solve_within};
use nimbus::strategic::{nfg, show, Q};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus zerosum \"0 -1 1; 1 0 -1; -1 1 0\"
      rock-paper-scissors: value 0, both players 1/3 1/3 1/3
  nimbus zerosum \"1 4; 2 3\"                 a saddle point at row 2, column 1
  nimbus zerosum --file game.csv            one row per line, entries by spaces or commas
  nimbus zerosum --file game.nfg            a two-player .nfg file: the first player's payoffs
  nimbus zerosum --float --file big.csv     floating point, with the duality gap

The row player receives the entry, the column player pays it. Entries may be integers,
decimals or fractions; every answer is exact.";

/// Solve a two-player zero-sum matrix game exactly.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The matrix: rows separated by ';', entries by spaces or commas.
    #[arg(
        value_name = "MATRIX",
        required_unless_present = "file",
        allow_hyphen_values = true
    )]
    matrix: Option<String>,
    /// Read the matrix from a file: text or CSV rows, or a two-player .nfg game ("-": stdin).
    #[arg(short, long, value_name = "FILE", conflicts_with = "matrix")]
    file: Option<String>,
    /// Solve in floating point (for large games), reporting the duality gap instead of an
    /// exact value.
    #[arg(long)]
    float: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(serde::Serialize)]
struct FloatReport {
    rows: usize,
    columns: usize,
    value: f64,
    row_strategy: Vec<f64>,
    col_strategy: Vec<f64>,
    row_guarantee: f64,
    col_guarantee: f64,
    duality_gap: f64,
    pivots: usize,
    notes: Vec<String>,
}

fn run_float(
    a: &[Vec<Q>],
    json: bool,
    max_memory: u64,
    notes: Vec<String>,
    out: &mut String,
) -> Result<ExitCode, nimbus::Error> {
    let af: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(nimbus::strategic::to_f64).collect())
        .collect();
    let s = solve_float_within(&af, max_memory)?;
    if json {
        return print_json(
            out,
            &FloatReport {
                rows: a.len(),
                columns: a[0].len(),
                value: s.value,
                row_strategy: s.row_strategy,
                col_strategy: s.col_strategy,
                row_guarantee: s.row_guarantee,
                col_guarantee: s.col_guarantee,
                duality_gap: s.duality_gap,
                pivots: s.pivots,
                notes,
            },
        )
        .map(|()| ExitCode::SUCCESS);
    }
    let shown = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x:.6}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    outln!(
        out,
        "matrix:       {} x {} (floating point)",
        a.len(),
        a[0].len()
    );
    outln!(out, "value:        {:.12}", s.value);
    outln!(out, "row player:   {}", shown(&s.row_strategy));
    outln!(out, "column:       {}", shown(&s.col_strategy));
    outln!(
        out,
        "guarantees:   the row strategy gets at least {:.12}, the column strategy concedes at \
         most {:.12}",
        s.row_guarantee,
        s.col_guarantee
    );
    outln!(out, "duality gap:  {:.3e}", s.duality_gap);
    outln!(out, "pivots:       {}", s.pivots);
    for n in &notes {
        outln!(out, "note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(serde::Serialize)]
struct Report {
    rows: usize,
    columns: usize,
    value: String,
    row_strategy: Vec<String>,
    col_strategy: Vec<String>,
    maximin: String,
    minimax: String,
    saddle_points: Vec<[usize; 2]>,
    pivots: usize,
    notes: Vec<String>,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::Error> {
    let mut notes = Vec::new();
    let a: Vec<Vec<Q>> = match (&args.file, &args.matrix) {
        (Some(path), _) => {
            let text = read_input(path)?;
            if text.trim_start().starts_with("NFG") {
                let game = nfg::parse(&text, path)?;
                if game.players.len() != 2 {
                    return Err(nimbus::Error::Invalid(format!(
                        "{path}: a matrix game has two players, this game {}",
                        game.players.len()
                    )));
                }
                let total = |k| {
                    let p = game.payoffs_at(k);
                    &p[0] + &p[1]
                };
                let c = total(0);
                let constant = (1..game.profiles()).all(|k| total(k) == c);
                if constant && c != Q::from_integer(0.into()) {
                    notes.push(format!(
                        "the game is constant-sum (the payoffs add up to {} everywhere): the same \
                         strategies are optimal as in the zero-sum game of the first player's \
                         payoffs, solved here; the second player's value is {} minus the value",
                        show(&c),
                        show(&c)
                    ));
                } else if !constant {
                    notes.push(
                        "the game is not zero-sum: this is the game of the first player's \
                         payoffs, which the second player minimises (use nimbus nash for the \
                         game itself)"
                            .to_string(),
                    );
                }
                game.matrix(0)
            } else {
                parse_matrix(&text, path)?
            }
        }
        (None, Some(m)) => parse_matrix(m, "the matrix")?,
        (None, None) => unreachable!("clap requires a matrix or --file"),
    };
    if args.float {
        return run_float(&a, args.common.json, args.common.max_memory(), notes, out);
    }
    let s = solve_within(&a, args.common.max_memory())?;
    let shown = |v: &[Q]| v.iter().map(show).collect::<Vec<_>>();
    if args.common.json {
        return print_json(
            out,
            &Report {
                rows: a.len(),
                columns: a[0].len(),
                value: show(&s.value),
                row_strategy: shown(&s.row_strategy),
                col_strategy: shown(&s.col_strategy),
                maximin: show(&s.maximin),
                minimax: show(&s.minimax),
                saddle_points: s
                    .saddle_points
                    .iter()
                    .map(|&(i, j)| [i + 1, j + 1])
                    .collect(),
                pivots: s.pivots,
                notes,
            },
        )
        .map(|()| ExitCode::SUCCESS);
    }
    let list = |v: &[usize]| {
        v.iter()
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    outln!(out, "matrix:       {} x {}", a.len(), a[0].len());
    outln!(
        out,
        "pure:         maximin {} (rows {}), minimax {} (columns {})",
        show(&s.maximin),
        list(&s.maximin_rows),
        show(&s.minimax),
        list(&s.minimax_cols)
    );
    if s.saddle_points.is_empty() {
        outln!(
            out,
            "saddle:       none (maximin < minimax: the players must mix)"
        );
    } else {
        let pts: Vec<String> = s
            .saddle_points
            .iter()
            .map(|(i, j)| format!("(row {}, column {})", i + 1, j + 1))
            .collect();
        outln!(out, "saddle:       {}", pts.join(" "));
    }
    outln!(out, "value:        {}", show(&s.value));
    outln!(out, "row player:   {}", shown(&s.row_strategy).join(" "));
    outln!(out, "column:       {}", shown(&s.col_strategy).join(" "));
    outln!(
        out,
        "checked:      the row strategy gets at least {v} against every column, and the column \
         strategy holds every row to at most {v}",
        v = show(&s.value)
    );
    for n in &notes {
        outln!(out, "note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}
