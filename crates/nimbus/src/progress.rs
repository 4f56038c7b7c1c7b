//! How far long work has got, and a request to stop it: one process-wide record that solvers
//! update at their checkpoints and a front-end reads (to draw a progress line) and writes (on
//! Ctrl-C). The library never prints; it only counts.
//!
//! A solver names its phase with [`phase`] and calls [`tick`] every few thousand steps:
//! `tick` records the count and returns [`Error::Interrupted`] once [`interrupt`] was
//! called, so that the work stops at a clean point and its caller reports what it has.
//!
//! ```
//! use nimbus::progress;
//! progress::phase("counting", 10);
//! assert!(progress::tick(3).is_ok());
//! let (what, done, total) = progress::snapshot();
//! assert_eq!((what.as_str(), done, total), ("counting", 3, 10));
//! ```

use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static DONE: AtomicU64 = AtomicU64::new(0);
static TOTAL: AtomicU64 = AtomicU64::new(0);
static PHASE: Mutex<String> = Mutex::new(String::new());

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

/// [`Error::Interrupted`] once an interrupt was asked for.
pub fn check() -> Result<()> {
    if interrupted() {
        Err(Error::Interrupted)
    } else {
        Ok(())
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
