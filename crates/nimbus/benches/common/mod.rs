//! What the strategic benchmarks share: the seeded random games.

use nimbus::exact::Q;

/// A random matrix (xorshift, fixed seed: every run measures the same game).
pub fn random_matrix(n: usize, seed: u64) -> Vec<Vec<Q>> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            (0..n)
                .map(|_| Q::from_integer(((next() % 100) as i64).into()))
                .collect()
        })
        .collect()
}
