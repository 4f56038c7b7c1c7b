//! The rare loops: the option values that splits with a rare heap reach, marked in a bit set.

use super::*;

/// The bit set of 64 bytes, each 0 or 1: bit `j` is byte `j`.
pub(super) fn bits_of_bytes(bytes: &[u8]) -> u64 {
    bytes.chunks_exact(8).enumerate().fold(0, |w, (i, eight)| {
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // Byte `j` (0 or 1) times the bit `56 - 7 i` of the multiplier lands on bit `56 + j`
        // for `i = j`; the other products fall on distinct bits below 56 or past 63, so
        // nothing carries into the top byte, which is the eight bits in order.
        w | (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i)
    })
}

/// Marks in `stamp` the values `G(a) ^ G(m - a)` of the splits of `m` with `a` in `from..to`.
// Out of line: inside the caller the loop's registers were spilled to the stack.
#[inline(never)]
pub(super) fn mark_splits<V: Nimber, S: Copy>(
    g: &[V],
    m: usize,
    from: usize,
    to: usize,
    stamp: &mut [S],
    tag: S,
) {
    // Every xor of two values is below the array's length, a power of two.
    let mask = stamp.len() - 1;
    if from >= to {
        return;
    }
    // `G(a)` for `a` in `from..to`, and `G(m - a)` backwards from the end of `high`.
    let low = &g[from..to];
    let high = &g[m + 1 - to..=m - from];
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        stamp[(x.into() ^ y.into()) as usize & mask] = tag;
    }
}

/// Marks the splits of `m[0]` with `a` in `from[0]..to[0]` and those of `m[1]` with `a` in
/// `from[1]..to[1]`, where the ranges overlap in one pass.
pub(super) fn mark_pair<V: Nimber>(
    g: &[V],
    m: [usize; 2],
    from: [usize; 2],
    to: [usize; 2],
    stamp: &mut [u32],
    tag: u32,
) {
    let (lo, hi) = (from[0].max(from[1]), to[0].min(to[1]));
    if lo >= hi {
        mark_splits(g, m[0], from[0], to[0], stamp, tag);
        mark_splits(g, m[1], from[1], to[1], stamp, tag);
        return;
    }
    mark_splits2(g, m, lo, hi, stamp, tag);
    for t in 0..2 {
        mark_splits(g, m[t], from[t], lo, stamp, tag);
        mark_splits(g, m[t], hi, to[t], stamp, tag);
    }
}

/// [`mark_splits`] for two takes at once, the splits of `m[0]` and of `m[1]` with `a` in
/// `from..to` (at most half of either): `G(a)` is read once for both.
#[inline(never)]
pub(super) fn mark_splits2<V: Nimber>(
    g: &[V],
    m: [usize; 2],
    from: usize,
    to: usize,
    stamp: &mut [u32],
    tag: u32,
) {
    let mask = stamp.len() - 1;
    if from >= to {
        return;
    }
    let low = &g[from..to];
    let high0 = &g[m[0] + 1 - to..=m[0] - from];
    let high1 = &g[m[1] + 1 - to..=m[1] - from];
    for ((&x, &y0), &y1) in low.iter().zip(high0.iter().rev()).zip(high1.iter().rev()) {
        let x = x.into();
        stamp[(x ^ y0.into()) as usize & mask] = tag;
        stamp[(x ^ y1.into()) as usize & mask] = tag;
    }
}

/// Marks in `stamp` the values `G(r) ^ G(m - r)` of the splits of `m` with a rare heap `r`
/// (the rare heaps below `m`, and their values); with `unequal`, not the split into halves.
#[inline(never)]
pub(super) fn mark_rare<V: Nimber, S: Copy>(
    g: &[V],
    m: usize,
    (rare, values): (&[u32], &[V]),
    unequal: bool,
    stamp: &mut [S],
    tag: S,
) {
    let mask = stamp.len() - 1;
    if unequal {
        for (&r, &v) in rare.iter().zip(values) {
            if 2 * r as usize != m {
                stamp[(v.into() ^ g[m - r as usize].into()) as usize & mask] = tag;
            }
        }
    } else {
        for (&r, &v) in rare.iter().zip(values) {
            stamp[(v.into() ^ g[m - r as usize].into()) as usize & mask] = tag;
        }
    }
}

/// [`mark_rare`] for two takes at once (splits of `m[0]` and of `m[1]`, every rare heap below
/// both), without `unequal`: each rare heap and its value are read once for both.
#[inline(never)]
pub(super) fn mark_rare2<V: Nimber>(
    g: &[V],
    m: [usize; 2],
    (rare, values): (&[u32], &[V]),
    stamp: &mut [u32],
    tag: u32,
) {
    let mask = stamp.len() - 1;
    for (&r, &v) in rare.iter().zip(values) {
        let v = v.into();
        stamp[(v ^ g[m[0] - r as usize].into()) as usize & mask] = tag;
        stamp[(v ^ g[m[1] - r as usize].into()) as usize & mask] = tag;
    }
}
