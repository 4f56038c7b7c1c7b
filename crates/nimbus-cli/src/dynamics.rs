//! `nimbus dynamics`: how play evolves under a learning rule (fictitious play, best-response
//! dynamics, stochastic fictitious play, regret matching, the replicator equation, the logit
//! dynamics, the Moran process), as a table and a picture.

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
  nimbus dynamics game.nfg --rule replicator --mutation 0.01      the replicator-mutator
  nimbus dynamics --row \"2 0; 0 1\" --col \"1 0; 0 2\" --rule replicator --plot square.svg
      a 2 x 2 game's phase portrait on the unit square, rest points exact
  nimbus dynamics game.nfg --rule best-response --start \"1 0; 0 1\"
  nimbus dynamics game.nfg --rule regret-matching --rounds 100000 --seed 3
  nimbus dynamics --row \"1 4; 2 3\" --col \"1 2; 4 3\" --rule moran --population \"9 1\"
      the probability that each strategy takes over, exactly
  nimbus dynamics game.nfg --rule moran --population \"9 1\" --graph ring.txt   on a graph

Fictitious play, best-response dynamics and regret matching are exact (fractions of whole
counts; regrets in whole numbers). The continuous rules are integrated with error control
(Dormand-Prince); a symmetric game is played by one population unless --two-populations, any
other game by two. The Moran process plays the row player's payoffs as a symmetric game; with
two strategies present its fixation probabilities are exact fractions, with more they are
estimated from --runs simulated runs.";

/// How play evolves under a learning rule: fictitious play, replicator, Moran and more
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game: a .nfg file ("-" for standard input), or --row and --col.
    #[arg(value_name = "GAME", required_unless_present = "row")]
    file: Option<String>,
    #[command(flatten)]
    input: GameInput,
    /// The rule: fictitious-play (fp), best-response (br), stochastic-fictitious-play (sfp),
    /// regret-matching (regret), replicator, logit or moran.
    #[arg(long, default_value = "fictitious-play")]
    rule: String,
    /// The discrete rules: the rounds to play; the Moran process: the most generations a run
    /// may take.
    #[arg(long, default_value_t = 1000)]
    rounds: u64,
    /// The replicator equation and the logit dynamics: the time to integrate to.
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    time: f64,
    /// The records printed, evenly spaced from the start to the end.
    #[arg(long, default_value_t = 11)]
    points: u64,
    /// Where to start, a vector a player separated by ';': play counts for (stochastic)
    /// fictitious play, a pure profile ("1 0; 0 1") for best response and regret matching,
    /// shares summing to 1 for the continuous rules (one vector for one population).
    #[arg(long, value_name = "VECTORS")]
    start: Option<String>,
    /// Fictitious play and best response: how ties between best replies are broken: first
    /// (the lowest numbered) or random[:SEED].
    #[arg(long, default_value = "first")]
    ties: String,
    /// The continuous rules on a symmetric game: two populations, one a side.
    #[arg(long)]
    two_populations: bool,
    /// The logit dynamics and stochastic fictitious play: the noise (nashpy's etha).
    #[arg(long, default_value_t = 0.1, allow_negative_numbers = true)]
    noise: f64,
    /// Stochastic fictitious play: the largest perturbation of a payoff (nashpy's
    /// epsilon_bar).
    #[arg(long, default_value_t = 0.01, allow_negative_numbers = true)]
    perturbation: f64,
    /// The replicator equation (one population): a mutation rate, or the matrix of
    /// probabilities that an offspring of each strategy plays each ("0.9 0.1; 0 1"); the Moran
    /// process: the mutation probability.
    #[arg(long, value_name = "RATE|MATRIX", allow_negative_numbers = true)]
    mutation: Option<String>,
    /// The Moran process: how many individuals play each strategy ("9 1").
    #[arg(long, value_name = "COUNTS")]
    population: Option<String>,
    /// The Moran process on a graph: a file of edges, a line each, two individuals numbered
    /// from 0 ("0 1"; the first of --population's counts are the lowest numbers); the
    /// offspring replaces a neighbour.
    #[arg(long, value_name = "FILE")]
    graph: Option<String>,
    /// The Moran process: the runs simulated when more than two strategies are present.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true)]
    runs: u64,
    /// The seed of the random rules (stochastic fictitious play, regret matching, Moran).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    seed: u64,
    /// Draw each strategy's probability against the round or time into this SVG file (for
    /// one population of three strategies: the phase portrait on the simplex; for two
    /// populations of a 2 x 2 game: the phase portrait on the unit square).
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
        noise: args.noise,
        perturbation: args.perturbation,
        mutation: args
            .mutation
            .as_deref()
            .map(dynamics::parse_mutation)
            .transpose()
            .map_err(|e| word("--mutation", e))?,
        population: args
            .population
            .as_deref()
            .map(dynamics::parse_population)
            .transpose()
            .map_err(|e| word("--population", e))?,
        runs: args.runs,
        seed: args.seed,
        graph: match &args.graph {
            Some(path) => Some(
                dynamics::parse_graph(&crate::read_input(path)?).map_err(|e| word("--graph", e))?,
            ),
            None => None,
        },
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
    let axis = answer.rule.axis();
    let mut head = format!("{axis:>8}");
    for (p, names) in answer.players.iter().zip(&answer.strategies) {
        head.push_str(&format!("   {p}: {}", names.join(" ")));
    }
    if answer.rule == Rule::RegretMatching {
        head.push_str("   regret");
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
        if let Some(r) = &point.regret {
            line.push_str(&format!("   {r}"));
        }
        outln!(out, "{line}");
    }
    extras(&answer, out);
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
            let (shares, payoff) = match (&r.second, &r.second_payoff) {
                (Some(y), Some(py)) => (
                    format!("({}; {})", r.shares.join(", "), y.join(", ")),
                    format!("payoffs {}, {py}", r.payoff),
                ),
                _ => (
                    format!("({})", r.shares.join(", ")),
                    format!("payoff {}", r.payoff),
                ),
            };
            outln!(
                out,
                "  {shares}   {payoff}{}   {word}",
                if r.nash { "   Nash" } else { "" }
            );
        }
    }
    for n in &answer.notes {
        outln!(out, "note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

/// What some rules add below the records: where best response ended, regret matching's joint
/// distribution, the Moran process's fixation probabilities.
fn extras(answer: &dynamics::Answer, out: &mut String) {
    match &answer.ending {
        Some(dynamics::Ending::Equilibrium { round, profile }) => outln!(
            out,
            "settled at round {round} in the pure equilibrium ({})",
            profile.join(", ")
        ),
        Some(dynamics::Ending::Cycle {
            round,
            length,
            profiles,
        }) => outln!(
            out,
            "from round {round}, a cycle of {length}: {}",
            profiles
                .iter()
                .map(|p| format!("({})", p.join(", ")))
                .collect::<Vec<_>>()
                .join(" -> ")
        ),
        None => {}
    }
    if let Some(joint) = &answer.joint {
        outln!(out, "joint play at the end:");
        for (name, row) in answer.strategies[0].iter().zip(joint) {
            outln!(out, "  {name}: {}", row.join(" "));
        }
    }
    if let Some(fix) = &answer.fixation {
        outln!(out, "fixation probabilities:");
        for f in fix {
            match &f.exact {
                Some(e) => outln!(out, "  {}: {e} ({:.6})", f.strategy, f.probability),
                None => outln!(out, "  {}: {:.4} (simulated)", f.strategy, f.probability),
            }
        }
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
