//! Nim (Bouton 1901): remove any number of tokens from one heap. `G(n) = n`, so a position is
//! P exactly when the xor of its heaps is 0, and the winning moves take heap `a` to
//! `a xor s` wherever that is smaller.

use super::heap::{HeapMove, HeapRule, HeapValues};
use crate::core::budget::Limits;
use crate::core::error::Result;

/// The rule of one Nim heap.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nim;

impl HeapRule for Nim {
    fn name(&self) -> String {
        "nim".into()
    }
    fn heap_moves(&self, n: u64, out: &mut Vec<HeapMove>) {
        out.extend((0..n).map(|left| HeapMove::new(n - left, &[left])));
    }
    fn closed_remoteness(&self, n: u64) -> Option<u64> {
        // Taking the whole heap ends the game at once.
        Some(u64::from(n > 0))
    }
    fn values(&self, _upto: u64, _limits: Limits) -> Result<HeapValues> {
        Ok(HeapValues::Identity)
    }
    fn table(&self, upto: u64, limits: Limits) -> Result<Vec<u64>> {
        let upto = super::heap::check_table(upto, 1, limits, "nim")?;
        Ok((0..=upto as u64).collect())
    }
    fn moves_to_value(&self, n: u64, target: u64) -> Option<Vec<HeapMove>> {
        // A heap of n has exactly one option of each value below n.
        Some(if target < n {
            vec![HeapMove::new(n - target, &[target])]
        } else {
            Vec::new()
        })
    }
    fn describe(&self, n: u64, heap: usize, heaps: usize, m: &HeapMove) -> String {
        let which = if heaps > 1 {
            format!("heap {heap}")
        } else {
            "the heap".into()
        };
        format!("take {} from {which} ({n} -> {})", m.take, n - m.take)
    }
    fn splits(&self) -> bool {
        false
    }
    fn sj_closed(&self, _n: u64) -> Option<bool> {
        // The only heap of value 0 is the empty one, which is terminal.
        Some(true)
    }
}
