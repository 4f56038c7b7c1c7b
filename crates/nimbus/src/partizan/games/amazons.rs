//! Amazons on small boards: a move takes one of your amazons like a chess queen (any number of
//! empty cells in one of eight directions) and then shoots an arrow from where it lands, again
//! like a queen, onto an empty cell, which is burnt for the rest of the game; who cannot move
//! loses. Left's amazons are `L` (or `x`), Right's `R` (or `o`), `.` an empty cell, `#` a burnt
//! one; rows are separated by `|`.
//!
//! Burnt cells split the board into regions that are played independently (queens move
//! diagonally too, so cells touching at a corner are joined); a region without an amazon is
//! worth nothing and dropped.

use super::grid::{self, Shape};
use crate::partizan::Ruleset;

/// The ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Amazons;

/// A board: its shape, Left's amazons, Right's, and the empty cells (every other cell is
/// burnt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// The rectangle.
    pub shape: Shape,
    /// Left's amazons, Right's amazons, the empty cells.
    pub cells: [u128; 3],
}

/// The eight directions a queen moves in, as (rows, columns) steps.
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Amazons {
    /// Reads a board.
    pub fn parse(text: &str) -> std::result::Result<Board, String> {
        let (shape, cells) = grid::parse::<3>(
            text,
            |c| match c {
                'L' | 'x' => Some(0),
                'R' | 'o' => Some(1),
                '.' => Some(2),
                '#' => Some(3),
                _ => None,
            },
            None,
        )?;
        Ok(Board { shape, cells })
    }

    /// The cells a queen at `from` reaches through `open` cells, one direction after another.
    fn reach(shape: Shape, from: usize, open: u128) -> Vec<usize> {
        let (rows, cols) = (shape.rows as i32, shape.cols as i32);
        let (r0, c0) = (from as i32 / cols, from as i32 % cols);
        let mut out = Vec::new();
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            while (0..rows).contains(&r) && (0..cols).contains(&c) {
                let i = (r * cols + c) as usize;
                if open >> i & 1 == 0 {
                    break;
                }
                out.push(i);
                r += dr;
                c += dc;
            }
        }
        out
    }

    fn moves(b: &Board, me: usize) -> Vec<Board> {
        let mut out = Vec::new();
        let mut amazons = b.cells[me];
        while amazons != 0 {
            let from = amazons.trailing_zeros() as usize;
            amazons &= amazons - 1;
            for to in Amazons::reach(b.shape, from, b.cells[2]) {
                // The cell the amazon left is empty for its arrow.
                let open = (b.cells[2] | 1u128 << from) & !(1u128 << to);
                for arrow in Amazons::reach(b.shape, to, open) {
                    let mut cells = b.cells;
                    cells[me] = (cells[me] & !(1u128 << from)) | 1u128 << to;
                    cells[2] = open & !(1u128 << arrow);
                    out.push(Board {
                        shape: b.shape,
                        cells,
                    });
                }
            }
        }
        out
    }

    /// The cells of `cells` joined to `seed` through neighbours in eight directions.
    fn flood(shape: Shape, cells: u128, seed: usize) -> u128 {
        let mut part = 1u128 << seed;
        let mut todo = vec![seed];
        let (rows, cols) = (shape.rows as i32, shape.cols as i32);
        while let Some(i) = todo.pop() {
            let (r, c) = (i as i32 / cols, i as i32 % cols);
            for (dr, dc) in DIRECTIONS {
                let (r, c) = (r + dr, c + dc);
                if !(0..rows).contains(&r) || !(0..cols).contains(&c) {
                    continue;
                }
                let j = (r * cols + c) as usize;
                if cells >> j & 1 == 1 && part >> j & 1 == 0 {
                    part |= 1u128 << j;
                    todo.push(j);
                }
            }
        }
        part
    }
}

impl Ruleset for Amazons {
    type Position = Board;

    fn left_moves(&self, b: &Board) -> Vec<Board> {
        Amazons::moves(b, 0)
    }

    fn right_moves(&self, b: &Board) -> Vec<Board> {
        Amazons::moves(b, 1)
    }

    fn regions(&self, b: &Board) -> Vec<Board> {
        let s = b.shape;
        let [l, r, open] = b.cells;
        let mut rest = l | r | open;
        let mut out = Vec::new();
        while rest != 0 {
            let part = Amazons::flood(s, rest, rest.trailing_zeros() as usize);
            rest &= !part;
            if part & (l | r) == 0 {
                continue;
            }
            // Cropped to the region (the cells around it burnt) and folded by the board's
            // eight symmetries, under which queen moves are the same.
            let (shape, masks) = s.crop(part, [l & part, r & part, open & part]);
            let (shape, cells) = shape.fold(masks, true);
            out.push(Board { shape, cells });
        }
        out
    }

    fn show(&self, b: &Board) -> String {
        let [l, r, open] = b.cells;
        grid::show(b.shape, |bit| {
            if l & bit != 0 {
                'L'
            } else if r & bit != 0 {
                'R'
            } else if open & bit != 0 {
                '.'
            } else {
                '#'
            }
        })
    }
}
