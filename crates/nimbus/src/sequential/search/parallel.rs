//! A parallel search by racing (lazy SMP): helper threads search the same position as the
//! main searcher through one shared table, each starting its shallow nodes with other moves,
//! and the first to finish gives the answer. Each thread's bounds in the table are sound, so
//! every finisher's answer is the exact value: the result does not depend on the number of
//! threads, only the time and the nodes do.

use crate::sequential::search::alphabeta::Searcher;
use crate::sequential::Game;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;

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
    main.nodes += nodes;
    if answer.is_some() {
        // The main search may have stopped only because a helper finished first.
        main.stopped = false;
    }
    answer
}
