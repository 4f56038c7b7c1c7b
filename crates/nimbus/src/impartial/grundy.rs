//! The generic Sprague–Grundy engine.
//!
//! `G(p) = mex { G(q) : q an option of p }`, evaluated by a depth-first search with an explicit
//! stack, so that a chain of 10^7 positions needs heap memory, not call-stack depth. Every
//! finished position is memoised (a hash map, or a flat array for [`Indexed`] games). A position
//! met again while it is still on the stack closes a cycle: the engine reports that cycle
//! instead of looping.
//!
//! Alongside the value the engine computes the normal-play remoteness (Steinhaus 1925; Winning
//! Ways ch. 9): 0 at a terminal position; from a position with a P-option, one more than the
//! smallest remoteness of a P-option (the winner hurries); otherwise one more than the largest
//! remoteness of an option (the loser delays). A position is P exactly when its remoteness is
//! even, which the tests use as a cross-check.

use super::{mex, Impartial, Indexed};

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use rustc_hash::FxHashMap;

/// What the engine knows of a finished position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The Sprague–Grundy value.
    pub grundy: u64,
    /// Moves left under optimal play (winner hurries, loser delays).
    pub remoteness: u64,
}

/// Marks a position that is on the search stack; such an entry is never returned as a value.
const IN_PROGRESS: Entry = Entry {
    grundy: u64::MAX,
    remoteness: u64::MAX,
};

/// Memo storage for the engine.
pub trait Store<P> {
    /// The entry of `p`, if it has one (finished or in progress).
    fn get(&self, p: &P) -> Option<Entry>;
    /// Sets the entry of `p`.
    fn set(&mut self, p: &P, e: Entry);
    /// How many positions have an entry.
    fn len(&self) -> u64;
    /// Whether no position has an entry.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A hash-map store, for any game.
pub struct HashStore<P>(FxHashMap<P, Entry>);

impl<P: Eq + std::hash::Hash + Clone> Store<P> for HashStore<P> {
    fn get(&self, p: &P) -> Option<Entry> {
        self.0.get(p).copied()
    }
    fn set(&mut self, p: &P, e: Entry) {
        self.0.insert(p.clone(), e);
    }
    fn len(&self) -> u64 {
        self.0.len() as u64
    }
}

/// A flat-array store for games that number their positions.
pub struct ArrayStore<'g, G> {
    game: &'g G,
    entries: Vec<Entry>,
    filled: u64,
}

/// An empty slot of an [`ArrayStore`].
const EMPTY: Entry = Entry {
    grundy: u64::MAX - 1,
    remoteness: 0,
};

impl<G: Indexed> Store<G::Position> for ArrayStore<'_, G> {
    fn get(&self, p: &G::Position) -> Option<Entry> {
        let e = self.entries[self.game.index(p)];
        (e != EMPTY).then_some(e)
    }
    fn set(&mut self, p: &G::Position, e: Entry) {
        let slot = &mut self.entries[self.game.index(p)];
        if *slot == EMPTY {
            self.filled += 1;
        }
        *slot = e;
    }
    fn len(&self) -> u64 {
        self.filled
    }
}

struct Frame<P> {
    pos: P,
    /// The options of `pos` are `arena[start..end]`; `next` is the first not yet finished.
    start: usize,
    end: usize,
    next: usize,
}

/// The Sprague–Grundy engine over a game `G` with memo storage `S`.
pub struct Engine<'g, G: Impartial, S> {
    game: &'g G,
    store: S,
    limits: Limits,
    what: String,
    arena: Vec<G::Position>,
    scratch: Vec<u64>,
    /// Moves listed so far, against the work budget.
    moves: u64,
}

impl<'g, G: Impartial> Engine<'g, G, HashStore<G::Position>> {
    /// An engine memoising in a hash map. `what` names the game in errors.
    pub fn hashed(game: &'g G, limits: Limits, what: impl Into<String>) -> Self {
        Engine {
            game,
            store: HashStore(FxHashMap::default()),
            limits,
            what: what.into(),
            arena: Vec::new(),
            scratch: Vec::new(),
            moves: 0,
        }
    }
}

impl<'g, G: Impartial> Engine<'g, G, HashStore<G::Position>> {
    /// An engine that continues from the memo of an earlier one (see [`Engine::into_store`]).
    pub fn with_store(
        game: &'g G,
        store: HashStore<G::Position>,
        limits: Limits,
        what: impl Into<String>,
    ) -> Self {
        Engine {
            game,
            store,
            limits,
            what: what.into(),
            arena: Vec::new(),
            scratch: Vec::new(),
            moves: 0,
        }
    }

    /// The memo, to be handed to a later engine over the same game.
    pub fn into_store(self) -> HashStore<G::Position> {
        self.store
    }
}

impl<'g, G: Indexed> Engine<'g, G, ArrayStore<'g, G>> {
    /// An engine memoising in a flat array of `game.size()` entries.
    pub fn indexed(game: &'g G, limits: Limits, what: impl Into<String>) -> Result<Self> {
        let what = what.into();
        if game.size() as u64 > limits.max_states {
            return Err(Error::StateLimit {
                explored: 0,
                limit: limits.max_states,
                what: format!("{what} ({} positions)", game.size()),
            });
        }
        Ok(Engine {
            game,
            store: ArrayStore {
                game,
                entries: vec![EMPTY; game.size()],
                filled: 0,
            },
            limits,
            what,
            arena: Vec::new(),
            scratch: Vec::new(),
            moves: 0,
        })
    }
}

impl<G: Impartial, S: Store<G::Position>> Engine<'_, G, S> {
    /// The Grundy value and remoteness of `root`.
    pub fn entry(&mut self, root: &G::Position) -> Result<Entry> {
        if let Some(e) = self.store.get(root) {
            debug_assert!(e != IN_PROGRESS);
            return Ok(e);
        }
        let mut stack: Vec<Frame<G::Position>> = Vec::new();
        self.push(&mut stack, root.clone())?;
        loop {
            let top = stack
                .last_mut()
                .expect("stack holds the root until it is finished");
            let mut descend = None;
            while top.next < top.end {
                let child = &self.arena[top.next];
                match self.store.get(child) {
                    Some(e) if e == IN_PROGRESS => {
                        let child = child.clone();
                        return Err(self.cycle(&stack, &child));
                    }
                    Some(_) => top.next += 1,
                    None => {
                        descend = Some(child.clone());
                        break;
                    }
                }
            }
            if let Some(child) = descend {
                self.push(&mut stack, child)?;
                continue;
            }
            let frame = stack.pop().expect("non-empty");
            let entry = self.finish(frame.start, frame.end);
            self.store.set(&frame.pos, entry);
            self.arena.truncate(frame.start);
            if stack.is_empty() {
                return Ok(entry);
            }
        }
    }

    /// The Grundy value of `p`.
    pub fn grundy(&mut self, p: &G::Position) -> Result<u64> {
        Ok(self.entry(p)?.grundy)
    }

    /// The options of `p` with their entries, in the order the game lists them.
    pub fn options(&mut self, p: &G::Position) -> Result<Vec<(G::Position, Entry)>> {
        let mut opts = Vec::new();
        self.game.moves(p, &mut opts);
        let mut out = Vec::with_capacity(opts.len());
        for q in opts {
            let e = self.entry(&q)?;
            out.push((q, e));
        }
        Ok(out)
    }

    /// The options of `p` that are P-positions: the winning moves of `p` on its own.
    pub fn winning_moves(&mut self, p: &G::Position) -> Result<Vec<G::Position>> {
        Ok(self
            .options(p)?
            .into_iter()
            .filter(|(_, e)| e.grundy == 0)
            .map(|(q, _)| q)
            .collect())
    }

    /// The entry of `p` if the engine has already finished it.
    pub fn known(&self, p: &G::Position) -> Option<Entry> {
        self.store.get(p).filter(|&e| e != IN_PROGRESS)
    }

    /// How many positions are memoised.
    pub fn explored(&self) -> u64 {
        self.store.len()
    }

    fn push(&mut self, stack: &mut Vec<Frame<G::Position>>, pos: G::Position) -> Result<()> {
        if self.store.len() >= self.limits.max_states {
            return Err(Error::StateLimit {
                explored: self.store.len(),
                limit: self.limits.max_states,
                what: self.what.clone(),
            });
        }
        let held = (self.store.len() + 1)
            .saturating_mul(crate::core::budget::map_entry_bytes::<G::Position, Entry>())
            .saturating_add(
                self.arena.capacity() as u64 * std::mem::size_of::<G::Position>() as u64,
            );
        if self.store.len() % 4096 == 0 {
            crate::core::progress::tick(self.store.len())?;
        }
        if held > self.limits.max_memory || self.moves > self.limits.max_work {
            let what = format!(
                "the search of {} (stopped after {} positions)",
                self.what,
                self.store.len()
            );
            crate::core::budget::check_memory(&what, held, self.limits.max_memory)?;
            crate::core::budget::check_work(&what, self.moves, self.limits.max_work)?;
        }
        self.store.set(&pos, IN_PROGRESS);
        let start = self.arena.len();
        self.game.moves(&pos, &mut self.arena);
        let end = self.arena.len();
        let cost: u64 = self.arena[start..end]
            .iter()
            .map(|q| self.game.cost(q))
            .sum();
        self.moves = self.moves.saturating_add(cost);
        stack.push(Frame {
            pos,
            start,
            end,
            next: start,
        });
        Ok(())
    }

    fn finish(&mut self, start: usize, end: usize) -> Entry {
        self.scratch.clear();
        let mut best_p: Option<u64> = None;
        let mut worst: u64 = 0;
        for q in &self.arena[start..end] {
            let e = self
                .store
                .get(q)
                .expect("options are finished before their parent");
            self.scratch.push(e.grundy);
            if e.grundy == 0 {
                best_p = Some(best_p.map_or(e.remoteness, |b| b.min(e.remoteness)));
            }
            worst = worst.max(e.remoteness);
        }
        let remoteness = match best_p {
            Some(r) => r + 1,
            None if start == end => 0,
            None => worst + 1,
        };
        Entry {
            grundy: mex(&mut self.scratch),
            remoteness,
        }
    }

    fn cycle(&self, stack: &[Frame<G::Position>], back_to: &G::Position) -> Error {
        let from = stack
            .iter()
            .position(|f| &f.pos == back_to)
            .expect("an in-progress position is on the stack");
        let mut cycle: Vec<String> = stack[from..]
            .iter()
            .map(|f| self.game.show(&f.pos))
            .collect();
        cycle.push(self.game.show(back_to));
        Error::Cycle {
            what: self.what.clone(),
            cycle,
        }
    }
}
