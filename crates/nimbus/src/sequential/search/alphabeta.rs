//! Negamax with alpha–beta pruning (Knuth & Moore 1975), fail-soft, on an explicit stack.
//!
//! The [`Searcher`] is the engine the other searches drive: it tries the game's moves in the
//! game's order ([`Game::search_moves`]) after the table's remembered best move, narrows the
//! window with the game's bounds and the table's, stops at a depth limit with the game's
//! evaluation (marking such values as depending on the horizon), and gives up cleanly at a
//! deadline. A result `v` of a search with window (α, β) means: v ≤ α ⇒ value ≤ v; v ≥ β ⇒
//! value ≥ v; otherwise value = v.

use crate::sequential::search::table::{Entry, Table, EXACT_DEPTH, NO_MOVE};

/// How many children beyond the first have their table slots prefetched.
const PREFETCH: usize = 3;
use crate::sequential::{Game, Search, SearchLimits, Value, INFINITY};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

/// A search's answer: its value, and whether a depth limit (an evaluation) shaped it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// The fail-soft value.
    pub value: Value,
    /// True when some leaf was evaluated at the horizon rather than searched to the end.
    pub horizon: bool,
}

struct Frame<P, M> {
    pos: P,
    moves: Vec<M>,
    /// Index in the game's order of the move tried first (the table's best), or `NO_MOVE`.
    hoisted: u8,
    next: usize,
    alpha: Value,
    beta: Value,
    alpha0: Value,
    beta0: Value,
    known_lo: Value,
    known_hi: Value,
    best: Value,
    best_index: usize,
    key: Option<u64>,
    depth: u32,
    horizon: bool,
    nodes_at_entry: u64,
    /// Moves from this index on were put back because another thread was searching them
    /// (see [`super::parallel::Busy`]); they are searched last, without being put back again.
    fresh_end: usize,
    /// Whether this node is marked as being searched, for the other threads.
    marked: bool,
}

enum Entered {
    Leaf(Found),
    Pushed,
}

/// The alpha–beta engine, with its table and counters; reuse it across searches of one game.
pub struct Searcher<'g, G: Game> {
    pub(super) game: &'g G,
    /// Shared with the helpers of a parallel search ([`super::parallel`]) while they run.
    pub(super) table: Option<Arc<Table>>,
    frames: Vec<Frame<G::Position, G::Move>>,
    used: usize,
    /// Positions visited since the searcher was made (or [`Searcher::reset`]).
    pub nodes: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) max_nodes: u64,
    pub(super) stopped: bool,
    root_best: Option<G::Move>,
    /// Raised when another thread of a parallel search has the answer.
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// A helper's number (0: the main searcher): helpers start their shallow nodes with
    /// different moves, so that they fill the shared table with different subtrees.
    pub(super) helper: usize,
    /// The nodes the threads of a parallel search are in, shared by them while they run.
    pub(super) busy: Option<Arc<super::parallel::Busy>>,
    /// The threads that search each window of this searcher's root searches with it, while
    /// a parallel search runs ([`super::parallel::Crew`]).
    pub(super) crew: Option<Arc<super::parallel::Crew<G::Position>>>,
    /// The largest the table may grow to (as a power of two), when it may grow.
    grow_to_bits: Option<u32>,
    /// Tables of other sizes, kept for the next search that needs them.
    spare: Vec<Table>,
    /// [`Searcher::nodes`] when the table was last emptied or grown.
    nodes_at_table: u64,
}

/// A search that has visited this many nodes an entry of its table outgrows the table.
const GROW_AFTER_NODES_PER_ENTRY: u64 = 16;
/// How many plies from the root a helper of a parallel search tries its own first move.
const HELPER_PLIES: usize = 3;

/// How much larger (as a power of two) each growth makes the table.
const GROW_BITS: u32 = 8;

/// Maps a move's place in the reordered list back to its index in the game's order.
fn original_index(place: usize, hoisted: u8) -> usize {
    let h = hoisted as usize;
    if hoisted == NO_MOVE || place > h {
        place
    } else if place == 0 {
        h
    } else {
        place - 1
    }
}

impl<'g, G: Game> Searcher<'g, G> {
    /// A searcher for `game`; the table is allocated only when the game gives position keys.
    pub fn new(game: &'g G, limits: &SearchLimits) -> Self {
        let table = game
            .key(&game.start())
            .map(|_| Arc::new(Table::new(limits.table_bits)));
        Searcher {
            game,
            table,
            frames: Vec::new(),
            used: 0,
            nodes: 0,
            deadline: limits.deadline,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            stopped: false,
            root_best: None,
            grow_to_bits: limits.grow_to_bits,
            spare: Vec::new(),
            nodes_at_table: 0,
            stop: None,
            helper: 0,
            busy: None,
            crew: None,
        }
    }

    /// A helper for a parallel search: the same game and limits, sharing this searcher's
    /// table, stopping when `stop` is raised.
    pub(super) fn helper(&self, helper: usize, stop: Arc<AtomicBool>) -> Searcher<'g, G> {
        Searcher::joining(
            self.game,
            self.table.clone(),
            (self.deadline, self.max_nodes),
            stop,
            self.busy.clone(),
            helper,
        )
    }

    /// A helper searching through `table` (another searcher's, which it never grows) under
    /// `limits` (deadline, work budget), stopping when `stop` is raised.
    pub(super) fn joining(
        game: &'g G,
        table: Option<Arc<Table>>,
        limits: (Option<Instant>, u64),
        stop: Arc<AtomicBool>,
        busy: Option<Arc<super::parallel::Busy>>,
        helper: usize,
    ) -> Searcher<'g, G> {
        Searcher {
            game,
            table,
            frames: Vec::new(),
            used: 0,
            nodes: 0,
            deadline: limits.0,
            max_nodes: limits.1,
            stopped: false,
            root_best: None,
            grow_to_bits: None,
            spare: Vec::new(),
            nodes_at_table: 0,
            stop: Some(stop),
            helper,
            busy,
            crew: None,
        }
    }

    /// Sets the work budget of the next searches, in nodes counted from the last reset.
    pub fn set_max_nodes(&mut self, max_nodes: u64) {
        self.max_nodes = max_nodes;
    }

    /// Whether the last search stopped (at the deadline, the work budget or Ctrl-C).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Lets searches run again after one stopped at the work budget, keeping the table.
    pub fn resume(&mut self) {
        self.stopped = false;
    }

    /// Moves to a table 2^[`GROW_BITS`] times larger (at most 2^`grow_to_bits`) when the
    /// search has outgrown the one it has: a small table that stays in the processor's cache
    /// is fastest for easy positions, a large one saves hard positions most of their work.
    /// The entries found so far come along.
    fn grow_table(&mut self, now: bool) {
        let (Some(most), Some(t)) = (self.grow_to_bits, &self.table) else {
            return;
        };
        let bits = t.bits();
        let due = self.nodes - self.nodes_at_table >= GROW_AFTER_NODES_PER_ENTRY << bits;
        // A table shared with helpers stays: they hold it.
        if bits >= most || !(due || now) || Arc::strong_count(t) > 1 {
            return;
        }
        let want = if now {
            most
        } else {
            (bits + GROW_BITS).min(most)
        };
        let larger = match self.spare.iter().position(|s| s.bits() == want) {
            Some(i) => {
                let mut s = self.spare.swap_remove(i);
                s.clear();
                s
            }
            None => Table::new(want),
        };
        larger.absorb(t);
        let smaller = self.table.replace(Arc::new(larger));
        self.spare.extend(smaller.and_then(Arc::into_inner));
        self.nodes_at_table = self.nodes;
    }

    /// Moves to the largest table the limits allow at once (a parallel search is about to
    /// share it, and a shared table cannot grow).
    pub fn grow_now(&mut self) {
        self.grow_table(true);
    }

    /// Sets the instant at which searches stop (each position of a batch gets its own).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Empties the table and the node count, for an independent search.
    pub fn reset(&mut self) {
        // A table that grew goes back to the smallest size for the next position.
        if let Some(i) = (0..self.spare.len()).min_by_key(|&i| self.spare[i].bits()) {
            if self
                .table
                .as_ref()
                .is_some_and(|t| t.bits() > self.spare[i].bits())
            {
                let smallest = self.spare.swap_remove(i);
                let larger = self.table.replace(Arc::new(smallest));
                self.spare.extend(larger.and_then(Arc::into_inner));
            }
        }
        if let Some(t) = &mut self.table {
            match Arc::get_mut(t) {
                Some(t) => t.clear(),
                // Still shared (a helper outlived its search): start a table of its own.
                None => *t = Arc::new(Table::new(t.bits())),
            }
        }
        self.nodes = 0;
        self.nodes_at_table = 0;
        self.stopped = false;
    }

    /// Maps the table's memory now (see [`Table::prefault`]), before timed searches.
    pub fn prefault(&mut self) {
        if let Some(t) = self.table.as_mut().and_then(Arc::get_mut) {
            t.prefault();
        }
    }

    /// The best move at the root of the last finished search (when it searched any move).
    pub fn root_best(&self) -> Option<G::Move> {
        self.root_best
    }

    // Kept as one function: the search's hot entry (table probe, bounds, move ordering), sharing
    // one frame's locals; it runs once a node on the explicit stack.
    fn enter(
        &mut self,
        pos: G::Position,
        mut alpha: Value,
        mut beta: Value,
        depth: u32,
    ) -> Entered {
        let g = self.game;
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            // Ctrl-C and the work budget stop the search as the deadline does: with the best
            // answer so far.
            if crate::core::progress::tick(self.nodes).is_err() || self.nodes >= self.max_nodes {
                self.stopped = true;
            }
            if self.stop.as_ref().is_some_and(|s| s.load(Relaxed)) {
                self.stopped = true;
            }
            self.grow_table(false);
        }
        if self.stopped {
            return Entered::Leaf(Found {
                value: 0,
                horizon: true,
            });
        }
        let leaf = |value, horizon| Entered::Leaf(Found { value, horizon });
        if let Some(v) = g.outcome(&pos) {
            return leaf(v, false);
        }
        if depth == 0 {
            return leaf(g.evaluate(&pos), true);
        }
        let key = self.table.as_ref().and_then(|_| g.key(&pos));
        // The table's slot is a random place in memory: start loading it while the game
        // works out its moves and bounds, which may settle the node without it.
        if let (Some(k), Some(t)) = (key, &self.table) {
            t.prefetch(k);
        }
        if self.used == self.frames.len() {
            self.frames.push(Frame {
                pos: pos.clone(),
                moves: Vec::new(),
                hoisted: NO_MOVE,
                next: 0,
                alpha: 0,
                beta: 0,
                alpha0: 0,
                beta0: 0,
                known_lo: 0,
                known_hi: 0,
                best: 0,
                best_index: 0,
                key: None,
                depth: 0,
                horizon: false,
                nodes_at_entry: 0,
                fresh_end: 0,
                marked: false,
            });
        }
        let f = &mut self.frames[self.used];
        f.moves.clear();
        let (lo, hi) = g.search_moves(&pos, &mut f.moves);
        if f.moves.is_empty() {
            return leaf(if lo == hi { lo } else { 0 }, false);
        }
        if lo == hi || lo >= beta {
            return leaf(lo, false);
        }
        if hi <= alpha {
            return leaf(hi, false);
        }
        let (mut known_lo, mut known_hi, mut hoisted, mut horizon) = (lo, hi, NO_MOVE, false);
        // A node with one move (a forced reply, in Connect Four) is worth no table slot of its
        // own: its child has one, and skipping the probe and the store saves more time than
        // searching it again costs (measured on Connect Four's tuning lines: 4-5 % more nodes,
        // 8-10 % less time).
        let key = if f.moves.len() == 1 { None } else { key };
        if let (Some(k), Some(t)) = (key, &self.table) {
            if let Some(e) = t.probe(k) {
                hoisted = e.best;
                if e.depth == EXACT_DEPTH || e.depth as u32 >= depth {
                    horizon = e.depth != EXACT_DEPTH;
                    known_lo = known_lo.max(e.lo);
                    known_hi = known_hi.min(e.hi);
                    if known_lo >= beta || known_lo >= known_hi {
                        return leaf(known_lo, horizon);
                    }
                    if known_hi <= alpha {
                        return leaf(known_hi, horizon);
                    }
                }
            }
        }
        let probed = key.is_some() && g.probe_children(&pos);
        if let (Some(t), true) = (&self.table, probed) {
            // A child's upper bound in the table is a lower bound here: one may already
            // reach β without searching anything.
            for &m in f.moves.iter() {
                let Some(e) = g.key(&g.play(&pos, m)).and_then(|k| t.probe(k)) else {
                    continue;
                };
                if e.depth == EXACT_DEPTH || e.depth as u32 + 1 >= depth {
                    let bound = g.reward(&pos, m) - e.hi;
                    if bound > known_lo {
                        known_lo = bound;
                        horizon |= e.depth != EXACT_DEPTH;
                    }
                }
            }
            if known_lo >= beta || known_lo >= known_hi {
                return leaf(known_lo, horizon);
            }
        }
        alpha = alpha.max(known_lo);
        beta = beta.min(known_hi);
        if alpha >= beta {
            return leaf(alpha, horizon);
        }
        if self.helper != 0 && self.used < HELPER_PLIES && f.moves.len() > 1 {
            // A helper near the root starts with a move of its own instead.
            hoisted = ((self.helper + self.used) % f.moves.len()) as u8;
        }
        if (hoisted as usize) < f.moves.len() && hoisted != 0 {
            f.moves[..=hoisted as usize].rotate_right(1);
        } else {
            hoisted = NO_MOVE;
        }
        f.pos = pos;
        f.hoisted = hoisted;
        f.next = 0;
        f.alpha = alpha;
        f.beta = beta;
        f.alpha0 = alpha;
        f.beta0 = beta;
        f.known_lo = known_lo;
        f.known_hi = known_hi;
        f.best = -INFINITY;
        f.best_index = 0;
        f.key = key;
        f.depth = depth;
        f.horizon = horizon;
        f.nodes_at_entry = self.nodes;
        f.fresh_end = f.moves.len();
        // Near the root of a parallel search, the other threads learn that this node is being
        // searched, and search their other moves first.
        f.marked = match (&self.busy, key) {
            (Some(b), Some(k)) if self.used < super::parallel::BUSY_PLIES => {
                b.mark(k);
                true
            }
            _ => false,
        };
        // The children's table slots are random places in memory: start loading the next
        // few while the first child is searched (unless looking them up just loaded them).
        if let (Some(t), Some(_), false) = (&self.table, key, probed) {
            for &m in f.moves.iter().skip(1).take(PREFETCH) {
                if let Some(k) = g.key(&g.play(&f.pos, m)) {
                    t.prefetch(k);
                }
            }
        }
        self.used += 1;
        Entered::Pushed
    }

    /// Searches `pos` with the window (`alpha`, `beta`) to `depth` plies (`None`: to the end).
    /// `None` when the deadline stopped it.
    pub fn search(
        &mut self,
        pos: &G::Position,
        alpha: Value,
        beta: Value,
        depth: Option<u32>,
    ) -> Option<Found> {
        // A search from the root with a crew: every thread of it searches this window.
        if let (0, Some(crew)) = (self.used, self.crew.clone()) {
            return crew.lead(self, pos, alpha, beta, depth);
        }
        self.search_alone(pos, alpha, beta, depth)
    }

    /// [`Searcher::search`] on this thread only.
    pub(super) fn search_alone(
        &mut self,
        pos: &G::Position,
        alpha: Value,
        beta: Value,
        depth: Option<u32>,
    ) -> Option<Found> {
        let g = self.game;
        let base = self.used;
        let depth = depth.unwrap_or(u32::MAX);
        let mut returned = match self.enter(pos.clone(), alpha, beta, depth) {
            Entered::Leaf(found) => Some(found),
            Entered::Pushed => None,
        };
        loop {
            if self.used == base {
                let found = returned.expect("the root returns a value");
                return (!self.stopped).then_some(found);
            }
            let top = self.used - 1;
            let f = &mut self.frames[top];
            if let Some(child) = returned.take() {
                let m = f.moves[f.next];
                let v = g.reward(&f.pos, m) - child.value;
                f.horizon |= child.horizon;
                if v > f.best {
                    f.best = v;
                    f.best_index = f.next;
                    f.alpha = f.alpha.max(v);
                }
                f.next += 1;
                if f.alpha >= f.beta || f.next == f.moves.len() || self.stopped {
                    // The game's and the table's bounds hold for the value searched to the end;
                    // a search to the end never leaves them, but evaluations at a depth limit
                    // may: the node's value is the best move's, kept within its bounds.
                    let best = f.best.max(f.known_lo).min(f.known_hi);
                    let (lo, hi) = if best <= f.alpha0 {
                        (f.known_lo, best.min(f.known_hi))
                    } else if best >= f.beta0 {
                        (best.max(f.known_lo), f.known_hi)
                    } else {
                        (best, best)
                    };
                    let found = Found {
                        value: best,
                        horizon: f.horizon,
                    };
                    if top == base {
                        self.root_best = Some(f.moves[f.best_index]);
                    }
                    if let (true, Some(b), Some(k)) = (f.marked, &self.busy, f.key) {
                        b.unmark(k);
                    }
                    if let (Some(k), Some(t), false) = (f.key, &self.table, self.stopped) {
                        // A node where every move failed low has no meaningful best move.
                        let index = if best <= f.alpha0 {
                            NO_MOVE as usize
                        } else if f.fresh_end < f.moves.len() {
                            // Moves were put back: find the best one in the game's order.
                            let best_move = f.moves[f.best_index];
                            let mut order = Vec::new();
                            g.search_moves(&f.pos, &mut order);
                            order
                                .iter()
                                .position(|&m| m == best_move)
                                .unwrap_or(NO_MOVE as usize)
                        } else {
                            original_index(f.best_index, f.hoisted)
                        };
                        let entry = Entry {
                            lo,
                            hi,
                            depth: if f.horizon {
                                f.depth.min(EXACT_DEPTH as u32 - 1) as u8
                            } else {
                                EXACT_DEPTH
                            },
                            best: index.min(NO_MOVE as usize) as u8,
                        };
                        t.store(k, entry, self.nodes - f.nodes_at_entry);
                    }
                    self.used -= 1;
                    returned = Some(found);
                    continue;
                }
            }
            let f = &mut self.frames[top];
            let m = f.moves[f.next];
            let r = g.reward(&f.pos, m);
            let child = g.play(&f.pos, m);
            // A move another thread is searching waits, unless it is the first (its bound
            // decides whether the others are needed) or no fresh move is left after it.
            if let Some(b) = &self.busy {
                if f.next > 0
                    && f.next + 1 < f.fresh_end
                    && g.key(&child).is_some_and(|k| b.busy(k))
                {
                    f.moves[f.next..].rotate_left(1);
                    f.fresh_end -= 1;
                    continue;
                }
            }
            let f = &self.frames[top];
            let (ca, cb, cd) = (r - f.beta, r - f.alpha, f.depth.saturating_sub(1));
            if let Entered::Leaf(found) = self.enter(child, ca, cb, cd) {
                returned = Some(found);
            }
        }
    }

    /// The exact value of `pos` (to `depth`), searched with the full window.
    pub fn value(&mut self, pos: &G::Position, depth: Option<u32>) -> Option<Found> {
        self.search(pos, -INFINITY, INFINITY, depth)
    }

    /// Whether playing `m` in `pos` reaches `value` (the value of `pos` at `depth`).
    fn reaches(
        &mut self,
        pos: &G::Position,
        m: G::Move,
        value: Value,
        depth: Option<u32>,
    ) -> Option<bool> {
        let g = self.game;
        let target = g.reward(pos, m) - value;
        let child = g.play(pos, m);
        let d = depth.map(|d| d.saturating_sub(1));
        // No move does better than `value`, so the child's value is at least `target`; the
        // move is best exactly when the child's value is at most `target`.
        self.search(&child, target, target + 1, d)
            .map(|f| f.value <= target)
    }

    /// Every legal move of `pos` that reaches its value `value` (computed to `depth`).
    pub fn best_moves(
        &mut self,
        pos: &G::Position,
        value: Value,
        depth: Option<u32>,
    ) -> Option<Vec<G::Move>> {
        let mut moves = Vec::new();
        if self.game.outcome(pos).is_none() {
            self.game.moves(pos, &mut moves);
        }
        let mut best = Vec::new();
        for m in moves {
            if self.reaches(pos, m, value, depth)? {
                best.push(m);
            }
        }
        Some(best)
    }

    /// A principal variation from `pos`, whose value is `value` (to `depth`): at each step the
    /// first move, in the game's search order, that keeps the value.
    pub fn principal_variation(
        &mut self,
        pos: &G::Position,
        value: Value,
        depth: Option<u32>,
    ) -> Option<Vec<G::Move>> {
        let g = self.game;
        let (mut pos, mut value, mut depth) = (pos.clone(), value, depth);
        let mut pv = Vec::new();
        let mut moves = Vec::new();
        while g.outcome(&pos).is_none() && depth != Some(0) {
            moves.clear();
            g.search_moves(&pos, &mut moves);
            if moves.is_empty() {
                // The game's bounds settled the value; look among all legal moves instead.
                g.moves(&pos, &mut moves);
            }
            let mut chosen = None;
            for &m in &moves {
                if self.reaches(&pos, m, value, depth)? {
                    chosen = Some(m);
                    break;
                }
            }
            let Some(m) = chosen else { break };
            value = g.reward(&pos, m) - value;
            pos = g.play(&pos, m);
            depth = depth.map(|d| d - 1);
            pv.push(m);
        }
        Some(pv)
    }
}

/// Solves `p` by alpha–beta with the full window, to `limits.depth` plies, then finds every
/// best move and a principal variation. `None` when the deadline stopped it.
pub fn solve<G: Game>(g: &G, p: &G::Position, limits: &SearchLimits) -> Option<Search<G::Move>> {
    let started = Instant::now();
    let mut s = Searcher::new(g, limits);
    let found = s.value(p, limits.depth)?;
    finish(&mut s, p, found, limits.depth, started)
}

/// Completes a search's answer with its best moves and principal variation.
pub fn finish<G: Game>(
    s: &mut Searcher<'_, G>,
    p: &G::Position,
    found: Found,
    depth: Option<u32>,
    started: Instant,
) -> Option<Search<G::Move>> {
    let depth = if found.horizon { depth } else { None };
    let best_moves = s.best_moves(p, found.value, depth)?;
    let pv = s.principal_variation(p, found.value, depth)?;
    Some(Search {
        value: found.value,
        best_moves,
        pv,
        nodes: s.nodes,
        elapsed: started.elapsed(),
        depth,
        exact: !found.horizon,
    })
}
