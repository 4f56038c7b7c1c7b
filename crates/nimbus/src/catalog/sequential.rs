//! The two-player games of perfect information by name: `tictactoe`, `connect4[:WxH]`,
//! `nim:H,H,…`, `coin-grid:ROUNDS:ROW;ROW;…`, `carrot:A,A,…` (script games, `script:FILE`,
//! are the script engine's).

use crate::core::error::{Error, Result};
use crate::sequential::games::{coin_grid, connect4, nim, tictactoe};

/// A built-in game, by the name a request gives.
#[derive(Debug, Clone)]
pub enum Builtin {
    /// `tictactoe`
    TicTacToe(tictactoe::TicTacToe),
    /// `connect4` (7 × 6) or `connect4:WxH`
    Connect4(connect4::Connect4),
    /// `nim:3,4,5`
    Nim(nim::Nim),
    /// `coin-grid:ROUNDS:ROW;ROW;…`
    CoinGrid(coin_grid::CoinGrid),
    /// `carrot:1,2,3` or `carrot:@FILE`
    Carrot(Vec<crate::sequential::Value>),
}

/// The names `Builtin::parse` knows, for error messages.
pub const NAMES: &str = "tictactoe, connect4[:WxH], nim:H,H,..., coin-grid:ROUNDS:ROW;ROW;..., \
                         carrot:A,A,... or carrot:@FILE";

impl Builtin {
    /// Reads a game name with its parameters.
    pub fn parse(text: &str) -> Result<Builtin> {
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (text, None),
        };
        let unknown = || Error::Invalid(format!("unknown game `{text}`: the games are {NAMES}"));
        let numbers = |p: &str, what: &str| -> Result<Vec<i64>> {
            p.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .map(|t| {
                    t.parse::<i64>().map_err(|e| {
                        use std::num::IntErrorKind::{NegOverflow, PosOverflow};
                        Error::Invalid(match e.kind() {
                            PosOverflow | NegOverflow => {
                                format!("{what}: `{t}` is too large: at most {} here", i64::MAX)
                            }
                            _ => format!("{what}: `{t}` is not an integer"),
                        })
                    })
                })
                .collect()
        };
        Ok(match (name.trim(), params) {
            ("tictactoe" | "ttt", None) => Builtin::TicTacToe(tictactoe::TicTacToe),
            ("connect4", None) => Builtin::Connect4(connect4::Connect4::standard()),
            ("connect4", Some(size)) => {
                let bad = || {
                    Error::Invalid(format!(
                        "board size `{size}`: write WIDTHxHEIGHT, such as connect4:5x4"
                    ))
                };
                let (w, h) = size.split_once(['x', 'X']).ok_or_else(bad)?;
                let w: u32 = w.trim().parse().map_err(|_| bad())?;
                let h: u32 = h.trim().parse().map_err(|_| bad())?;
                Builtin::Connect4(connect4::Connect4::new(w, h)?)
            }
            ("nim", Some(p)) => {
                let heaps = numbers(p, "nim heaps")?
                    .into_iter()
                    .map(|h| {
                        u32::try_from(h)
                            .map_err(|_| Error::Invalid(format!("nim heap {h}: heaps are 0..2^32")))
                    })
                    .collect::<Result<Vec<_>>>()?;
                // Every move is listed at every position searched: a position of 2·10^9
                // objects would list gigabytes of moves. The impartial engine answers any size.
                let total: u64 = heaps.iter().map(|&h| u64::from(h)).sum();
                if total > nim::MAX_OBJECTS {
                    return Err(Error::Invalid(format!(
                        "nim heaps: {total} objects in all, more than the {} a search lists \
                         moves for (`nimbus sg nim …` answers Nim of any size by its closed \
                         form)",
                        nim::MAX_OBJECTS
                    )));
                }
                Builtin::Nim(nim::Nim::new(heaps))
            }
            ("coin-grid" | "coin_grid", Some(p)) => {
                Builtin::CoinGrid(coin_grid::CoinGrid::parse(p)?)
            }
            ("carrot", Some(p)) => {
                let a = if let Some(path) = p.strip_prefix('@') {
                    let text = crate::core::input::read_text(path)?;
                    let mut a = numbers(&text, path)?;
                    // Codeforces' input gives n first: drop it when it counts the rest.
                    if a.first()
                        .is_some_and(|&n| n >= 0 && n as usize == a.len() - 1)
                    {
                        a.remove(0);
                    }
                    a
                } else {
                    numbers(p, "carrot")?
                };
                if a.is_empty() {
                    return Err(Error::Invalid("carrot: the sequence is empty".into()));
                }
                Builtin::Carrot(a)
            }
            _ => return Err(unknown()),
        })
    }

    /// The name that fixes the ruleset and its parameters, stored in saved solutions.
    pub fn name(&self) -> String {
        match self {
            Builtin::TicTacToe(_) => "tictactoe".into(),
            Builtin::Connect4(g) => format!("connect4:{}x{}", g.width(), g.height()),
            Builtin::Nim(g) => format!(
                "nim:{}",
                g.heaps()
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Builtin::CoinGrid(_) => "coin-grid".into(),
            Builtin::Carrot(_) => "carrot".into(),
        }
    }
}
