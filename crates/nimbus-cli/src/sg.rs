//! `nimbus sg`: outcome, Sprague–Grundy values, winning moves and remoteness of a sum.

use crate::{print_json, read_input, Common};
use nimbus::impartial::expr::Parser;
use nimbus::impartial::sum::{analyze, Analysis, AnalyzeOptions};
use nimbus::impartial::Limits;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus sg nim 3 4 5
      outcome N; take 2 from heap 1 (3 -> 1), leaving nim 1 4 5
  nimbus sg \"kayles 7 + wythoff 3 5 + subtract{1,3,4} 20\"
  nimbus sg wythoff 1000000000000000000 1618033988749894848
  nimbus sg \"graph examples/dag.txt @a @b\" --json
  nimbus sg --file heaps.txt            (the expression read from a file; - for stdin)

Expression grammar (components joined by +):
  nim HEAP...                subtract{1,3,4} HEAP...     allbut{1,2} HEAP...
  kayles HEAP...             dawson HEAP...              grundy-game HEAP...
  octal 0.137 HEAP...        wythoff A B                 fibonacci N [LIMIT]
  graph FILE @NODE...        (graph file: one edge 'u v' per line, # comments)";

/// Analyse a sum of impartial games under normal play (the player who cannot move loses).
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The expression; its words may be given as separate arguments.
    #[arg(
        value_name = "EXPRESSION",
        required_unless_present = "file",
        allow_negative_numbers = true
    )]
    expression: Vec<String>,
    /// Read the expression from this file ("-" for standard input).
    #[arg(short, long, value_name = "FILE", conflicts_with = "expression")]
    file: Option<String>,
    /// List at most this many winning moves (all are counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_moves: usize,
    #[command(flatten)]
    common: Common,
}

#[derive(serde::Serialize)]
struct Report<'a> {
    expression: String,
    #[serde(flatten)]
    analysis: &'a Analysis,
}

pub fn run(args: Args) -> Result<ExitCode, nimbus::Error> {
    let (text, source) = match &args.file {
        Some(path) => (
            read_input(path)?,
            if path == "-" {
                "standard input".to_string()
            } else {
                path.clone()
            },
        ),
        None => (args.expression.join(" "), "the expression".to_string()),
    };
    let components = Parser::new().parse(&text, &source)?;
    let opts = AnalyzeOptions {
        limits: Limits {
            max_states: args.common.max_states,
        },
        max_moves: args.max_moves,
        ..AnalyzeOptions::default()
    };
    let analysis = analyze(&components, &opts)?;
    let expression = components
        .iter()
        .map(|c| c.expression())
        .collect::<Vec<_>>()
        .join(" + ");
    if args.common.json {
        print_json(&Report {
            expression,
            analysis: &analysis,
        })?;
    } else {
        print_text(&expression, &analysis);
    }
    Ok(ExitCode::SUCCESS)
}

fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "unknown".to_string(), |v| v.to_string())
}

fn print_text(expression: &str, a: &Analysis) {
    let shown = if expression.len() > 200 {
        format!(
            "{}… ({} characters)",
            cut(expression, 200),
            expression.len()
        )
    } else {
        expression.to_string()
    };
    println!("position:   {shown}");
    let meaning = match a.outcome {
        nimbus::impartial::Outcome::N => "the player to move wins",
        nimbus::impartial::Outcome::P => "the player to move loses",
    };
    println!("outcome:    {} ({meaning})", a.outcome);
    match a.grundy {
        Some(g) => println!("grundy:     {g}"),
        None => println!("grundy:     unknown (non-zero)"),
    }
    println!("remoteness: {}", opt(a.remoteness));
    if a.components.len() > 1 {
        println!("components:");
        let width = a
            .components
            .iter()
            .map(|c| c.game.len())
            .max()
            .unwrap_or(0)
            .min(40);
        for c in a.components.iter().take(50) {
            println!(
                "  {:width$}  grundy {}  remoteness {}",
                c.game,
                opt(c.grundy),
                opt(c.remoteness)
            );
        }
        if a.components.len() > 50 {
            println!("  … and {} more", a.components.len() - 50);
        }
    }
    if a.winning_moves_total == 0 {
        println!("winning moves: none");
    } else {
        println!("winning moves ({}):", a.winning_moves_total);
        for m in &a.winning_moves {
            let result = if m.result.len() > 120 {
                format!("{}…", cut(&m.result, 120))
            } else {
                m.result.clone()
            };
            println!("  {}\n      -> {result}", m.description);
        }
        if a.winning_moves.len() < a.winning_moves_total {
            println!(
                "  … {} more (raise --max-moves)",
                a.winning_moves_total - a.winning_moves.len()
            );
        }
    }
    for n in &a.notes {
        println!("note: {n}");
    }
}

/// The longest prefix of `s` of at most `n` bytes that ends on a character boundary.
fn cut(s: &str, n: usize) -> &str {
    let end = (0..=n.min(s.len()))
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0);
    &s[..end]
}
