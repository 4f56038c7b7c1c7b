//! `nimbus play`: a game against the solver in the terminal.

use crate::words::plies;
use crate::ScriptArgs;
use nimbus::api::play::Player;
use nimbus::api::play::{self, Request};
use nimbus::api::Error;
use std::io::{BufRead, Write};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus play tictactoe                 you are X and move first
  nimbus play connect4 --first nimbus   the solver opens
  nimbus play connect4 --time-limit 1   the solver thinks at most a second a move
  nimbus play connect4 --db c4.book     the opening moves from a book, at once
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
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// Connect Four: an opening book (`nimbus solve connect4 --book DEPTH --save FILE`): the
    /// positions it holds are answered at once, the others searched.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    #[command(flatten)]
    script: ScriptArgs,
}

pub fn run(args: Args, _out: &mut String) -> Result<ExitCode, Error> {
    // A move should come within seconds: without --depth or --time-limit the solver thinks
    // at most this long, and says whether it finished.
    let time_limit = match (args.time_limit, args.depth) {
        (None, None) => Some(DEFAULT_SECONDS),
        (t, _) => t,
    };
    let mut req = Request {
        position: String::new(),
        depth: args.depth,
        time_limit,
        script: args.script.options(),
        db: args.db.clone(),
    };
    // The start is read before anything is said, so that a game that cannot be played (or a
    // script that fails) is an error before the game starts.
    let mut view = play::view(&args.game, &req)?;
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
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        say(view.board.trim_end());
        if let Some(end) = &view.over {
            say(&game_over(end, solver));
            return Ok(ExitCode::SUCCESS);
        }
        let m = if let Some(m) = &view.forced {
            say(&format!("{} plays {m}", view.side));
            m.clone()
        } else if view.to_move == solver {
            say("nimbus is thinking…");
            let r = play::reply(&args.game, &req)?;
            // An unfinished search's score is an estimate: never shown as a distance to a win.
            let verdict = match &r.meaning {
                Some(meaning) if r.book => format!("perfect play, from the book: {meaning}"),
                Some(meaning) if r.exact && args.db.is_some() => {
                    format!("perfect play, searched beyond the book: {meaning}")
                }
                Some(meaning) if r.exact => format!("perfect play: {meaning}"),
                _ => format!(
                    "best found in {:.1} s ({} deep; not proved)",
                    r.seconds,
                    r.depth.map_or("?".to_string(), plies)
                ),
            };
            say(&format!("nimbus plays {}: {verdict}", r.mv));
            r.mv
        } else {
            match read_move(&args.game, &req, &view, &mut lines)? {
                Some((m, next)) => {
                    req.position = after(&req.position, &m);
                    view = next;
                    continue;
                }
                None => return Ok(ExitCode::SUCCESS),
            }
        };
        req.position = after(&req.position, &m);
        view = play::view(&args.game, &req)?;
    }
}

fn say(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}");
    let _ = stdout.flush();
}

/// The moves `position` then `m`.
fn after(position: &str, m: &str) -> String {
    format!("{position} {m}").trim().to_string()
}

/// The verdict at the end of play.
fn game_over(end: &play::End, solver: Player) -> String {
    match (end.first_total, end.winner) {
        (Some(total), _) => format!("game over: the first player's total is {total}"),
        (None, None) => "game over: a draw".into(),
        (None, Some(w)) if w == solver => "game over: nimbus wins".into(),
        (None, Some(_)) => "game over: you win".into(),
    }
}

/// The user's move, asked for until it is legal, with the position it reaches; `None` when
/// the user quits or the input ends.
fn read_move(
    game: &str,
    req: &Request,
    view: &play::View,
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
) -> Result<Option<(String, play::View)>, Error> {
    loop {
        {
            // A closed output (`| head`) ends the game quietly, never a panic.
            let mut stdout = std::io::stdout().lock();
            let _ = write!(stdout, "your move ({}): ", view.side);
            let _ = stdout.flush();
        }
        crate::AT_PROMPT.store(true, std::sync::atomic::Ordering::SeqCst);
        let next = lines.next();
        crate::AT_PROMPT.store(false, std::sync::atomic::Ordering::SeqCst);
        let Some(line) = next else {
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
        if t.is_empty() || t.split_whitespace().count() > 1 {
            say("illegal move: type one move");
            continue;
        }
        let tried = Request {
            position: after(&req.position, t),
            ..req.clone()
        };
        match play::view(game, &tried) {
            Ok(next) => return Ok(Some((t.to_string(), next))),
            // A script's own failure ends the game; anything else is the move's fault.
            Err(e) if e.kind() == "script" => return Err(e),
            Err(e) => say(&format!("illegal move: {}", crate::words::message(&e))),
        }
    }
}
