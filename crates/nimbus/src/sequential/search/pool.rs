//! Many positions on several threads (a batch): each thread takes the next position nobody
//! has started and searches it alone, with a table of its own that starts small enough to
//! stay in its core's cache. Once every position has been started, a thread with nothing
//! left to do joins a search still running as its helper ([`Open`]), so that the batch's last
//! hard positions are not left to one core. The values do not depend on the threads; the
//! nodes and times do.

use super::alphabeta::Searcher;
use super::parallel::Open;
use crate::core::error::Result;
use crate::sequential::{Game, SearchLimits};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// One position's result.
#[derive(Debug)]
pub struct Scored<T> {
    /// Its place among the positions.
    pub index: usize,
    /// The value; `None` when a limit stopped the search first.
    pub value: Option<T>,
    /// Nodes searched for it, its helpers' included.
    pub nodes: u64,
    /// Nodes searched for it by the thread that started it (whose limits stopped it, when
    /// it has no value).
    pub lead_nodes: u64,
    /// Wall time from its start to its end.
    pub seconds: f64,
    /// How many times a thread joined its search as a helper.
    pub helped: usize,
}

/// How a position is searched: its value with a searcher, `None` when a limit stopped it.
pub type Solve<'a, G, T> =
    dyn Fn(&mut Searcher<'_, G>, &<G as Game>::Position) -> Option<T> + Sync + 'a;

/// Nodes a position is searched alone before a thread with nothing left to do may join it:
/// most positions of a batch end sooner, and a search open to helpers can no longer grow its
/// table by steps (it takes the largest at once). While positions wait to be started, the
/// search goes on alone, checking again after four times as many.
const ALONE_NODES: u64 = 1 << 20;

/// A search that helpers may join (they search each of its windows with it).
struct Running<P> {
    open: Open<P>,
    helper_nodes: AtomicU64,
    /// Helpers in it now; changed only under [`Shared::running`]'s lock when rising.
    helpers: AtomicUsize,
    /// Helpers that joined it.
    joined: AtomicUsize,
}

/// What the threads of a batch share.
struct Shared<P> {
    /// The next position nobody has started.
    next: AtomicUsize,
    /// Positions whose result is sent.
    done: AtomicUsize,
    /// Set when a thread stopped at Ctrl-C or its time limit: the others stop starting.
    failed: AtomicBool,
    running: Mutex<Vec<Arc<Running<P>>>>,
}

/// The searches of one batch: the game, the positions and how each is searched.
struct Batch<'a, G: Game, T> {
    game: &'a G,
    positions: &'a [G::Position],
    threads: usize,
    limits: &'a SearchLimits,
    per_position: Option<Duration>,
    solve: &'a Solve<'a, G, T>,
    /// [`ALONE_NODES`] (smaller in tests, so that their small positions get helpers).
    alone_nodes: u64,
    shared: Shared<G::Position>,
}

/// Scores every position of `positions` by `solve` on `threads` threads, each searcher made
/// under `limits` and each position given `per_position` of wall time, and hands the results
/// to `each` in the positions' order (on the calling thread). Stops with the error of Ctrl-C
/// or the thread's time limit ([`crate::core::progress::check`]) after handing over the
/// results before it.
pub fn score_all<G, T>(
    game: &G,
    positions: &[G::Position],
    threads: usize,
    limits: &SearchLimits,
    per_position: Option<Duration>,
    solve: &Solve<'_, G, T>,
    each: &mut dyn FnMut(Scored<T>),
) -> Result<()>
where
    G: Game + Sync,
    G::Position: Send + Sync,
    T: Send,
{
    let batch = Batch {
        game,
        positions,
        threads: threads.max(1),
        limits,
        per_position,
        solve,
        alone_nodes: ALONE_NODES,
        shared: shared(),
    };
    batch.run(each)
}

fn shared<P>() -> Shared<P> {
    Shared {
        next: AtomicUsize::new(0),
        done: AtomicUsize::new(0),
        failed: AtomicBool::new(false),
        running: Mutex::new(Vec::new()),
    }
}

impl<G, T> Batch<'_, G, T>
where
    G: Game + Sync,
    G::Position: Send + Sync,
    T: Send,
{
    /// Runs the batch's threads, handing the results to `each` in order.
    fn run(&self, each: &mut dyn FnMut(Scored<T>)) -> Result<()> {
        let batch = self;
        let deadline = crate::core::progress::current_deadline();
        let (tx, rx) = mpsc::channel::<Scored<T>>();
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..batch.threads)
                .filter_map(|id| {
                    let tx = tx.clone();
                    std::thread::Builder::new()
                        .spawn_scoped(scope, move || {
                            crate::core::progress::with_deadline(deadline, || batch.work(id, &tx))
                        })
                        .ok()
                })
                .collect();
            // No thread could be started: this one does the work.
            let inline = workers.is_empty().then(|| batch.work(0, &tx));
            drop(tx);
            // Results arrive as they end; they are handed on in the positions' order.
            let mut waiting = BTreeMap::new();
            let mut turn = 0;
            for r in rx {
                waiting.insert(r.index, r);
                while let Some(r) = waiting.remove(&turn) {
                    each(r);
                    turn += 1;
                }
            }
            let mut outcome = inline.unwrap_or(Ok(()));
            for w in workers {
                let r = w.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                outcome = outcome.and(r);
            }
            outcome
        })
    }

    /// One thread's work: positions of its own while any is left, then help.
    fn work(&self, id: usize, tx: &mpsc::Sender<Scored<T>>) -> Result<()> {
        // Should this thread panic, the others must not wait for it (the panic reaches the
        // caller when they have ended).
        let _unwinding = Unwinding(&self.shared);
        let n = self.positions.len();
        // Made when the thread first starts a position: a thread that only helps has no
        // table of its own (the memory budget counts one table a position searched at once).
        let mut own: Option<Searcher<'_, G>> = None;
        while !self.shared.failed.load(SeqCst) {
            let i = self.shared.next.fetch_add(1, SeqCst);
            if i < n {
                let own = own.get_or_insert_with(|| {
                    let mut s = Searcher::new(self.game, self.limits);
                    s.prefault();
                    s
                });
                let scored = self.lead(own, i);
                self.shared.done.fetch_add(1, SeqCst);
                // The receiver outlives every worker.
                let _ = tx.send(scored);
                if let Err(e) = crate::core::progress::check() {
                    self.shared.failed.store(true, SeqCst);
                    return Err(e);
                }
            } else if !self.help(id) {
                if self.shared.done.load(SeqCst) >= n {
                    break;
                }
                // Every position is taken and none is open to help yet.
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        Ok(())
    }

    /// Searches position `i` on this thread, opening it to helpers once it proves long and
    /// every position has been started.
    fn lead(&self, own: &mut Searcher<'_, G>, i: usize) -> Scored<T> {
        let p = &self.positions[i];
        own.reset();
        let started = Instant::now();
        own.set_deadline(self.per_position.map(|d| started + d));
        let budget = self.limits.max_nodes.unwrap_or(u64::MAX);
        let mut alone = self.alone_nodes;
        let mut running: Option<Arc<Running<G::Position>>> = None;
        let value = loop {
            let cap = if running.is_some() || self.threads == 1 {
                budget
            } else {
                budget.min(alone)
            };
            own.set_max_nodes(cap);
            let found = (self.solve)(own, p);
            // Short of the cap: the deadline or Ctrl-C stopped it (or a helper finished).
            if found.is_some() || running.is_some() || cap == budget || own.nodes < cap {
                break found;
            }
            if self.shared.next.load(SeqCst) >= self.positions.len() {
                own.set_max_nodes(budget);
                // A shared table cannot grow: it takes the largest size now.
                own.grow_now();
                if let Some(open) = own.open() {
                    let r = Arc::new(Running {
                        open,
                        helper_nodes: AtomicU64::new(0),
                        helpers: AtomicUsize::new(0),
                        joined: AtomicUsize::new(0),
                    });
                    lock(&self.shared.running).push(r.clone());
                    running = Some(r);
                }
            } else {
                alone = alone.saturating_mul(4);
            }
            own.resume();
        };
        let mut nodes = own.nodes;
        let mut helped = 0;
        if let Some(r) = running {
            r.open.stop();
            // Out of the list first, so that no helper joins after the wait below.
            lock(&self.shared.running).retain(|x| !Arc::ptr_eq(x, &r));
            while r.helpers.load(SeqCst) > 0 {
                std::thread::yield_now();
            }
            nodes += r.helper_nodes.load(SeqCst);
            helped = r.joined.load(SeqCst);
            own.close();
        }
        Scored {
            index: i,
            value,
            nodes,
            seconds: started.elapsed().as_secs_f64(),
            lead_nodes: own.nodes,
            helped,
        }
    }

    /// Joins the running search with the fewest helpers; `false` when none is open.
    fn help(&self, id: usize) -> bool {
        let r = {
            let list = lock(&self.shared.running);
            let Some(r) = list
                .iter()
                .filter(|r| !r.open.stopped())
                .min_by_key(|r| r.helpers.load(SeqCst))
            else {
                return false;
            };
            r.helpers.fetch_add(1, SeqCst);
            r.joined.fetch_add(1, SeqCst);
            r.clone()
        };
        let mut h = r.open.join(self.game, id + 1);
        r.open.help(&mut h);
        r.helper_nodes.fetch_add(h.nodes, SeqCst);
        // The helper lets go of the table before the search it helped may reuse it.
        drop(h);
        r.helpers.fetch_sub(1, SeqCst);
        true
    }
}

/// Stops a batch when the thread holding it unwinds: the other threads stop starting
/// positions, and the helpers of every open search leave it.
struct Unwinding<'a, P: Clone>(&'a Shared<P>);

impl<P: Clone> Drop for Unwinding<'_, P> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.failed.store(true, SeqCst);
            for r in lock(&self.0.running).iter() {
                r.open.stop();
            }
        }
    }
}

/// The lock of `m`, also after a thread panicked holding it (the data stay consistent: each
/// critical section is one push, retain, or take).
fn lock<X>(m: &Mutex<X>) -> std::sync::MutexGuard<'_, X> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequential::games::connect4::Connect4;

    /// `n` random positions of the 6 × 5 board, 8 to 15 moves in, none of them over.
    fn random_positions(g: &Connect4, n: usize) -> Vec<<Connect4 as Game>::Position> {
        let mut rng = 47u64;
        let mut positions = Vec::new();
        while positions.len() < n {
            let mut p = g.start();
            let mut moves = Vec::new();
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for _ in 0..8 + (rng >> 61) as usize {
                moves.clear();
                g.moves(&p, &mut moves);
                if moves.is_empty() {
                    break;
                }
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                p = g.play(&p, moves[(rng >> 33) as usize % moves.len()]);
            }
            if g.outcome(&p).is_none() {
                positions.push(p);
            }
        }
        positions
    }

    /// Scores of random 6 × 5 positions: on one thread, on two and three with helpers
    /// joining the last searches, and by a plain alpha–beta search.
    #[test]
    fn threads_do_not_change_values() {
        let g = Connect4::new(6, 5).expect("a board");
        let positions = random_positions(&g, 24);
        let limits = SearchLimits {
            table_bits: 12,
            grow_to_bits: Some(16),
            ..SearchLimits::default()
        };
        let solve = |s: &mut Searcher<'_, Connect4>, p: &_| g.score(s, p);
        // `alone` nodes before a thread with nothing left may help: the smallest (1024, one
        // checkpoint) makes helpers join nearly every search of the last positions.
        let run = |threads, alone| {
            let batch = Batch {
                game: &g,
                positions: &positions,
                threads,
                limits: &limits,
                per_position: None,
                solve: &solve,
                alone_nodes: alone,
                shared: shared(),
            };
            let (mut got, mut helped) = (Vec::new(), 0);
            batch
                .run(&mut |r| {
                    helped += r.helped;
                    got.push((r.index, r.value))
                })
                .expect("no limit");
            (got, helped)
        };
        let (one, none) = run(1, ALONE_NODES);
        assert_eq!(none, 0);
        assert_eq!(one.len(), positions.len());
        assert!(one
            .iter()
            .enumerate()
            .all(|(i, r)| r.0 == i && r.1.is_some()));
        assert_eq!(run(3, ALONE_NODES).0, one);
        let mut helped = 0;
        for _ in 0..5 {
            for threads in [2, 3] {
                let (got, h) = run(threads, 1024);
                assert_eq!(got, one);
                helped += h;
            }
        }
        assert!(helped > 0, "no helper ever joined");
        for (p, (_, v)) in positions.iter().zip(&one) {
            let plain = crate::sequential::search::search(
                &g,
                p,
                crate::sequential::search::Method::AlphaBeta,
                &SearchLimits::default(),
                u64::MAX,
            )
            .expect("solved");
            assert_eq!(Some(plain.value), *v);
        }
    }

    /// A search that panics ends the batch with its panic, never a hang: the other threads
    /// stop starting positions and the one waiting to help gives up.
    #[test]
    fn a_panicking_search_does_not_hang_the_batch() {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let g = Connect4::new(6, 5).expect("a board");
            let positions = random_positions(&g, 12);
            let bad = positions[5];
            let limits = SearchLimits {
                table_bits: 12,
                ..SearchLimits::default()
            };
            let solve = |s: &mut Searcher<'_, Connect4>, p: &_| {
                assert!(*p != bad, "a test's panic");
                g.score(s, p)
            };
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                score_all(&g, &positions, 2, &limits, None, &solve, &mut |_| {})
            }));
            let _ = tx.send(caught.is_err());
        });
        let panicked = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the batch ended");
        assert!(panicked);
    }
}
