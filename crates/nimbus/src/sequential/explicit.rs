//! Any game with hashable positions, explored once into an explicit graph that the strong
//! solver can rank: the positions reachable from a root, numbered in the order a breadth-first
//! search meets them, with their moves as lists of numbers.
//!
//! The array-based strong solver needs [`Indexed`]; games without a ranking of their own
//! (scripts, say) get one here, at the price of a hash map during the exploration and four
//! bytes a move afterwards. The graph owns no part of the game, so it is `Sync` even when the
//! game is not, and the solver's parallel rounds run on it unchanged.

use super::{Game, Indexed, Player, Value};
use crate::{Error, Result};
use rustc_hash::FxHashMap;
use std::hash::Hash;

/// The positions reachable from a root, as a graph. Position `0` is the root.
#[derive(Debug, Clone)]
pub struct Explicit {
    /// Where each position's moves start in `targets`; one more entry than positions.
    starts: Vec<u64>,
    /// The position each move leads to.
    targets: Vec<u32>,
    /// The terminal payoff for the side to move, when the position is terminal.
    outcomes: Vec<Option<Value>>,
    /// Whose turn it is.
    movers: Vec<Player>,
}

impl Explicit {
    /// Explores every position reachable from `root`; stops with an error past `max_states`
    /// positions or when the game scores moves (the strong solver gives results only).
    pub fn build<G>(g: &G, root: &G::Position, max_states: u64) -> Result<(Self, Vec<G::Position>)>
    where
        G: Game,
        G::Position: Hash + Eq,
    {
        if g.has_rewards() {
            return Err(Error::Invalid(
                "the game scores moves; the strong solver gives results (win, loss, draw), so \
                 search it instead"
                    .into(),
            ));
        }
        let cap = max_states.min(u64::from(u32::MAX));
        let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
        let mut positions = vec![root.clone()];
        ids.insert(root.clone(), 0);
        let mut graph = Explicit {
            starts: vec![0],
            targets: Vec::new(),
            outcomes: Vec::new(),
            movers: Vec::new(),
        };
        let mut moves = Vec::new();
        let mut next = 0;
        while next < positions.len() {
            let p = positions[next].clone();
            next += 1;
            let outcome = g.outcome(&p);
            graph.outcomes.push(outcome);
            graph.movers.push(g.to_move(&p));
            if outcome.is_none() {
                moves.clear();
                g.moves(&p, &mut moves);
                for &m in &moves {
                    let q = g.play(&p, m);
                    let id = match ids.get(&q) {
                        Some(&id) => id,
                        None => {
                            if positions.len() as u64 >= cap {
                                return Err(Error::StateLimit {
                                    explored: positions.len() as u64,
                                    limit: max_states,
                                    what: "the game".into(),
                                });
                            }
                            let id = positions.len() as u32;
                            ids.insert(q.clone(), id);
                            positions.push(q);
                            id
                        }
                    };
                    graph.targets.push(id);
                }
            }
            graph.starts.push(graph.targets.len() as u64);
        }
        Ok((graph, positions))
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// True when there are no positions (never: the root is one).
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }
}

impl Game for Explicit {
    type Position = u32;
    type Move = u32;

    fn start(&self) -> u32 {
        0
    }
    fn moves(&self, p: &u32, out: &mut Vec<u32>) {
        let i = *p as usize;
        out.extend_from_slice(&self.targets[self.starts[i] as usize..self.starts[i + 1] as usize]);
    }
    fn play(&self, _p: &u32, m: u32) -> u32 {
        m
    }
    fn outcome(&self, p: &u32) -> Option<Value> {
        self.outcomes[*p as usize]
    }
    fn to_move(&self, p: &u32) -> Player {
        self.movers[*p as usize]
    }
    fn key(&self, p: &u32) -> Option<u64> {
        Some(u64::from(*p))
    }
}

impl Indexed for Explicit {
    fn size(&self) -> u64 {
        self.len() as u64
    }
    fn rank(&self, p: &u32) -> u64 {
        u64::from(*p)
    }
    fn unrank(&self, i: u64) -> u32 {
        i as u32
    }
}
