//! The coin grid: an n × n board with coins on every square and a piece on the top-left
//! square. Alice and Bob move the piece in turn, one step up, down, left or right, Alice first,
//! for m rounds each; every square entered pays its coins (again on every visit), and all the
//! coins go to Alice. Alice maximises the total, Bob minimises it.
//!
//! As a negamax game: Alice's move gains her the coins, Bob's move "gains" him minus the coins,
//! so the value at the start (Alice to move) is Alice's total. The positions are the square and
//! the number of moves made: n² · (2m + 1) of them, which memoised minimax visits once each.

use crate::sequential::{Game, Notation, Player, Value};
use crate::{Error, Result};

/// A board of coins and a number of rounds.
#[derive(Debug, Clone)]
pub struct CoinGrid {
    coins: Vec<Vec<Value>>,
    rounds: u32,
}

/// A position: the piece's square and the moves made so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Row, 0 at the top.
    pub row: u32,
    /// Column, 0 at the left.
    pub col: u32,
    /// Moves made (Alice moves when it is even).
    pub made: u32,
}

/// A step of the piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

/// Coins on one square are at most this, so that no total can overflow.
pub const MAX_COINS: Value = 1_000_000_000_000;

impl CoinGrid {
    /// A game on the square board `coins` (each row the same length as the number of rows),
    /// `rounds` rounds of one move each for Alice and Bob.
    pub fn new(coins: Vec<Vec<Value>>, rounds: u32) -> Result<CoinGrid> {
        let n = coins.len();
        if n == 0 || coins.iter().any(|r| r.len() != n) {
            return Err(Error::Invalid(format!(
                "the coin grid must be square and not empty: it has {n} rows of lengths {:?}",
                coins.iter().map(Vec::len).collect::<Vec<_>>()
            )));
        }
        if let Some(bad) = coins.iter().flatten().find(|c| c.abs() > MAX_COINS) {
            return Err(Error::Invalid(format!(
                "{bad} coins on a square: at most {MAX_COINS}"
            )));
        }
        if rounds > 1_000_000 {
            return Err(Error::Invalid(format!("{rounds} rounds: at most 1000000")));
        }
        Ok(CoinGrid { coins, rounds })
    }

    /// Reads `ROUNDS:ROW;ROW;…` with the coins of a row separated by commas, e.g.
    /// `2:1,5;3,0`.
    pub fn parse(text: &str) -> Result<CoinGrid> {
        let bad = |m: String| Error::Invalid(format!("coin grid `{text}`: {m}"));
        let (rounds, grid) = text
            .split_once(':')
            .ok_or_else(|| bad("expected ROUNDS:ROW;ROW;... such as 2:1,5;3,0".into()))?;
        let rounds: u32 = rounds
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{rounds}` is not a number of rounds")))?;
        let coins = grid
            .split(';')
            .map(|row| {
                row.split(',')
                    .map(|c| {
                        c.trim()
                            .parse::<Value>()
                            .map_err(|_| bad(format!("`{c}` is not a number of coins")))
                    })
                    .collect::<Result<Vec<_>>>()
            })
            .collect::<Result<Vec<_>>>()?;
        CoinGrid::new(coins, rounds)
    }

    fn n(&self) -> u32 {
        self.coins.len() as u32
    }

    fn target(&self, p: &Position, s: Step) -> Option<(u32, u32)> {
        let n = self.n();
        match s {
            Step::Up if p.row > 0 => Some((p.row - 1, p.col)),
            Step::Down if p.row + 1 < n => Some((p.row + 1, p.col)),
            Step::Left if p.col > 0 => Some((p.row, p.col - 1)),
            Step::Right if p.col + 1 < n => Some((p.row, p.col + 1)),
            _ => None,
        }
    }
}

impl Game for CoinGrid {
    type Position = Position;
    type Move = Step;

    fn start(&self) -> Position {
        Position {
            row: 0,
            col: 0,
            made: 0,
        }
    }

    fn moves(&self, p: &Position, out: &mut Vec<Step>) {
        if p.made < 2 * self.rounds {
            for s in [Step::Up, Step::Down, Step::Left, Step::Right] {
                if self.target(p, s).is_some() {
                    out.push(s);
                }
            }
        }
    }

    fn play(&self, p: &Position, m: Step) -> Position {
        let (row, col) = self.target(p, m).expect("a legal step");
        Position {
            row,
            col,
            made: p.made + 1,
        }
    }

    fn outcome(&self, p: &Position) -> Option<Value> {
        (p.made >= 2 * self.rounds).then_some(0)
    }

    fn to_move(&self, p: &Position) -> Player {
        if p.made % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn has_rewards(&self) -> bool {
        true
    }

    fn reward(&self, p: &Position, m: Step) -> Value {
        let (r, c) = self.target(p, m).expect("a legal step");
        let coins = self.coins[r as usize][c as usize];
        if p.made % 2 == 0 {
            coins
        } else {
            -coins
        }
    }
}

impl Notation for CoinGrid {
    /// The steps made from the start, as letters U, D, L, R (`RDL`).
    fn parse_position(&self, text: &str) -> Result<Position> {
        super::play_tokens(self, super::char_tokens(text))
    }

    fn parse_move(&self, p: &Position, text: &str) -> Result<Step> {
        let s = match text.trim().to_ascii_uppercase().as_str() {
            "U" => Step::Up,
            "D" => Step::Down,
            "L" => Step::Left,
            "R" => Step::Right,
            t => {
                return Err(Error::Invalid(format!(
                    "`{t}` is not a step: use U, D, L or R"
                )))
            }
        };
        if p.made >= 2 * self.rounds {
            return Err(Error::Invalid(format!(
                "step {}: all {} rounds are played",
                text.trim(),
                self.rounds
            )));
        }
        if self.target(p, s).is_none() {
            return Err(Error::Invalid(format!(
                "step {} leaves the board",
                text.trim()
            )));
        }
        Ok(s)
    }

    fn show_move(&self, m: Step) -> String {
        match m {
            Step::Up => "U",
            Step::Down => "D",
            Step::Left => "L",
            Step::Right => "R",
        }
        .into()
    }

    fn explain(&self, p: &Position, v: Value) -> String {
        let alice = if p.made % 2 == 0 { v } else { -v };
        format!("Alice collects {alice} more coins with best play")
    }

    fn show_position(&self, p: &Position) -> String {
        let mut s = String::new();
        for (r, row) in self.coins.iter().enumerate() {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, coins)| {
                    if (r as u32, c as u32) == (p.row, p.col) {
                        format!("[{coins}]")
                    } else {
                        format!(" {coins} ")
                    }
                })
                .collect();
            s.push_str(cells.join("").trim_end());
            s.push('\n');
        }
        s.push_str(&format!(
            "round {} of {}, {} to move\n",
            p.made / 2 + 1,
            self.rounds,
            if p.made % 2 == 0 { "Alice" } else { "Bob" }
        ));
        s
    }
}
