//! Every fixed polyomino of a given size (shapes of edge-connected cells, two the same only
//! when one is the other moved, not turned or reflected), by Redelmeier's method: grow a
//! shape cell by cell from its lowest-leftmost cell, each cell added from a set of untried
//! neighbours that a branch never offers again, so every shape is met exactly once. The walk
//! keeps its own stack (as deep as the size). Each shape is given as a grid board: its
//! bounding rectangle and its cells — the single-region positions of grid games such as
//! Domineering (Uiterwijk and Barton's databases hold them all up to 15 cells).

use super::games::grid::Shape;
use crate::core::error::{Error, Result};

/// The largest size offered: a shape of `n` cells fits a rectangle of `w + h ≤ n + 1`, at most
/// 121 cells when `n = 21`, and boards hold 128.
pub const MAX_CELLS: usize = 21;

/// Calls `each(shape, cells)` for every fixed polyomino of `n` cells, `cells` a bit a cell of
/// its bounding rectangle `shape` (row by row, as [`Shape::bit`] numbers them).
pub fn fixed(n: usize, mut each: impl FnMut(Shape, u128)) -> Result<()> {
    if n == 0 || n > MAX_CELLS {
        return Err(Error::Invalid(format!(
            "polyominoes are listed from 1 to {MAX_CELLS} cells, not {n}"
        )));
    }
    let span = n as i32;
    let width = 2 * n - 1;
    // Cells (x, y) with y > 0, or y = 0 and x ≥ 0: the first cell is the lowest-leftmost.
    let index = |(x, y): (i32, i32)| y as usize * width + (x + span - 1) as usize;
    let mut marked = vec![false; width * n];
    marked[index((0, 0))] = true;
    // A frame: the cells still to try at this depth, and those it marked.
    struct Frame {
        untried: Vec<(i32, i32)>,
        added: Vec<(i32, i32)>,
    }
    let mut cells: Vec<(i32, i32)> = Vec::with_capacity(n);
    let mut stack = vec![Frame {
        untried: vec![(0, 0)],
        added: Vec::new(),
    }];
    while let Some(top) = stack.last_mut() {
        let Some(c) = top.untried.pop() else {
            let done = stack.pop().expect("the loop's frame");
            for a in done.added {
                marked[index(a)] = false;
            }
            cells.pop();
            continue;
        };
        cells.push(c);
        if cells.len() == n {
            let (shape, bits) = board(&cells);
            each(shape, bits);
            cells.pop();
            continue;
        }
        let mut added = Vec::new();
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (x, y) = (c.0 + dx, c.1 + dy);
            if y < 0 || (y == 0 && x < 0) || x.abs() >= span || y >= span {
                continue;
            }
            if !marked[index((x, y))] {
                marked[index((x, y))] = true;
                added.push((x, y));
            }
        }
        let mut untried = top.untried.clone();
        untried.extend_from_slice(&added);
        stack.push(Frame { untried, added });
    }
    Ok(())
}

/// A shape's bounding rectangle and its cells in it.
fn board(cells: &[(i32, i32)]) -> (Shape, u128) {
    let (x0, y0) = cells
        .iter()
        .fold((i32::MAX, i32::MAX), |(a, b), &(x, y)| (a.min(x), b.min(y)));
    let (x1, y1) = cells
        .iter()
        .fold((i32::MIN, i32::MIN), |(a, b), &(x, y)| (a.max(x), b.max(y)));
    let shape = Shape {
        rows: (y1 - y0 + 1) as u8,
        cols: (x1 - x0 + 1) as u8,
    };
    let bits = cells.iter().fold(0u128, |acc, &(x, y)| {
        acc | shape.bit((y - y0) as usize, (x - x0) as usize)
    });
    (shape, bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The counts of fixed polyominoes, OEIS A001168, and every shape met once.
    #[test]
    fn counts_are_the_published_ones() {
        let published = [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446];
        for (k, &want) in published.iter().enumerate() {
            let mut seen = HashSet::new();
            let mut count = 0;
            fixed(k + 1, |shape, bits| {
                count += 1;
                assert_eq!(bits.count_ones() as usize, k + 1);
                assert!(seen.insert((shape.rows, shape.cols, bits)));
            })
            .unwrap();
            assert_eq!(count, want, "{} cells", k + 1);
        }
        assert!(fixed(0, |_, _| {}).is_err());
        assert!(fixed(MAX_CELLS + 1, |_, _| {}).is_err());
    }
}
