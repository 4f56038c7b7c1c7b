//! `nimbus repeated`: the payoffs of the subgame-perfect equilibria of a two-player game
//! repeated with discounting (Abreu and Sannikov's set), between proven bounds.

use crate::game_input::GameInput;
use crate::{print_json, Common};
use nimbus::api::repeated::{self, parse_discount, parse_tolerance, Answer};
use nimbus::api::Error;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus repeated --row \"9 1; 10 3\" --col \"9 10; 1 3\" --discount 0.9
      the prisoner's dilemma: every payoff above (3, 3) in the feasible set, up to 39/4
  nimbus repeated game.nfg --discount 3/10 --plot folk.svg
      the folk-theorem picture: feasible payoffs, minmax lines, the equilibrium payoffs

The set is that of the pure-action subgame-perfect equilibria with public randomisation and
perfect monitoring (what QuantEcon's RepeatedGame.equilibrium_payoffs computes). Every round
of the iteration is a polygon proven to contain it; when short fractions near it pass the
exact self-generation test, they are proven to lie inside it too, and the set is between the
two.";

/// The payoffs of subgame-perfect equilibria of a repeated two-player game (Abreu–Sannikov)
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The stage game: a .nfg file ("-" for standard input), or --row and --col.
    #[arg(value_name = "GAME", required_unless_present = "row")]
    file: Option<String>,
    #[command(flatten)]
    input: GameInput,
    /// The discount factor, strictly between 0 and 1 (0.9, 9/10).
    #[arg(long, value_name = "NUMBER", allow_hyphen_values = true)]
    discount: String,
    /// Stop when a round of the iteration moves the set by at most this much.
    #[arg(
        long,
        value_name = "NUMBER",
        default_value = "1e-10",
        allow_hyphen_values = true
    )]
    tolerance: String,
    /// Draw the folk-theorem picture in this SVG file.
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
    let req = repeated::Request {
        discount: parse_discount(&args.discount)
            .map_err(|e| Error::Invalid(crate::words::message(&e)))?,
        tolerance: parse_tolerance(&args.tolerance)
            .map_err(|e| Error::Invalid(crate::words::message(&e)))?,
        plot: args.plot.is_some(),
    };
    let (game, notes) = args.input.load(args.file.as_deref())?;
    let mut answer = repeated::solve(&game, &req, &args.common.limits())?;
    answer.notes.extend(notes);
    crate::write_plot(args.plot.as_ref(), answer.plot.as_ref(), &mut answer.notes)?;
    if args.common.json {
        print_json(out, &answer)?;
        return Ok(ExitCode::SUCCESS);
    }
    print(out, &answer);
    Ok(ExitCode::SUCCESS)
}

fn print(out: &mut String, a: &Answer) {
    let both = |v: &[String; 2]| format!("{} {}, {} {}", a.players[0], v[0], a.players[1], v[1]);
    outln!(
        out,
        "repeated game, discount {}: the payoffs of pure-action subgame-perfect equilibria",
        a.discount
    );
    if !a.exists {
        outln!(out, "none: no pure-action subgame-perfect equilibrium");
    } else {
        let shape = match a.vertices.len() {
            1 => "a single point".to_string(),
            2 => "a segment".to_string(),
            n => format!("the polygon with {n} vertices"),
        };
        outln!(
            out,
            "the set is {shape}{}:",
            if a.exact_vertices {
                " (proven to be equilibrium payoffs)"
            } else {
                " (of the outer bound)"
            }
        );
        for v in &a.vertices {
            outln!(out, "  ({}, {})", v[0], v[1]);
        }
        match (&a.distance, a.exact_vertices, a.inner_kind.as_deref()) {
            (Some(d), true, _) => outln!(
                out,
                "proven: these payoffs are equilibrium payoffs, and every equilibrium payoff lies \
                 within {d} of them"
            ),
            (Some(d), false, Some(kind)) if !kind.contains("stage game") => outln!(
                out,
                "proven: every equilibrium payoff lies in the outer bound, this polygon to the \
                 digits shown (exactly in --json), and a polygon within {d} of it holds only \
                 equilibrium payoffs (inner in --json)"
            ),
            _ => outln!(
                out,
                "proven: every equilibrium payoff lies in the outer bound, this polygon to the \
                 digits shown (exactly in --json){}",
                if a.inner.is_some() {
                    "; the stage game's pure equilibria's payoffs are equilibrium payoffs"
                } else {
                    ""
                }
            ),
        }
        outln!(out, "harshest punishments: {}", both(&a.threats));
    }
    outln!(
        out,
        "minmax payoffs: pure {}; mixed {}",
        both(&a.minmax_pure),
        both(&a.minmax_mixed)
    );
    outln!(out, "rounds: {}", a.rounds);
    for n in &a.notes {
        outln!(out, "note: {n}");
    }
}
