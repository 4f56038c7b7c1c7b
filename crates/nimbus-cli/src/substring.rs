//! `nimbus substring`: the substring game (append a letter to a string so that it stays a
//! substring of S; who cannot move loses).

use crate::{print_json, read_input, Common};
use nimbus::api::substring::{self, quoted, SubstringAnalysis, Words};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus substring abcab ab b
      S = abcab; two strings; a move appends a letter to one of them so that it stays a
      substring of S; who cannot move loses
  nimbus substring abcab ab b --misere      (who cannot move wins)
  nimbus substring aab '' a --json          ('' is the empty string)
  nimbus substring --file game.txt          (S, optionally the count, then the strings;
                                             any whitespace between them; - for stdin)";

/// The substring game: strings that grow by one letter at a time inside S.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// S, then the strings (each a substring of S; '' for the empty string).
    #[arg(value_name = "S STRING", required_unless_present = "file")]
    words: Vec<String>,
    /// Read S and the strings from this file ("-" for standard input).
    #[arg(short, long, value_name = "FILE", conflicts_with = "words")]
    file: Option<String>,
    /// Misère play: the player who cannot move wins.
    #[arg(long)]
    misere: bool,
    /// List at most this many winning moves (all are counted).
    #[arg(long, value_name = "N", default_value_t = 20)]
    max_moves: usize,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    let text = match &args.file {
        Some(path) => Some(read_input(path)?),
        None => None,
    };
    let words = match (&args.file, &text) {
        (Some(path), Some(text)) => Words::Text {
            text,
            source: if path == "-" { "standard input" } else { path },
        },
        _ => Words::List(&args.words),
    };
    let req = substring::Request {
        misere: args.misere,
        limits: args.common.limits(),
        max_moves: args.max_moves,
        max_strings: if args.common.json { usize::MAX } else { 20 },
    };
    let answer = substring::solve(words, &req)?;
    let a = &answer.analysis;
    if args.common.json {
        print_json(out, a)?;
    } else {
        let s = &answer.text;
        let shown = if s.len() > 60 {
            format!("{}… ({} letters)", &s[..60], s.len())
        } else {
            s.to_string()
        };
        outln!(
            out,
            "S:          {shown} ({} automaton states)",
            answer.automaton_states
        );
        print_text(out, a, answer.strings);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(out: &mut String, a: &SubstringAnalysis, n: usize) {
    outln!(
        out,
        "play:       {}",
        if a.play == "misere" {
            "misère (the player who cannot move wins)"
        } else {
            "normal (the player who cannot move loses)"
        }
    );
    let meaning = match a.outcome {
        nimbus::api::sg::Outcome::N => "the player to move wins",
        _ => "the player to move loses",
    };
    outln!(out, "outcome:    {} ({meaning})", a.outcome);
    outln!(out, "grundy:     {} (xor of the strings' values)", a.grundy);
    outln!(out, "decided by: {}", a.rule);
    if let Some(r) = a.remoteness {
        outln!(out, "remoteness: {r}");
    }
    for line in &a.explanation {
        outln!(out, "why:        {line}");
    }
    outln!(out, "strings ({n}):");
    for (i, t) in a.strings.iter().enumerate() {
        outln!(
            out,
            "  {:>3}. {}  grundy {}  remoteness {}",
            i + 1,
            shorten(&quoted(&t.string)),
            t.grundy,
            t.remoteness
        );
    }
    if a.strings.len() < n {
        outln!(out, "  … {} more (--json lists all)", n - a.strings.len());
    }
    if a.winning_moves_total == 0 {
        outln!(out, "winning moves: none");
        return;
    }
    outln!(out, "winning moves ({}):", a.winning_moves_total);
    for m in &a.winning_moves {
        outln!(
            out,
            "  append '{}' to string {} ({} -> {})",
            m.letter,
            m.string,
            shorten(&quoted(&m.from)),
            shorten(&quoted(&m.to))
        );
    }
    if a.winning_moves.len() < a.winning_moves_total {
        outln!(
            out,
            "  … {} more (raise --max-moves)",
            a.winning_moves_total - a.winning_moves.len()
        );
    }
}

fn shorten(s: &str) -> String {
    if s.len() > 50 {
        format!("{}…", &s[..50])
    } else {
        s.to_string()
    }
}
