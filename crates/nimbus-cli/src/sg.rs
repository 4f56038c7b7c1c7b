//! `nimbus sg`: outcome, Sprague–Grundy values, winning moves and remoteness of a sum.

use crate::{expression_text, print_json, Common, ScriptArgs};
use nimbus::api::sg;
use nimbus::api::sg::Analysis;
use nimbus::api::sg::{MisereAnalysis, Refusal};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus sg nim 3 4 5
      outcome N; take 2 from heap 1 (3 -> 1), leaving nim 1 4 5
  nimbus sg \"kayles 7 + wythoff 3 5 + subtract{1,3,4} 20\"
  nimbus sg wythoff 1000000000000000000 1618033988749894848
  nimbus sg \"graph examples/dag.txt @a @b\" --json
  nimbus sg --file heaps.txt            (the expression read from a file; - for stdin)
  nimbus sg --misere nim 1 1 1          misère play: P, by Bouton's anti-Nim rule
  nimbus sg --misere --explain \"graph examples/seed-antisg.txt @1\"
  nimbus sg --misere --rule sj \"graph examples/seed-antisg.txt @1\"   (refused, exit 1)

Expression grammar (components joined by +):
  nim HEAP...                subtract{1,3,4} HEAP...     allbut{1,2} HEAP...
  kayles HEAP...             grundy-game HEAP...
  dawson HEAP...             Dawson's Kayles (octal 0.07: knock down two adjacent pins)
  dawson-chess HEAP...       Dawson's chess (octal 0.137)
  octal 0.137 HEAP...        wythoff A B                 fibonacci N [LIMIT]
  hex 0.8f HEAP...           hexadecimal code: bit 8 of a digit leaves three heaps
  graph FILE @NODE...        (graph file: one edge 'u v' per line, # comments)
  script:FILE ARG...         a game written in Rhai: fn moves(p), and fn heap(n) (each ARG
                             a heap) or fn start(args) (see examples/*.rhai)";

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
    /// Misère play: the player who cannot move wins.
    #[arg(long)]
    misere: bool,
    /// With --misere: say which rule decided the answer and why it applies.
    #[arg(long, requires = "misere")]
    explain: bool,
    /// With --misere: insist on a rule; one whose precondition fails is refused (exit status
    /// 1) with a smallest position where it is wrong.
    #[arg(long, value_name = "RULE", requires = "misere", value_parser = clap::builder::PossibleValuesParser::new(sg::MISERE_RULES.iter().map(|r| r.0)))]
    rule: Option<String>,
    #[command(flatten)]
    script: ScriptArgs,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    let (text, source) = expression_text(args.file.as_deref(), &args.expression)?;
    let req = sg::Request {
        misere: args.misere,
        rule: args.rule.as_deref().map(sg::misere_rule).transpose()?,
        max_moves: args.max_moves,
        limits: args.common.limits(),
        script: args.script.options(),
    };
    let answer = sg::solve(&text, &source, &req)?;
    if args.common.json {
        print_json(out, &answer)?;
    } else {
        match &answer.result {
            sg::Verdict::Normal(a) => print_text(out, &answer.expression, a),
            sg::Verdict::Misere(a) => print_misere(out, &answer.expression, a, args.explain),
            sg::Verdict::Refused(r) => print_refusal(out, r),
        }
    }
    Ok(ExitCode::from(u8::from(answer.refused)))
}

fn print_refusal(out: &mut String, r: &Refusal) {
    outln!(out, "refused: {}", r.reason);
    if let Some(c) = &r.counterexample {
        outln!(
            out,
            "counterexample: {} is {} in misère play, but the {} says {}",
            c.position,
            c.truth,
            r.rule,
            c.rule_says
        );
    }
}

fn print_misere(out: &mut String, expression: &str, a: &MisereAnalysis, explain: bool) {
    outln!(out, "position:   {}", shorten(expression, 200));
    outln!(out, "play:       misère (the player who cannot move wins)");
    outln!(out, "outcome:    {} ({})", a.outcome, meaning(a.outcome));
    outln!(out, "decided by: {}", a.rule);
    print_remoteness(out, a.outcome, a.remoteness);
    if explain {
        for line in &a.explanation {
            outln!(out, "why:        {line}");
        }
        if a.components.len() > 1 {
            outln!(out, "atoms (normal-play values):");
            for c in a.components.iter().take(50) {
                outln!(out, "  {}  grundy {}", c.game, opt(c.grundy));
            }
        }
    }
    print_moves(out, &a.winning_moves, a.winning_moves_total);
    print_drawing(out, &a.drawing_moves);
}

fn print_remoteness(out: &mut String, outcome: nimbus::api::sg::Outcome, r: Option<u64>) {
    if outcome == nimbus::api::sg::Outcome::D {
        outln!(out, "remoteness: none (play goes on for ever)");
    } else {
        outln!(out, "remoteness: {}", opt(r));
    }
}

fn print_drawing(out: &mut String, moves: &[nimbus::api::sg::WinningMove]) {
    if !moves.is_empty() {
        outln!(out, "drawing moves ({}):", moves.len());
        for m in moves {
            outln!(out, "  {}\n      -> {}", m.description, m.result);
        }
    }
}

fn shorten(s: &str, n: usize) -> String {
    if s.len() > n {
        format!("{}… ({} characters)", cut(s, n), s.len())
    } else {
        s.to_string()
    }
}

fn print_moves(out: &mut String, moves: &[nimbus::api::sg::WinningMove], total: usize) {
    if total == 0 {
        outln!(out, "winning moves: none");
        return;
    }
    outln!(out, "winning moves ({total}):");
    // A resulting position stays a whole expression that can be pasted back; when the
    // expressions are long, fewer moves are listed instead.
    let mut printed = 0;
    let mut shown = 0;
    for m in moves {
        if shown > 0 && printed + m.result.len() > 10_000 {
            break;
        }
        outln!(out, "  {}\n      -> {}", m.description, m.result);
        printed += m.result.len();
        shown += 1;
    }
    if shown < moves.len() {
        outln!(
            out,
            "  … {} more (their positions are long; --json lists them)",
            total - shown
        );
    } else if shown < total {
        outln!(out, "  … {} more (raise --max-moves)", total - shown);
    }
}

fn meaning(o: nimbus::api::sg::Outcome) -> &'static str {
    match o {
        nimbus::api::sg::Outcome::N => "the player to move wins",
        nimbus::api::sg::Outcome::P => "the player to move loses",
        nimbus::api::sg::Outcome::D => "a draw: neither player can force a win",
    }
}

fn opt(v: Option<u64>) -> String {
    v.map_or_else(|| "unknown".to_string(), |v| v.to_string())
}

fn print_text(out: &mut String, expression: &str, a: &Analysis) {
    outln!(out, "position:   {}", shorten(expression, 200));
    outln!(out, "outcome:    {} ({})", a.outcome, meaning(a.outcome));
    match (&a.gamma, a.grundy) {
        (Some(gamma), _) => outln!(
            out,
            "gamma:      {gamma} (generalised Sprague-Grundy value)"
        ),
        (None, Some(g)) => outln!(out, "grundy:     {g}"),
        (None, None) => outln!(out, "grundy:     unknown (non-zero)"),
    }
    print_remoteness(out, a.outcome, a.remoteness);
    if a.components.len() > 1 {
        outln!(out, "components:");
        let width = a
            .components
            .iter()
            .map(|c| c.game.len())
            .max()
            .unwrap_or(0)
            .min(40);
        for c in a.components.iter().take(50) {
            outln!(
                out,
                "  {:width$}  {} {}  remoteness {}",
                c.game,
                if c.gamma.is_some() { "gamma" } else { "grundy" },
                c.gamma.clone().unwrap_or_else(|| opt(c.grundy)),
                opt(c.remoteness)
            );
        }
        if a.components.len() > 50 {
            outln!(out, "  … and {} more", a.components.len() - 50);
        }
    }
    print_moves(out, &a.winning_moves, a.winning_moves_total);
    print_drawing(out, &a.drawing_moves);
    for n in &a.notes {
        outln!(out, "note: {n}");
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
