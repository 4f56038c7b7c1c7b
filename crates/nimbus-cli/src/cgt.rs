//! `nimbus cgt`: canonical forms, thermographs and winning moves of sums of partizan games,
//! and tables of a family's values.

use crate::{expression_text, print_json, Common};
use nimbus::api::cgt;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus cgt domineering ..|..             the 2 x 2 square: ±1, the player to move wins
  nimbus cgt 'domineering ...|.#.|... + toads TT..FF + {1|-1}'
  nimbus cgt 'stalks BRR + clobber xoxo - 1/2'
  nimbus cgt '{0||0|-1}' --json            a form written out (the longest bars split first)
  nimbus cgt domineering '...|...' --thermograph t.svg
  nimbus cgt --table 'domineering RxC' --rows 1..4 --cols 1..4
  nimbus cgt --table 'toads T^n.F^m' --rows 1..3 --cols 1..3

Expression grammar (games joined by ' + ' and ' - '):
  domineering BOARD    rows of . (free) and # (taken) separated by |, or RxC; Left places
                       vertical dominoes, Right horizontal ones
  clobber BOARD        rows of x (Left's stones), o (Right's) and . separated by |
  toads STRIP          Toads and Frogs: T (Left's, moving right), F (Right's), .
  cutcake RxC,...      Left cuts between columns, Right between rows
  hackenbush FILE      lines 'u v COLOUR' (B blue: Left's, R red: Right's, G green); g is
                       the ground
  stalks BRR,GB        Hackenbush stalks, colours from the ground up
  VALUE                3, -3/4, *, *2, ^, vv, ^3*, ±1, 2±1, {1,*|-1}, {2||1|0}";

/// Values and thermographs of partizan games (Domineering, Hackenbush, Toads and Frogs, ...)
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The expression; its words may be given as separate arguments.
    #[arg(
        value_name = "EXPRESSION",
        required_unless_present_any = ["file", "table"],
        allow_negative_numbers = true
    )]
    expression: Vec<String>,
    /// Read the expression from this file ("-" for standard input).
    #[arg(short, long, value_name = "FILE", conflicts_with_all = ["expression", "table"])]
    file: Option<String>,
    /// A family to tabulate: RxC stands for the row and column parameters, X^n (X^m) for X
    /// repeated by the row (column) parameter.
    #[arg(
        long,
        value_name = "FAMILY",
        conflicts_with = "expression",
        requires = "rows"
    )]
    table: Option<String>,
    /// With --table: the row parameter's range, A..B.
    #[arg(long, value_name = "A..B", value_parser = range, requires = "table")]
    rows: Option<(u32, u32)>,
    /// With --table: the column parameter's range, A..B.
    #[arg(long, value_name = "A..B", value_parser = range, requires = "table")]
    cols: Option<(u32, u32)>,
    /// Draw the thermograph of the sum as an SVG picture in FILE.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "table")]
    thermograph: Option<String>,
    /// List at most this many winning moves for each side (all are counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_moves: usize,
    /// Also show the incentives of each side's options (G^L - G, G - G^R); a difference of
    /// large forms, slow for big hot values.
    #[arg(long, conflicts_with = "table")]
    incentives: bool,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// `A..B` (or one number): a range of parameters, each at most 1000.
fn range(text: &str) -> Result<(u32, u32), String> {
    let (a, b) = text.split_once("..").unwrap_or((text, text));
    let n = |s: &str| match s.trim().parse::<u32>() {
        Ok(n) if n <= 1000 => Ok(n),
        _ => Err(format!("'{text}': give A..B with whole numbers 0 to 1000")),
    };
    let (a, b) = (n(a)?, n(b)?);
    if a > b {
        return Err(format!("'{text}': the first is past the last"));
    }
    Ok((a, b))
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    if let Some(family) = &args.table {
        let req = cgt::TableRequest {
            family: family.clone(),
            rows: args.rows.unwrap_or((1, 1)),
            cols: args.cols,
            limits: args.common.limits(),
        };
        let table = cgt::table(&req)?;
        if args.common.json {
            print_json(out, &table)?;
        } else {
            print_table(out, &table);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (text, source) = expression_text(args.file.as_deref(), &args.expression)?;
    let req = cgt::Request {
        max_moves: args.max_moves,
        incentives: args.incentives,
        limits: args.common.limits(),
    };
    let a = cgt::solve(&text, &source, &req)?;
    if let Some(path) = &args.thermograph {
        std::fs::write(path, cgt::thermograph_picture(&a)).map_err(|source| {
            nimbus::api::Error::Io {
                path: path.clone(),
                source,
            }
        })?;
        if !args.common.json {
            outln!(out, "thermograph written to {path}");
        }
    }
    if args.common.json {
        print_json(out, &a)?;
    } else {
        print_analysis(out, &a);
    }
    Ok(ExitCode::SUCCESS)
}

fn meaning(o: cgt::Outcome) -> &'static str {
    match o {
        cgt::Outcome::L => "Left wins, whoever starts",
        cgt::Outcome::R => "Right wins, whoever starts",
        cgt::Outcome::N => "the player to move wins",
        cgt::Outcome::P => "the player to move loses",
    }
}

fn print_analysis(out: &mut String, a: &cgt::Analysis) {
    outln!(out, "position:    {}", a.expression);
    outln!(out, "value:       {}", a.canonical);
    // The value up to infinitesimals, when it differs from the value itself.
    if a.reduced != a.canonical {
        outln!(out, "reduced:     {}", a.reduced);
    }
    outln!(out, "outcome:     {} ({})", a.outcome, meaning(a.outcome));
    outln!(
        out,
        "stops:       left {}, right {}",
        a.left_stop,
        a.right_stop
    );
    outln!(out, "mean:        {}", a.mean);
    outln!(out, "temperature: {}", a.temperature);
    outln!(out, "birthday:    {}", a.birthday);
    if let Some(w) = &a.atomic_weight {
        outln!(out, "atomic weight: {w}");
    }
    if let (Some(left), Some(right)) = (&a.left_incentives, &a.right_incentives) {
        outln!(
            out,
            "incentives:  left {}; right {}",
            list_or_none(left),
            list_or_none(right)
        );
    }
    if !a.components.is_empty() {
        outln!(out, "components:");
        for c in &a.components {
            outln!(out, "  {}  = {}", c.game, c.value);
        }
    }
    for (side, moves, total) in [
        ("Left", &a.left_wins, a.left_wins_total),
        ("Right", &a.right_wins, a.right_wins_total),
    ] {
        if total == 0 {
            outln!(out, "{side} moving first: no winning move");
            continue;
        }
        let plural = if total == 1 { "" } else { "s" };
        outln!(
            out,
            "{side} moving first wins ({total} winning move{plural}):"
        );
        for m in moves {
            if a.components.is_empty() {
                outln!(out, "  -> {}  = {}", m.to, m.value);
            } else {
                outln!(
                    out,
                    "  in component {}: -> {}  = {}",
                    m.component,
                    m.to,
                    m.value
                );
            }
        }
        if moves.len() < total {
            outln!(out, "  … {} more (raise --max-moves)", total - moves.len());
        }
    }
}

fn list_or_none(values: &[String]) -> String {
    if values.is_empty() {
        "none".into()
    } else {
        values.join(", ")
    }
}

fn print_table(out: &mut String, t: &cgt::Table) {
    outln!(out, "family: {}", t.family);
    let has_cols = t.cols != [0];
    let width = t
        .values
        .iter()
        .flatten()
        .map(|v| v.chars().count())
        .max()
        .unwrap_or(1)
        .clamp(4, 24);
    let mut head = format!("{:>5} ", "");
    if has_cols {
        for c in &t.cols {
            head.push_str(&format!(" {:>width$}", c));
        }
        outln!(out, "{}", head.trim_end());
    }
    for (r, row) in t.rows.iter().zip(&t.values) {
        let mut line = format!("{r:>5} ");
        for v in row {
            line.push_str(&format!(" {v:>width$}"));
        }
        outln!(out, "{}", line.trim_end());
    }
    outln!(out, "distinct values met: {}", t.forms);
}
