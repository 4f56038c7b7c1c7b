//! `nimbus zerosum`: value, saddle points and optimal mixed strategies of a matrix game.

use crate::{print_json, read_input, Common};
use nimbus::api::game::{matrix as parse_matrix, nfg};
use nimbus::api::zerosum;
use nimbus::api::{show, show_decimal, Q};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus zerosum \"0 -1 1; 1 0 -1; -1 1 0\"
      rock-paper-scissors: value 0, both players 1/3 1/3 1/3
  nimbus zerosum \"1 4; 2 3\"                 a saddle point at row 2, column 1
  nimbus zerosum --file game.csv            one row per line, entries by spaces or commas
  nimbus zerosum --file game.nfg            a two-player .nfg file: the first player's payoffs
  nimbus zerosum --float --file big.csv     floating point, with the duality gap
  nimbus zerosum --decimals 6 --file big.csv  exact, printed as decimals with 6 digits

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
    /// Print the value, strategies and bounds as decimals with this many digits, rounded
    /// (exact fractions otherwise; --json is always exact).
    #[arg(long, value_name = "N", value_parser = crate::decimals)]
    decimals: Option<usize>,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    let (a, notes) = match (&args.file, &args.matrix) {
        (Some(path), _) => {
            let text = read_input(path)?;
            if text.trim_start().starts_with("NFG") {
                zerosum::matrix_of(&nfg(&text, path)?, path)?
            } else {
                (parse_matrix(&text, path)?, Vec::new())
            }
        }
        (None, Some(m)) => (parse_matrix(m, "the matrix")?, Vec::new()),
        (None, None) => unreachable!("clap requires a matrix or --file"),
    };
    let req = zerosum::Request { float: args.float };
    let mut answer = zerosum::solve(&a, &req, &args.common.limits())?;
    for n in notes {
        answer.note(n);
    }
    match &answer {
        _ if args.common.json => print_json(out, &answer)?,
        zerosum::Answer::Exact(s) => print_exact(out, s, args.decimals),
        zerosum::Answer::Float(s) => print_float(out, s, args.decimals),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_float(out: &mut String, answer: &zerosum::Float, decimals: Option<usize>) {
    let s = &answer.solution;
    let p = decimals.unwrap_or(6);
    let shown = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x:.p$}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let v = decimals.unwrap_or(12);
    outln!(
        out,
        "matrix:       {} x {} (floating point)",
        answer.rows,
        answer.columns
    );
    outln!(out, "value:        {:.v$}", s.value);
    outln!(out, "row player:   {}", shown(&s.row_strategy));
    outln!(out, "column:       {}", shown(&s.col_strategy));
    outln!(
        out,
        "guarantees:   the row strategy gets at least {:.v$}, the column strategy concedes at \
         most {:.v$}",
        s.row_guarantee,
        s.col_guarantee
    );
    outln!(out, "duality gap:  {:.3e}", s.duality_gap);
    outln!(out, "pivots:       {}", s.pivots);
    for n in &answer.notes {
        outln!(out, "note: {n}");
    }
}

fn print_exact(out: &mut String, answer: &zerosum::Exact, decimals: Option<usize>) {
    let s = &answer.solution;
    let show = |q: &Q| match decimals {
        Some(d) => show_decimal(q, d),
        None => show(q),
    };
    let shown = |v: &[Q]| v.iter().map(show).collect::<Vec<_>>().join(" ");
    let support = |v: &[Q]| {
        v.iter()
            .filter(|x| **x != Q::from_integer(0.into()))
            .count()
    };
    let list = |v: &[usize]| {
        v.iter()
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The summary first: on a large game the strategies that follow are long.
    outln!(out, "matrix:       {} x {}", answer.rows, answer.columns);
    outln!(out, "value:        {}", show(&s.value));
    outln!(
        out,
        "supports:     the row player mixes {} of {} rows, the column player {} of {} columns",
        support(&s.row_strategy),
        answer.rows,
        support(&s.col_strategy),
        answer.columns
    );
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
    outln!(out, "row player:   {}", shown(&s.row_strategy));
    outln!(out, "column:       {}", shown(&s.col_strategy));
    outln!(
        out,
        "checked:      the row strategy gets at least {v} against every column, and the column \
         strategy holds every row to at most {v}",
        v = show(&s.value)
    );
    for n in &answer.notes {
        outln!(out, "note: {n}");
    }
}
