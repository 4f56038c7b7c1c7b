//! Periods of finite tables of values: the period seen in a table, the test that proves it
//! goes on for ever once it has lasted past a horizon, and the proof with its checksum.
//!
//! Which horizon proves a period depends on the ruleset (see [`super::sequence`]); this file
//! only compares values, so heap rules, the sparse engine and the sequences share it.

use serde::Serialize;

/// An observed period of a finite table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Period {
    /// First index of the periodic part.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
}

/// The period that best explains `values`: among the periods `p` whose periodic part
/// (`G(n + p) = G(n)` from its start to the end of the table) covers at least three whole
/// periods, ten values, and as many values as come before it, the one with the smallest
/// `preperiod + period` (then the smallest `p`). Shorter repetitions are too easily chance: a
/// game with a long preperiod shows many brief patterns at the end of a short table.
pub fn detect_period(values: &[u64]) -> Option<Period> {
    let len = values.len();
    let mut best: Option<Period> = None;
    for p in 1..=len / 2 {
        // The periodic part starts after the last index n with G(n) != G(n + p).
        let mut pre = 0;
        for n in (0..len - p).rev() {
            if values[n] != values[n + p] {
                pre = n + 1;
                break;
            }
        }
        if len - pre < (3 * p).max(10).max(pre) {
            continue;
        }
        let cand = Period {
            preperiod: pre as u64,
            period: p as u64,
        };
        if best.is_none_or(|b| cand.preperiod + cand.period < b.preperiod + b.period) {
            best = Some(cand);
        }
        if let Some(b) = best {
            if (p as u64) >= b.preperiod + b.period {
                break;
            }
        }
    }
    best
}

/// The least period that the table proves by the rule's test (`horizon(preperiod, period)`:
/// the last index the test needs equal to the one a period later), with its preperiod.
/// `horizon` must grow with both arguments and be at least `preperiod + period` (as every
/// known test's is): then the first `p` proved is the least period of the sequence and its
/// preperiod the true one.
///
/// For every `p` at once, the periodic stretch at the end of the table is read off the
/// Z-function of the reversed table (`z[p]`: how far the table read backwards agrees with
/// itself shifted by `p`), so the whole search is linear in the table's length.
pub fn proved_period<T: Eq>(
    values: &[T],
    horizon: impl Fn(u64, u64) -> Option<u64>,
) -> Option<Period> {
    period_test(values, horizon, &mut Vec::new()).0
}

/// [`proved_period`], and when no period is proved, the shortest table that could prove one of
/// the periods the table ends in: the least `horizon(pre, p) + 1` over the `p` whose pattern
/// holds to the end (whether it goes on holding is for a longer table to say). A table that
/// grows in steps tests again there rather than far past it. `z` is scratch space, kept by
/// a caller that tests again (a fresh array of that size each time was mostly page faults).
pub(crate) fn period_test<T: Eq>(
    values: &[T],
    horizon: impl Fn(u64, u64) -> Option<u64>,
    z: &mut Vec<u32>,
) -> (Option<Period>, Option<u64>) {
    let len = values.len();
    let at = |i: usize| &values[len - 1 - i];
    // z[i]: the length of the longest common prefix of the reversed table and its suffix
    // from i (the classic linear algorithm).
    z.clear();
    z.resize(len, 0);
    let (mut l, mut r) = (0usize, 0usize);
    for i in 1..len {
        let mut k = if i < r {
            (z[i - l] as usize).min(r - i)
        } else {
            0
        };
        while i + k < len && at(k) == at(i + k) {
            k += 1;
        }
        z[i] = k as u32;
        if i + k > r {
            l = i;
            r = i + k;
        }
    }
    let mut needs: Option<u64> = None;
    for (p, &stretch) in z.iter().enumerate().skip(1) {
        // A test sees at least one whole period past the preperiod (`horizon(pre, p) >= pre
        // + p`), which needs `z[p] > 0`: most periods end here, before the call.
        if stretch == 0 {
            continue;
        }
        // G(n) = G(n + p) for n from `pre` to the end of the table.
        let pre = (len - p - stretch as usize) as u64;
        let Some(h) = horizon(pre, p as u64) else {
            continue;
        };
        if (h as u128) < len as u128 {
            return (
                Some(Period {
                    preperiod: pre,
                    period: p as u64,
                }),
                None,
            );
        }
        let h = h.saturating_add(1);
        needs = Some(needs.map_or(h, |x| x.min(h)));
    }
    (None, needs)
}

/// The CRC-32 of `values`, each a 64-bit little-endian integer, as 8 hex digits: the checksum
/// of a proved period's certificate (Python: `zlib.crc32(struct.pack("<%dQ" % len(v), *v))`).
pub fn checksum_of(values: impl Iterator<Item = u64>) -> String {
    let mut h = crc32fast::Hasher::new();
    for v in values {
        h.update(&v.to_le_bytes());
    }
    format!("{:08x}", h.finalize())
}

/// A proved period with its certificate, and the values that describe the whole sequence.
#[derive(Debug, Clone)]
pub struct Proof {
    /// `G(0..preperiod + period)`: every value, by the period.
    pub table: Vec<u64>,
    /// The period and where it starts.
    pub period: Period,
    /// The last `n` the periodicity test compared.
    pub checked_upto: u64,
    /// [`checksum_of`] `G(0..=checked_upto)`.
    pub checksum: String,
}

impl Proof {
    /// The proof that `table` (which reaches the test's horizon `checked_upto`) gives of
    /// `period`; the table is cut to what describes the sequence.
    pub fn of_table<T: Copy + Into<u64>>(table: &[T], period: Period, checked_upto: u64) -> Self {
        let checksum = checksum_of(table[..=checked_upto as usize].iter().map(|&v| v.into()));
        let keep = (period.preperiod + period.period) as usize;
        Proof {
            table: table[..keep].iter().map(|&v| v.into()).collect(),
            period,
            checked_upto,
            checksum,
        }
    }
}
