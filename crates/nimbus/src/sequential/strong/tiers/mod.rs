//! Strong solutions tier by tier, two bits a reachable position, a few files a tier.
//!
//! A *tiered* game puts every position in a tier and ranks the positions of each tier (a
//! combinatorial ranking, which may leave ranks no play reaches); its moves lead from a tier to
//! later tiers or stay in it ([`Tiered::successors`]; Connect Four: a move adds a stone, so
//! to the next tier). The solver first marks, tier by tier from the start's, the ranks reachable from
//! the start (a bit a rank). Counting those bits ranks the reachable positions of a tier
//! densely: the values are kept for them alone, in the order of rank, two bits each, and a
//! position's place among them is found from the bits and a small directory of counts (three
//! eighths of a bit a rank). Then the tiers are valued from the last to the first: a position
//! is won when some move reaches a lost one, lost when every move reaches a won one (or the
//! game has ended against the side to move), drawn otherwise. A tier with moves within itself
//! is valued by passes over it until no value or remoteness changes; its positions still
//! undecided then can avoid losing forever, and are draws.
//!
//! Each solved tier is written to `DIR/tier-K.reach` (its reachability bits), `DIR/tier-K.bin`
//! (the values) and, when remoteness is kept, `DIR/tier-K.rem` (a byte a reachable position).
//! Each file is a line naming the format, a JSON header (game, tier, ranks, reachable
//! positions, and for each block of 1 MiB its compressed size and CRC-32; for the
//! reachability file also the reachable ranks before each block) and the blocks, each
//! compressed with DEFLATE on its own. The values file is written last, and a run skips every
//! tier whose values file exists and verifies, so a stopped run resumes at the tier it was
//! in; a query decompresses the one block of reachability bits and the one block of values
//! that hold its position.
//!
//! ```
//! use nimbus::sequential::games::connect4::tiers::Connect4Tiers;
//! use nimbus::sequential::strong::tiers::{solve, query, Value};
//! let g = Connect4Tiers::new(4, 4).unwrap();
//! let dir = std::env::temp_dir().join(format!("nimbus-doc-tiers-{}", std::process::id()));
//! let s = solve(&g, &dir, true, u64::MAX).unwrap();
//! assert_eq!(s.longest_remoteness, Some(13));
//! assert_eq!(s.start, Value::Draw);                 // 4 x 4 Connect Four is a draw
//! assert_eq!(query(&g, &dir, "1").unwrap(), Value::Draw);
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod database;
mod dense;
#[cfg(feature = "mpi")]
pub mod distributed;
mod file;
mod solve;

pub use database::{query, Database};
pub use solve::solve;

use crate::core::error::Result;
use dense::get;
use serde::Serialize;

/// A position's value for the side to move, as stored (two bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    /// Not reachable from the start.
    Unreachable,
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
}

impl Value {
    fn code(self) -> u8 {
        match self {
            Value::Unreachable => 0,
            Value::Win => 1,
            Value::Loss => 2,
            Value::Draw => 3,
        }
    }

    fn of(code: u8) -> Value {
        match code & 3 {
            0 => Value::Unreachable,
            1 => Value::Win,
            2 => Value::Loss,
            _ => Value::Draw,
        }
    }
}

/// A game whose positions fall into tiers, each ranked densely, with moves only to later
/// tiers.
pub trait Tiered: Sync {
    /// A position.
    type Position;
    /// What identifies the game in a tier file ("connect4:6x4").
    fn name(&self) -> String;
    /// How many tiers there are; they are numbered from 0.
    fn tiers(&self) -> usize;
    /// The positions of tier `t`.
    fn tier_size(&self, t: usize) -> u64;
    /// The start's tier and rank.
    fn start(&self) -> (usize, u64);
    /// The position of rank `i` in tier `t`.
    fn unrank(&self, t: usize, i: u64) -> Self::Position;
    /// The value of a position where the game is over, from the rules alone (`Unreachable`
    /// for a position no play can reach, such as one where the side to move has already
    /// won); `None` while the game goes on.
    fn primitive(&self, t: usize, p: &Self::Position) -> Option<Value>;
    /// The tier and rank of the position every move of `p` reaches, in `out`.
    fn children(&self, t: usize, p: &Self::Position, out: &mut Vec<(usize, u64)>);
    /// The tier and rank of a position written in the game's notation.
    fn parse(&self, text: &str) -> Result<(usize, u64)>;

    /// The tiers the moves of tier `t` lead to: `t` itself (moves that keep the tier) or
    /// tiers after it. By default the next tier alone (Connect Four: a move adds a stone).
    fn successors(&self, t: usize) -> Vec<usize> {
        if t + 1 < self.tiers() {
            vec![t + 1]
        } else {
            Vec::new()
        }
    }

    /// Visits, in order of rank, the positions of tier `t` with ranks in `from..to` for which
    /// `wanted` holds, handing each to `each` with its [`Step`]. The default unranks every
    /// one; a game that steps from a rank to the next more cheaply overrides it.
    fn visit(
        &self,
        t: usize,
        from: u64,
        to: u64,
        wanted: &dyn Fn(u64) -> bool,
        each: &mut dyn FnMut(u64, Step<'_>) -> Result<()>,
    ) -> Result<()> {
        let mut out = Vec::new();
        for i in from..to {
            if !wanted(i) {
                continue;
            }
            let p = self.unrank(t, i);
            match self.primitive(t, &p) {
                Some(v) => each(i, Step::Over(v))?,
                None => {
                    out.clear();
                    self.children(t, &p, &mut out);
                    each(i, Step::Moves(&out))?;
                }
            }
        }
        Ok(())
    }
}

/// What [`Tiered::visit`] says of a position.
#[derive(Debug)]
pub enum Step<'a> {
    /// The game is over there (or the position cannot be reached): its value.
    Over(Value),
    /// The tier and rank each move reaches.
    Moves(&'a [(usize, u64)]),
}

/// Counts of one tier or of the whole game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Positions reachable from the start.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
}

impl Counts {
    fn of(codes: &[u8], n: u64) -> Counts {
        let mut c = Counts::default();
        for i in 0..n {
            match Value::of(get(codes, i)) {
                Value::Unreachable => {}
                Value::Win => c.wins += 1,
                Value::Loss => c.losses += 1,
                Value::Draw => c.draws += 1,
            }
        }
        c.positions = c.wins + c.losses + c.draws;
        c
    }

    fn add(&mut self, o: &Counts) {
        self.positions += o.positions;
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
    }
}

/// A solved database's summary.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// The start's value.
    pub start: Value,
    /// Over every tier.
    pub total: Counts,
    /// Tier by tier, from the first.
    pub tiers: Vec<Counts>,
    /// Ranks in all tiers (reachable or not).
    pub ranks: u64,
    /// Bytes of the tier files on disk.
    pub bytes_on_disk: u64,
    /// Tiers found solved on disk (a resumed run).
    pub resumed: usize,
    /// With remoteness kept: the longest distance to the end with best play, in plies.
    pub longest_remoteness: Option<u32>,
}
