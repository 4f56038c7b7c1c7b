//! `nimbus solve`: minimax values, best moves and principal variations of sequential games;
//! strong solutions (`--all`) saved to and queried from a file.

use crate::{print_json, read_input, Common, ScriptArgs};
use nimbus::script::sequential::ScriptGame;
use nimbus::script::Script;
use nimbus::sequential::explicit::Explicit;
use nimbus::sequential::games::carrot;
use nimbus::sequential::games::connect4::Connect4;
use nimbus::sequential::games::{plies, Builtin};
use nimbus::sequential::memo;
use nimbus::sequential::solve::{self as strong, Progress, Solved, Strong};
use nimbus::sequential::{alphabeta, search, Game, Indexed, Limits, Method, Notation, Player};
use nimbus::Error;
use std::hash::Hash;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

const EXAMPLES: &str = "\
Examples:
  nimbus solve tictactoe                      a draw; every first move keeps it
  nimbus solve connect4 4453                  Pons' score of the position after 4 4 5 3
  nimbus solve connect4 - < Test_L2_R1        one line per position: moves, score, nodes, µs
  nimbus solve connect4:5x4 --all --save c4.db   strong solution, saved
  nimbus solve connect4:5x4 44 --db c4.db     query the saved solution
  nimbus solve connect4 --time-limit 2        the best answer found in 2 seconds
  nimbus solve nim:3,4,5                      Nim as a sequential game
  nimbus solve 'coin-grid:2:1,5,2;3,0,4;2,2,9'  the seeds' coin grid (ROUNDS:ROW;ROW;...)
  nimbus solve carrot:1,2,3,5                 Choosing Carrot: the answer for every k
  nimbus solve script:examples/tictactoe.rhai --all   a game written in Rhai, strongly solved

Games: tictactoe (cells 1-9), connect4[:WxH] (columns from 1), nim:H,H,... (moves HEAP:LEFT),
coin-grid:ROUNDS:ROW;ROW;... (steps U D L R), carrot:A,A,... or carrot:@FILE, and
\"script:FILE ARG...\", a game written in Rhai (fn start, to_move, moves, play, result; see
examples/tictactoe.rhai); its moves are typed as the script writes them.
Values are for the side to move: +1/0/-1 for tic-tac-toe and Nim, Pons' score for Connect
Four (22 - the winner's stones on 7x6), Alice's total for the coin grid.";

/// Solve a two-player zero-sum game of perfect information.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game, with its parameters (see below).
    #[arg(value_name = "GAME")]
    game: String,
    /// The moves played from the start, in the game's notation; "-" reads one position per
    /// line from standard input (Connect Four).
    #[arg(value_name = "POSITION", allow_hyphen_values = true)]
    position: Option<String>,
    /// Search this many plies, then use the game's evaluation.
    #[arg(long, value_name = "PLIES")]
    depth: Option<u32>,
    /// Stop after this many seconds with the best answer found so far (marked as such).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// The search.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
    /// Strongly solve the game: every position reachable from the start.
    #[arg(long)]
    all: bool,
    /// With --all: save the solution to this file.
    #[arg(long, value_name = "FILE", requires = "all")]
    save: Option<String>,
    /// Answer from a solution saved by --all --save.
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    db: Option<String>,
    /// Entries of the transposition table, as a power of two, 16 bytes each (default 20; 14
    /// when positions come from standard input: many small searches run fastest in a table
    /// that stays in the processor's cache).
    #[arg(long, value_name = "BITS")]
    table_bits: Option<u32>,
    #[command(flatten)]
    script: ScriptArgs,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub(crate) fn limits(
    depth: Option<u32>,
    time_limit: Option<f64>,
    table_bits: u32,
) -> Result<Limits, Error> {
    let deadline = match time_limit {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => {
            Some(Instant::now() + Duration::from_secs_f64(t))
        }
        Some(t) => {
            return Err(Error::Invalid(format!(
                "--time-limit {t}: give a positive number of seconds"
            )))
        }
    };
    if depth == Some(0) {
        return Err(Error::Invalid("--depth 0: search at least one ply".into()));
    }
    if !(10..=32).contains(&table_bits) {
        return Err(Error::Invalid(format!(
            "--table-bits {table_bits}: use 10 to 32"
        )));
    }
    Ok(Limits {
        depth,
        deadline,
        table_bits,
    })
}

/// The search methods of `solve`, as the command line names them.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum MethodArg {
    /// The game's own best method.
    Auto,
    /// Plain minimax (the reference).
    Minimax,
    /// Memoised minimax (score games).
    Memo,
    /// Alpha-beta with a transposition table.
    Alphabeta,
    /// Null-window search (MTD(f)-style bisection).
    Mtdf,
    /// Iterative deepening.
    Deepening,
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Auto => Method::Auto,
            MethodArg::Minimax => Method::Minimax,
            MethodArg::Memo => Method::Memo,
            MethodArg::Alphabeta => Method::AlphaBeta,
            MethodArg::Mtdf => Method::NullWindow,
            MethodArg::Deepening => Method::Deepening,
        }
    }
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, Error> {
    if let Some(rest) = args.game.strip_prefix("script:") {
        return run_script(rest, &args, out);
    }
    let game = Builtin::parse(&args.game)?;
    let name = game.name();
    match &game {
        Builtin::TicTacToe(g) => run_indexed(g, &name, &args, out),
        Builtin::Connect4(g) if args.position.as_deref() == Some("-") => stream(g, &args, out),
        Builtin::Connect4(g) => run_indexed(g, &name, &args, out),
        Builtin::Nim(g) => run_indexed(g, &name, &args, out),
        Builtin::CoinGrid(g) => {
            if args.all || args.db.is_some() {
                return Err(Error::Invalid(
                    "the coin grid is a score game: the strong solver gives results (win, loss, \
                     draw); solve positions one at a time"
                        .into(),
                ));
            }
            run_search(g, &name, &args, out)
        }
        Builtin::Carrot(a) => run_carrot(a, &args, out),
    }
}

fn no_stream(args: &Args) -> Result<(), Error> {
    if args.position.as_deref() == Some("-") {
        return Err(Error::Invalid(format!(
            "`{}`: positions from standard input are read for Connect Four only",
            args.game
        )));
    }
    Ok(())
}

fn run_indexed<G>(g: &G, name: &str, args: &Args, out: &mut String) -> Result<ExitCode, Error>
where
    G: Indexed + Notation + Sync,
    G::Position: Hash + Eq,
{
    no_stream(args)?;
    if args.all {
        return run_all(g, name, args, out, Instant::now());
    }
    if let Some(db) = &args.db {
        let p = g.parse_position(args.position.as_deref().unwrap_or(""))?;
        let solution = load(g, name, db)?;
        let found = solution
            .get(g, &p)
            .ok_or_else(|| Error::Invalid("the position is not reachable from the start".into()))?;
        print_query(out, args, name, g.to_move(&p), &g.show_position(&p), found)?;
        return Ok(ExitCode::SUCCESS);
    }
    run_search(g, name, args, out)
}

fn load<G: Indexed>(g: &G, name: &str, db: &str) -> Result<Strong, Error> {
    let mut file = std::io::BufReader::new(std::fs::File::open(db).map_err(|e| Error::Io {
        path: db.into(),
        source: e,
    })?);
    Strong::load(g, name, &mut file, db)
}

fn print_query(
    out: &mut String,
    args: &Args,
    name: &str,
    to_move: Player,
    shown: &str,
    found: Solved,
) -> Result<(), Error> {
    #[derive(serde::Serialize)]
    struct Query {
        game: String,
        to_move: Player,
        #[serde(flatten)]
        solved: Solved,
    }
    if args.common.json {
        print_json(
            out,
            &Query {
                game: name.into(),
                to_move,
                solved: found,
            },
        )
    } else {
        outln!(out, "{}", shown.trim_end());
        outln!(out, "{}", describe_solved(found));
        Ok(())
    }
}

/// The two-player game of "PATH ARG..." (what follows `script:`), and its name.
pub(crate) fn script_game(rest: &str, limits: &ScriptArgs) -> Result<(ScriptGame, String), Error> {
    let mut words = rest.split_whitespace();
    let path = words.next().ok_or_else(|| {
        Error::Invalid(
            "script: needs the script's path, as in script:examples/tictactoe.rhai".into(),
        )
    })?;
    let extra: Vec<String> = words.map(String::from).collect();
    let script = Rc::new(Script::load(path, limits.options())?);
    Ok((ScriptGame::new(script, &extra)?, format!("script:{path}")))
}

/// A game written in Rhai: searched like the built-in games; `--all` explores it into an
/// explicit graph first, since a script has no ranking of its own.
fn run_script(rest: &str, args: &Args, out: &mut String) -> Result<ExitCode, Error> {
    no_stream(args)?;
    let (g, name) = script_game(rest, &args.script)?;
    // A failed script call looks like the end of the game to the engines: its error comes
    // first, whatever they answered.
    let checked = |r: Result<ExitCode, Error>| match g.error() {
        Some(e) => Err(e),
        None => r,
    };
    if args.all || args.db.is_some() {
        if args.all && args.position.is_some() {
            return Err(Error::Invalid(
                "--all solves from the start: drop the position (query it with --db)".into(),
            ));
        }
        let started = Instant::now();
        let built = Explicit::build(&g, &g.start(), args.common.max_states);
        let (graph, positions) = match (g.error(), built) {
            (Some(e), _) => return Err(e),
            (None, r) => r?,
        };
        if args.all {
            return run_all(&graph, &name, args, out, started);
        }
        let db = args.db.as_deref().unwrap_or_default();
        let p = g.parse_position(args.position.as_deref().unwrap_or(""))?;
        let solution = load(&graph, &name, db)?;
        let found = positions
            .iter()
            .position(|q| *q == p)
            .and_then(|i| solution.get(&graph, &(i as u32)))
            .ok_or_else(|| Error::Invalid("the position is not reachable from the start".into()))?;
        print_query(out, args, &name, g.to_move(&p), &g.show_position(&p), found)?;
        return checked(Ok(ExitCode::SUCCESS));
    }
    if !matches!(Method::from(args.method), Method::Auto | Method::Memo) && args.depth.is_none() {
        // Alpha–beta and plain minimax assume that the game ends; memoised minimax checks it.
        let explored = memo::explore(&g, &g.start(), args.common.max_states);
        checked(explored.map(|_| ExitCode::SUCCESS))?;
    }
    checked(run_search(&g, &name, args, out))
}

fn describe_solved(s: Solved) -> String {
    match s {
        Solved::Win(r) => format!("win for the side to move in {}", plies(r)),
        Solved::Loss(r) => format!("loss for the side to move in {}", plies(r)),
        Solved::Draw => "draw".into(),
    }
}

/// The strong solution of `g`; `started` is when the work began (a script's exploration
/// into a graph counts).
fn run_all<G>(
    g: &G,
    name: &str,
    args: &Args,
    out: &mut String,
    started: Instant,
) -> Result<ExitCode, Error>
where
    G: Indexed + Sync,
{
    if args.position.is_some() {
        return Err(Error::Invalid(
            "--all solves from the start: drop the position (query it with --db)".into(),
        ));
    }
    // The command's progress line shows the phases.
    let report = |p: Progress| match p {
        Progress::Reached(n) => {
            nimbus::progress::phase(&format!("exploring: {n} positions reached"), 0)
        }
        Progress::Round { round, open, total } => nimbus::progress::phase(
            &format!("round {round}: {open} of {total} positions still open"),
            0,
        ),
    };
    let solution = strong::solve(
        g,
        name,
        args.common.max_states,
        args.common.max_memory(),
        &report,
    )?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &args.save {
        let io = |e| Error::Io {
            path: path.clone(),
            source: e,
        };
        let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(io)?);
        solution.save(&mut w).map_err(io)?;
        std::io::Write::flush(&mut w).map_err(io)?;
    }
    let s = solution.summary();
    #[derive(serde::Serialize)]
    struct Report {
        game: String,
        positions: u64,
        wins: u64,
        losses: u64,
        draws: u64,
        longest_remoteness: u32,
        start: Solved,
        ranks: u64,
        bytes: u64,
        seconds: f64,
        saved: Option<String>,
    }
    let report = Report {
        game: name.into(),
        positions: s.positions,
        wins: s.wins,
        losses: s.losses,
        draws: s.draws,
        longest_remoteness: s.longest,
        start: s.start,
        ranks: g.size(),
        bytes: solution.bytes(),
        seconds,
        saved: args.save.clone(),
    };
    if args.common.json {
        print_json(out, &report)?;
    } else {
        outln!(out, "game: {name}");
        outln!(out, "positions reachable: {}", s.positions);
        outln!(out, "wins for the side to move: {}", s.wins);
        outln!(out, "losses for the side to move: {}", s.losses);
        outln!(out, "draws: {}", s.draws);
        outln!(out, "longest remoteness: {}", plies(s.longest));
        outln!(out, "start: {}", describe_solved(s.start));
        outln!(
            out,
            "stored: {} bytes for {} ranks; {:.2} s ({:.0} positions/s)",
            solution.bytes(),
            g.size(),
            seconds,
            s.positions as f64 / seconds.max(1e-9)
        );
        if let Some(path) = &args.save {
            outln!(out, "saved to {path}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_search<G>(g: &G, name: &str, args: &Args, out: &mut String) -> Result<ExitCode, Error>
where
    G: Notation,
    G::Position: Hash + Eq,
{
    no_stream(args)?;
    let limits = limits(args.depth, args.time_limit, args.table_bits.unwrap_or(20))?;
    let p = g.parse_position(args.position.as_deref().unwrap_or(""))?;
    let r = search(g, &p, args.method.into(), &limits, args.common.max_states)?;
    let show = |ms: &[G::Move]| ms.iter().map(|&m| g.show_move(m)).collect::<Vec<_>>();
    #[derive(serde::Serialize)]
    struct Report {
        game: String,
        position: String,
        to_move: Player,
        value: i64,
        meaning: String,
        best_moves: Vec<String>,
        pv: Vec<String>,
        nodes: u64,
        microseconds: u128,
        depth: Option<u32>,
        exact: bool,
        game_over: bool,
    }
    let report = Report {
        game: name.into(),
        position: args.position.clone().unwrap_or_default(),
        to_move: g.to_move(&p),
        value: r.value,
        // An unfinished search's value is an estimate, never a distance to a win.
        meaning: if r.exact {
            g.explain(&p, r.value)
        } else {
            "an estimate, not a proved result".to_string()
        },
        best_moves: show(&r.best_moves),
        pv: show(&r.pv),
        nodes: r.nodes,
        microseconds: r.elapsed.as_micros(),
        depth: r.depth,
        exact: r.exact,
        game_over: g.outcome(&p).is_some(),
    };
    if args.common.json {
        print_json(out, &report)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(out, "{}", g.show_position(&p).trim_end());
    if report.game_over {
        let side = side_name(g, &p);
        let result = match r.value.signum() {
            1 => format!("the side to move ({side}) has won"),
            -1 => format!("the side to move ({side}) has lost"),
            _ => "a draw".to_string(),
        };
        outln!(out, "game over: {result} (value {})", r.value);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(out, "to move: {}", side_name(g, &p));
    outln!(out, "value: {} — {}", r.value, report.meaning);
    let interrupted = nimbus::progress::interrupted();
    if !r.exact {
        match r.depth {
            Some(d) if interrupted => {
                outln!(
                    out,
                    "(interrupted: best answer so far, searched {} deep)",
                    plies(d)
                )
            }
            Some(d) if limits.deadline.is_some() && limits.depth.is_none_or(|l| d < l) => {
                outln!(out, "(the time limit stopped the search: best answer so far, searched {d} plies deep)")
            }
            Some(d) => outln!(out, "(searched {d} plies deep, then the evaluation)"),
            None => outln!(out, "(not exact)"),
        }
    }
    outln!(out, "best moves: {}", report.best_moves.join(" "));
    outln!(out, "principal variation: {}", report.pv.join(" "));
    outln!(out, "nodes: {}", r.nodes);
    outln!(out, "time: {:.3} ms", r.elapsed.as_secs_f64() * 1e3);
    Ok(if interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// Positions from standard input, one per line: the moves, the score, nodes, microseconds.
fn stream(g: &Connect4, args: &Args, out: &mut String) -> Result<ExitCode, Error> {
    if args.depth.is_some() {
        return Err(Error::Invalid(
            "--depth: positions read from standard input are solved exactly; bound each one's \
             time with --time-limit instead"
                .into(),
        ));
    }
    // Checked here so that a bad value is refused before any input is read.
    limits(None, args.time_limit, 20)?;
    let text = read_input("-")?;
    let limits = limits(None, None, args.table_bits.unwrap_or(14))?;
    let mut s = alphabeta::Searcher::new(g, &limits);
    s.prefault();
    let mut failed = false;
    for (n, line) in text.lines().enumerate() {
        let Some(moves) = line.split_whitespace().next() else {
            continue;
        };
        let p = match g.parse_position(moves) {
            Ok(p) => p,
            Err(e) => {
                // The position's own span says "line 1"; the line that matters is this one.
                let e = match e {
                    Error::Parse {
                        span,
                        message,
                        hint,
                    } => Error::Parse {
                        span: nimbus::Span {
                            source: "standard input".into(),
                            line: n + 1,
                            ..span
                        },
                        message,
                        hint,
                    },
                    other => other,
                };
                eprintln!("error: {e}");
                failed = true;
                continue;
            }
        };
        s.reset();
        let started = Instant::now();
        s.set_deadline(
            args.time_limit
                .map(|t| started + Duration::from_secs_f64(t)),
        );
        let score = g.score(&mut s, &p);
        let micros = started.elapsed().as_secs_f64() * 1e6;
        if score.is_none() {
            eprintln!(
                "error: line {}: no exact score within --time-limit {}",
                n + 1,
                args.time_limit.unwrap_or_default()
            );
            failed = true;
        }
        if args.common.json {
            #[derive(serde::Serialize)]
            struct Line<'a> {
                moves: &'a str,
                score: Option<i64>,
                nodes: u64,
                microseconds: f64,
            }
            print_json(
                out,
                &Line {
                    moves,
                    score,
                    nodes: s.nodes,
                    microseconds: micros,
                },
            )?;
        } else {
            let score = score.map_or("?".to_string(), |v| v.to_string());
            outln!(out, "{moves} {score} {} {micros:.1}", s.nodes);
        }
    }
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_carrot(a: &[i64], args: &Args, out: &mut String) -> Result<ExitCode, Error> {
    if args.position.is_some() || args.all || args.db.is_some() {
        return Err(Error::Invalid(
            "carrot takes only its sequence: it answers for every k at once".into(),
        ));
    }
    let started = Instant::now();
    let answers = carrot::answers(a);
    let elapsed = started.elapsed();
    if args.common.json {
        #[derive(serde::Serialize)]
        struct Report<'a> {
            n: usize,
            answers: &'a [i64],
            microseconds: u128,
        }
        print_json(
            out,
            &Report {
                n: a.len(),
                answers: &answers,
                microseconds: elapsed.as_micros(),
            },
        )?;
    } else {
        outln!(out, "the number left for k = 0, 1, ..., {}:", a.len() - 1);
        let line: Vec<String> = answers.iter().map(i64::to_string).collect();
        outln!(out, "{}", line.join(" "));
        outln!(out, "time: {:.3} ms (O(n))", elapsed.as_secs_f64() * 1e3);
    }
    Ok(ExitCode::SUCCESS)
}

/// Whose turn it is in words, for `play`.
pub(crate) fn side_name<G: Game>(g: &G, p: &G::Position) -> &'static str {
    match g.to_move(p) {
        Player::First => "first player",
        Player::Second => "second player",
    }
}
