//! The worker pipeline: a large table's rare loops shared among threads, batches of heaps
//! marked ahead of the scan that consumes them.

use super::*;

/// Below this many heaps to go a table grows without the helper thread (low enough that the
/// tests against the naive loop, to a few thousand, run through it).
pub(super) const PARALLEL_FROM: usize = 256;

/// The rare-loop steps a heap below which the helper thread costs more than it saves.
pub(super) const HELPER_FROM: usize = 1024;

/// Heaps in a batch of the helper's: one exchange between the threads a batch.
pub(super) const BATCH: usize = 64;

/// How many batches the helper is asked for ahead of the one the main thread starts.
pub(super) const AHEAD: usize = 3;

/// The heaps the helper is to prepare next, and what it needs to know for them.
pub(super) struct Job<V> {
    /// The values that follow those it knows, with the classes (bit `c` for class `c`) in
    /// which each is rare (when `rare` is `None`).
    pub(super) values: Vec<(V, u8)>,
    /// After the classes were rebuilt: them, and the build's number.
    pub(super) rare: Option<(Vec<HelperClass<V>>, u64)>,
    /// A power of two above every xor of two values.
    pub(super) space: usize,
    /// The first heap of the batch.
    pub(super) start: usize,
    /// A batch's answer to reuse the memory of.
    pub(super) done: Option<Done>,
}

/// The helper's marks for a batch of heaps.
pub(super) struct Done {
    pub(super) start: usize,
    /// How many values the helper knew.
    pub(super) known: usize,
    /// The rare heaps the helper did, for each class: those below this one.
    pub(super) rare_cut: [u32; 2],
    /// How many splits with both parts below `known` the helper scanned, for each split
    /// take, after the splits with a part at or above `known`.
    pub(super) scanned: usize,
    /// The build of `C` the rare heaps were of.
    pub(super) generation: u64,
    /// Words of the bit set of one heap.
    pub(super) words: usize,
    /// For each heap of the batch, the option values it marked, as a bit set; or nothing
    /// for a heap whose rare heaps were too many for the rare loop to pay.
    pub(super) bits: Vec<u64>,
    pub(super) done: [bool; BATCH],
    /// Pairs examined.
    pub(super) work: u64,
}

impl Done {
    /// Heap `n`'s marks, if the helper made them.
    pub(super) fn heap(&self, n: usize) -> Option<Pre<'_>> {
        let i = n
            .checked_sub(self.start)
            .filter(|&i| i < BATCH && self.done[i])?;
        Some(Pre {
            bits: &self.bits[i * self.words..(i + 1) * self.words],
            known: self.known,
            rare_cut: self.rare_cut,
            scanned: self.scanned,
        })
    }
}

/// The helper's marks for one heap: for each split take, the option values of the splits
/// with a rare heap below its class's `rare_cut` whose parts are both below `known`, and of
/// the `scanned` splits that follow those with a part at or above `known` (see
/// [`Pre::scan`]).
#[derive(Clone, Copy)]
pub(super) struct Pre<'a> {
    pub(super) bits: &'a [u64],
    pub(super) known: usize,
    pub(super) rare_cut: [u32; 2],
    pub(super) scanned: usize,
}

impl Pre<'_> {
    /// For the splits `a + (m - a)` (`a <= half`): the first `a` whose part `m - a` is below
    /// `known`, and the first `a` past the helper's scan.
    pub(super) fn scan(known: usize, scanned: usize, m: usize, half: usize) -> (usize, usize) {
        let low = m.saturating_sub(known).min(half) + 1;
        (low, (low + scanned).min(half + 1))
    }

    pub(super) fn has(&self, x: usize) -> bool {
        self.bits
            .get(x / 64)
            .is_some_and(|w| w >> (x % 64) & 1 != 0)
    }
}

/// A class of split takes as the helper knows it.
pub(super) struct HelperClass<V> {
    /// Indices of the takes in [`Takes::two`].
    pub(super) takes: Vec<usize>,
    /// The rare heaps, and their values.
    pub(super) rare: Vec<u32>,
    pub(super) rare_values: Vec<V>,
}

/// The second thread of [`Sparse::extend_with_helper`], with its own copy of the values and
/// the rare heaps.
pub(super) struct Helper<V> {
    pub(super) takes: Takes,
    pub(super) values: Vec<V>,
    pub(super) classes: Vec<HelperClass<V>>,
    pub(super) generation: u64,
}

impl<V: Nimber> Helper<V> {
    /// Answers `jobs` on `done`; `waited` is set when the main thread had to wait for an
    /// answer.
    // Kept as one function: the pipeline's one loop: the channels, the batches in flight and the
    // scan that consumes them are one state; the workers' loop is a function of its own.
    pub(super) fn run(
        mut self,
        jobs: std::sync::mpsc::Receiver<Job<V>>,
        done: std::sync::mpsc::Sender<Done>,
        waited: &std::sync::atomic::AtomicBool,
    ) {
        // A byte a value, cleared for each heap: it turns into the answer's bit set eight
        // values to a multiplication.
        let mut stamp: Vec<u8> = Vec::new();
        // How much of each heap's work to take on, so that this thread is about as busy as
        // the main one: the rare loop over the first `share` 64ths of each class's rare
        // heaps, and when that is all of them, a scan of `scan` splits past those the main
        // thread must do.
        const WHOLE: usize = 64;
        let mut share = 0usize;
        let mut scan = 0usize;
        // Jobs come batches ahead of need: waiting for one asleep costs nothing.
        while let Ok(job) = jobs.recv() {
            if waited.swap(false, std::sync::atomic::Ordering::Relaxed) {
                if scan > 0 {
                    scan -= scan / 8 + 1;
                } else {
                    share -= share.div_ceil(8);
                }
            } else if share == WHOLE {
                scan = (scan + 8 + scan / 64).min(1 << 16);
            } else {
                share += 1;
            }
            for (value, rare) in job.values {
                let n = self.values.len();
                self.values.push(value);
                if job.rare.is_none() && n > 0 {
                    for (c, class) in self.classes.iter_mut().enumerate() {
                        if rare >> c & 1 != 0 {
                            class.rare.push(n as u32);
                            class.rare_values.push(value);
                        }
                    }
                }
            }
            if let Some((classes, generation)) = job.rare {
                self.classes = classes;
                self.generation = generation;
            }
            if stamp.len() < job.space {
                stamp.resize(job.space, 0);
            }
            let known = self.values.len();
            let words = stamp.len() / 64;
            let mut answer = job.done.unwrap_or(Done {
                start: 0,
                known: 0,
                rare_cut: [0; 2],
                scanned: 0,
                generation: 0,
                words: 0,
                bits: Vec::new(),
                done: [false; BATCH],
                work: 0,
            });
            answer.start = job.start;
            answer.known = known;
            // (Read after the job's rare heaps are in.)
            for (c, class) in self.classes.iter().enumerate() {
                answer.rare_cut[c] = if share == WHOLE {
                    u32::MAX
                } else {
                    class.rare[class.rare.len() * share / WHOLE..]
                        .first()
                        .copied()
                        .unwrap_or(u32::MAX)
                };
            }
            answer.scanned = if share == WHOLE { scan } else { 0 };
            answer.generation = self.generation;
            answer.words = words;
            answer.work = 0;
            answer.bits.clear();
            answer.bits.resize(words * BATCH, 0);
            for i in 0..BATCH {
                let h = job.start + i;
                // As `next_value` decides, on the rare heaps known.
                answer.done[i] = self.classes.iter().all(|c| c.rare.len() * 4 <= h);
                if !answer.done[i] {
                    continue;
                }
                stamp.fill(0);
                for (c, class) in self.classes.iter().enumerate() {
                    for &t in &class.takes {
                        let k = self.takes.two[t];
                        if k + 2 > h {
                            continue;
                        }
                        let m = h - k;
                        // Both parts below `known`: `m - known < r < known`.
                        let rare = &class.rare;
                        let from = rare.partition_point(|&r| (r as usize) + known <= m);
                        let limit = m.min(known).min(answer.rare_cut[c] as usize);
                        let to = rare.partition_point(|&r| (r as usize) < limit);
                        if from < to {
                            mark_rare(
                                &self.values,
                                m,
                                (&rare[from..to], &class.rare_values[from..to]),
                                self.takes.unequal,
                                &mut stamp,
                                1,
                            );
                            answer.work += (to - from) as u64;
                        }
                        let half = self.takes.half(m);
                        let (low, high) = Pre::scan(known, answer.scanned, m, half);
                        mark_splits(&self.values, m, low, high, &mut stamp, 1);
                        answer.work += (high - low) as u64;
                    }
                }
                let bits = &mut answer.bits[i * words..(i + 1) * words];
                for (word, chunk) in bits.iter_mut().zip(stamp.chunks_exact(64)) {
                    *word = bits_of_bytes(chunk);
                }
            }
            if done.send(answer).is_err() {
                return;
            }
        }
    }
}

/// The next message on `from`, `None` when its sender is gone. It spins a while first: the
/// other thread usually answers within microseconds, sooner than a sleeping thread wakes.
pub(super) fn wait<T>(from: &std::sync::mpsc::Receiver<T>) -> Option<T> {
    match poll(from, 1 << 14) {
        Ok(x) => Some(x),
        Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
        Err(std::sync::mpsc::TryRecvError::Empty) => from.recv().ok(),
    }
}

/// The next message on `from` if one comes within `spins` tries.
pub(super) fn poll<T>(
    from: &std::sync::mpsc::Receiver<T>,
    spins: u32,
) -> Result<T, std::sync::mpsc::TryRecvError> {
    let mut last = std::sync::mpsc::TryRecvError::Empty;
    for _ in 0..spins {
        match from.try_recv() {
            Ok(x) => return Ok(x),
            Err(std::sync::mpsc::TryRecvError::Empty) => std::hint::spin_loop(),
            Err(e) => {
                last = e;
                break;
            }
        }
    }
    Err(last)
}
