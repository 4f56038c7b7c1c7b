//! Tic-tac-toe on the 3 × 3 board. 5478 legal positions are reachable from the empty board;
//! its value is a draw.
//!
//! Cells are numbered 1–9 row by row from the top left; a position is written as the cells
//! played, first player (X) first, e.g. `5 1 9`.

use crate::sequential::{Game, Indexed, Notation, Player, Value};
use crate::Result;

/// The game; values are +1 (win), 0 (draw), −1 (loss) for the side to move.
#[derive(Debug, Clone, Copy, Default)]
pub struct TicTacToe;

/// A position: the cells of X and of O as bit sets (bit i = cell i + 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Cells of the first player.
    pub x: u16,
    /// Cells of the second player.
    pub o: u16,
}

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

fn has_line(cells: u16) -> bool {
    for line in LINES {
        if cells & line == line {
            return true;
        }
    }
    false
}

impl Board {
    fn mover_is_x(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = u8;

    fn start(&self) -> Board {
        Board { x: 0, o: 0 }
    }

    fn moves(&self, p: &Board, out: &mut Vec<u8>) {
        let free = !(p.x | p.o) & 0x1ff;
        // The centre, then corners, then edges: the usual good order, which alpha-beta likes.
        for c in [4u8, 0, 2, 6, 8, 1, 3, 5, 7] {
            if free & (1 << c) != 0 {
                out.push(c);
            }
        }
    }

    fn play(&self, p: &Board, m: u8) -> Board {
        let mut b = *p;
        if p.mover_is_x() {
            b.x |= 1 << m;
        } else {
            b.o |= 1 << m;
        }
        b
    }

    fn outcome(&self, p: &Board) -> Option<Value> {
        let last = if p.mover_is_x() { p.o } else { p.x };
        if has_line(last) {
            Some(-1)
        } else if (p.x | p.o) == 0x1ff {
            Some(0)
        } else {
            None
        }
    }

    fn to_move(&self, p: &Board) -> Player {
        if p.mover_is_x() {
            Player::First
        } else {
            Player::Second
        }
    }

    fn key(&self, p: &Board) -> Option<u64> {
        Some(p.x as u64 | (p.o as u64) << 9)
    }
}

impl Indexed for TicTacToe {
    fn size(&self) -> u64 {
        3u64.pow(9)
    }

    fn rank(&self, p: &Board) -> u64 {
        (0..9).rev().fold(0, |acc, c| {
            let digit = if p.x & (1 << c) != 0 {
                1
            } else if p.o & (1 << c) != 0 {
                2
            } else {
                0
            };
            acc * 3 + digit
        })
    }

    fn unrank(&self, mut i: u64) -> Board {
        let mut b = Board { x: 0, o: 0 };
        for c in 0..9 {
            match i % 3 {
                1 => b.x |= 1 << c,
                2 => b.o |= 1 << c,
                _ => {}
            }
            i /= 3;
        }
        b
    }
}

impl Notation for TicTacToe {
    fn parse_position(&self, text: &str) -> Result<Board> {
        super::play_tokens(self, super::char_tokens(text))
    }

    fn parse_move(&self, p: &Board, text: &str) -> Result<u8> {
        let t = text.trim();
        let cell = match t.parse::<u8>() {
            Ok(c @ 1..=9) => c - 1,
            _ => {
                return Err(crate::Error::Invalid(format!(
                    "`{t}` is not a cell: cells are 1-9, row by row from the top left"
                )))
            }
        };
        if self.outcome(p).is_some() {
            return Err(crate::Error::Invalid(format!(
                "the game is over before this move ({t}): the move before it ended the game"
            )));
        }
        if (p.x | p.o) & (1 << cell) != 0 {
            return Err(crate::Error::Invalid(format!("cell {t} is taken")));
        }
        Ok(cell)
    }

    fn show_move(&self, m: u8) -> String {
        (m + 1).to_string()
    }

    fn show_position(&self, p: &Board) -> String {
        let mut s = String::new();
        for row in 0..3 {
            for col in 0..3 {
                let c = row * 3 + col;
                s.push(if p.x & (1 << c) != 0 {
                    'X'
                } else if p.o & (1 << c) != 0 {
                    'O'
                } else {
                    (b'1' + c as u8) as char
                });
                s.push(if col < 2 { ' ' } else { '\n' });
            }
        }
        s
    }
}
