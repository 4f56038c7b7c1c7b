//! `nimbus verify`: checks a mixed profile of a .nfg game exactly.

use crate::{print_json, read_input, Common};
use nimbus::strategic::game::{parse_profile, verify};
use nimbus::strategic::{nfg, show};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus verify game.nfg \"1/2,1/2,1/3,2/3\"
      each player's payoff and best pure deviation; exit status 0 when the profile is a Nash
      equilibrium, 1 when some player gains by deviating
  nimbus verify game.nfg \"NE,1,0,0,1\"        Gambit's output lines are accepted as they are

The probabilities are given player by player, in the order of the file's strategies.";

/// Check whether a mixed profile is a Nash equilibrium, exactly.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game, a .nfg file ("-" for standard input).
    #[arg(value_name = "GAME")]
    game: String,
    /// The profile: every player's probabilities in turn, separated by commas.
    #[arg(value_name = "PROFILE", allow_hyphen_values = true)]
    profile: String,
    #[command(flatten)]
    pub(crate) common: Common,
}

#[derive(serde::Serialize)]
struct PlayerReport {
    player: String,
    payoff: String,
    best_deviation: String,
    best_deviation_payoff: String,
    gains: bool,
}

#[derive(serde::Serialize)]
struct Report {
    equilibrium: bool,
    players: Vec<PlayerReport>,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::Error> {
    let game = nfg::parse(&read_input(&args.game)?, &args.game)?;
    let profile = parse_profile(&game, &args.profile, "the profile")?;
    let v = verify(&game, &profile)?;
    let players: Vec<PlayerReport> = (0..game.players.len())
        .map(|i| PlayerReport {
            player: game.players[i].clone(),
            payoff: show(&v.payoffs[i]),
            best_deviation: game.strategies[i][v.best_replies[i].0].clone(),
            best_deviation_payoff: show(&v.best_replies[i].1),
            gains: v.best_replies[i].1 > v.payoffs[i],
        })
        .collect();
    if args.common.json {
        print_json(
            out,
            &Report {
                equilibrium: v.is_equilibrium,
                players,
            },
        )?;
    } else {
        for p in &players {
            outln!(
                out,
                "{}: payoff {}; best pure deviation '{}' pays {}{}",
                p.player,
                p.payoff,
                p.best_deviation,
                p.best_deviation_payoff,
                if p.gains {
                    " — gains by deviating"
                } else {
                    ""
                }
            );
        }
        outln!(
            out,
            "{}",
            if v.is_equilibrium {
                "a Nash equilibrium: no player gains by deviating"
            } else {
                "not a Nash equilibrium"
            }
        );
    }
    Ok(if v.is_equilibrium {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
