//! Iterative deepening: depth-limited searches of depth 1, 2, 3, …, each one ordered by the
//! best moves the previous ones left in the transposition table, until a search reaches the
//! end of the game (the value is exact), the depth limit, or the deadline.
//!
//! At a deadline the answer is the deepest finished iteration's, marked inexact; each
//! iteration is an MTD(f) search guessed from the previous value.

use crate::sequential::search::alphabeta::{finish, Found, Searcher};
use crate::sequential::search::mtdf::mtdf;
use crate::sequential::{Game, Search, SearchLimits};
use std::time::Instant;

/// Deepens until the value is exact or a limit is reached. `None` only when the deadline
/// stopped even the first iteration.
pub fn solve<G: Game>(g: &G, p: &G::Position, limits: &SearchLimits) -> Option<Search<G::Move>> {
    let started = Instant::now();
    let mut s = Searcher::new(g, limits);
    let mut last: Option<(Found, u32, Option<G::Move>)> = None;
    let mut depth = 1u32;
    loop {
        let guess = last.map_or(0, |(f, _, _)| f.value);
        let best = match &last {
            Some((f, d, _)) => format!(", value {} at depth {d}", f.value),
            None => String::new(),
        };
        crate::core::progress::phase(&format!("searching {depth} plies deep{best}"), 0);
        let Some(found) = mtdf(&mut s, p, guess, Some(depth)) else {
            break;
        };
        last = Some((found, depth, s.root_best()));
        if !found.horizon || limits.depth.is_some_and(|d| depth >= d) {
            if let Some(done) = finish(&mut s, p, found, Some(depth), started) {
                return Some(done);
            }
            break;
        }
        depth += 1;
    }
    // The deadline: report the deepest finished iteration, as far as it is known.
    let (found, depth, best) = last?;
    Some(Search {
        value: found.value,
        best_moves: best.into_iter().collect(),
        pv: best.into_iter().collect(),
        nodes: s.nodes,
        elapsed: started.elapsed(),
        depth: Some(depth),
        exact: false,
    })
}
