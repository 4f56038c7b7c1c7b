//! A parallel search by racing (lazy SMP): helper threads search the same position as the
//! main searcher through one shared table, each starting its shallow nodes with other moves.
//! The threads search each null window of the root together ([`Crew`]), and the first to
//! finish a window answers it. Each thread's bounds in the table are sound, so every
//! finisher's answer is exact: the result does not depend on the number of threads, only
//! the time and the nodes do.
//!
//! Near the root the threads also tell each other where they are ([`Busy`], after Weill's
//! ABDADA): a thread about to enter a position another thread is searching searches its
//! node's other moves first, so that two threads split a node's moves instead of repeating
//! the same subtree.

use crate::sequential::search::alphabeta::Found;
use crate::sequential::search::alphabeta::Searcher;
use crate::sequential::search::table::Table;
use crate::sequential::Game;
use crate::sequential::Value;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// How many plies from the root a thread marks the nodes it is in: deeper subtrees are too
/// small to be worth splitting, and marking costs a store to a random cache line. Measured
/// on the hard openings (bench/RESULTS.md, 2026-11-29): 2 plies 17.3 s, 4 to 6 plies 16.0 s,
/// 8 plies 17.0 s, 16 plies 17.1 s, against 19.6 s on one thread.
pub(super) const BUSY_PLIES: usize = 6;
/// Slots of [`Busy`], as a power of two.
const BUSY_BITS: u32 = 14;

/// The positions the threads of a parallel search are in near the root: a hash of slots
/// holding one position key each. A collision or an overwritten mark only changes the order
/// in which a thread tries its moves, never a value.
pub struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    fn new() -> Busy {
        Busy {
            slots: (0..1u32 << BUSY_BITS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - BUSY_BITS)) as usize]
    }

    /// Records that a thread is searching the position `key` (0, an empty slot, is never
    /// marked).
    pub(super) fn mark(&self, key: u64) {
        if key != 0 {
            self.slot(key).store(key, Relaxed);
        }
    }

    /// Records that the search of `key` is over (unless another position took the slot).
    pub(super) fn unmark(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }

    /// Whether some thread is searching the position `key`.
    pub(super) fn busy(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Relaxed) == key
    }
}

/// A search running on one thread that other threads may join while it runs
/// ([`Searcher::open`]): its table, the flag that stops every thread of it, its marks, and the
/// crew that searches each of its windows with it.
pub struct Open<P> {
    table: Arc<Table>,
    stop: Arc<AtomicBool>,
    busy: Arc<Busy>,
    limits: (Option<Instant>, u64),
    crew: Arc<Crew<P>>,
}

impl<G: Game> Searcher<'_, G> {
    /// Opens this searcher's next searches to helpers: they mark the nodes they are in near
    /// the root, search each window of this searcher's root searches with it, and stop once
    /// the returned [`Open`] is closed. `None` without a table.
    pub fn open(&mut self) -> Option<Open<G::Position>> {
        let table = self.table.clone()?;
        let stop = Arc::new(AtomicBool::new(false));
        let busy = Arc::new(Busy::new());
        let crew = Arc::new(Crew::new(stop.clone()));
        self.stop = Some(stop.clone());
        self.busy = Some(busy.clone());
        self.crew = Some(crew.clone());
        Some(Open {
            table,
            stop,
            busy,
            limits: (self.deadline, self.max_nodes),
            crew,
        })
    }

    /// Ends what [`Searcher::open`] began (the helpers are gone by then).
    pub fn close(&mut self) {
        self.stop = None;
        self.busy = None;
        self.crew = None;
        // A search stopped because a helper finished first was not stopped by a limit.
        self.stopped = false;
    }
}

impl<P: Clone> Open<P> {
    /// A helper of the open search: the same table and limits, its own move order (`id`, not
    /// 0, picks it).
    pub fn join<'g, G: Game<Position = P>>(&self, game: &'g G, id: usize) -> Searcher<'g, G> {
        Searcher::joining(
            game,
            Some(self.table.clone()),
            self.limits,
            self.stop.clone(),
            Some(self.busy.clone()),
            id.max(1),
        )
    }

    /// Helps the open search with `helper` (from [`Open::join`]): searches each of its
    /// windows with it until it is closed.
    pub fn help<G: Game<Position = P>>(&self, helper: &mut Searcher<'_, G>) {
        self.crew.serve(helper);
    }

    /// Stops the search and its helpers: they return at their next checkpoint.
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
        self.crew.close();
    }

    /// Whether the search was stopped.
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }
}

/// The threads that search every window of one searcher's root searches together: the
/// searcher (the lead) posts each window, the helpers of the crew search it too through the
/// shared table, and the first to finish answers it; the others stop, and all start the next
/// window together (after Steininger's solver, whose threads share each null-window search).
/// Threads that each ran a whole sequence of windows drifted onto different questions.
pub struct Crew<P> {
    state: Mutex<Watch<P>>,
    changed: Condvar,
    /// Raised when the window has its answer: every searcher of the crew stops.
    stop: Arc<AtomicBool>,
}

/// What a crew is doing.
struct Watch<P> {
    /// The window being searched: the position, the bounds and the depth.
    job: Option<(P, Value, Value, Option<u32>)>,
    /// The number of the window (a helper searches each one once).
    round: u64,
    /// Helpers searching the window now.
    working: usize,
    /// A helper's answer to the window.
    answer: Option<Found>,
    /// Set when the lead's search is over: the helpers leave.
    closed: bool,
}

impl<P: Clone> Crew<P> {
    /// A crew stopping its searchers through `stop`.
    pub(super) fn new(stop: Arc<AtomicBool>) -> Crew<P> {
        Crew {
            state: Mutex::new(Watch {
                job: None,
                round: 0,
                working: 0,
                answer: None,
                closed: false,
            }),
            changed: Condvar::new(),
            stop,
        }
    }

    fn watch(&self) -> MutexGuard<'_, Watch<P>> {
        // Each critical section leaves the state whole: a panic cannot break it.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The lead's search of one window: posted to the helpers, searched here too, and
    /// answered by whoever finishes first. `None` when a limit stopped every searcher.
    pub(super) fn lead<G: Game<Position = P>>(
        &self,
        lead: &mut Searcher<'_, G>,
        pos: &P,
        alpha: Value,
        beta: Value,
        depth: Option<u32>,
    ) -> Option<Found> {
        {
            let mut w = self.watch();
            w.round += 1;
            w.job = Some((pos.clone(), alpha, beta, depth));
            w.answer = None;
        }
        self.changed.notify_all();
        let mine = lead.search_alone(pos, alpha, beta, depth);
        self.stop.store(true, Relaxed);
        let theirs = {
            let mut w = self.watch();
            w.job = None;
            while w.working > 0 {
                w = self
                    .changed
                    .wait(w)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            w.answer.take()
        };
        self.stop.store(false, Relaxed);
        match (mine, theirs) {
            (Some(f), _) => Some(f),
            (None, Some(f)) => {
                // Stopped only because a helper answered first.
                lead.stopped = false;
                Some(f)
            }
            (None, None) => None,
        }
    }

    /// A helper's work: every window the lead posts, until the lead closes the crew.
    pub(super) fn serve<G: Game<Position = P>>(&self, helper: &mut Searcher<'_, G>) {
        let mut seen = 0;
        loop {
            let (pos, alpha, beta, depth) = {
                let mut w = self.watch();
                loop {
                    if w.closed {
                        return;
                    }
                    if w.round != seen && w.job.is_some() {
                        break;
                    }
                    w = self
                        .changed
                        .wait(w)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
                seen = w.round;
                w.working += 1;
                w.job.clone().expect("a job")
            };
            // Leaves the window when dropped, also if the search panics: the lead waits for
            // every helper in it.
            let _leave = Leave(self);
            helper.stopped = false;
            if let Some(f) = helper.search_alone(&pos, alpha, beta, depth) {
                let mut w = self.watch();
                if w.answer.is_none() {
                    w.answer = Some(f);
                }
                self.stop.store(true, Relaxed);
            }
        }
    }

    /// Ends the crew's work: its helpers return from [`Crew::serve`].
    pub(super) fn close(&self) {
        self.watch().closed = true;
        self.changed.notify_all();
    }
}

/// Closes a crew when dropped.
struct Closing<'a, P: Clone>(&'a Crew<P>);

impl<P: Clone> Drop for Closing<'_, P> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// A helper's place in a crew's window, given up when dropped.
struct Leave<'a, P: Clone>(&'a Crew<P>);

impl<P: Clone> Drop for Leave<'_, P> {
    fn drop(&mut self) {
        self.0.watch().working -= 1;
        self.0.changed.notify_all();
    }
}

/// Runs `solve` on `main` with `helpers` more threads searching each of its windows with it
/// ([`Crew`]) through its table; the value is `solve`'s, whoever answered each window. The
/// helpers' nodes are added to `main`'s count. A helper that cannot be started is left out.
pub fn race<G, T>(
    main: &mut Searcher<'_, G>,
    helpers: usize,
    solve: &(dyn Fn(&mut Searcher<'_, G>) -> Option<T> + Sync),
) -> Option<T>
where
    G: Game + Sync,
    G::Position: Send + Sync,
    G::Move: Send,
    T: Send,
{
    if helpers == 0 || main.table.is_none() {
        return solve(main);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let crew = Arc::new(Crew::new(stop.clone()));
    main.busy = Some(Arc::new(Busy::new()));
    let others: Vec<_> = (1..=helpers)
        .map(|id| main.helper(id, stop.clone()))
        .collect();
    main.stop = Some(stop);
    main.crew = Some(crew.clone());
    let (answer, nodes) = std::thread::scope(|scope| {
        let running: Vec<_> = others
            .into_iter()
            .filter_map(|mut h| {
                let crew = &crew;
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || {
                        crew.serve(&mut h);
                        h.nodes
                    })
                    .ok()
            })
            .collect();
        let answer = {
            // The helpers leave when the search ends, also if it panics.
            let _closing = Closing(&crew);
            solve(main)
        };
        let nodes: u64 = running.into_iter().filter_map(|r| r.join().ok()).sum();
        (answer, nodes)
    });
    main.stop = None;
    main.busy = None;
    main.crew = None;
    main.nodes += nodes;
    answer
}
