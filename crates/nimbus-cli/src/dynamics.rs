//! `nimbus dynamics`: how play evolves under a learning rule (fictitious play, the replicator
//! equation), as a table and a picture.

use crate::game_input::GameInput;
use crate::{print_json, Common};
use nimbus::api::dynamics::{self, Rule};
use nimbus::api::Error;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus dynamics --row \"0 -1 1; 1 0 -1; -1 1 0\" --col \"0 1 -1; -1 0 1; 1 -1 0\"
      fictitious play on rock-paper-scissors: the frequencies approach 1/3 each
  nimbus dynamics game.nfg --rounds 10000 --ties random:7      ties drawn, seeded
  nimbus dynamics game.nfg --rule replicator --time 20 --plot run.svg
      with the rest points and their stability; a symmetric 3 x 3 game's plot is its simplex
  nimbus dynamics game.nfg --rule replicator --start \"1/2 1/4 1/4\"

Fictitious play is exact: the frequencies are fractions of whole play counts. The replicator
equation is integrated with error control (Dormand-Prince); a symmetric game is played by one
population unless --two-populations, any other game by two.";

/// How play evolves under a learning rule: fictitious play or the replicator equation
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game: a .nfg file ("-" for standard input), or --row and --col.
    #[arg(value_name = "GAME", required_unless_present = "row")]
    file: Option<String>,
    #[command(flatten)]
    input: GameInput,
    /// The rule: fictitious-play (fp) or replicator.
    #[arg(long, default_value = "fictitious-play")]
    rule: String,
    /// Fictitious play: the rounds to play.
    #[arg(long, default_value_t = 1000)]
    rounds: u64,
    /// The replicator equation: the time to integrate to.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    time: f64,
    /// The records printed, evenly spaced from the start to the end.
    #[arg(long, default_value_t = 11)]
    points: u64,
    /// Where to start, a vector a player separated by ';': play counts for fictitious play,
    /// shares summing to 1 for the replicator (one vector for one population).
    #[arg(long, value_name = "VECTORS")]
    start: Option<String>,
    /// Fictitious play: how ties between best replies are broken: first (the lowest
    /// numbered) or random[:SEED].
    #[arg(long, default_value = "first")]
    ties: String,
    /// The replicator equation on a symmetric game: two populations, one a side.
    #[arg(long)]
    two_populations: bool,
    /// Draw each strategy's probability against the round or time into this SVG file (for
    /// one population of three strategies: the phase portrait on the simplex).
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, Error> {
    if args.file.is_some() && args.input.row.is_some() {
        return Err(Error::Invalid(
            "give the game once: a .nfg file, or --row and --col".into(),
        ));
    }
    let (game, notes) = args.input.load(args.file.as_deref())?;
    let word =
        |flag: &str, e: Error| Error::Invalid(format!("{flag}: {}", crate::words::message(&e)));
    let req = dynamics::Request {
        rule: Rule::parse(&args.rule).map_err(|e| word("--rule", e))?,
        rounds: args.rounds,
        time: args.time,
        points: args.points,
        times: None,
        start: args
            .start
            .as_deref()
            .map(dynamics::parse_start)
            .transpose()
            .map_err(|e| word("--start", e))?,
        ties: dynamics::parse_ties(&args.ties).map_err(|e| word("--ties", e))?,
        plays: false,
        two_populations: args.two_populations,
        plot: args.plot.is_some(),
        rest_points: true,
    };
    let mut answer = dynamics::solve(&game, &req, &args.common.limits())?;
    answer.notes.splice(0..0, notes);
    answer.notes = answer.notes.iter().map(|n| crate::words::note(n)).collect();
    crate::write_plot(args.plot.as_ref(), answer.plot.as_ref(), &mut answer.notes)?;
    if args.common.json {
        print_json(out, &answer)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(out, "{}", answer.described);
    let axis = match answer.rule {
        Rule::FictitiousPlay => "round",
        Rule::Replicator => "time",
    };
    let mut head = format!("{axis:>8}");
    for (p, names) in answer.players.iter().zip(&answer.strategies) {
        head.push_str(&format!("   {p}: {}", names.join(" ")));
    }
    outln!(out, "{head}");
    for point in &answer.points {
        let mut line = format!("{:>8}", trim(point.at));
        for (k, v) in point.profile.iter().enumerate() {
            line.push_str("   ");
            let cells: Vec<String> = match &point.exact {
                Some(exact) => exact[k].clone(),
                None => v.iter().map(|x| format!("{x:.6}")).collect(),
            };
            line.push_str(&cells.join(" "));
        }
        outln!(out, "{line}");
    }
    if let Some(counts) = &answer.counts {
        for (p, c) in answer.players.iter().zip(counts) {
            outln!(
                out,
                "{p} played: {}",
                c.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")
            );
        }
    }
    if let Some(rests) = &answer.rest_points {
        outln!(out, "rest points ({}):", rests.len());
        for r in rests {
            let word = match r.stability {
                dynamics::Stability::Stable => "asymptotically stable",
                dynamics::Stability::Unstable => "unstable",
                dynamics::Stability::Undecided => "not decided by the linearisation",
            };
            outln!(
                out,
                "  ({})   payoff {}{}   {word}",
                r.shares.join(", "),
                r.payoff,
                if r.nash { "   Nash" } else { "" }
            );
        }
    }
    for n in &answer.notes {
        outln!(out, "note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

fn trim(v: f64) -> String {
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
