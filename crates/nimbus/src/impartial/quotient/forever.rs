//! When the quotient of the heaps up to `n` is the quotient of every heap, proved.
//!
//! Suppose the pretending function is periodic on the heaps computed: `Φ(m + p) = Φ(m)` for
//! `n₀ ≤ m` and `m + p ≤ n`, and `n` reaches the rule's Guy–Smith horizon for `n₀` and `p` (the
//! test [`HeapRule::proof_horizon`] gives for nim-sequences). Then every heap `h > n` adds
//! nothing, and has the element of heap `h − p`: by induction on `h`, the Guy–Smith pairing of
//! the moves of `h` with those of `h − p` (the largest part a move leaves shifted by the
//! period, past the preperiod in both) shows that the options of `h` have exactly the elements
//! of the options of `h − p`. An older heap with the same options' elements makes the new
//! heap's element its own, with no P-position gaining a P-option (that older heap's options
//! already have those elements): the interpolation the quotient's growth uses for every heap
//! (`no_p_to_p` in the quotient's module). So the quotient of all heaps is the one computed,
//! and the pretending function is periodic for ever — the misère counterpart of the
//! Guy–Smith periodicity theorem, as Plambeck and Siegel state it.
//!
//! [`HeapRule::proof_horizon`]: crate::impartial::games::heap::HeapRule::proof_horizon

/// A pretending function proved periodic for every heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forever {
    /// The first heap of the periodic part.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
}

/// The least period (with its least preperiod, at least 1) that the elements of heaps
/// `0..=upto` (`image`) prove for every heap, given the rule's horizon; `None` when none is
/// proved from these heaps.
pub fn proved_period(image: &[u32], horizon: &dyn Fn(u64, u64) -> Option<u64>) -> Option<Forever> {
    let upto = image.len().checked_sub(1)? as u64;
    for period in 1..=upto / 2 {
        // The least preperiod: walk down from the top while the heaps repeat.
        let mut preperiod = upto - period;
        if image[preperiod as usize] != image[upto as usize] {
            continue;
        }
        while preperiod > 1
            && image[(preperiod - 1) as usize] == image[(preperiod - 1 + period) as usize]
        {
            preperiod -= 1;
        }
        if horizon(preperiod, period).is_some_and(|h| h <= upto) {
            return Some(Forever { preperiod, period });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guy–Smith for octal games: the largest index compared is 2(n₀ + p) + t − 1.
    fn octal(t: u64) -> impl Fn(u64, u64) -> Option<u64> {
        move |n0, p| Some(2 * (n0 + p) + t - 1)
    }

    #[test]
    fn a_period_is_proved_only_once_the_horizon_is_reached() {
        // Heap 1 alone, then period 2 from heap 2: 5, 6, 5, 6, ...
        let image: Vec<u32> = [0, 1]
            .into_iter()
            .chain((2..40).map(|h| 5 + h % 2))
            .collect();
        let f = proved_period(&image[..=14], &octal(2)).unwrap();
        assert_eq!((f.preperiod, f.period), (2, 2));
        // 2(2 + 2) + 2 - 1 = 9 is the horizon: heap 8 is not enough.
        assert_eq!(proved_period(&image[..=8], &octal(2)), None);
        assert!(proved_period(&image[..=9], &octal(2)).is_some());
        // A change at the top breaks it.
        let mut broken = image[..=14].to_vec();
        broken[14] = 9;
        assert_eq!(proved_period(&broken, &octal(2)), None);
    }

    #[test]
    fn rules_without_a_horizon_prove_nothing() {
        let image = vec![0u32; 50];
        assert_eq!(proved_period(&image, &|_, _| None), None);
        assert_eq!(proved_period(&[0], &octal(1)), None);
    }
}
