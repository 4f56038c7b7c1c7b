//! `nimbus verify`: checks a mixed profile of a .nfg game exactly.

use crate::game_input::GameInput;
use crate::{print_json, Common};
use nimbus::api::verify;
use nimbus::api::verify::parse_profile;
use nimbus::api::{parse_number, show, Q};
use num_traits::Zero;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus verify game.nfg \"1/2,1/2,1/3,2/3\"
      each player's payoff and best pure deviation; exit status 0 when the profile is a Nash
      equilibrium, 1 when some player gains by deviating
  nimbus verify game.nfg \"NE,1,0,0,1\"        Gambit's output lines are accepted as they are
  nimbus verify --row \"2 0; 0 1\" --col \"1 0; 0 2\" \"2/3,1/3,1/3,2/3\"
  nimbus verify game.nfg \"0.667,0.333,0.333,0.667\" --tolerance 0.001
      rounded decimals: accepted when no player gains more than the tolerance

The probabilities are given player by player, in the order of the file's strategies.";

/// Check whether a mixed profile is a Nash equilibrium, exactly.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game (a .nfg file, "-" for standard input; omitted with --row), then the profile:
    /// every player's probabilities in turn, separated by commas.
    #[arg(value_name = "[GAME] PROFILE", num_args = 1..=2, required = true)]
    words: Vec<String>,
    #[command(flatten)]
    input: GameInput,
    /// Accept a profile whose probabilities sum to within EPS of 1 and from which no player
    /// gains more than EPS (for rounded decimals); exact (0) by default.
    #[arg(long, value_name = "EPS")]
    tolerance: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    let (file, profile_text) = match (args.words.as_slice(), &args.input.row) {
        ([profile], Some(_)) => (None, profile),
        ([game, profile], None) => (Some(game.as_str()), profile),
        ([_], None) => {
            return Err(nimbus::api::Error::Invalid(
                "give the game (a .nfg file, or --row and --col) and the profile".into(),
            ))
        }
        _ => {
            return Err(nimbus::api::Error::Invalid(
                "with --row, give only the profile (the game is the matrices)".into(),
            ))
        }
    };
    let (game, _) = args.input.load(file)?;
    let tolerance = match &args.tolerance {
        Some(t) => parse_number(t)
            .map_err(|why| nimbus::api::Error::Invalid(format!("--tolerance: {why}")))?,
        None => Q::zero(),
    };
    let profile = parse_profile(&game, profile_text, "the profile")?;
    // Decimals are often rounded fractions: the answer says so when they just miss.
    let decimal = profile_text.contains('.');
    let v = verify::check(&game, &profile, &tolerance, decimal)?;
    if args.common.json {
        print_json(out, &v)?;
    } else {
        print_text(out, &v);
    }
    Ok(if v.equilibrium {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_text(out: &mut String, v: &verify::Answer) {
    for p in &v.players {
        outln!(
            out,
            "{}: payoff {}; best pure deviation '{}' pays {}{}",
            p.player,
            show(&p.payoff),
            p.best_deviation_name,
            show(&p.best_deviation_payoff),
            if p.gains {
                " — gains by deviating"
            } else {
                ""
            }
        );
    }
    let verdict = match (v.equilibrium, v.tolerance.is_zero()) {
        (true, true) => "a Nash equilibrium: no player gains by deviating".to_string(),
        (true, false) => format!(
            "an equilibrium within the tolerance: no player gains more than {} (at most {})",
            show(&v.tolerance),
            show(&v.max_gain)
        ),
        (false, _) => "not a Nash equilibrium".to_string(),
    };
    outln!(out, "{verdict}");
    for n in &v.notes {
        outln!(out, "note: {n}");
    }
}
