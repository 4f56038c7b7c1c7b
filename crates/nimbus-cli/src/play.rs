//! `nimbus play`: a game against the solver in the terminal.

use crate::ScriptArgs;
use nimbus::api::solve::{script_game, search_limits as limits, side_name};
use nimbus::sequential::games::{plies, Builtin};
use nimbus::sequential::{search, Method, Notation, Player, Value};
use nimbus::Error;
use std::hash::Hash;
use std::io::{BufRead, Write};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus play tictactoe                 you are X and move first
  nimbus play connect4 --first nimbus   the solver opens
  nimbus play connect4 --time-limit 1   the solver thinks at most a second a move
  nimbus play 'coin-grid:3:1,5;3,0'     steps U D L R
  nimbus play script:examples/tictactoe.rhai   a game written in Rhai

Type a move in the game's notation (a column 1-7, a cell 1-9, HEAP:LEFT, a step), or quit.";

/// The default time the solver thinks about a move.
const DEFAULT_SECONDS: f64 = 3.0;

/// Play against the solver in the terminal.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game, as for `nimbus solve`.
    #[arg(value_name = "GAME")]
    game: String,
    /// Who moves first: you or nimbus.
    #[arg(long, default_value = "you", value_parser = ["you", "nimbus"])]
    first: String,
    /// The solver searches this many plies, then uses the game's evaluation.
    #[arg(long, value_name = "PLIES", value_parser = crate::plies)]
    depth: Option<u32>,
    /// The solver thinks at most this many seconds a move (with --depth: no limit unless
    /// given).
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds)]
    time_limit: Option<f64>,
    #[command(flatten)]
    script: ScriptArgs,
}

pub fn run(args: Args, _out: &mut String) -> Result<ExitCode, Error> {
    if let Some(rest) = args.game.strip_prefix("script:") {
        let (g, _) = script_game(rest, &args.script.options())?;
        let r = play(&g, &args);
        // A failed script call looks like the end of the game: its error comes first.
        return match g.error() {
            Some(e) => Err(e),
            None => r,
        };
    }
    match Builtin::parse(&args.game)? {
        Builtin::TicTacToe(g) => play(&g, &args),
        Builtin::Connect4(g) => play(&g, &args),
        Builtin::Nim(g) => play(&g, &args),
        Builtin::CoinGrid(g) => play(&g, &args),
        Builtin::Carrot(_) => Err(Error::Invalid(
            "carrot is answered for every k at once by `nimbus solve`; it has no board to play on"
                .into(),
        )),
    }
}

fn say(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}");
    let _ = stdout.flush();
}

fn play<G>(g: &G, args: &Args) -> Result<ExitCode, Error>
where
    G: Notation,
    G::Position: Hash + Eq,
{
    // A move should come within seconds: without --depth or --time-limit the solver thinks
    // at most this long, and says whether it finished.
    let time_limit = match (args.time_limit, args.depth) {
        (None, None) => Some(DEFAULT_SECONDS),
        (t, _) => t,
    };
    // Checked once up front so that a bad limit is an error before the game starts.
    limits(args.depth, time_limit, 22)?;
    let solver = if args.first == "nimbus" {
        Player::First
    } else {
        Player::Second
    };
    let (you, it) = match solver {
        Player::First => ("second", "first"),
        Player::Second => ("first", "second"),
    };
    say(&format!(
        "you play {you}; nimbus plays {it}{}",
        match time_limit {
            Some(t) => format!(" and thinks at most {t} s a move (--time-limit)"),
            None => String::new(),
        }
    ));
    let mut p = g.start();
    // The first player's running total, for score games.
    let mut total: Value = 0;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        say(g.show_position(&p).trim_end());
        let mut moves = Vec::new();
        if g.outcome(&p).is_none() {
            g.moves(&p, &mut moves);
        }
        if moves.is_empty() {
            say(&game_over(g, &p, solver, total));
            return Ok(ExitCode::SUCCESS);
        }
        let mover = g.to_move(&p);
        let m = if let Some(m) = g.forced(&p) {
            say(&format!("{} plays {}", side_name(g, &p), g.show_move(m)));
            m
        } else if mover == solver {
            solver_move(g, &p, args.depth, time_limit)?
        } else {
            match read_move(g, &p, &mut lines)? {
                Some(m) => m,
                None => return Ok(ExitCode::SUCCESS),
            }
        };
        let r = g.reward(&p, m);
        total += if mover == Player::First { r } else { -r };
        p = g.play(&p, m);
    }
}

/// The verdict at the end of play.
fn game_over<G: Notation>(g: &G, p: &G::Position, solver: Player, total: Value) -> String {
    let v = g.outcome(p).unwrap_or(0);
    let mover = g.to_move(p);
    if g.has_rewards() {
        format!("game over: the first player's total is {total}")
    } else if v == 0 {
        "game over: a draw".into()
    } else {
        let winner = if v > 0 { mover } else { mover.other() };
        let who = if winner == solver {
            "nimbus wins"
        } else {
            "you win"
        };
        format!("game over: {who}")
    }
}

/// The solver's move, announced with how sure it is.
fn solver_move<G>(
    g: &G,
    p: &G::Position,
    depth: Option<u32>,
    time_limit: Option<f64>,
) -> Result<G::Move, Error>
where
    G: Notation,
    G::Position: Hash + Eq,
{
    say("nimbus is thinking…");
    let limits = limits(depth, time_limit, 22)?;
    let r = search(g, p, Method::Auto, &limits, u64::MAX)?;
    let Some(&m) = r.pv.first().or(r.best_moves.first()) else {
        return Err(Error::Invalid("the solver found no move".into()));
    };
    // An unfinished search's score is an estimate: never shown as a distance to a win.
    let verdict = if r.exact {
        format!("perfect play: {}", g.explain(p, r.value))
    } else {
        format!(
            "best found in {:.1} s ({} deep; not proved)",
            r.elapsed.as_secs_f64(),
            r.depth.map_or("?".to_string(), plies)
        )
    };
    say(&format!("nimbus plays {}: {verdict}", g.show_move(m)));
    Ok(m)
}

/// The user's move, asked for until it is legal; `None` when the user quits or the input
/// ends.
fn read_move<G: Notation>(
    g: &G,
    p: &G::Position,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<Option<G::Move>, Error> {
    loop {
        {
            // A closed output (`| head`) ends the game quietly, never a panic.
            let mut stdout = std::io::stdout().lock();
            let _ = write!(stdout, "your move ({}): ", side_name(g, p));
            let _ = stdout.flush();
        }
        let Some(line) = lines.next() else {
            say("");
            return Ok(None);
        };
        let line = line.map_err(|e| Error::Io {
            path: "standard input".into(),
            source: e,
        })?;
        let t = line.trim();
        if t == "quit" || t == "q" {
            return Ok(None);
        }
        match g.parse_move(p, t) {
            Ok(m) => return Ok(Some(m)),
            Err(e) => say(&format!("illegal move: {}", crate::words::message(&e))),
        }
    }
}
