//! The random rules' draws, shared: a uniform number in `[0, 1)` and a weighted choice, both
//! from the seeded generator so that a run repeats from its seed.

use rand_core::Rng;
use rand_xorshift::XorShiftRng;

/// A number drawn uniformly from `[0, 1)` (53 random bits).
pub fn uniform(rng: &mut XorShiftRng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The index at weight `at` of the cumulative `weights` (the first whose running sum passes
/// `at`), never one of weight zero; where rounding leaves `at` past the total, the last of
/// positive weight.
pub fn pick(weights: &[f64], at: f64) -> usize {
    let mut run = 0.0;
    for (s, w) in weights.iter().enumerate() {
        run += w;
        if at < run && *w > 0.0 {
            return s;
        }
    }
    weights.iter().rposition(|&w| w > 0.0).unwrap_or(0)
}
