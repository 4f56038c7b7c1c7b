//! `nimbus stochastic`: the values and stationary strategies of a two-player zero-sum
//! stochastic game (Shapley), exact where the values are rational.

use crate::{print_json, read_input, Common};
use nimbus::api::stochastic::{self, parse_method, parse_tolerance, Answer};
use nimbus::api::{parse_number, show_decimal, show_decimal_outward, Error};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus stochastic examples/big-match.ssg           the Big Match, discounted by 1/2
  nimbus stochastic game.ssg --method value          Shapley's value iteration
  nimbus stochastic game.ssg --tolerance 1e-30       narrower bounds where a value is irrational
  nimbus stochastic game.ssg --decimals 6            decimals instead of fractions

The file gives a discount, then each state: its actions and, for each cell, the row player's
payoff and where play goes next ('play left: 0 -> match 1/2, won 1/4'; the rest of the
probability ends the game). The values are exact (proven by Shapley's operator) whenever they
are rational and the bounds isolate them; otherwise they lie between proven bounds, and the
strategies shown guarantee those bounds.";

/// Solve a two-player zero-sum stochastic game: each state's value and stationary strategies
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game: a stochastic game file ("-" for standard input).
    #[arg(value_name = "FILE")]
    file: String,
    /// policy (Hoffman and Karp's policy iteration, with Newton steps) or value (Shapley's
    /// value iteration).
    #[arg(long, value_name = "METHOD", default_value = "policy")]
    method: String,
    /// The widest interval acceptable for a value that is not found exactly.
    #[arg(
        long,
        value_name = "NUMBER",
        default_value = "1e-12",
        allow_hyphen_values = true
    )]
    tolerance: String,
    /// Print values and probabilities as decimals with this many digits, rounded (exact
    /// fractions otherwise; --json is always exact).
    #[arg(long, value_name = "N", value_parser = crate::decimals)]
    decimals: Option<usize>,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, Error> {
    let req = stochastic::Request {
        method: parse_method(&args.method)
            .map_err(|e| Error::Invalid(format!("--method: {}", crate::words::message(&e))))?,
        tolerance: parse_tolerance(&args.tolerance)
            .map_err(|e| Error::Invalid(crate::words::message(&e)))?,
    };
    let text = read_input(&args.file)?;
    let answer = stochastic::solve(&text, &args.file, &req, &args.common.limits())?;
    if args.common.json {
        print_json(out, &answer)?;
        return Ok(ExitCode::SUCCESS);
    }
    print(out, &answer, args.decimals);
    Ok(ExitCode::SUCCESS)
}

fn print(out: &mut String, a: &Answer, decimals: Option<usize>) {
    let num = |s: &str| match (decimals, parse_number(s)) {
        (Some(d), Ok(q)) => show_decimal(&q, d),
        _ => s.to_string(),
    };
    // Bounds are shown as decimals rounded outward (they hold what they bound), with digits
    // enough to tell them apart; --json has them exactly.
    let bound = |s: &str, up: bool| match parse_number(s) {
        Ok(q) => show_decimal_outward(&q, decimals.unwrap_or(0).max(18), up),
        Err(_) => s.to_string(),
    };
    outln!(
        out,
        "stochastic game: {} state{}, discount {}, play goes on with probability at most {} a stage",
        a.states.len(),
        if a.states.len() == 1 { "" } else { "s" },
        a.discount,
        a.continuation
    );
    let width = a
        .states
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    outln!(
        out,
        "values ({}, by {} in {} round{}):",
        if a.exact {
            "exact"
        } else {
            "between proven bounds"
        },
        a.method,
        a.rounds,
        if a.rounds == 1 { "" } else { "s" }
    );
    for s in &a.states {
        match &s.value {
            Some(v) => outln!(out, "  {:width$}  {}", s.name, num(v)),
            None => outln!(
                out,
                "  {:width$}  {:.15}  (between {} and {})",
                s.name,
                s.approximate,
                bound(&s.lower, false),
                bound(&s.upper, true)
            ),
        }
        if let Some(x) = &s.algebraic {
            // The exact value: the closed form when there is one, and always the polynomial.
            let root = format!(
                "the root of {} between {} and {}",
                x.polynomial,
                bound(&x.lower, false),
                bound(&x.upper, true)
            );
            match &x.closed_form {
                Some(c) => outln!(out, "  {:width$}  exactly {c}, {root}", ""),
                None => outln!(out, "  {:width$}  exactly {root}", ""),
            }
        }
    }
    outln!(
        out,
        "stationary strategies ({}):",
        if a.exact {
            "optimal"
        } else {
            "each guarantees what is shown; --json has them exactly"
        }
    );
    // Strategies that only bound the values have long fractions: shown rounded (--json has
    // them exactly).
    let prob = |s: &str| match (a.exact, decimals, parse_number(s)) {
        (false, None, Ok(q)) if s.len() > 12 => show_decimal(&q, 12),
        _ => num(s),
    };
    let mix = |names: &[String], p: &[String]| {
        names
            .iter()
            .zip(p)
            .filter(|(_, x)| x.as_str() != "0")
            .map(|(n, x)| format!("{n} {}", prob(x)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for s in &a.states {
        if s.rows.len() == 1 && s.columns.len() == 1 {
            outln!(out, "  {:width$}  (no choices)", s.name);
            continue;
        }
        outln!(
            out,
            "  {:width$}  row: {}   column: {}",
            s.name,
            mix(&s.rows, &s.row_strategy),
            mix(&s.columns, &s.column_strategy)
        );
        if !a.exact {
            outln!(
                out,
                "  {:width$}  the row strategy gets at least {}, the column strategy concedes at most {}",
                "",
                bound(&s.row_guarantee, false),
                bound(&s.column_guarantee, true)
            );
        }
    }
    for n in &a.notes {
        outln!(out, "note: {n}");
    }
}
