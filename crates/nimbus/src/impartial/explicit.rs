//! Games as explicit graphs: every reachable position numbered, options stored as lists.
//!
//! [`explore`] turns any [`Impartial`] game and start position into an [`ExplicitGame`] by a
//! breadth-first search (no recursion). Explicit games are what the engine uses when it must
//! search a disjunctive sum itself — for the remoteness of a sum, which, unlike the Grundy
//! value, is not determined by the components' values — and what tests use as an independent
//! reference.

use super::{Impartial, Indexed};

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use rustc_hash::FxHashMap;

/// A finite game graph in compressed form. Position `0` is the start.
#[derive(Debug, Clone, Default)]
pub struct ExplicitGame {
    /// `succ[offsets[v]..offsets[v+1]]` are the options of `v`.
    offsets: Vec<u32>,
    succ: Vec<u32>,
}

impl ExplicitGame {
    /// A game from adjacency lists; panics if a target is out of range (a programming error,
    /// never user input: user graphs are checked when they are read).
    pub fn from_lists(lists: &[Vec<u32>]) -> Self {
        let mut offsets = Vec::with_capacity(lists.len() + 1);
        let mut succ = Vec::new();
        offsets.push(0);
        for l in lists {
            for &t in l {
                assert!((t as usize) < lists.len(), "option out of range");
                succ.push(t);
            }
            offsets.push(succ.len() as u32);
        }
        ExplicitGame { offsets, succ }
    }

    /// A game from compressed rows: the options of `v` are `succ[offsets[v]..offsets[v+1]]`.
    pub fn from_csr(offsets: Vec<u32>, succ: Vec<u32>) -> Self {
        debug_assert_eq!(offsets.last().copied().unwrap_or(0) as usize, succ.len());
        ExplicitGame { offsets, succ }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether the game has no positions at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of moves (edges).
    pub fn edges(&self) -> usize {
        self.succ.len()
    }

    /// The options of position `v`.
    pub fn options(&self, v: u32) -> &[u32] {
        &self.succ[self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize]
    }
}

impl Impartial for ExplicitGame {
    type Position = u32;
    fn moves(&self, p: &u32, out: &mut Vec<u32>) {
        out.extend_from_slice(self.options(*p));
    }
}

impl Indexed for ExplicitGame {
    fn size(&self) -> usize {
        self.len()
    }
    fn index(&self, p: &u32) -> usize {
        *p as usize
    }
}

/// Numbers every position reachable from `start` (which gets 0), stopping with
/// [`Error::StateLimit`] past `limits.max_states` positions.
pub fn explore<G: Impartial>(
    game: &G,
    start: &G::Position,
    limits: Limits,
    what: &str,
) -> Result<ExplicitGame> {
    Ok(explore_positions(game, start, limits, what)?.0)
}

/// [`explore`], also returning the position of each number.
pub fn explore_positions<G: Impartial>(
    game: &G,
    start: &G::Position,
    limits: Limits,
    what: &str,
) -> Result<(ExplicitGame, Vec<G::Position>)> {
    crate::core::progress::phase(&format!("exploring {what}"), 0);
    let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
    let mut order: Vec<G::Position> = vec![start.clone()];
    ids.insert(start.clone(), 0);
    let mut offsets = vec![0u32];
    let mut succ = Vec::new();
    let mut buf = Vec::new();
    let mut head = 0;
    while head < order.len() {
        buf.clear();
        game.moves(&order[head], &mut buf);
        for q in buf.drain(..) {
            let next = ids.len() as u32;
            let id = *ids.entry(q).or_insert_with_key(|q| {
                order.push(q.clone());
                next
            });
            succ.push(id);
        }
        check_growth(
            order.len(),
            succ.len(),
            position_bytes::<G::Position>(),
            limits,
            what,
        )?;
        offsets.push(succ.len() as u32);
        head += 1;
    }
    Ok((ExplicitGame { offsets, succ }, order))
}

/// Numbers the nodes of a graph on `u32` reachable from `start` (which gets 0), breadth-first,
/// with `succ` listing a node's successors; returns the renumbered graph and each number's
/// node. Faster than [`explore_positions`] for games whose positions already are numbers.
pub fn explore_numbered(
    start: u32,
    mut succ: impl FnMut(u32, &mut Vec<u32>),
    limits: Limits,
    what: &str,
) -> Result<(ExplicitGame, Vec<u32>)> {
    crate::core::progress::phase(&format!("exploring {what}"), 0);
    let mut id: FxHashMap<u32, u32> = FxHashMap::default();
    id.insert(start, 0);
    let mut order = vec![start];
    let mut offsets = vec![0u32];
    let mut edges = Vec::new();
    let mut buf = Vec::new();
    let mut head = 0;
    while head < order.len() {
        buf.clear();
        succ(order[head], &mut buf);
        for &w in &buf {
            let next = order.len() as u32;
            let k = *id.entry(w).or_insert_with(|| {
                order.push(w);
                next
            });
            edges.push(k);
        }
        offsets.push(edges.len() as u32);
        head += 1;
        check_growth(
            order.len(),
            edges.len(),
            position_bytes::<u32>(),
            limits,
            what,
        )?;
    }
    Ok((
        ExplicitGame {
            offsets,
            succ: edges,
        },
        order,
    ))
}

/// Bytes an explored position may cost at worst: its entry in the numbering map, its copy in
/// the order and its offset.
fn position_bytes<P>() -> u64 {
    crate::core::budget::map_entry_bytes::<P, u32>() + std::mem::size_of::<P>() as u64 + 4
}

/// Stops an exploration that has outgrown the position limit, the memory budget (positions and
/// 4-byte edges, twice over while the edge list doubles) or the work budget (edges), or whose
/// edges no longer fit the `u32` numbering.
fn check_growth(
    positions: usize,
    edges: usize,
    bytes_per_position: u64,
    limits: Limits,
    what: &str,
) -> Result<()> {
    if positions % 4096 == 0 {
        crate::core::progress::tick(positions as u64)?;
    }
    if positions as u64 > limits.max_states || edges >= u32::MAX as usize {
        return Err(Error::StateLimit {
            explored: positions as u64,
            limit: limits.max_states,
            what: what.to_string(),
        });
    }
    let held = (positions as u64)
        .saturating_mul(bytes_per_position)
        .saturating_add(edges as u64 * 8);
    if held > limits.max_memory || edges as u64 > limits.max_work {
        let what = format!("the exploration of {what} (stopped after {positions} positions)");
        crate::core::budget::check_memory(&what, held, limits.max_memory)?;
        crate::core::budget::check_work(&what, edges as u64, limits.max_work)?;
    }
    Ok(())
}

/// The disjunctive sum of explicit games, searched position by position: a position is one
/// position of each component, a move is a move in exactly one of them.
pub struct ProductGame<'a> {
    /// The components.
    pub parts: &'a [ExplicitGame],
}

impl Impartial for ProductGame<'_> {
    type Position = Vec<u32>;
    fn cost(&self, p: &Self::Position) -> u64 {
        crate::impartial::parts_cost(p.len())
    }

    fn moves(&self, p: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        for (i, part) in self.parts.iter().enumerate() {
            for &q in part.options(p[i]) {
                let mut next = p.clone();
                next[i] = q;
                out.push(next);
            }
        }
    }
}
