//! Null-window search: the value found by a sequence of searches with windows of width one,
//! each answering "is the value above β?" (Plaat, Schaeffer, Pijls & de Bruin 1996).
//!
//! Two drivers share the transposition table of one [`Searcher`]:
//! - [`mtdf`]: MTD(f), which moves a bound towards the value from a first guess — the right
//!   choice when nothing bounds the value but a good guess exists (iterative deepening);
//! - [`bisect`]: bisection of the interval the game's bounds give, biased towards 0 so that
//!   the cheap "draw or better?" questions come first — the driver of Pascal Pons' Connect
//!   Four solver.

use crate::sequential::search::alphabeta::{Found, Searcher};
use crate::sequential::{Game, Value, INFINITY};

/// MTD(f) from `guess`: the exact value of `pos` at `depth`. `None` when the deadline hit.
pub fn mtdf<G: Game>(
    s: &mut Searcher<'_, G>,
    pos: &G::Position,
    guess: Value,
    depth: Option<u32>,
) -> Option<Found> {
    let (mut lo, mut hi) = (-INFINITY, INFINITY);
    let mut g = guess;
    let mut horizon = false;
    while lo < hi {
        let beta = if g == lo { g + 1 } else { g };
        let f = s.search(pos, beta - 1, beta, depth)?;
        horizon |= f.horizon;
        g = f.value;
        if g < beta {
            hi = g;
        } else {
            lo = g;
        }
    }
    Some(Found { value: g, horizon })
}

/// Bisection between the bounds `lo ≤ value ≤ hi` (which the caller knows, usually from
/// [`Game::search_moves`]); falls back to MTD(f) from 0 when either bound is infinite.
pub fn bisect<G: Game>(
    s: &mut Searcher<'_, G>,
    pos: &G::Position,
    lo: Value,
    hi: Value,
    depth: Option<u32>,
) -> Option<Found> {
    if lo <= -INFINITY || hi >= INFINITY {
        return mtdf(s, pos, 0, depth);
    }
    let (mut lo, mut hi) = (lo, hi);
    let mut horizon = false;
    while lo < hi {
        // The progress line says how far the bounds have closed (the value so far), not only
        // the nodes: a search to the end has no depth to show.
        crate::core::progress::phase(
            &format!("searching to the end: the value lies in [{lo}, {hi}]"),
            0,
        );
        let mut med = lo + (hi - lo) / 2;
        if med <= 0 && lo / 2 < med {
            med = lo / 2;
        } else if med >= 0 && hi / 2 > med {
            med = hi / 2;
        }
        let f = s.search(pos, med, med + 1, depth)?;
        horizon |= f.horizon;
        if f.value <= med {
            hi = f.value;
        } else {
            lo = f.value;
        }
    }
    Some(Found { value: lo, horizon })
}

/// The root's bounds as the game states them.
pub fn root_bounds<G: Game>(g: &G, pos: &G::Position) -> (Value, Value) {
    if let Some(v) = g.outcome(pos) {
        return (v, v);
    }
    let mut moves = Vec::new();
    g.search_moves(pos, &mut moves)
}
