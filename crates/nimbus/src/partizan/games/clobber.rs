//! Clobber: Left's stones `x` and Right's stones `o` on a grid; a player moves one of their
//! stones onto an orthogonally adjacent stone of the other's, which is removed; who cannot
//! move loses. A strip is a board of one row (`xoxo`); a grid is written row by row, rows
//! separated by `|`, `.` an empty cell (`xo|ox`).

use super::grid::{self, Shape};
use crate::partizan::Ruleset;

/// The ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Clobber;

/// A board: its shape, Left's stones and Right's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// The rectangle.
    pub shape: Shape,
    /// Left's stones (`x`), then Right's (`o`).
    pub stones: [u128; 2],
}

impl Clobber {
    /// Reads a board.
    pub fn parse(text: &str) -> std::result::Result<Board, String> {
        let (shape, [x, o]) = grid::parse::<2>(
            text,
            |c| match c {
                'x' | 'X' => Some(0),
                'o' | 'O' => Some(1),
                '.' => Some(2),
                _ => None,
            },
            None,
        )?;
        Ok(Board {
            shape,
            stones: [x, o],
        })
    }

    /// The moves of the player whose stones are `stones[me]`.
    fn moves(b: &Board, me: usize) -> Vec<Board> {
        let (mine, theirs) = (b.stones[me], b.stones[1 - me]);
        let s = b.shape;
        let cols = s.cols as u32;
        let right_ok = s.not_last_col();
        let left_ok = right_ok << 1;
        let mut out = Vec::new();
        // Each direction: the stones that can capture that way, and the step to the target.
        let mut each = |from: u128, to: fn(u128, u32) -> u128| {
            let mut rest = from;
            while rest != 0 {
                let cell = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let target = to(cell, cols);
                let mut stones = b.stones;
                stones[me] = (mine & !cell) | target;
                stones[1 - me] = theirs & !target;
                out.push(Board { shape: s, stones });
            }
        };
        each(mine & right_ok & (theirs >> 1), |c, _| c << 1);
        each(mine & left_ok & (theirs << 1), |c, _| c >> 1);
        each(mine & theirs.checked_shr(cols).unwrap_or(0), |c, n| c << n);
        each(mine & theirs.checked_shl(cols).unwrap_or(0), |c, n| c >> n);
        out
    }
}

impl Ruleset for Clobber {
    type Position = Board;

    fn left_moves(&self, b: &Board) -> Vec<Board> {
        Clobber::moves(b, 0)
    }

    fn right_moves(&self, b: &Board) -> Vec<Board> {
        Clobber::moves(b, 1)
    }

    fn regions(&self, b: &Board) -> Vec<Board> {
        let s = b.shape;
        let [x, o] = b.stones;
        s.parts(x | o)
            .into_iter()
            // A region of one colour has no move for anyone: it is zero.
            .filter(|&part| part & x != 0 && part & o != 0)
            .map(|part| {
                let (shape, masks) = s.crop(part, [x & part, o & part]);
                let (shape, stones) = shape.fold(masks, true);
                Board { shape, stones }
            })
            .collect()
    }

    fn show(&self, b: &Board) -> String {
        grid::show(b.shape, |bit| {
            if b.stones[0] & bit != 0 {
                'x'
            } else if b.stones[1] & bit != 0 {
                'o'
            } else {
                '.'
            }
        })
    }
}
