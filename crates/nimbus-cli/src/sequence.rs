//! `nimbus sequence`: the nim-sequence of a heap game, with its period.

use crate::{print_json, Common, ScriptArgs};
use nimbus::impartial::expr::parse_rule;
use nimbus::impartial::sequence::{misere_sequence, nim_sequence, Sequence};
use nimbus::impartial::Limits;
use nimbus::script::impartial::{
    misere_sequence as script_misere, nim_sequence as script_sequence,
};
use nimbus::script::Script;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus sequence kayles --upto 200
      ... periodic from n = 71 with period 12, proved (Guy-Smith test)
  nimbus sequence octal 0.137 --upto 500
  nimbus sequence 'subtract{1,3,4}' --upto 40 --json
  nimbus sequence grundy-game --upto 100000
  nimbus sequence --misere 'subtract{1,2,3}' --upto 20
      misère Bash game: G-(n) = 0 exactly when n mod 4 = 1
  nimbus sequence --misere kayles --upto 40
      misère values by exact search of the sums of heaps a move leaves

Misère periods are proved only for rules that never split a heap.

Rulesets: nim, subtract{SET}, allbut{SET}, kayles, dawson (Dawson's Kayles, 0.07),
dawson-chess (0.137), grundy-game, octal CODE, and
script:FILE, a game written in Rhai with fn heap(n) and fn moves(p) (examples/*.rhai).";

/// Print the nim-sequence G(0), G(1), ..., G(N) of a heap game and its period.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The ruleset, such as kayles, "octal 0.137" or subtract{1,3,4}.
    #[arg(value_name = "RULESET", required = true)]
    ruleset: Vec<String>,
    /// The largest heap size.
    #[arg(long, value_name = "N", default_value_t = 100)]
    upto: u64,
    /// Values per row of the text output (0: the period when it is short, else 10).
    #[arg(long, value_name = "K", default_value_t = 0)]
    row: usize,
    /// Misère play (the player who cannot move wins): the misère Grundy values G-(n).
    #[arg(long)]
    misere: bool,
    #[command(flatten)]
    script: ScriptArgs,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(serde::Serialize)]
struct Report<'a> {
    game: &'a str,
    play: &'static str,
    upto: u64,
    values: &'a [u64],
    #[serde(skip_serializing_if = "Option::is_none")]
    remoteness: Option<&'a [u64]>,
    preperiod: Option<u64>,
    period: Option<u64>,
    proved: bool,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::Error> {
    let limits = args.common.limits();
    if let Some(rest) = args.ruleset[0].strip_prefix("script:") {
        let path = rest.split_whitespace().next().unwrap_or("");
        return run_script(path, &args, limits, out);
    }
    let rule = parse_rule(&args.ruleset.join(" "), "the ruleset")?;
    if args.misere {
        let seq = misere_sequence(rule.as_ref(), args.upto, limits)?;
        if args.common.json {
            print_json(
                out,
                &Report {
                    game: &seq.game,
                    play: "misere",
                    upto: args.upto,
                    values: &seq.values,
                    remoteness: Some(&seq.remoteness),
                    preperiod: seq.period.map(|p| p.preperiod),
                    period: seq.period.map(|p| p.period),
                    proved: seq.proved,
                },
            )?;
        } else {
            let table = Sequence {
                game: format!("{} (misère)", seq.game),
                values: seq.values,
                period: seq.period,
                proved: seq.proved,
            };
            let horizon = match rule.splits() {
                true => None,
                false => seq
                    .period
                    .and_then(|p| rule.proof_horizon(p.preperiod, p.period)),
            };
            print_text(out, &table, args.row, horizon);
            let zeros: Vec<String> = table
                .values
                .iter()
                .enumerate()
                .filter(|(_, &v)| v == 0)
                .map(|(n, _)| n.to_string())
                .take(40)
                .collect();
            outln!(
                out,
                "misère P-positions (G- = 0): {}{}",
                zeros.join(" "),
                if zeros.len() == 40 { " …" } else { "" }
            );
            if rule.splits() {
                outln!(
                    out,
                    "note: misère values of sums do not add up, so these come from an exact \
                     search of {} sums of heaps",
                    seq.positions
                );
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let seq = nim_sequence(rule.as_ref(), args.upto, limits)?;
    if args.common.json {
        print_json(
            out,
            &Report {
                game: &seq.game,
                play: "normal",
                upto: args.upto,
                values: &seq.values,
                remoteness: None,
                preperiod: seq.period.map(|p| p.preperiod),
                period: seq.period.map(|p| p.period),
                proved: seq.proved,
            },
        )?;
    } else {
        let horizon = seq
            .period
            .and_then(|p| rule.proof_horizon(p.preperiod, p.period));
        print_text(out, &seq, args.row, horizon);
    }
    Ok(ExitCode::SUCCESS)
}

fn run_script(
    path: &str,
    args: &Args,
    limits: Limits,
    out: &mut String,
) -> Result<ExitCode, nimbus::Error> {
    // The words may come as one quoted argument ('script:x.rhai 5') or as several.
    let joined = args.ruleset.join(" ");
    let mut words = joined.split_whitespace().skip(1);
    if let Some(extra) = words.next() {
        return Err(nimbus::Error::Invalid(format!(
            "unexpected '{extra}': a script's nim-sequence takes no heap sizes here (use --upto)"
        )));
    }
    let script = std::rc::Rc::new(Script::load(path, args.script.options())?);
    let (seq, remoteness) = if args.misere {
        let m = script_misere(&script, args.upto, limits)?;
        let seq = Sequence {
            game: format!("{} (misère)", m.game),
            values: m.values,
            period: m.period,
            proved: false,
        };
        (seq, Some(m.remoteness))
    } else {
        (script_sequence(&script, args.upto, limits)?, None)
    };
    if args.common.json {
        print_json(
            out,
            &Report {
                game: &seq.game,
                play: if args.misere { "misere" } else { "normal" },
                upto: args.upto,
                values: &seq.values,
                remoteness: remoteness.as_deref(),
                preperiod: seq.period.map(|p| p.preperiod),
                period: seq.period.map(|p| p.period),
                proved: false,
            },
        )?;
    } else {
        print_text(out, &seq, args.row, None);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(out: &mut String, seq: &Sequence, row: usize, horizon: Option<u64>) {
    let last = seq.values.len() - 1;
    let summary = match seq.period {
        None => format!("no period seen up to n = {last}"),
        Some(p) => {
            let status = match horizon {
                _ if seq.proved => "proved to hold for ever".to_string(),
                Some(h) => format!("observed; proved once it holds up to n = {h}: try --upto {h}"),
                None => "observed only: no periodicity test is known for this ruleset".to_string(),
            };
            format!(
                "periodic from n = {} with period {} ({status})",
                p.preperiod, p.period
            )
        }
    };
    outln!(out, "{}: G(0..={last}): {summary}", seq.game);
    let width = seq.values.iter().max().map_or(1, |m| m.to_string().len());
    let label = last.to_string().len();
    let cells = |vs: &[u64]| {
        vs.iter()
            .map(|v| format!("{v:>width$}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // With a short proved period and no row length asked for, the values before the period
    // are listed, then the period once: the rest repeats it. A period only observed is shown
    // in full, a row a period, so that the reader sees the evidence.
    if let (0, Some(p)) = (row, seq.period) {
        if p.period <= 36 && seq.proved {
            let (pre, per) = (p.preperiod as usize, p.period as usize);
            for (i, chunk) in seq.values[..pre].chunks(per.max(10)).enumerate() {
                outln!(out, "{:>label$}: {}", i * per.max(10), cells(chunk));
            }
            outln!(
                out,
                "{:>label$}: {}   (the period, repeating from n = {pre})",
                pre,
                cells(&seq.values[pre..pre + per])
            );
            return;
        }
    }
    let row = match (row, seq.period) {
        (0, Some(p)) if p.period <= 36 => p.period as usize,
        (0, _) => 10,
        (r, _) => r,
    };
    for (i, chunk) in seq.values.chunks(row).enumerate() {
        outln!(out, "{:>label$}: {}", i * row, cells(chunk));
    }
}
