//! Grundy's game (Grundy 1939): split one heap into two heaps of different sizes. No period is
//! known (it is conjectured to be eventually periodic), so values come from a table.

use super::heap::{check_table, HeapMove, HeapRule};
use crate::core::budget::Limits;
use crate::core::error::Result;
use crate::impartial::sparse::{self, Takes};

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
        // The sparse-space method (Grundy's game is where it was first used): its work is
        // checked as it is done, the memory here.
        let n = check_table(upto, 0, limits, "grundy-game")?;
        let takes = Takes {
            two: vec![0],
            unequal: true,
            ..Takes::default()
        };
        let what = format!("the nim-sequence of grundy-game up to {upto}");
        let (values, _) = sparse::grow(&takes, n, false, &limits, &what, &|_, _| None, None)?;
        Ok(values.into_iter().map(u64::from).collect())
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
