//! Domineering: players place dominoes on free cells of a grid, Left vertically and Right
//! horizontally (as in Winning Ways and CGSuite); who cannot place one loses.
//!
//! A board is written row by row, rows separated by `|`: `.` a free cell, `#` a taken one
//! (`..|..` is the 2 × 2 square), or `RxC` for an empty R × C rectangle.

use super::grid::{self, Shape};
use crate::partizan::Ruleset;

/// The ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Domineering;

/// A board: its shape and its free cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// The rectangle.
    pub shape: Shape,
    /// The free cells.
    pub free: u128,
}

impl Domineering {
    /// Reads a board.
    pub fn parse(text: &str) -> std::result::Result<Board, String> {
        let (shape, [free]) = grid::parse::<1>(
            text,
            |c| match c {
                '.' => Some(0),
                '#' => Some(1),
                _ => None,
            },
            Some(0),
        )?;
        Ok(Board { shape, free })
    }

    fn place(b: &Board, pairs: u128, step: u32) -> Vec<Board> {
        let mut out = Vec::with_capacity(pairs.count_ones() as usize);
        let mut rest = pairs;
        while rest != 0 {
            let cell = rest & rest.wrapping_neg();
            rest &= rest - 1;
            out.push(Board {
                shape: b.shape,
                free: b.free & !cell & !(cell << step),
            });
        }
        out
    }
}

impl Ruleset for Domineering {
    type Position = Board;

    fn left_moves(&self, b: &Board) -> Vec<Board> {
        let cols = b.shape.cols as u32;
        let pairs = b.free & b.free.checked_shr(cols).unwrap_or(0);
        Domineering::place(b, pairs, cols)
    }

    fn right_moves(&self, b: &Board) -> Vec<Board> {
        let pairs = b.free & (b.free >> 1) & b.shape.not_last_col();
        Domineering::place(b, pairs, 1)
    }

    fn regions(&self, b: &Board) -> Vec<Board> {
        // A free cell without a free neighbour takes no domino: leaving it out joins equal
        // regions under one name.
        let s = b.shape;
        let cols = s.cols as u32;
        let horizontal = b.free & (b.free >> 1) & s.not_last_col();
        let vertical = b.free & b.free.checked_shr(cols).unwrap_or(0);
        let useful =
            horizontal | (horizontal << 1) | vertical | vertical.checked_shl(cols).unwrap_or(0);
        s.parts(useful)
            .into_iter()
            .map(|part| {
                let (shape, [free]) = s.crop(part, [part]);
                let (shape, [free]) = shape.fold([free], false);
                Board { shape, free }
            })
            .collect()
    }

    fn show(&self, b: &Board) -> String {
        grid::show(b.shape, |bit| if b.free & bit != 0 { '.' } else { '#' })
    }
}
