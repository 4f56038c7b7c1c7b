//! A transposition table: bounds on the values of positions already searched, keyed by the
//! game's injective position key.
//!
//! Each entry holds a lower and an upper bound (so one table serves alpha–beta, null-window
//! and depth-limited searches alike), the depth they were searched to, the index of the best
//! move in the game's search order, and a weight (log₂ of the nodes under it). Entries live in
//! buckets of two: the first slot keeps the heavier entry (work that is expensive to redo),
//! the second always takes the newest — the classic two-tier replacement policy. A generation
//! number makes [`Table::clear`] free, so that a new search can start from an empty table
//! without touching its memory.

use crate::sequential::{Value, INFINITY};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Depth recorded for bounds that hold whatever the depth (the subtree was searched to the end).
pub const EXACT_DEPTH: u8 = u8::MAX;
/// Move index recorded when there is no best move to remember.
pub const NO_MOVE: u8 = u8::MAX;

/// A slot is `[key ^ data, data]` in two atomic words. Threads of a parallel search share one
/// table without locks (Hyatt and Mann's lockless hashing): a slot torn by two writers no
/// longer checks (its first word is not the key xor its second) and reads as a miss. Relaxed
/// loads and stores compile to plain moves on x86-64. A new table is zeroed memory the
/// operating system hands out lazily, not memory written entry by entry.
type Slot = [AtomicU64; 2];

/// What the table knows of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The value is at least this.
    pub lo: Value,
    /// The value is at most this.
    pub hi: Value,
    /// The depth the bounds were searched to ([`EXACT_DEPTH`]: to the end of the game).
    pub depth: u8,
    /// Index of the best move found in the game's search order ([`NO_MOVE`]: none).
    pub best: u8,
}

/// A fixed-size transposition table; shared by the threads of a parallel search.
pub struct Table {
    slots: Box<[Slot]>,
    shift: u32,
    generation: u8,
}

fn pack_lo(v: Value) -> u16 {
    // i16::MIN stands for −∞; a lower bound too large to store is weakened, never raised.
    (v.clamp(i16::MIN as Value, i16::MAX as Value - 1) as i16) as u16
}

fn pack_hi(v: Value) -> u16 {
    (v.clamp(i16::MIN as Value + 1, i16::MAX as Value) as i16) as u16
}

fn unpack_lo(b: u16) -> Value {
    match b as i16 {
        i16::MIN => -INFINITY,
        x => x as Value,
    }
}

fn unpack_hi(b: u16) -> Value {
    match b as i16 {
        i16::MAX => INFINITY,
        x => x as Value,
    }
}

/// Asks Linux to back the table with 2 MiB pages. Probes land anywhere in the table, so with
/// 4 KiB pages nearly every probe of a large table misses the TLB as well as the cache; with
/// huge pages the table's translations fit the TLB. Measured on Pons' Connect Four sets: the
/// time per node of a 64 MiB table came close to that of a cache-sized one.
#[cfg(target_os = "linux")]
fn advise_huge_pages(slots: &[Slot]) {
    const PAGE: usize = 4096;
    let start = slots.as_ptr() as usize;
    let end = start + std::mem::size_of_val(slots);
    let first = start.div_ceil(PAGE) * PAGE;
    if end > first + (2 << 20) {
        // SAFETY: madvise only changes how the kernel backs the pages of this allocation,
        // which the Vec owns and keeps alive; the range lies inside it and is page aligned.
        // A refusal (no transparent huge pages) leaves ordinary pages, so the result is ignored.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_slots: &[Slot]) {}

/// `n` empty slots in zeroed memory (which the operating system maps lazily).
fn zeroed_slots(n: usize) -> Box<[Slot]> {
    // The budgets refuse a table past the memory long before its size could overflow.
    let layout = std::alloc::Layout::array::<Slot>(n).expect("a table's size fits in memory");
    // SAFETY: the layout is that of `n` slots (nonzero: n >= 2); all-zero bits are a valid
    // AtomicU64 (it has u64's representation), so the zeroed allocation is `n` initialised
    // slots, and the box takes ownership of exactly that allocation.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<Slot>();
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
    }
}

impl Table {
    /// A table of 2^`bits` entries (16 bytes each); `bits` is clamped to 1..=32.
    pub fn new(bits: u32) -> Table {
        let bits = bits.clamp(1, 32);
        let slots = zeroed_slots(1 << bits);
        advise_huge_pages(&slots);
        Table {
            slots,
            shift: 64 - bits,
            generation: 1,
        }
    }

    /// Writes every entry once, so that the operating system maps the memory now rather than
    /// page by page during a timed search.
    pub fn prefault(&mut self) {
        self.wipe();
    }

    fn wipe(&mut self) {
        for s in self.slots.iter_mut() {
            *s = [AtomicU64::new(0), AtomicU64::new(0)];
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 255 clears stale entries could look current again: wipe for real.
            self.wipe();
            self.generation = 1;
        }
    }

    fn bucket(&self, key: u64) -> usize {
        ((key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize) & !1
    }

    /// A slot's key and data, when it holds an entry of this generation that no concurrent
    /// write tore.
    #[inline]
    fn read(&self, s: &Slot) -> Option<(u64, u64)> {
        let (check, data) = (s[0].load(Relaxed), s[1].load(Relaxed));
        ((data >> 48) as u8 == self.generation).then_some((check ^ data, data))
    }

    #[inline]
    fn write(s: &Slot, key: u64, data: u64) {
        s[0].store(key ^ data, Relaxed);
        s[1].store(data, Relaxed);
    }

    /// Asks the processor to start loading `key`'s bucket, so that a probe a little later
    /// finds it in cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[self.bucket(key)..].as_ptr();
            // SAFETY: a prefetch is a hint; it never faults and `p` points into the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch(p.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + 2] {
            if let Some((_, data)) = self.read(s).filter(|&(k, _)| k == key) {
                return Some(Entry {
                    lo: unpack_lo(data as u16),
                    hi: unpack_hi((data >> 16) as u16),
                    depth: (data >> 32) as u8,
                    best: (data >> 40) as u8,
                });
            }
        }
        None
    }

    /// Records `e` for `key`, searched with `nodes` nodes below it.
    #[inline]
    pub fn store(&self, key: u64, e: Entry, nodes: u64) {
        let weight = (64 - nodes.leading_zeros()) as u64;
        let data = pack_lo(e.lo) as u64
            | (pack_hi(e.hi) as u64) << 16
            | (e.depth as u64) << 32
            | (e.best as u64) << 40
            | (self.generation as u64) << 48
            | weight << 56;
        self.place(key, data);
    }

    /// Entries: 2^bits.
    pub fn bits(&self) -> u32 {
        64 - self.shift
    }

    /// Copies every entry of `from` (a smaller table, usually) into this one, which keeps
    /// what it holds: a search that outgrows its table moves on without forgetting.
    pub fn absorb(&self, from: &Table) {
        for s in from.slots.iter() {
            if let Some((key, data)) = from.read(s) {
                self.place(key, data & !(0xff << 48) | (self.generation as u64) << 48);
            }
        }
    }

    /// Puts a packed entry (with this table's generation) into its bucket.
    #[inline]
    fn place(&self, key: u64, data: u64) {
        let weight = data >> 56;
        let b = self.bucket(key);
        let (first, second) = (&self.slots[b], &self.slots[b + 1]);
        match (self.read(first), self.read(second)) {
            (None, _) => Self::write(first, key, data),
            (Some((k, _)), _) if k == key => Self::write(first, key, data),
            (_, None) => Self::write(second, key, data),
            (_, Some((k, _))) if k == key => Self::write(second, key, data),
            (Some((k, d)), _) if weight >= d >> 56 => {
                Self::write(second, k, d);
                Self::write(first, key, data);
            }
            _ => Self::write(second, key, data),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_survive_packing_soundly() {
        let mut t = Table::new(4);
        for (lo, hi) in [(-3, 5), (-INFINITY, 7), (-9, INFINITY), (-100_000, 100_000)] {
            t.store(
                42,
                Entry {
                    lo,
                    hi,
                    depth: 3,
                    best: 1,
                },
                10,
            );
            let e = t.probe(42).unwrap();
            assert!(e.lo <= lo && e.hi >= hi, "{lo} {hi} -> {e:?}");
            assert_eq!((e.depth, e.best), (3, 1));
        }
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_larger_table_absorbs_every_current_entry() {
        let mut small = Table::new(6);
        let entry = |k: u64| Entry {
            lo: -(k as Value % 7),
            hi: k as Value % 5,
            depth: EXACT_DEPTH,
            best: (k % 3) as u8,
        };
        small.store(1, entry(1), 1);
        small.clear();
        let keys: Vec<u64> = (2..40).map(|k| k * 0x1234_5678_9abc).collect();
        for &k in &keys {
            small.store(k, entry(k), k);
        }
        let kept: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&k| small.probe(k).is_some())
            .collect();
        assert!(kept.len() > 20);
        let large = Table::new(12);
        large.store(7, entry(7), 1);
        large.absorb(&small);
        for &k in &kept {
            assert_eq!(large.probe(k), Some(entry(k)));
        }
        // What the large table held stays; what the small one had forgotten stays forgotten.
        assert_eq!(large.probe(7), Some(entry(7)));
        assert!(large.probe(1).is_none());
    }
}
