//! How far long work has got, and a request to stop it: one process-wide record that solvers
//! update at their checkpoints and a front-end reads (to draw a progress line) and writes (on
//! Ctrl-C). The library never prints; it only counts.
//!
//! A solver names its phase with [`phase`] and calls [`tick`] every few thousand steps:
//! `tick` records the count and returns [`Error::Interrupted`] once [`interrupt`] was
//! called, so that the work stops at a clean point and its caller reports what it has.
//!
//! ```
//! use nimbus::core::progress;
//! progress::phase("counting", 10);
//! assert!(progress::tick(3).is_ok());
//! let (what, done, total) = progress::snapshot();
//! assert_eq!((what.as_str(), done, total), ("counting", 3, 10));
//! ```

use crate::core::error::{Error, Result};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static DONE: AtomicU64 = AtomicU64::new(0);
static TOTAL: AtomicU64 = AtomicU64::new(0);
static PHASE: Mutex<String> = Mutex::new(String::new());

/// A time limit that holds for the work of one thread only: a server runs many requests at
/// once, and one request's budget must not stop another's work (as [`interrupt`] would).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deadline {
    at: Instant,
    seconds: f64,
}

thread_local! {
    static DEADLINE: Cell<Option<Deadline>> = const { Cell::new(None) };
}

/// Runs `work` on this thread with a limit of `seconds`: every checkpoint ([`check`],
/// [`tick`]) it reaches after that returns [`Error::TimeLimit`]. Work that `work` hands to
/// other threads carries the limit when it is started under [`current_deadline`] and
/// [`with_deadline`], as the library's parallel solvers do.
///
/// ```
/// use nimbus::core::progress;
/// let r = progress::with_time_limit(0.0, || progress::check());
/// assert_eq!(r.unwrap_err().kind(), "time_limit");
/// assert!(progress::check().is_ok());
/// ```
pub fn with_time_limit<T>(seconds: f64, work: impl FnOnce() -> T) -> T {
    let at = Instant::now() + Duration::from_secs_f64(seconds.clamp(0.0, 1e9));
    with_deadline(Some(Deadline { at, seconds }), work)
}

/// The time limit of this thread's work, to hand to the threads it starts.
pub fn current_deadline() -> Option<Deadline> {
    DEADLINE.with(Cell::get)
}

/// Runs `work` under `deadline` (from [`current_deadline`] on the thread that started it),
/// restoring this thread's own limit afterwards.
pub fn with_deadline<T>(deadline: Option<Deadline>, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<Deadline>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(self.0));
        }
    }
    let _restore = Restore(DEADLINE.with(|d| d.replace(deadline)));
    work()
}

/// Asks every running solver to stop at its next checkpoint (a Ctrl-C handler calls this).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Withdraws a stop request once the work it stopped has ended, so that a long-lived host
/// (the Python package) can run further work after a Ctrl-C.
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Starts a phase of work: its name and how many steps it has (0 when unknown).
pub fn phase(what: &str, total: u64) {
    if let Ok(mut p) = PHASE.lock() {
        p.clear();
        p.push_str(what);
    }
    DONE.store(0, Ordering::Relaxed);
    TOTAL.store(total, Ordering::Relaxed);
}

/// Records that `done` steps of the phase are finished; [`Error::Interrupted`] once an
/// interrupt was asked for.
pub fn tick(done: u64) -> Result<()> {
    DONE.store(done, Ordering::Relaxed);
    check()
}

/// [`Error::Interrupted`] once an interrupt was asked for; [`Error::TimeLimit`] once this
/// thread's time limit has passed.
pub fn check() -> Result<()> {
    if interrupted() {
        return Err(Error::Interrupted);
    }
    match current_deadline() {
        Some(d) if Instant::now() >= d.at => Err(Error::TimeLimit { seconds: d.seconds }),
        _ => Ok(()),
    }
}

/// The phase's name, the steps done and the steps in all (0: unknown).
pub fn snapshot() -> (String, u64, u64) {
    let what = PHASE.lock().map(|p| p.clone()).unwrap_or_default();
    (
        what,
        DONE.load(Ordering::Relaxed),
        TOTAL.load(Ordering::Relaxed),
    )
}
