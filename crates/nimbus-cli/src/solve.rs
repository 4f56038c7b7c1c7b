//! `nimbus solve`: minimax values, best moves and principal variations of sequential games;
//! strong solutions (`--all`) saved to and queried from a file, or written tier by tier into a
//! directory.

use crate::words::plies;
use crate::{print_json, read_input, Common, ScriptArgs};
use nimbus::api::solve::{self as api, Answer, Request};
use nimbus::api::solve::{Method, Player, Solved, TierValue};
use nimbus::api::Error;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus solve tictactoe                      a draw; every first move keeps it
  nimbus solve connect4 4453                  Pons' score of the position after 4 4 5 3
  nimbus solve connect4 - < Test_L2_R1        one line per position: moves, score, nodes, µs
  nimbus solve connect4:5x4 --all --save c4.db   strong solution, saved
  nimbus solve connect4:5x4 44 --db c4.db     query the saved solution
  nimbus solve connect4:6x4 --all --db c64    a tier database: 2 bits a position, a file a
                                              tier; a stopped run resumes where it was
  nimbus solve connect4:6x4 4455 --db c64     query it (reads one or two tier files)
  nimbus solve connect4:6x5 --book 6 --save b.book   an opening book: every position of up
                                              to 6 stones with its exact score
  nimbus solve connect4:6x5 33 --db b.book    answered from the book, without a search
  nimbus solve connect4 --time-limit 2        the best answer found in 2 seconds
  nimbus solve nim:3,4,5                      Nim as a sequential game
  nimbus solve 'coin-grid:2:1,5,2;3,0,4;2,2,9'  the coin-grid game (ROUNDS:ROW;ROW;...)
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
    #[arg(long, value_name = "PLIES", value_parser = crate::plies)]
    depth: Option<u32>,
    /// Stop after this many seconds with the best answer found so far (marked as such).
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    /// The search.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
    /// Strongly solve the game: every position reachable from the start.
    #[arg(long)]
    all: bool,
    /// With --all: save the solution to this file (with --book: the book).
    #[arg(long, value_name = "FILE")]
    save: Option<String>,
    /// Answer from a solution saved by --all --save (a file), or from a tier database (a
    /// directory). With --all (Connect Four): write the tier database into this directory,
    /// two bits a position and a file a tier, resuming from the tiers already there.
    #[arg(long, value_name = "FILE|DIR")]
    db: Option<String>,
    /// Entries of the transposition table, as a power of two, 16 bytes each, fixed (default
    /// 20). Positions from standard input start without it at 2^14 each (easy positions run
    /// fastest in a table that stays in the processor's cache), and the table grows by itself
    /// when a position turns out hard, up to 2^24 entries or --max-memory.
    #[arg(long, value_name = "BITS", value_parser = clap::value_parser!(u32).range(10..=32))]
    table_bits: Option<u32>,
    /// Search on this many threads (default 1): one position's null-window search with the
    /// threads sharing its table (built-in games with a table, such as Connect Four); or,
    /// positions from standard input, this many at once, each thread with a table of its own
    /// (--max-memory is shared among them), threads with nothing left helping the searches
    /// still running. The answers do not depend on it.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    threads: Option<u32>,
    /// With --all --db DIR: keep each position's remoteness too (a byte a position, in
    /// tier-K.rem), so that queries say how many plies the result takes.
    #[arg(long, requires = "all")]
    remoteness: bool,
    /// With --all --db DIR: solve with every process of the MPI job this one belongs to
    /// (start it with `mpirun -np N nimbus solve ... --mpi`; DIR on a file system all of
    /// them see). Needs a nimbus built with `--features mpi`.
    #[arg(long, requires = "db", requires = "all")]
    mpi: bool,
    /// Also the value of every legal move of the position (in --json: `scores`).
    #[arg(long)]
    scores: bool,
    /// Connect Four: write an opening book to --save FILE: every position of up to DEPTH
    /// stones with its exact score (only those of DEPTH stones are searched). --db FILE then
    /// answers the positions it holds without a search, as `nimbus play --db FILE` does.
    #[arg(long, value_name = "DEPTH", requires = "save",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    book: Option<u32>,
    #[command(flatten)]
    script: ScriptArgs,
    #[command(flatten)]
    pub(crate) common: Common,
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

impl Args {
    fn request(&self) -> Request {
        Request {
            position: self.position.clone(),
            method: Some(self.method.into()),
            depth: self.depth,
            time_limit: self.time_limit,
            all: self.all,
            save: self.save.clone(),
            db: self.db.clone(),
            table_bits: self.table_bits,
            scores: self.scores,
            book: self.book,
            host_book: None,
            reply: false,
            remoteness: self.remoteness,
            mpi: self.mpi,
            threads: self.threads,
            limits: self.common.limits(),
            script: self.script.options(),
        }
    }
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, Error> {
    if args.position.as_deref() == Some("-") {
        return stream(&args, out);
    }
    let answer = api::solve(&args.game, &args.request())?;
    let interrupted = matches!(&answer, Answer::Search(s) if s.interrupted);
    if let Answer::Worker { .. } = answer {
        // A worker of a distributed solve: rank 0 prints the answer.
        return Ok(ExitCode::SUCCESS);
    }
    if args.common.json {
        print_json(out, &answer)?;
    } else {
        match &answer {
            Answer::Search(s) => print_search(out, s),
            Answer::Solution(s) => print_solution(out, s),
            Answer::Query(q) => {
                outln!(out, "{}", q.board.trim_end());
                outln!(out, "{}", describe_solved(q.solved));
            }
            Answer::Tiers(t) => print_tiers(out, t),
            Answer::Book(b) => {
                outln!(out, "game: {}", b.game);
                outln!(
                    out,
                    "opening book: {} positions of up to {} stones (reflections stored once)",
                    b.positions,
                    b.depth
                );
                outln!(
                    out,
                    "searched: the {} positions of {} stones, {} nodes; {:.2} s",
                    b.searched,
                    b.depth,
                    b.nodes,
                    b.seconds
                );
                outln!(out, "saved to {} ({} bytes)", b.saved, b.bytes);
            }
            Answer::Worker { .. } => {}
            Answer::TierQuery(q) => {
                outln!(out, "{}", q.board.trim_end());
                match q.remoteness {
                    Some(r) if q.result != TierValue::Draw => {
                        outln!(out, "{} in {}", word(q.result), plies(r))
                    }
                    _ => outln!(out, "{}", word(q.result)),
                }
                let moves: Vec<String> = q
                    .moves
                    .iter()
                    .map(|m| format!("{}: {}", m.mv, word(m.result)))
                    .collect();
                outln!(out, "moves: {}", moves.join(", "));
            }
            Answer::Carrot(c) => {
                outln!(out, "the number left for k = 0, 1, ..., {}:", c.n - 1);
                let line: Vec<String> = c.answers.iter().map(i64::to_string).collect();
                outln!(out, "{}", line.join(" "));
                outln!(out, "time: {:.3} ms (O(n))", c.microseconds as f64 / 1e3);
            }
        }
    }
    Ok(if interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

fn describe_solved(s: Solved) -> String {
    match s {
        Solved::Win(r) => format!("win for the side to move in {}", plies(r)),
        Solved::Loss(r) => format!("loss for the side to move in {}", plies(r)),
        Solved::Draw => "draw".into(),
    }
}

fn word(v: TierValue) -> &'static str {
    match v {
        TierValue::Win => "win for the side to move",
        TierValue::Loss => "loss for the side to move",
        TierValue::Draw => "draw",
        TierValue::Unreachable => "not reachable",
    }
}

fn print_tiers(out: &mut String, t: &api::TierSolution) {
    let s = &t.summary;
    outln!(out, "game: {}", s.game);
    outln!(out, "positions reachable: {}", s.total.positions);
    outln!(out, "wins for the side to move: {}", s.total.wins);
    outln!(out, "losses for the side to move: {}", s.total.losses);
    outln!(out, "draws: {}", s.total.draws);
    if let Some(r) = s.longest_remoteness {
        outln!(out, "longest remoteness: {}", plies(r));
    }
    outln!(out, "start: {}", word(s.start));
    outln!(
        out,
        "tiers: {} (positions by stones: {})",
        s.tiers.len(),
        s.tiers
            .iter()
            .map(|c| c.positions.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    outln!(
        out,
        "stored in {}: {} bytes, {:.2} bits a position; {} ranks; {:.2} s{}",
        t.db,
        s.bytes_on_disk,
        t.bits_per_position,
        s.ranks,
        t.seconds,
        if s.resumed > 0 {
            format!(" ({} tiers were already solved)", s.resumed)
        } else {
            String::new()
        }
    );
}

fn print_solution(out: &mut String, s: &api::Solution) {
    outln!(out, "game: {}", s.game);
    outln!(out, "positions reachable: {}", s.positions);
    outln!(out, "wins for the side to move: {}", s.wins);
    outln!(out, "losses for the side to move: {}", s.losses);
    outln!(out, "draws: {}", s.draws);
    outln!(out, "longest remoteness: {}", plies(s.longest_remoteness));
    outln!(out, "start: {}", describe_solved(s.start));
    outln!(
        out,
        "stored: {} bytes for {} ranks; {:.2} s ({:.0} positions/s)",
        s.bytes,
        s.ranks,
        s.seconds,
        s.positions as f64 / s.seconds.max(1e-9)
    );
    if let Some(path) = &s.saved {
        outln!(out, "saved to {path}");
    }
}

fn print_search(out: &mut String, s: &api::Searched) {
    outln!(out, "{}", s.board.trim_end());
    let side = match s.to_move {
        Player::First => "first player",
        Player::Second => "second player",
    };
    if s.game_over {
        let result = match s.value.signum() {
            1 => format!("the side to move ({side}) has won"),
            -1 => format!("the side to move ({side}) has lost"),
            _ => "a draw".to_string(),
        };
        outln!(out, "game over: {result} (value {})", s.value);
        return;
    }
    outln!(out, "to move: {side}");
    outln!(out, "value: {} — {}", s.value, s.meaning);
    if !s.exact {
        match s.depth {
            Some(d) if s.interrupted => outln!(
                out,
                "(interrupted: best answer so far, searched {} deep)",
                plies(d)
            ),
            Some(d) if s.timed_out => outln!(
                out,
                "(the time limit stopped the search: best answer so far, searched {d} plies deep)"
            ),
            Some(d) => outln!(out, "(searched {d} plies deep, then the evaluation)"),
            None => outln!(out, "(not exact)"),
        }
    }
    if s.book {
        outln!(out, "(from the opening book, without a search)");
    }
    outln!(out, "best moves: {}", s.best_moves.join(" "));
    if s.book {
        outln!(
            out,
            "principal variation (within the book): {}",
            s.pv.join(" ")
        );
    } else {
        outln!(out, "principal variation: {}", s.pv.join(" "));
    }
    if let Some(scores) = &s.scores {
        outln!(out, "every move:");
        for m in scores {
            outln!(out, "  {:>6}  {:>4}  {}", m.mv, m.value, m.meaning);
        }
    }
    outln!(out, "nodes: {}", s.nodes);
    outln!(out, "time: {:.3} ms", s.microseconds as f64 / 1e3);
}

/// Positions from standard input, one per line: the moves, the score, nodes, microseconds.
fn stream(args: &Args, out: &mut String) -> Result<ExitCode, Error> {
    let g = api::connect4(&args.game)?;
    if let Some(dir) = args
        .db
        .as_deref()
        .filter(|d| std::path::Path::new(d).is_dir())
    {
        let text = read_input("-")?;
        let mut failed = false;
        let mut each = |line: Result<api::TierLine, Error>| match line {
            Err(e) => {
                eprintln!("error: {}", crate::words::message(&e));
                failed = true;
            }
            Ok(l) if args.common.json => {
                let _ = print_json(out, &l);
            }
            Ok(l) => outln!(out, "{} {}", l.moves, word(l.result)),
        };
        api::query_lines(&g, dir, &text, args.common.max_memory(), &mut each)?;
        return Ok(if failed {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        });
    }
    if args.depth.is_some() {
        return Err(Error::Invalid(
            "--depth: positions read from standard input are solved exactly; bound each one's \
             time with --time-limit instead"
                .into(),
        ));
    }
    // Checked here so that a bad value is refused before any input is read.
    let limits = args.common.limits();
    api::batch_limits(args.time_limit, args.table_bits, args.threads, &limits)?;
    let text = read_input("-")?;
    let mut failed = false;
    let mut each = |line: Result<api::Line, Error>| match line {
        Err(e) => {
            eprintln!("error: {}", crate::words::message(&e));
            failed = true;
        }
        Ok(mut l) if args.common.json => {
            failed |= l.stopped.is_some();
            l.stopped = l.stopped.map(|why| crate::words::note(&why));
            let _ = print_json(out, &l);
        }
        Ok(l) => {
            if let Some(why) = &l.stopped {
                eprintln!("error: {}: {}", l.moves, crate::words::note(why));
                failed = true;
            }
            let score = l.score.map_or("?".to_string(), |v| v.to_string());
            outln!(out, "{} {score} {} {:.1}", l.moves, l.nodes, l.microseconds);
        }
    };
    api::score_lines(
        &g,
        &text,
        args.time_limit,
        args.table_bits,
        args.threads,
        // A file (not a tier directory): an opening book.
        args.db.as_deref(),
        &limits,
        &mut each,
    )?;
    Ok(if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
