//! Plain minimax (negamax form) over the whole game tree: no pruning, no table.
//!
//! This is the definition, value(p) = max over m of reward(m) − value(play(p, m)), evaluated
//! literally. It is exponential and meant as the reference the faster solvers are tested
//! against on small games.

use crate::sequential::{Game, Search, Value};
use std::time::Instant;

struct Frame<P, M> {
    pos: P,
    moves: Vec<M>,
    next: usize,
    best: Value,
    pv: Vec<M>,
}

enum Entered<P, M> {
    Leaf(Value),
    Inner(Frame<P, M>),
}

fn enter<G: Game>(g: &G, pos: G::Position, horizon: bool) -> Entered<G::Position, G::Move> {
    if let Some(v) = g.outcome(&pos) {
        return Entered::Leaf(v);
    }
    if horizon {
        return Entered::Leaf(g.evaluate(&pos));
    }
    let mut moves = Vec::new();
    g.moves(&pos, &mut moves);
    if moves.is_empty() {
        return Entered::Leaf(0);
    }
    Entered::Inner(Frame {
        pos,
        moves,
        next: 0,
        best: Value::MIN,
        pv: Vec::new(),
    })
}

/// The exact value of `p`, every best move and a principal variation, by visiting every
/// position of the tree below `p`.
pub fn solve<G: Game>(g: &G, p: &G::Position) -> Search<G::Move> {
    solve_to_depth(g, p, None)
}

/// Minimax to `depth` plies, where the game's evaluation values the positions not yet ended
/// (`None`: to the end of the game).
pub fn solve_to_depth<G: Game>(g: &G, p: &G::Position, depth: Option<u32>) -> Search<G::Move> {
    solve_until(g, p, depth, None).expect("no deadline, and the reference is not interrupted")
}

/// [`solve_to_depth`] that gives up (`None`) at `deadline` or on an interrupt
/// ([`crate::core::progress`]): the whole tree can be astronomically large.
pub fn solve_until<G: Game>(
    g: &G,
    p: &G::Position,
    depth: Option<u32>,
    deadline: Option<Instant>,
) -> Option<Search<G::Move>> {
    let limit = depth.map_or(usize::MAX, |d| d as usize);
    let requested = depth;
    let started = Instant::now();
    let mut nodes = 1u64;
    let mut root_values = Vec::new();
    let mut stack = match enter(g, p.clone(), limit == 0) {
        Entered::Leaf(v) => {
            return Some(Search {
                value: v,
                best_moves: Vec::new(),
                pv: Vec::new(),
                nodes,
                elapsed: started.elapsed(),
                depth,
                exact: depth.is_none(),
            })
        }
        Entered::Inner(f) => vec![f],
    };
    // The value (and PV) of the child just finished, waiting to be folded into its parent.
    let mut returned: Option<(Value, Vec<G::Move>)> = None;
    loop {
        let depth = stack.len();
        let top = stack
            .last_mut()
            .expect("the root frame is popped only at the end");
        if let Some((child, child_pv)) = returned.take() {
            let m = top.moves[top.next];
            let v = g.reward(&top.pos, m) - child;
            if depth == 1 {
                root_values.push(v);
            }
            if v > top.best {
                top.best = v;
                top.pv.clear();
                top.pv.push(m);
                top.pv.extend(child_pv);
            }
            top.next += 1;
        }
        if top.next == top.moves.len() {
            let done = stack.pop().expect("nonempty");
            if stack.is_empty() {
                let best_moves = done
                    .moves
                    .iter()
                    .zip(&root_values)
                    .filter(|&(_, &v)| v == done.best)
                    .map(|(&m, _)| m)
                    .collect();
                return Some(Search {
                    value: done.best,
                    best_moves,
                    pv: done.pv,
                    nodes,
                    elapsed: started.elapsed(),
                    depth: requested,
                    exact: requested.is_none(),
                });
            }
            returned = Some((done.best, done.pv));
            continue;
        }
        let child = g.play(&top.pos, top.moves[top.next]);
        nodes += 1;
        if nodes % 4096 == 0 {
            let late = deadline.is_some_and(|d| Instant::now() >= d);
            if late || crate::core::progress::tick(nodes).is_err() {
                return None;
            }
        }
        match enter(g, child, depth >= limit) {
            Entered::Leaf(v) => returned = Some((v, Vec::new())),
            Entered::Inner(f) => stack.push(f),
        }
    }
}
