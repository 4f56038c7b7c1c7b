//! The dense index of a tier's reachable positions: the values are kept for the reachable
//! ranks alone, in order of rank, and a position's place among them is found from the
//! reachability bits and a small directory of counts.

use std::sync::atomic::{AtomicU64, Ordering};

/// Two bits a position.
pub(super) fn packed_len(n: u64) -> usize {
    n.div_ceil(4) as usize
}

pub(super) fn get(codes: &[u8], i: u64) -> u8 {
    (codes[(i / 4) as usize] >> (2 * (i % 4))) & 3
}

/// Words of reachability bits a count of the directory covers.
pub(super) const SPAN: usize = 8;

/// The reachable positions of a tier ranked densely: position `i` (a rank of the tier) is the
/// `index(i)`-th reachable one. The directory counts the reachable ranks before every 512th
/// (a `u64` each) and, within those spans, before every 64th (a `u16` each): three eighths of
/// a bit a rank, so that a dense index takes one popcount.
pub(super) struct Dense<'a> {
    pub(super) words: &'a [AtomicU64],
    pub(super) before: Vec<u64>,
    pub(super) within: Vec<u16>,
}

impl<'a> Dense<'a> {
    pub(super) fn new(words: &'a [AtomicU64]) -> Dense<'a> {
        let mut before = Vec::with_capacity(words.len() / SPAN + 1);
        let mut within = Vec::with_capacity(words.len());
        let mut count = 0;
        for chunk in words.chunks(SPAN) {
            before.push(count);
            let mut here = 0u16;
            for w in chunk {
                within.push(here);
                here += w.load(Ordering::Relaxed).count_ones() as u16;
            }
            count += u64::from(here);
        }
        before.push(count);
        Dense {
            words,
            before,
            within,
        }
    }

    /// Reachable positions in all.
    pub(super) fn len(&self) -> u64 {
        *self.before.last().unwrap_or(&0)
    }

    pub(super) fn word(&self, w: usize) -> u64 {
        self.words[w].load(Ordering::Relaxed)
    }

    /// The dense index of rank `i`, or `None` when it is not reachable.
    pub(super) fn index(&self, i: u64) -> Option<u64> {
        let w = (i / 64) as usize;
        let bit = 1u64 << (i % 64);
        let word = self.word(w);
        if word & bit == 0 {
            return None;
        }
        Some(
            self.before[w / SPAN]
                + u64::from(self.within[w])
                + u64::from((word & (bit - 1)).count_ones()),
        )
    }

    /// The rank of the `k`-th reachable position (from 0), or the tier's size in ranks when
    /// there are not that many.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub(super) fn select(&self, k: u64, n: u64) -> u64 {
        if k >= self.len() {
            return n;
        }
        // The last span with fewer than k + 1 reachable positions before it.
        let span = self.before.partition_point(|&c| c <= k) - 1;
        let mut left = k - self.before[span];
        for w in span * SPAN..self.words.len() {
            let mut word = self.word(w);
            let ones = u64::from(word.count_ones());
            if left < ones {
                for _ in 0..left {
                    word &= word - 1;
                }
                return w as u64 * 64 + u64::from(word.trailing_zeros());
            }
            left -= ones;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The dense index and its inverse against counting bit by bit.
        #[test]
        fn dense_index_and_select_count_the_reachable_ranks(
            words in proptest::collection::vec(any::<u64>(), 0..40),
            sparse in any::<bool>(),
        ) {
            let words: Vec<AtomicU64> = words
                .iter()
                .enumerate()
                .map(|(k, &w)| AtomicU64::new(if sparse && k % 3 != 0 { 0 } else { w }))
                .collect();
            let n = words.len() as u64 * 64;
            let dense = Dense::new(&words);
            let mut count = 0;
            for i in 0..n {
                let set = words[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1;
                if set {
                    prop_assert_eq!(dense.index(i), Some(count));
                    prop_assert_eq!(dense.select(count, n), i);
                    count += 1;
                } else {
                    prop_assert_eq!(dense.index(i), None);
                }
            }
            prop_assert_eq!(dense.len(), count);
            prop_assert_eq!(dense.select(count, n), n);
        }
    }
}
