//! `nimbus sequence`: the nim-sequence of a heap game, with its period.

use crate::{print_json, Common, ScriptArgs};
use nimbus::api::sequence;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus sequence kayles --upto 200
      ... periodic from n = 71 with period 12, proved (Guy-Smith test)
  nimbus sequence octal 0.16 --prove
      computes until the period is proved: 149459 from n = 105351
  nimbus sequence octal 0.354 --prove --checkpoint 354.ckpt
      saves its progress every minute; run it again after a stop to go on
  nimbus sequence octal 0.16 --upto 300000 --plot seq.svg
      G(n) against n, rare values in red, the preperiod and one period marked
  nimbus sequence octal 0.137 --upto 500
  nimbus sequence 'subtract{1,3,4}' --upto 40 --json
  nimbus sequence grundy-game --upto 100000
  nimbus sequence --misere 'subtract{1,2,3}' --upto 20
      misère Bash game: G-(n) = 0 exactly when n mod 4 = 1
  nimbus sequence --misere kayles --upto 40
      misère values by exact search of the sums of heaps a move leaves

Misère periods are proved only for rules that never split a heap.

Rulesets: nim, subtract{SET}, allbut{SET}, kayles, dawson (Dawson's Kayles, 0.07),
dawson-chess (0.137), grundy-game, octal CODE, hex CODE (digits 0-f; bit 8 of a digit
leaves three heaps), and
script:FILE, a game written in Rhai with fn heap(n) and fn moves(p) (examples/*.rhai).";

/// Print the nim-sequence G(0), G(1), ..., G(N) of a heap game and its period.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The ruleset, such as kayles, "octal 0.137" or subtract{1,3,4}.
    #[arg(value_name = "RULESET", required = true)]
    ruleset: Vec<String>,
    /// The largest heap size listed. Without it, the values up to 100 are listed, and for
    /// rulesets with a periodicity test (octal games, finite subtraction sets) the sequence is
    /// computed until its period is proved or a budget stops it, which the answer says.
    #[arg(long, value_name = "N")]
    upto: Option<u64>,
    /// Values per row of the text output (0: the period when it is short, else 10).
    #[arg(long, value_name = "K", default_value_t = 0)]
    row: usize,
    /// Misère play (the player who cannot move wins): the misère Grundy values G-(n).
    #[arg(long)]
    misere: bool,
    /// Compute as far as it takes to prove a period (octal games, finite subtraction
    /// games), within --max-states; the values listed are still those up to --upto.
    #[arg(long)]
    prove: bool,
    /// With --prove (octal games): resume from the values saved in FILE, if it exists, and
    /// save the values reached there every minute and on a stop (Ctrl-C, a budget), so that
    /// a run of hours survives a stop.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    /// Draw G(n) against n for the values listed as an SVG scatter plot in FILE (rare
    /// values in red, the preperiod and one period marked).
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    #[command(flatten)]
    script: ScriptArgs,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    let mut limits = args.common.limits();
    if args.prove && args.common.max_work.is_none() {
        limits.max_work = sequence::PROVE_MAX_WORK;
    }
    let req = sequence::Request {
        upto: args.upto.unwrap_or(100),
        misere: args.misere,
        prove: args.prove,
        until_proved: args.upto.is_none() && !args.prove,
        plot: args.plot.is_some(),
        checkpoint: args.checkpoint.clone(),
        limits,
        script: args.script.options(),
    };
    let mut answer = sequence::solve(&args.ruleset.join(" "), &req)?;
    answer.notes = answer.notes.iter().map(|n| crate::words::note(n)).collect();
    crate::write_plot(args.plot.as_ref(), answer.plot.as_ref(), &mut answer.notes)?;
    if args.common.json {
        print_json(out, &answer)?;
        return Ok(ExitCode::SUCCESS);
    }
    print_text(out, &answer, args.row);
    if answer.play == sequence::Play::Misere {
        let zeros: Vec<String> = answer
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
    }
    for n in &answer.notes {
        outln!(out, "note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(out: &mut String, seq: &sequence::Answer, row: usize) {
    let last = seq.values.len() - 1;
    let period = seq.period.zip(seq.preperiod);
    let summary = match period {
        None => format!("no period seen up to n = {last}"),
        Some((period, preperiod)) => {
            let status = match seq.proof_horizon {
                _ if seq.proved => match (seq.checked_upto, &seq.checksum) {
                    (Some(h), Some(crc)) => format!(
                        "proved to hold for ever: the periodicity test checked up to n = {h}; \
                         CRC-32 of G(0..={h}) {crc}"
                    ),
                    _ => "proved to hold for ever".to_string(),
                },
                Some(h) => format!("observed; proved once it holds up to n = {h}: try --upto {h}"),
                None => "observed only: no periodicity test is known for this ruleset".to_string(),
            };
            format!("periodic from n = {preperiod} with period {period} ({status})")
        }
    };
    let game = match seq.play {
        sequence::Play::Misere => format!("{} (misère)", seq.game),
        sequence::Play::Normal => seq.game.clone(),
    };
    outln!(out, "{game}: G(0..={last}): {summary}");
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
    if let (0, Some((period, preperiod))) = (row, period) {
        let (pre, per) = (preperiod as usize, period as usize);
        // (With --prove the period may start past the values listed.)
        if period <= 36 && seq.proved && pre + per <= seq.values.len() {
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
        (0, Some(p)) if p <= 36 => p as usize,
        (0, _) => 10,
        (r, _) => r,
    };
    for (i, chunk) in seq.values.chunks(row).enumerate() {
        outln!(out, "{:>label$}: {}", i * row, cells(chunk));
    }
}
