//! Searches of one position: plain minimax (the reference), memoised minimax for score games,
//! and the alpha–beta engine with its transposition table, which the null-window and
//! iterative-deepening drivers steer. [`search`] picks one by [`Method`].

pub mod alphabeta;
pub mod deepening;
pub mod memo;
pub mod minimax;
pub mod mtdf;
pub mod parallel;
pub mod pool;
pub mod table;

use super::{Game, Search, SearchLimits};
use crate::Result;
use std::time::Instant;

/// The search to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Exact and fast: null-window search with the table when the game has position keys,
    /// memoised minimax otherwise; iterative deepening when a depth or time limit is set.
    Auto,
    /// Plain minimax, the reference.
    Minimax,
    /// Memoised minimax.
    Memo,
    /// Alpha–beta with the full window.
    AlphaBeta,
    /// Null-window search (bisection between the game's bounds, or MTD(f)).
    NullWindow,
    /// Iterative deepening.
    Deepening,
}

/// Solves `p` with `method` under `limits`. A deadline that stops the search before any
/// answer is known is an error; one that stops iterative deepening gives its best answer so
/// far, marked inexact.
pub fn search<G>(
    g: &G,
    p: &G::Position,
    method: Method,
    limits: &SearchLimits,
    max_states: u64,
) -> Result<Search<G::Move>>
where
    G: Game,
    G::Position: std::hash::Hash + Eq,
{
    let method = resolve(g, p, method, limits);
    let timed_out = || stopped_early(limits);
    crate::core::progress::phase("searching", 0);
    match method {
        Method::Minimax => {
            minimax::solve_until(g, p, limits.depth, limits.deadline).ok_or_else(timed_out)
        }
        Method::Memo if limits.depth.is_some() => Err(crate::Error::Invalid(format!(
            "memoised minimax searches to the end: drop {} or pick another method",
            crate::core::hint::setting("depth")
        ))),
        Method::Memo => memo::solve(g, p, max_states),
        Method::AlphaBeta => alphabeta::solve(g, p, limits).ok_or_else(timed_out),
        Method::Deepening | Method::Auto => deepening::solve(g, p, limits).ok_or_else(timed_out),
        Method::NullWindow => {
            let started = Instant::now();
            let mut s = alphabeta::Searcher::new(g, limits);
            let (lo, hi) = mtdf::root_bounds(g, p);
            let found = mtdf::bisect(&mut s, p, lo, hi, limits.depth).ok_or_else(timed_out)?;
            alphabeta::finish(&mut s, p, found, limits.depth, started).ok_or_else(timed_out)
        }
    }
}

/// The search `Method::Auto` stands for: iterative deepening under a depth or time limit, else
/// the null-window search where the game gives keys for a table, else memoised minimax.
fn resolve<G: Game>(g: &G, p: &G::Position, method: Method, limits: &SearchLimits) -> Method {
    let limited = limits.depth.is_some() || limits.deadline.is_some();
    match method {
        Method::Auto if limited => Method::Deepening,
        Method::Auto if g.key(p).is_some() => Method::NullWindow,
        Method::Auto => Method::Memo,
        m => m,
    }
}

/// Why a search stopped before its first answer: Ctrl-C, the deadline, or else the work
/// budget.
fn stopped_early(limits: &SearchLimits) -> crate::Error {
    if crate::core::progress::interrupted() {
        crate::Error::Interrupted
    } else if limits.deadline.is_some_and(|d| Instant::now() >= d) {
        crate::Error::Invalid("the time limit passed before the first answer".into())
    } else {
        let most = limits.max_nodes.unwrap_or(u64::MAX);
        let what = format!("the search (stopped unfinished after {most} nodes)");
        crate::core::budget::check_work(&what, most.saturating_add(1), most)
            .err()
            .unwrap_or(crate::Error::Interrupted)
    }
}

/// [`search`] on `threads` threads where the search is a null-window one (the helpers race
/// through its table, each window taken together: [`parallel::race`]); any other search, or
/// one thread, as [`search`]. The value, best moves and principal variation do not depend on
/// the threads.
pub fn search_on_threads<G>(
    g: &G,
    p: &G::Position,
    method: Method,
    limits: &SearchLimits,
    max_states: u64,
    threads: usize,
) -> Result<Search<G::Move>>
where
    G: Game + Sync,
    G::Position: std::hash::Hash + Eq + Send + Sync,
    G::Move: Send,
{
    if threads < 2 || resolve(g, p, method, limits) != Method::NullWindow {
        return search(g, p, method, limits, max_states);
    }
    crate::core::progress::phase("searching", 0);
    let started = Instant::now();
    let mut s = alphabeta::Searcher::new(g, limits);
    let (lo, hi) = mtdf::root_bounds(g, p);
    let depth = limits.depth;
    let mut r = parallel::race(&mut s, threads - 1, &|s| {
        let found = mtdf::bisect(s, p, lo, hi, depth)?;
        alphabeta::finish(s, p, found, depth, started)
    })
    .ok_or_else(|| stopped_early(limits))?;
    // The helpers' nodes too.
    r.nodes = s.nodes;
    Ok(r)
}
