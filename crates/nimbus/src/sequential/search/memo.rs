//! Minimax memoised on positions: every position below the root is valued once and kept, so
//! games whose tree is exponential but whose positions are few (the coin grid: n²·2m
//! positions) are solved exactly, rewards included.
//!
//! The positions are hashed by value; the search runs on an explicit stack and stops with an
//! error on a cycle (values of score games with cycles are not defined) or past `max_states`.

use crate::sequential::{Game, Search, Value};
use crate::{Error, Result};
use rustc_hash::FxHashMap;
use std::hash::Hash;
use std::time::Instant;

/// The values of every position reachable from a root.
pub struct Memo<P> {
    values: FxHashMap<P, Value>,
}

impl<P: Hash + Eq + Clone> Memo<P> {
    /// The value of a solved position.
    pub fn value(&self, p: &P) -> Option<Value> {
        self.values.get(p).copied()
    }

    /// Positions solved.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when nothing was solved.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Values every position reachable from `root`.
pub fn explore<G>(g: &G, root: &G::Position, max_states: u64) -> Result<Memo<G::Position>>
where
    G: Game,
    G::Position: Hash + Eq,
{
    let mut values: FxHashMap<G::Position, Value> = FxHashMap::default();
    let mut on_stack: FxHashMap<G::Position, usize> = FxHashMap::default();
    // A frame: the position, its moves, the next move to look at, the best value so far.
    type Frame<P, M> = (P, Vec<M>, usize, Value);
    let mut stack: Vec<Frame<G::Position, G::Move>> = Vec::new();
    let push = |p: G::Position, stack: &mut Vec<_>, on_stack: &mut FxHashMap<_, _>| {
        let mut moves = Vec::new();
        if g.outcome(&p).is_none() {
            g.moves(&p, &mut moves);
        }
        on_stack.insert(p.clone(), stack.len());
        stack.push((p, moves, 0, Value::MIN));
    };
    push(root.clone(), &mut stack, &mut on_stack);
    while let Some(top) = stack.last_mut() {
        if top.2 < top.1.len() {
            let m = top.1[top.2];
            let child = g.play(&top.0, m);
            if let Some(&v) = values.get(&child) {
                top.3 = top.3.max(g.reward(&top.0, m) - v);
                top.2 += 1;
            } else if on_stack.contains_key(&child) {
                return Err(Error::Invalid(
                    "the game has a cycle: positions repeat, so memoised minimax has no value \
                     to give (search it with a depth limit, or solve it strongly: retrograde \
                     analysis gives draws where play can go on for ever)"
                        .into(),
                ));
            } else {
                if values.len() as u64 + stack.len() as u64 >= max_states {
                    return Err(Error::StateLimit {
                        explored: values.len() as u64,
                        limit: max_states,
                        what: "the game".into(),
                    });
                }
                push(child, &mut stack, &mut on_stack);
            }
            continue;
        }
        let (p, moves, _, best) = stack.pop().expect("nonempty");
        on_stack.remove(&p);
        let v = match g.outcome(&p) {
            Some(v) => v,
            None if moves.is_empty() => 0,
            None => best,
        };
        values.insert(p, v);
    }
    Ok(Memo { values })
}

/// The exact value of `p`, its best moves and a principal variation, by memoised minimax.
/// `nodes` counts the distinct positions valued.
pub fn solve<G>(g: &G, p: &G::Position, max_states: u64) -> Result<Search<G::Move>>
where
    G: Game,
    G::Position: Hash + Eq,
{
    let started = Instant::now();
    let memo = explore(g, p, max_states)?;
    let value_of = |q: &G::Position| memo.value(q).expect("every reachable position is valued");
    let best_at = |q: &G::Position, v: Value| -> Vec<G::Move> {
        let mut moves = Vec::new();
        if g.outcome(q).is_none() {
            g.moves(q, &mut moves);
        }
        moves.retain(|&m| g.reward(q, m) - value_of(&g.play(q, m)) == v);
        moves
    };
    let value = value_of(p);
    let best_moves = best_at(p, value);
    let mut pv = Vec::new();
    let (mut q, mut v) = (p.clone(), value);
    while let Some(&m) = best_at(&q, v).first() {
        pv.push(m);
        v = g.reward(&q, m) - v;
        q = g.play(&q, m);
    }
    Ok(Search {
        value,
        best_moves,
        pv,
        nodes: memo.len() as u64,
        elapsed: started.elapsed(),
        depth: None,
        exact: true,
    })
}
