//! The memory and work budgets that every table, search and LP checks before it allocates or
//! runs.
//!
//! A limit on positions alone does not bound a search: a heap of size 10^5 has 10^5 options, a
//! quadratic table of 10^6 entries costs 10^12 steps, and a table indexed by `max(a, b)²`
//! allocates far more than `a · b`. So a solver states what it is about to spend — bytes it
//! will hold, steps (moves examined, pivots) it will take — and asks this module first. An
//! answer that would not fit is an [`Error::Budget`] naming the limit and the setting that
//! raises it (each front-end writes it in its own words: see [`super::hint`]), never an abort
//! on allocation or a run of hours.
//!
//! ```
//! use nimbus::core::budget::{check_memory, check_work};
//! assert!(check_memory("a table", 1 << 20, 1 << 30).is_ok());
//! let e = check_work("the search of nim 100000", 5_000_000_000, 1_000_000).unwrap_err();
//! assert!(e.to_string().contains("(raise max_work)"));
//! ```

use crate::core::error::{Error, Resource, Result};

/// The default work budget: steps (moves examined, entries filled) one computation may take.
/// At a few nanoseconds a step this is seconds of work, not hours.
pub const DEFAULT_MAX_WORK: u64 = 4_000_000_000;

/// The default memory budget: half of what this process may use — the machine's physical
/// memory (the budget at least 1 GiB), or the process's cap when one is lower (its control
/// group's limit, `RLIMIT_AS`, `RLIMIT_DATA`: see [`super::machine`]) — so that a refused
/// computation leaves room for everything else, and one admitted does not meet the cap.
pub fn default_max_memory() -> u64 {
    // Read once: hosts that ask many small questions (the Python package) would otherwise
    // read the limits for every one.
    static DEFAULT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| {
        half_of(
            super::machine::physical_memory(),
            super::machine::process_cap(),
        )
    })
}

/// Half the memory the process may use: of the machine's (`None`: unknown, taken as 8 GiB),
/// at least 1 GiB, and of the process's cap when it is lower.
fn half_of(machine: Option<u64>, cap: Option<u64>) -> u64 {
    let machine = machine.map_or(4 << 30, |m| (m / 2).max(1 << 30));
    cap.map_or(machine, |c| machine.min(c / 2))
}

/// Refuses `bytes` of memory for `what` when it is more than `limit`.
pub fn check_memory(what: &str, bytes: u64, limit: u64) -> Result<()> {
    check(what, Resource::Memory, bytes, limit)
}

/// Refuses `steps` of work for `what` when they are more than `limit`.
pub fn check_work(what: &str, steps: u64, limit: u64) -> Result<()> {
    check(what, Resource::Work, steps, limit)
}

fn check(what: &str, resource: Resource, needed: u64, limit: u64) -> Result<()> {
    if needed <= limit {
        return Ok(());
    }
    Err(Error::Budget {
        what: what.to_string(),
        resource,
        needed,
        limit,
    })
}

/// Bytes one entry of a hash map from `K` to `V` may cost at worst: its slot (key, value and
/// a control byte) three times over for the moment the map doubles (old and new tables live at
/// once), and an allocation of its own for keys that own heap data.
pub fn map_entry_bytes<K, V>() -> u64 {
    (3 * (std::mem::size_of::<K>() + std::mem::size_of::<V>() + 1) + 16) as u64
}

/// Bounds on the work a search may do.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest number of positions a search may store before it stops with
    /// [`crate::Error::StateLimit`].
    pub max_states: u64,
    /// Bytes a table or search may hold ([`crate::Error::Budget`] past it).
    pub max_memory: u64,
    /// Steps (moves examined, entries filled) a computation may take.
    pub max_work: u64,
}

impl Limits {
    /// The default limit: 30 million positions, a few GiB at most for the largest position
    /// types, well inside a 24 GiB machine, and enough for a chain of 10^7 positions.
    pub const DEFAULT_MAX_STATES: u64 = 30_000_000;
}

impl Limits {
    /// Refuses, before it starts, a search of `what` that could store `positions` positions of
    /// `bytes_per_position` bytes each and examine `moves` moves: the position limit, the
    /// memory budget (positions and one 4-byte edge a move) and the work budget.
    pub fn admit(
        &self,
        what: &str,
        positions: u64,
        bytes_per_position: u64,
        moves: u64,
    ) -> crate::Result<()> {
        if positions > self.max_states {
            return Err(crate::Error::StateLimit {
                explored: 0,
                limit: self.max_states,
                what: what.to_string(),
            });
        }
        let bytes = positions
            .saturating_mul(bytes_per_position)
            .saturating_add(moves.saturating_mul(4));
        check_memory(what, bytes, self.max_memory)?;
        check_work(what, moves, self.max_work)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: Self::DEFAULT_MAX_STATES,
            max_memory: default_max_memory(),
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_setting_and_both_sizes() {
        let e = check_memory("the table", 15_091_142_880, 12_000_000_000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the table needs about 15.1 GB of memory, more than the limit of 12.0 GB (raise \
             max_memory, in bytes)"
        );
        assert!(check_work("x", 10, 10).is_ok());
    }

    #[test]
    fn the_default_is_half_the_least_of_the_machine_and_the_caps() {
        assert_eq!(half_of(Some(24 << 30), None), 12 << 30);
        assert_eq!(half_of(Some(24 << 30), Some(4_000_000_000)), 2_000_000_000);
        assert_eq!(half_of(Some(1 << 30), None), 1 << 30);
        assert_eq!(half_of(Some(1 << 30), Some(512 << 20)), 256 << 20);
        assert_eq!(half_of(None, Some(64 << 30)), 4 << 30);
    }

    /// The machine's memory is the kernel's MemTotal, as /proc/meminfo shows it.
    #[cfg(target_os = "linux")]
    #[test]
    fn physical_memory_is_memtotal() {
        let text = std::fs::read_to_string("/proc/meminfo").unwrap();
        let line = text.lines().find(|l| l.starts_with("MemTotal:")).unwrap();
        let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(super::super::machine::physical_memory(), Some(kib * 1024));
    }
}
