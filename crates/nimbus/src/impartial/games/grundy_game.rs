//! Grundy's game (Grundy 1939): split one heap into two heaps of different sizes. No period is
//! known (it is conjectured to be eventually periodic), so values come from a table.

use super::heap::{check_table, HeapMove, HeapRule, Marks};
use crate::error::Result;
use crate::impartial::Limits;

/// The rule of Grundy's game.
#[derive(Debug, Clone, Copy, Default)]
pub struct GrundyGame;

impl HeapRule for GrundyGame {
    fn name(&self) -> String {
        "grundy-game".into()
    }

    fn heap_moves(&self, n: u64, out: &mut Vec<HeapMove>) {
        out.extend((1..n.div_ceil(2)).map(|a| HeapMove::new(0, &[a, n - a])));
    }

    fn table(&self, upto: u64, limits: Limits) -> Result<Vec<u64>> {
        let upto = check_table(upto, self.move_count(upto), limits, "grundy-game")?;
        let mut g: Vec<u32> = Vec::with_capacity(upto + 1);
        let mut marks = Marks::new();
        for n in 0..=upto {
            if n % 1024 == 0 {
                crate::progress::tick(n as u64)?;
            }
            let tag = n as u32 + 1;
            // Splits a + b = n with 1 <= a < b.
            marks.mark_splits(&g, n, n.saturating_sub(1) / 2, tag);
            g.push(marks.mex(tag));
        }
        Ok(g.into_iter().map(u64::from).collect())
    }

    fn describe(&self, n: u64, _heap: usize, heaps: usize, m: &HeapMove) -> String {
        let which = if heaps > 1 { "a heap" } else { "the heap" };
        format!(
            "split {which} of {n} into {} and {}",
            m.parts[0], m.parts[1]
        )
    }

    fn splits(&self) -> bool {
        true
    }
}
