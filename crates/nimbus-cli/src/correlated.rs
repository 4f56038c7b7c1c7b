//! `nimbus correlated`: the correlated (or coarse correlated) equilibrium that maximises an
//! objective, exactly.

use crate::game_input::GameInput;
use crate::{print_json, Common};
use nimbus::api::correlated::{self, Target};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus correlated --row \"6 2; 7 0\" --col \"6 7; 2 0\"
      Aumann's chicken: the correlated equilibrium of the largest total payoff (21/2,
      above every Nash equilibrium's)
  nimbus correlated game.nfg --maximize player:2     the second player's best
  nimbus correlated game.nfg --maximize weights:1,2,0
  nimbus correlated game.nfg --coarse                 coarse correlated equilibria
  nimbus correlated game.nfg --vertices               every vertex of their polytope too
  nimbus correlated --row \"6 2; 7 0\" --col \"6 7; 2 0\" --plot chicken.svg
      the payoffs of the correlated and the Nash equilibria, drawn

A correlated equilibrium is a distribution over the pure profiles from which no player, told
only their own strategy, gains by playing another; a coarse one, from which no player gains by
committing to a strategy before the draw. The answer is exact: the distribution's
probabilities and the payoffs as fractions.";

/// Find the correlated equilibrium that maximises welfare (or a player's payoff), exactly
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game: a .nfg file ("-" for standard input), or --row and --col.
    #[arg(value_name = "GAME", required_unless_present = "row")]
    file: Option<String>,
    #[command(flatten)]
    input: GameInput,
    /// What to maximise: welfare (the players' total payoff), player:K (player K's, from 1)
    /// or weights:W1,W2,... (each player's payoff times a weight).
    #[arg(long, value_name = "OBJECTIVE", default_value = "welfare")]
    maximize: String,
    /// Coarse correlated equilibria: no player gains by committing to one strategy before
    /// the draw.
    #[arg(long)]
    coarse: bool,
    /// Every vertex of the polytope of (coarse) correlated equilibria too, each marked when it
    /// is a Nash equilibrium (exact; the number of vertices grows fast with the game).
    #[arg(long)]
    vertices: bool,
    /// A two-player game: draw the payoffs in this SVG file: the feasible ones, the correlated
    /// equilibria's, the Nash equilibria's and their hull, and the best one found.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    if args.file.is_some() && args.input.row.is_some() {
        return Err(nimbus::api::Error::Invalid(
            "give the game once: a .nfg file, or --row and --col".into(),
        ));
    }
    let (game, notes) = args.input.load(args.file.as_deref())?;
    let maximize = Target::parse(&args.maximize).map_err(|e| {
        nimbus::api::Error::Invalid(format!("--maximize: {}", crate::words::message(&e)))
    })?;
    let req = correlated::Request {
        maximize,
        coarse: args.coarse,
        vertices: args.vertices,
        plot: args.plot.is_some(),
    };
    let mut answer = correlated::solve(&game, &req, &args.common.limits())?;
    answer.notes.extend(notes);
    crate::write_plot(args.plot.as_ref(), answer.plot.as_ref(), &mut answer.notes)?;
    if args.common.json {
        print_json(out, &answer)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        out,
        "the {} equilibrium that maximises {}: {}",
        answer.kind,
        answer.objective,
        answer.value
    );
    outln!(
        out,
        "payoffs:  {}",
        answer
            .players
            .iter()
            .zip(&answer.payoffs)
            .map(|(p, u)| format!("{p} {u}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    outln!(out, "distribution:");
    print_cells(out, &answer.distribution, "  ");
    if let Some(vertices) = &answer.vertices {
        outln!(
            out,
            "the polytope of {} equilibria has {} vertices:",
            answer.kind,
            vertices.len()
        );
        for (k, v) in vertices.iter().enumerate() {
            outln!(
                out,
                "  {:>3}. payoffs {}{}",
                k + 1,
                v.payoffs.join(", "),
                if v.nash { "   a Nash equilibrium" } else { "" }
            );
            print_cells(out, &v.distribution, "       ");
        }
    }
    for n in &answer.notes {
        outln!(out, "note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

/// A distribution, a profile a line: its probability, then each player's strategy.
fn print_cells(out: &mut String, cells: &[correlated::Cell], indent: &str) {
    for cell in cells {
        outln!(
            out,
            "{indent}{:>8}  {}",
            cell.probability,
            cell.profile.join(", ")
        );
    }
}
