//! Two-player games of perfect information: a search from a position, a strong solution of
//! every position (saved to a file if asked), a query of a saved solution, and Choosing
//! Carrot's answer for every k.

use super::Limits;
use crate::catalog::sequential::Builtin;
use crate::core::error::{Error, Result};
use crate::script::sequential::ScriptGame;
use crate::script::{Script, ScriptOptions};
use crate::sequential::explicit::Explicit;
use crate::sequential::games::carrot;
use crate::sequential::games::connect4::tiers::{Board as C4Board, Connect4Tiers};
use crate::sequential::search::{alphabeta, memo};
use crate::sequential::strong::retrograde::{self as strong, Progress, Strong};
use crate::sequential::strong::tiers;
use crate::sequential::{self as seq, Game, Indexed, Notation};
use serde::Serialize;
use std::hash::Hash;

// The words of the requests and answers, for the front-ends.
use crate::sequential::games::connect4::book::{board_of, is_book, Book};
pub use crate::sequential::games::connect4::Connect4;
pub use crate::sequential::search::Method;
pub use crate::sequential::strong::retrograde::Solved;
pub use crate::sequential::strong::tiers::Value as TierValue;
pub use crate::sequential::Player;
use std::path::Path;
use std::rc::Rc;
use std::time::Instant;

/// What to compute.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The moves played from the start, in the game's notation.
    pub position: Option<String>,
    /// The search.
    pub method: Option<Method>,
    /// Search this many plies, then use the game's evaluation.
    pub depth: Option<u32>,
    /// Stop after this many seconds with the best answer found so far.
    pub time_limit: Option<f64>,
    /// Strongly solve the game: every position reachable from the start.
    pub all: bool,
    /// With `all`: save the solution to this file.
    pub save: Option<String>,
    /// Answer from a solution saved before.
    pub db: Option<String>,
    /// Entries of the transposition table, as a power of two (default 20).
    pub table_bits: Option<u32>,
    /// With `all` and a tier database (`db` a directory): keep each position's remoteness
    /// too, a byte a position.
    pub remoteness: bool,
    /// With `all` and a tier database: solve with the processes of the MPI job this process
    /// belongs to (started by `mpirun` or `srun`; needs the `mpi` feature). Rank 0 answers;
    /// the others answer [`Answer::Worker`].
    pub mpi: bool,
    /// With a search: first play the solver's move at the position (the first move of its
    /// principal variation), then answer for the position that move reaches: a game against
    /// the solver, one request a turn.
    pub reply: bool,
    /// With a search: also the value of every legal move (each searched as the search is;
    /// with a time limit, the moves share a second limit's worth of time).
    pub scores: bool,
    /// Connect Four: build an opening book of every position of up to this many stones, with
    /// its exact score, and write it to `save`. A book named by `db` answers the positions it
    /// holds without a search.
    pub book: Option<u32>,
    /// An opening book the host provides (the web server's): used as a book named by `db` is, for Connect Four on its board only, and read even where requests may name
    /// no files.
    pub host_book: Option<String>,
    /// A search of a built-in game with a table (Connect Four, tic-tac-toe, …): on this many
    /// threads (1 when `None`; the values do not depend on it). A batch of Connect Four
    /// positions takes its threads from [`score_lines`].
    pub threads: Option<u32>,
    /// Budgets.
    pub limits: Limits,
    /// Limits on a script game.
    pub script: ScriptOptions,
}

/// A search's answer.
#[derive(Debug, Clone, Serialize)]
pub struct Searched {
    /// The game.
    pub game: String,
    /// The position, as the moves from the start.
    pub position: String,
    /// The board, drawn.
    pub board: String,
    /// Whose turn it is.
    pub to_move: Player,
    /// The value for the side to move.
    pub value: i64,
    /// What the value means.
    pub meaning: String,
    /// Every move that reaches the value.
    pub best_moves: Vec<String>,
    /// A principal variation.
    pub pv: Vec<String>,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken.
    pub microseconds: u128,
    /// The depth searched, when limited.
    pub depth: Option<u32>,
    /// Whether the value is the game's exact value.
    pub exact: bool,
    /// Whether the position is already over.
    pub game_over: bool,
    /// Whether a time limit stopped the search (the answer is the best so far).
    pub timed_out: bool,
    /// Whether Ctrl-C stopped the search (the answer is the best so far).
    pub interrupted: bool,
    /// When asked for: every legal move with its value for the side to move (the value the
    /// position has if that move is played and both sides then play best).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<MoveScore>>,
    /// When a reply was asked for: the solver's move, played before the answer's position
    /// (none when the game was already over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// Whether the answer came from an opening book (`db`) without a search; absent when it
    /// was searched.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
}

/// An opening book written (`book` with `save`).
#[derive(Debug, Clone, Serialize)]
pub struct BookBuilt {
    /// The game.
    pub game: String,
    /// The most stones a stored position has.
    pub depth: u32,
    /// Positions stored (a position and its reflection once).
    pub positions: u64,
    /// Positions searched: those of exactly `depth` stones; the shallower ones follow from them.
    pub searched: u64,
    /// Nodes the searches visited.
    pub nodes: u64,
    /// Bytes of the file.
    pub bytes: u64,
    /// Time taken.
    pub seconds: f64,
    /// The file written.
    pub saved: String,
}

/// One move's value, for [`Searched::scores`].
#[derive(Debug, Clone, Serialize)]
pub struct MoveScore {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its value for the side to move.
    pub value: i64,
    /// What the value means.
    pub meaning: String,
    /// Whether the value is exact (not a depth- or time-limited estimate).
    pub exact: bool,
}

/// A strong solution's summary.
#[derive(Debug, Clone, Serialize)]
pub struct Solution {
    /// The game.
    pub game: String,
    /// Positions reachable from the start.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The longest remoteness.
    pub longest_remoteness: u32,
    /// The start's result.
    pub start: Solved,
    /// Ranks (slots) of the table.
    pub ranks: u64,
    /// Bytes the solution takes.
    pub bytes: u64,
    /// Time taken.
    pub seconds: f64,
    /// Where it was saved.
    pub saved: Option<String>,
}

/// A query of a saved solution.
#[derive(Debug, Clone, Serialize)]
pub struct Query {
    /// The game.
    pub game: String,
    /// The board, drawn.
    pub board: String,
    /// Whose turn it is.
    pub to_move: Player,
    /// The result.
    #[serde(flatten)]
    pub solved: Solved,
}

/// A tier database written (`--all --db DIR`): two bits a position, a file a tier.
#[derive(Debug, Clone, Serialize)]
pub struct TierSolution {
    /// Counts, tier by tier and in all, and the start's value.
    #[serde(flatten)]
    pub summary: tiers::Summary,
    /// Bits a reachable position takes on disk.
    pub bits_per_position: f64,
    /// The directory the tier files are in.
    pub db: String,
    /// Time taken (tiers found solved are not solved again).
    pub seconds: f64,
}

/// A query of a tier database: the position's value and every move's.
#[derive(Debug, Clone, Serialize)]
pub struct TierQuery {
    /// The game.
    pub game: String,
    /// The board, drawn.
    pub board: String,
    /// Whose turn it is.
    pub to_move: Player,
    /// The value for the side to move.
    pub result: tiers::Value,
    /// Plies to the end with best play, when the database keeps remoteness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<u32>,
    /// Every legal move with the value it leaves the side to move.
    pub moves: Vec<TierMove>,
}

/// One move of a [`TierQuery`].
#[derive(Debug, Clone, Serialize)]
pub struct TierMove {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The value for the side to move if it plays this move.
    pub result: tiers::Value,
}

/// Choosing Carrot's answer for every k.
#[derive(Debug, Clone, Serialize)]
pub struct Carrot {
    /// The length of the sequence.
    pub n: usize,
    /// The number left for k = 0, 1, …, n − 1.
    pub answers: Vec<i64>,
    /// Time taken.
    pub microseconds: u128,
}

/// Any of the answers.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// A search.
    Search(Searched),
    /// A strong solution.
    Solution(Solution),
    /// A query of a saved solution.
    Query(Query),
    /// Choosing Carrot.
    Carrot(Carrot),
    /// A tier database written.
    Tiers(TierSolution),
    /// A query of a tier database.
    TierQuery(TierQuery),
    /// An opening book written.
    Book(BookBuilt),
    /// A worker of a distributed solve (`mpi`): it did its share; rank 0 has the answer.
    Worker {
        /// This process's rank in the MPI job.
        rank: i32,
    },
}

/// Every search method with its name, as requests write it.
pub const SEARCH_METHODS: &[(&str, Method)] = &[
    ("auto", Method::Auto),
    ("minimax", Method::Minimax),
    ("memo", Method::Memo),
    ("alphabeta", Method::AlphaBeta),
    ("mtdf", Method::NullWindow),
    ("deepening", Method::Deepening),
];

/// The search method called `name`: auto, minimax, memo, alphabeta, mtdf or deepening.
pub fn search_method(name: &str) -> Result<Method> {
    super::named(SEARCH_METHODS, name).ok_or_else(|| {
        Error::Invalid(format!(
            "method '{name}': use auto, minimax, memo, alphabeta, mtdf or deepening"
        ))
    })
}

/// The Connect Four board that `game` names (`connect4`, `connect4:6x5`), or an error for
/// any other game: batches of positions are read for Connect Four only.
pub fn connect4(game: &str) -> Result<Connect4> {
    match Builtin::parse(game) {
        Ok(Builtin::Connect4(g)) => Ok(g),
        _ => Err(Error::Invalid(format!(
            "`{game}`: positions from standard input are read for Connect Four only"
        ))),
    }
}

/// The search limits of a request, checked.
pub fn search_limits(
    depth: Option<u32>,
    time_limit: Option<f64>,
    table_bits: u32,
    limits: &Limits,
) -> Result<seq::SearchLimits> {
    let deadline = match time_limit {
        None => None,
        Some(t) => Some(Instant::now() + crate::core::number::seconds("time_limit", t)?),
    };
    if depth == Some(0) {
        return Err(Error::Invalid(format!(
            "{} is 0: search at least one ply",
            crate::core::hint::setting("depth")
        )));
    }
    if !(10..=32).contains(&table_bits) {
        return Err(Error::Invalid(format!(
            "{} is {table_bits}: use 10 to 32",
            crate::core::hint::setting("table_bits")
        )));
    }
    // The table is allocated whole before the search: 16 bytes an entry.
    crate::core::budget::check_memory(
        &format!("the transposition table (2^{table_bits} entries)"),
        16u64 << table_bits,
        limits.max_memory,
    )?;
    // The table stores a position an entry: it is the search's share of the state budget.
    if 1u64 << table_bits > limits.max_states {
        return Err(Error::StateLimit {
            explored: 0,
            limit: limits.max_states,
            what: format!(
                "the transposition table (2^{table_bits} entries; lower {} for fewer)",
                crate::core::hint::setting("table_bits")
            ),
        });
    }
    Ok(seq::SearchLimits {
        depth,
        deadline,
        table_bits,
        max_nodes: Some(limits.max_work),
        grow_to_bits: None,
    })
}

/// The two-player game of "PATH ARG..." (what follows `script:`), and its name.
pub fn script_game(rest: &str, options: &ScriptOptions) -> Result<(ScriptGame, String)> {
    let mut words = rest.split_whitespace();
    let path = words.next().ok_or_else(|| {
        Error::Invalid(
            "script: needs the script's path, as in script:examples/tictactoe.rhai".into(),
        )
    })?;
    let extra: Vec<String> = words.map(String::from).collect();
    let script = Rc::new(Script::load(path, options.clone())?);
    Ok((ScriptGame::new(script, &extra)?, format!("script:{path}")))
}

/// Answers `req` for the game named `game` (see [`Builtin::parse`], or `script:FILE ARG…`).
pub fn solve(game: &str, req: &Request) -> Result<Answer> {
    if let Some(rest) = game.strip_prefix("script:") {
        return solve_script(rest, req);
    }
    let builtin = Builtin::parse(game)?;
    let name = builtin.name();
    if req.save.is_some() && !req.all && req.book.is_none() {
        return Err(Error::Invalid(format!(
            "{} writes what {} or {} makes: give one of them",
            crate::core::hint::setting_value("save", "FILE"),
            crate::core::hint::setting("all"),
            crate::core::hint::setting_value("book", "DEPTH")
        )));
    }
    if req.book.is_some() && !matches!(builtin, Builtin::Connect4(_)) {
        return Err(Error::Invalid(format!(
            "{} builds an opening book of Connect Four; {name} has none",
            crate::core::hint::setting_value("book", "DEPTH")
        )));
    }
    match &builtin {
        Builtin::TicTacToe(g) => solve_indexed(g, &name, req),
        Builtin::Connect4(g) if req.book.is_some() => build_book(g, &name, req),
        // A file that starts as an opening book does: answered from it where it can.
        Builtin::Connect4(g) if req.db.as_deref().is_some_and(|d| is_book(Path::new(d))) => {
            crate::core::input::may_read(req.db.as_deref().unwrap_or_default())?;
            from_book(g, &name, req, req.db.as_deref().unwrap_or_default())
        }
        Builtin::Connect4(g)
            if req.db.is_none()
                && req
                    .host_book
                    .as_deref()
                    .is_some_and(|b| board_of(Path::new(b)) == Some((g.width(), g.height()))) =>
        {
            from_book(g, &name, req, req.host_book.as_deref().unwrap_or_default())
        }
        // A directory of tier files: written with --all, queried without.
        Builtin::Connect4(g)
            if req
                .db
                .as_deref()
                .is_some_and(|d| req.all || std::path::Path::new(d).is_dir()) =>
        {
            solve_tiers(g, &name, req)
        }
        Builtin::Connect4(g) => solve_indexed(g, &name, req),
        Builtin::Nim(g) => solve_indexed(g, &name, req),
        Builtin::CoinGrid(g) => {
            if req.all || req.db.is_some() {
                return Err(Error::Invalid(
                    "the coin grid is a score game: the strong solver gives results (win, loss, \
                     draw); solve positions one at a time"
                        .into(),
                ));
            }
            search_game(g, &name, req)
        }
        Builtin::Carrot(a) => {
            if req.position.is_some() || req.all || req.db.is_some() {
                return Err(Error::Invalid(
                    "carrot takes only its sequence: it answers for every k at once".into(),
                ));
            }
            let started = Instant::now();
            let answers = carrot::answers(a);
            Ok(Answer::Carrot(Carrot {
                n: a.len(),
                answers,
                microseconds: started.elapsed().as_micros(),
            }))
        }
    }
}

/// The tier solve across an MPI job: the summary on rank 0, the rank on the others.
#[cfg(feature = "mpi")]
fn distributed(
    t: &Connect4Tiers,
    dir: &std::path::Path,
    req: &Request,
) -> Result<std::result::Result<tiers::Summary, i32>> {
    use tiers::distributed::{solve, Outcome};
    Ok(
        match solve(t, dir, req.remoteness, req.limits.max_memory)? {
            Outcome::Manager(summary) => Ok(summary),
            Outcome::Worker { rank } => Err(rank),
        },
    )
}

#[cfg(not(feature = "mpi"))]
fn distributed(
    _: &Connect4Tiers,
    _: &std::path::Path,
    _: &Request,
) -> Result<std::result::Result<tiers::Summary, i32>> {
    Err(Error::Invalid(
        "this nimbus was built without MPI: build it with `cargo build --release -p \
         nimbus-cli --features mpi` (Debian: apt-get install libopenmpi-dev openmpi-bin \
         libclang-dev) and start it with mpirun"
            .into(),
    ))
}

/// Connect Four in tiers: the database written into the directory `req.db` (with `all`,
/// resuming from the tiers already there), or a position's value read from it.
fn solve_tiers(g: &Connect4, name: &str, req: &Request) -> Result<Answer> {
    let t = Connect4Tiers::new(g.width(), g.height())?;
    let db = req.db.clone().unwrap_or_default();
    let dir = std::path::Path::new(&db);
    if req.all {
        from_the_start(req)?;
        if req.save.is_some() {
            return Err(Error::Invalid(format!(
                "{} with {} writes a tier database into DIR; {} writes the byte-a-rank \
                 solution to a file: give one of them",
                crate::core::hint::setting_value("db", "DIR"),
                crate::core::hint::setting("all"),
                crate::core::hint::setting("save")
            )));
        }
        let started = Instant::now();
        let summary = if req.mpi {
            match distributed(&t, dir, req)? {
                Ok(summary) => summary,
                Err(rank) => return Ok(Answer::Worker { rank }),
            }
        } else {
            tiers::solve(&t, dir, req.remoteness, req.limits.max_memory)?
        };
        let bits_per_position =
            summary.bytes_on_disk as f64 * 8.0 / summary.total.positions.max(1) as f64;
        return Ok(Answer::Tiers(TierSolution {
            summary,
            bits_per_position,
            db,
            seconds: started.elapsed().as_secs_f64(),
        }));
    }
    let p = g.parse_position(req.position.as_deref().unwrap_or(""))?;
    let mut base = tiers::Database::open(&t, dir, req.limits.max_memory);
    let board = |q: &crate::sequential::games::connect4::Position| C4Board {
        current: q.current,
        mask: q.mask,
    };
    let (tier, i) = t.rank(&board(&p));
    let result = base.value(tier, i)?;
    let remoteness = base.remoteness(tier, i)?;
    if result == tiers::Value::Unreachable {
        return Err(Error::Invalid(format!(
            "the position is not reachable from the start of {name}"
        )));
    }
    let mut moves = Vec::new();
    let mut list = Vec::new();
    g.moves(&p, &mut list);
    for m in list {
        let (ct, ci) = t.rank(&board(&g.play(&p, m)));
        let child = base.value(ct, ci)?;
        moves.push(TierMove {
            mv: g.show_move(m),
            result: match child {
                tiers::Value::Win => tiers::Value::Loss,
                tiers::Value::Loss => tiers::Value::Win,
                other => other,
            },
        });
    }
    Ok(Answer::TierQuery(TierQuery {
        game: name.into(),
        board: g.show_position(&p),
        to_move: g.to_move(&p),
        result,
        remoteness,
        moves,
    }))
}

/// Connect Four's opening book of `req.book` stones, written to `req.save`.
fn build_book(g: &Connect4, name: &str, req: &Request) -> Result<Answer> {
    let depth = req.book.unwrap_or_default();
    let Some(path) = req.save.clone() else {
        return Err(Error::Invalid(format!(
            "{} writes an opening book: name its file with {}",
            crate::core::hint::setting_value("book", "DEPTH"),
            crate::core::hint::setting_value("save", "FILE")
        )));
    };
    if req.position.is_some() || req.all || req.db.is_some() {
        return Err(Error::Invalid(format!(
            "a book starts from the empty board: give {} and {} alone",
            crate::core::hint::setting_value("book", "DEPTH"),
            crate::core::hint::setting_value("save", "FILE")
        )));
    }
    crate::core::input::may_read(&path)?;
    let started = Instant::now();
    let mut limits = search_limits(
        None,
        req.time_limit,
        req.table_bits.unwrap_or(BOOK_TABLE_BITS),
        &req.limits,
    )?;
    // The deepest positions differ in hardness as a batch's lines do: the table grows when
    // one needs it, up to what the memory budget allows.
    limits.grow_to_bits = Some(grow_bits(req.table_bits, &req.limits));
    let build = || {
        Book::build(
            g,
            depth,
            &limits,
            req.limits.max_states,
            req.limits.max_memory,
        )
    };
    let built = match req.time_limit {
        Some(t) => crate::core::progress::with_time_limit(t, build)?,
        None => build()?,
    };
    let body = built.book.to_bytes();
    let bytes = (body.len() + crate::core::sealed::TRAILER) as u64;
    crate::core::sealed::write(Path::new(&path), body)?;
    Ok(Answer::Book(BookBuilt {
        game: name.into(),
        depth,
        positions: built.book.len() as u64,
        searched: built.searched,
        nodes: built.nodes,
        bytes,
        seconds: started.elapsed().as_secs_f64(),
        saved: path,
    }))
}

/// Entries (as a power of two) a book's table starts with.
const BOOK_TABLE_BITS: u32 = 16;

/// The largest table (as a power of two) a book's searches may grow to: 2^24 entries at
/// most, as a batch's, in half the memory budget (the positions kept take the other half),
/// or the size asked for when it is larger.
fn grow_bits(asked: Option<u32>, limits: &Limits) -> u32 {
    let by_memory = (limits.max_memory / 32).max(1).ilog2();
    let by_states = limits.max_states.max(1).ilog2();
    asked
        .unwrap_or(BOOK_TABLE_BITS)
        .max(24.min(by_memory).min(by_states))
}

/// The game whose opening book the file at `path` is (`connect4:WxH`), after reading it whole
/// and checking it: for a host that serves a book to check it before it starts.
pub fn check_book(path: &str) -> Result<String> {
    let (w, h) = board_of(Path::new(path)).ok_or_else(|| {
        Error::Invalid(format!(
            "{path}: not an opening book ({} with {} writes one)",
            crate::core::hint::setting_value("book", "DEPTH"),
            crate::core::hint::setting_value("save", "FILE")
        ))
    })?;
    let g = Connect4::new(w, h)?;
    read_book(&g, path, Limits::default().max_memory)?;
    Ok(format!("connect4:{w}x{h}"))
}

/// The book at `path`, read whole and checked (its seal, then its own checks).
pub(super) fn read_book(g: &Connect4, path: &str, max_memory: u64) -> Result<Book> {
    let body = crate::core::sealed::read(Path::new(path), max_memory)?
        .ok_or_else(|| Error::Invalid(format!("{path}: no such file")))?;
    Book::from_bytes(&body, g, path)
}

/// A Connect Four position answered from the opening book at `path` when the book holds the
/// scores of its moves, and searched (as without a book) when it does not.
fn from_book(g: &Connect4, name: &str, req: &Request, path: &str) -> Result<Answer> {
    if req.all {
        return Err(Error::Invalid(format!(
            "{} answers from an opening book; {} needs a tier directory or none",
            crate::core::hint::setting_value("db", "FILE"),
            crate::core::hint::setting("all")
        )));
    }
    let book = read_book(g, path, req.limits.max_memory)?;
    let started = Instant::now();
    let mut position = req.position.clone().unwrap_or_default();
    let mut p = g.parse_position(&position)?;
    let mut reply = None;
    if req.reply {
        if let Some((c, _)) = book.best_move(g, &p) {
            let shown = g.show_move(c);
            position = format!("{position} {shown}").trim().to_string();
            p = g.play(&p, c);
            reply = Some(shown);
        }
    }
    let Some(moves) = book.moves(g, &p) else {
        // Beyond the book (or the game is over): the search answers, as without one.
        let rest = Request {
            db: None,
            host_book: None,
            position: Some(position),
            reply: req.reply && reply.is_none(),
            ..req.clone()
        };
        return match search_game(g, name, &rest)? {
            Answer::Search(mut s) if reply.is_some() => {
                s.reply = reply;
                Ok(Answer::Search(s))
            }
            other => Ok(other),
        };
    };
    let value = moves.iter().map(|&(_, v)| v).max().unwrap_or(0);
    let best: Vec<u8> = moves
        .iter()
        .filter(|&&(_, v)| v == value)
        .map(|&(c, _)| c)
        .collect();
    // The principal variation follows the first best move while the book answers.
    let mut pv = Vec::new();
    let mut q = p;
    while let Some((c, _)) = book.best_move(g, &q) {
        pv.push(g.show_move(c));
        q = g.play(&q, c);
    }
    let scores = req.scores.then(|| {
        moves
            .iter()
            .map(|&(c, v)| MoveScore {
                mv: g.show_move(c),
                value: v,
                meaning: g.explain(&p, v),
                exact: true,
            })
            .collect()
    });
    Ok(Answer::Search(Searched {
        game: name.into(),
        position,
        board: g.show_position(&p),
        to_move: g.to_move(&p),
        value,
        meaning: g.explain(&p, value),
        best_moves: best.iter().map(|&c| g.show_move(c)).collect(),
        pv,
        nodes: 0,
        microseconds: started.elapsed().as_micros(),
        depth: None,
        exact: true,
        game_over: false,
        timed_out: false,
        interrupted: false,
        scores,
        reply,
        book: true,
    }))
}

/// Any game written with the library's [`Notation`] and [`Indexed`] traits: a search, a
/// strong solution or a query, as `req` asks.
pub fn solve_indexed<G>(g: &G, name: &str, req: &Request) -> Result<Answer>
where
    G: Indexed + Notation + Sync,
    G::Position: Hash + Eq + Send + Sync,
    G::Move: Send,
{
    let threads = batch_threads(req.threads)?;
    if req.all {
        return strongly(g, name, req, Instant::now()).map(Answer::Solution);
    }
    if let Some(db) = &req.db {
        let p = g.parse_position(req.position.as_deref().unwrap_or(""))?;
        let solution = load(g, name, db, req.limits.max_memory)?;
        let found = solution
            .get(g, &p)
            .ok_or_else(|| Error::Invalid("the position is not reachable from the start".into()))?;
        return Ok(Answer::Query(Query {
            game: name.into(),
            board: g.show_position(&p),
            to_move: g.to_move(&p),
            solved: found,
        }));
    }
    let max_states = req.limits.max_states;
    search_game_with(g, name, req, &|p, method, limits| {
        seq::search::search_on_threads(g, p, method, limits, max_states, threads)
    })
}

fn load<G: Indexed>(g: &G, name: &str, db: &str, max_memory: u64) -> Result<Strong> {
    crate::core::input::may_read(db)?;
    let bytes =
        crate::core::sealed::read(std::path::Path::new(db), max_memory)?.ok_or_else(|| {
            Error::Io {
                path: db.into(),
                source: std::io::ErrorKind::NotFound.into(),
            }
        })?;
    Strong::from_bytes(g, name, &bytes, db)
}

/// A game written in Rhai: searched like the built-in games; `all` explores it into an
/// explicit graph first, since a script has no ranking of its own.
fn solve_script(rest: &str, req: &Request) -> Result<Answer> {
    let (g, name) = script_game(rest, &req.script)?;
    let answer = solve_explored(&g, &name, req);
    // A failed script call looks like the end of the game to the engines: its error comes
    // first, whatever they answered.
    match g.error() {
        Some(e) => Err(e),
        None => answer,
    }
}

/// Any game with a [`Notation`] but no ranking of its positions (a script, a Python game): a
/// search, or a strong solution (or a query of one) after exploring it into a graph.
pub fn solve_explored<G>(g: &G, name: &str, req: &Request) -> Result<Answer>
where
    G: Notation,
    G::Position: Hash + Eq,
{
    if req.all || req.db.is_some() {
        if req.all {
            from_the_start(req)?;
        }
        let started = Instant::now();
        let (graph, positions) = Explicit::build(g, &g.start(), req.limits.max_states)?;
        if req.all {
            return strongly(&graph, name, req, started).map(Answer::Solution);
        }
        let db = req.db.as_deref().unwrap_or_default();
        let p = g.parse_position(req.position.as_deref().unwrap_or(""))?;
        let solution = load(&graph, name, db, req.limits.max_memory)?;
        let found = positions
            .iter()
            .position(|q| *q == p)
            .and_then(|i| solution.get(&graph, &(i as u32)))
            .ok_or_else(|| Error::Invalid("the position is not reachable from the start".into()))?;
        return Ok(Answer::Query(Query {
            game: name.into(),
            board: g.show_position(&p),
            to_move: g.to_move(&p),
            solved: found,
        }));
    }
    if !matches!(req.method, None | Some(Method::Auto | Method::Memo)) && req.depth.is_none() {
        // Alpha–beta and plain minimax assume that the game ends; memoised minimax checks it.
        memo::explore(g, &g.start(), req.limits.max_states)?;
    }
    search_game(g, name, req)
}

/// A strong solution is of the whole game: a position given with it is a mistake.
fn from_the_start(req: &Request) -> Result<()> {
    match req.position {
        Some(_) => Err(Error::Invalid(
            "a strong solution starts from the start: drop the position (query it from the \
             saved solution)"
                .into(),
        )),
        None => Ok(()),
    }
}

/// The strong solution of `g`; `started` is when the work began (a script's exploration
/// into a graph counts).
fn strongly<G: Indexed + Sync>(
    g: &G,
    name: &str,
    req: &Request,
    started: Instant,
) -> Result<Solution> {
    from_the_start(req)?;
    let report = |p: Progress| match p {
        Progress::Reached(n) => {
            crate::core::progress::phase(&format!("exploring: {n} positions reached"), 0)
        }
        Progress::Round { round, open, total } => crate::core::progress::phase(
            &format!("round {round}: {open} of {total} positions still open"),
            0,
        ),
    };
    let solution = strong::solve(
        g,
        name,
        req.limits.max_states,
        req.limits.max_memory,
        &report,
    )?;
    let seconds = started.elapsed().as_secs_f64();
    if let Some(path) = &req.save {
        crate::core::input::may_read(path)?;
        crate::core::sealed::write(std::path::Path::new(path), solution.to_bytes())?;
    }
    let s = solution.summary();
    Ok(Solution {
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
        saved: req.save.clone(),
    })
}

/// A search of the position `req` names.
pub fn search_game<G>(g: &G, name: &str, req: &Request) -> Result<Answer>
where
    G: Notation,
    G::Position: Hash + Eq,
{
    let max_states = req.limits.max_states;
    search_game_with(g, name, req, &|p, method, limits| {
        seq::search::search(g, p, method, limits, max_states)
    })
}

/// How [`search_game_with`] searches a position.
type SearchFn<'a, G> = dyn Fn(
        &<G as seq::Game>::Position,
        Method,
        &seq::SearchLimits,
    ) -> Result<seq::Search<<G as seq::Game>::Move>>
    + 'a;

/// [`search_game`], each search made by `run` (on one thread, or several).
fn search_game_with<G>(g: &G, name: &str, req: &Request, run: &SearchFn<'_, G>) -> Result<Answer>
where
    G: Notation,
    G::Position: Hash + Eq,
{
    let mut p = g.parse_position(req.position.as_deref().unwrap_or(""))?;
    let method = req.method.unwrap_or(Method::Auto);
    let mut position = req.position.clone().unwrap_or_default();
    let mut reply = None;
    if req.reply && g.outcome(&p).is_none() {
        let limits = search_limits(
            req.depth,
            req.time_limit,
            req.table_bits.unwrap_or(TABLE_BITS),
            &req.limits,
        )?;
        let r = run(&p, method, &limits)?;
        if let Some(&m) = r.pv.first() {
            let shown = g.show_move(m);
            position = format!("{position} {shown}").trim().to_string();
            p = g.play(&p, m);
            reply = Some(shown);
        }
    }
    let limits = search_limits(
        req.depth,
        req.time_limit,
        req.table_bits.unwrap_or(TABLE_BITS),
        &req.limits,
    )?;
    let r = run(&p, method, &limits)?;
    let show = |ms: &[G::Move]| ms.iter().map(|&m| g.show_move(m)).collect::<Vec<_>>();
    let scores = if req.scores {
        Some(move_scores(g, &p, method, req, run)?)
    } else {
        None
    };
    let interrupted = crate::core::progress::interrupted();
    let timed_out = !r.exact
        && !interrupted
        && limits.deadline.is_some()
        && r.depth.is_some_and(|d| limits.depth.is_none_or(|l| d < l));
    Ok(Answer::Search(Searched {
        game: name.into(),
        position,
        board: g.show_position(&p),
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
        timed_out,
        interrupted,
        scores,
        reply,
        book: false,
    }))
}

/// Every legal move of `p` with its value: the move's reward less the value of the position
/// it leads to for the other side, each child searched as the position was.
fn move_scores<G>(
    g: &G,
    p: &G::Position,
    method: Method,
    req: &Request,
    run: &SearchFn<'_, G>,
) -> Result<Vec<MoveScore>>
where
    G: Notation,
    G::Position: Hash + Eq,
{
    let mut moves = Vec::new();
    if g.outcome(p).is_none() {
        g.moves(p, &mut moves);
    }
    let mut scores = Vec::with_capacity(moves.len());
    // With a time limit, the moves share one more limit's worth of time: each child gets its
    // own slice, so that the last ones are not left with none.
    let slice = req.time_limit.map(|t| t / moves.len().max(1) as f64);
    for m in moves {
        let limits = search_limits(
            req.depth,
            slice,
            req.table_bits.unwrap_or(TABLE_BITS),
            &req.limits,
        )?;
        let child = g.play(p, m);
        let r = run(&child, method, &limits)?;
        let value = g.reward(p, m) - r.value;
        scores.push(MoveScore {
            mv: g.show_move(m),
            value,
            meaning: if r.exact {
                g.explain(p, value)
            } else {
                "an estimate, not a proved result".to_string()
            },
            exact: r.exact,
        });
    }
    Ok(scores)
}

/// One line of a batch of Connect Four positions.
#[derive(Debug, Serialize)]
pub struct Line {
    /// The moves, as read.
    pub moves: String,
    /// Pons' score, or none when the time limit passed first.
    pub score: Option<i64>,
    /// Positions visited.
    pub nodes: u64,
    /// Time taken.
    pub microseconds: f64,
    /// Why there is no score, when there is none: the time limit or the work budget, each
    /// named as a setting (see [`crate::api::render_settings`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// Whether the score came from the opening book, without a search; absent when searched.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
}

/// The limits of a batch of [`score_lines`] on `threads` threads (1 when `None`), checked: a
/// front-end can refuse bad settings before it reads the batch. Each thread has a table of
/// its own, so the memory and state budgets are shared among them.
pub fn batch_limits(
    time_limit: Option<f64>,
    table_bits: Option<u32>,
    threads: Option<u32>,
    limits: &Limits,
) -> Result<seq::SearchLimits> {
    if let Some(t) = time_limit {
        crate::core::number::seconds("time_limit", t)?;
    }
    let threads = batch_threads(threads)? as u64;
    let bits = table_bits.unwrap_or(BATCH_TABLE_BITS);
    let mut search = search_limits(None, None, bits, limits)?;
    if threads > 1 {
        let what = format!("{threads} transposition tables (2^{bits} entries each, one a thread)");
        crate::core::budget::check_memory(
            &what,
            (16u64 << bits).saturating_mul(threads),
            limits.max_memory,
        )?;
        if (1u64 << bits).saturating_mul(threads) > limits.max_states {
            return Err(Error::StateLimit {
                explored: 0,
                limit: limits.max_states,
                what: format!(
                    "{what}; lower {} or {} for fewer",
                    crate::core::hint::setting("table_bits"),
                    crate::core::hint::setting("threads")
                ),
            });
        }
    }
    // A small table by default: it stays in cache, and easy positions need few entries. It
    // grows when a position turns out hard, as far as the memory and state budgets allow
    // (each thread's share of them), unless the request fixes its size.
    if table_bits.is_none() {
        let fits = |bits: u32| {
            (16u64 << bits).saturating_mul(threads) <= limits.max_memory
                && (1u64 << bits).saturating_mul(threads) <= limits.max_states
        };
        search.grow_to_bits = (BATCH_TABLE_BITS..=TABLE_MAX_BITS).rev().find(|&b| fits(b));
    }
    Ok(search)
}

/// The table a batch starts each position with: 256 KiB, in cache.
const BATCH_TABLE_BITS: u32 = 14;
/// The table of one position's search: 16 MiB. It does not grow: measured on the 6 × 6 board
/// (interleaved runs), 2^24 entries saved a tenth of the nodes and cost a tenth more time
/// (each probe leaves the cache).
const TABLE_BITS: u32 = 20;
/// The largest a table grows to by itself (256 MiB); `table_bits` sets any size.
const TABLE_MAX_BITS: u32 = 24;

/// The threads of a batch, checked: 1 when not given.
pub fn batch_threads(threads: Option<u32>) -> Result<usize> {
    match threads {
        None => Ok(1),
        Some(t @ 1..=MAX_THREADS) => Ok(t as usize),
        Some(t) => Err(Error::Invalid(format!(
            "{} is {t}: use 1 to {MAX_THREADS}",
            crate::core::hint::setting("threads")
        ))),
    }
}

/// More threads than any machine this runs on has cores.
const MAX_THREADS: u32 = 1024;

/// Scores each line of `text` (Pons' test format: the moves first) in Connect Four, with one
/// table kept warm across lines, and hands each result (or the line's error) to `each`.
/// With `threads` above 1, that many lines are searched at once, each thread with a table of
/// its own, and once every line has been started, threads with nothing left help the lines
/// still running ([`seq::search::pool`]); the scores are the same.
/// With an opening book (`book`, a file), the positions it holds are scored from it.
#[allow(clippy::too_many_arguments)]
pub fn score_lines(
    g: &Connect4,
    text: &str,
    time_limit: Option<f64>,
    table_bits: Option<u32>,
    threads: Option<u32>,
    book: Option<&str>,
    limits: &Limits,
    each: &mut dyn FnMut(Result<Line>),
) -> Result<()> {
    let book = match book {
        Some(path) => {
            crate::core::input::may_read(path)?;
            Some(read_book(g, path, limits.max_memory)?)
        }
        None => None,
    };
    let per_line = time_limit
        .map(|t| crate::core::number::seconds("time_limit", t))
        .transpose()?;
    let threads = batch_threads(threads)?;
    // Checked before any line is read; the tables are sized below, once the lines are known.
    batch_limits(time_limit, table_bits, Some(threads as u32), limits)?;
    // Each line is answered at once (an error, or the book) or searched; the answers go out
    // in the lines' order.
    let mut ready: Vec<Option<Result<Line>>> = Vec::new();
    let mut searched: Vec<(usize, String)> = Vec::new();
    let mut positions = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(moves) = line.split_whitespace().next() else {
            continue;
        };
        let p = match g.parse_position(moves) {
            Ok(p) => p,
            Err(e) => {
                ready.push(Some(Err(at_line(e, n + 1))));
                continue;
            }
        };
        if let Some(score) = book.as_ref().and_then(|b| b.score(g, &p)) {
            ready.push(Some(Ok(Line {
                moves: moves.into(),
                score: Some(score),
                nodes: 0,
                microseconds: 0.0,
                stopped: None,
                book: true,
            })));
            continue;
        }
        searched.push((ready.len(), moves.into()));
        ready.push(None);
        positions.push(p);
    }
    // Only as many tables as there are lines to search can grow at once.
    let tables = threads.min(positions.len()).max(1);
    let limits = batch_limits(time_limit, table_bits, Some(tables as u32), limits)?;
    let mut sent = 0;
    let mut flush = |upto: usize, ready: &mut Vec<Option<Result<Line>>>| {
        while sent < upto {
            if let Some(r) = ready[sent].take() {
                each(r);
            }
            sent += 1;
        }
    };
    let first = searched.first().map_or(ready.len(), |s| s.0);
    flush(first, &mut ready);
    let stopped_why = |nodes: u64| match limits.max_nodes {
        _ if crate::core::progress::interrupted() => {
            "interrupted before its exact score was found".to_string()
        }
        // The searcher stops on the first of its two limits; the node count says which.
        Some(most) if nodes >= most => format!(
            "no exact score within the work budget of {most} nodes a line (raise {})",
            crate::core::hint::setting("max_work")
        ),
        _ => format!(
            "no exact score within the time limit of {} s a line (raise {})",
            time_limit.unwrap_or_default(),
            crate::core::hint::setting("time_limit")
        ),
    };
    let solve = |s: &mut alphabeta::Searcher<'_, Connect4>, p: &_| g.score(s, p);
    let outcome = seq::search::pool::score_all(
        g,
        &positions,
        threads,
        &limits,
        per_line,
        &solve,
        &mut |r| {
            let (at, moves) = &searched[r.index];
            ready[*at] = Some(Ok(Line {
                moves: moves.clone(),
                score: r.value,
                nodes: r.nodes,
                microseconds: r.seconds * 1e6,
                stopped: r.value.is_none().then(|| stopped_why(r.lead_nodes)),
                book: false,
            }));
            let next = searched.get(r.index + 1).map_or(ready.len(), |s| s.0);
            flush(next, &mut ready);
        },
    );
    outcome
}

/// One line of a batch of queries of a tier database.
#[derive(Debug, Serialize)]
pub struct TierLine {
    /// The moves, as read.
    pub moves: String,
    /// The value for the side to move.
    pub result: tiers::Value,
}

/// Answers each line of `text` (the moves first, as [`score_lines`] reads them) from the tier
/// database in `dir`, each tier read once and kept, and hands each result (or the line's
/// error) to `each`.
pub fn query_lines(
    g: &Connect4,
    dir: &str,
    text: &str,
    max_memory: u64,
    each: &mut dyn FnMut(Result<TierLine>),
) -> Result<()> {
    let t = Connect4Tiers::new(g.width(), g.height())?;
    let mut base = tiers::Database::open(&t, std::path::Path::new(dir), max_memory);
    for (n, line) in text.lines().enumerate() {
        let Some(moves) = line.split_whitespace().next() else {
            continue;
        };
        let found = g.parse_position(moves).and_then(|p| {
            let (tier, i) = t.rank(&C4Board {
                current: p.current,
                mask: p.mask,
            });
            base.value(tier, i)
        });
        each(found.map_err(|e| at_line(e, n + 1)).map(|result| TierLine {
            moves: moves.into(),
            result,
        }));
        crate::core::progress::check()?;
    }
    Ok(())
}

/// A position's error, placed on the line of the batch it came from.
fn at_line(e: Error, line: usize) -> Error {
    match e {
        Error::Parse {
            span,
            message,
            hint,
        } => Error::Parse {
            span: crate::Span {
                source: "standard input".into(),
                line,
                ..span
            },
            message,
            hint,
        },
        other => other,
    }
}

/// Whose turn it is in words.
pub fn side_name<G: Game>(g: &G, p: &G::Position) -> &'static str {
    match g.to_move(p) {
        Player::First => "first player",
        Player::Second => "second player",
    }
}
