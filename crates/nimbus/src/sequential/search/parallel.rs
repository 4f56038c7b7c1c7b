//! A parallel search by racing (lazy SMP): helper threads search the same position as the
//! main searcher through one shared table, each starting its shallow nodes with other moves,
//! and the first to finish gives the answer. Each thread's bounds in the table are sound, so
//! every finisher's answer is the exact value: the result does not depend on the number of
//! threads, only the time and the nodes do.
//!
//! Near the root the threads also tell each other where they are ([`Busy`], after Weill's
//! ABDADA): a thread about to enter a position another thread is searching searches its
//! node's other moves first, so that two threads split a node's moves instead of repeating
//! the same subtree.

use crate::sequential::search::alphabeta::Searcher;
use crate::sequential::Game;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

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

/// Runs `solve` on `main` and on `helpers` more threads sharing its table, and returns the
/// first answer any of them finds (`None` when every one stopped at its limits). The helpers'
/// nodes are added to `main`'s count. A helper that cannot be started is left out.
pub fn race<G, T>(
    main: &mut Searcher<'_, G>,
    helpers: usize,
    solve: &(dyn Fn(&mut Searcher<'_, G>) -> Option<T> + Sync),
) -> Option<T>
where
    G: Game + Sync,
    G::Position: Send,
    G::Move: Send,
    T: Send,
{
    if helpers == 0 || main.table.is_none() {
        return solve(main);
    }
    let stop = Arc::new(AtomicBool::new(false));
    main.busy = Some(Arc::new(Busy::new()));
    let others: Vec<_> = (1..=helpers)
        .map(|id| main.helper(id, stop.clone()))
        .collect();
    main.stop = Some(stop.clone());
    let (answer, nodes) = std::thread::scope(|scope| {
        let running: Vec<_> = others
            .into_iter()
            .filter_map(|mut h| {
                let stop = &stop;
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || {
                        let found = solve(&mut h);
                        if found.is_some() {
                            stop.store(true, Relaxed);
                        }
                        // The helper (and its share of the table) ends with its thread.
                        (found, h.nodes)
                    })
                    .ok()
            })
            .collect();
        let mut answer = solve(main);
        stop.store(true, Relaxed);
        let mut nodes = 0;
        for r in running {
            // A helper that panicked has no answer; the main search's stands.
            if let Ok((found, n)) = r.join() {
                answer = answer.or(found);
                nodes += n;
            }
        }
        (answer, nodes)
    });
    main.stop = None;
    main.busy = None;
    main.nodes += nodes;
    if answer.is_some() {
        // The main search may have stopped only because a helper finished first.
        main.stopped = false;
    }
    answer
}
