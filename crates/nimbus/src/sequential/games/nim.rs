//! Nim as a sequential game: the player who takes the last object wins (+1), the other loses
//! (−1). Checked against the impartial engine, where a position is won exactly when its
//! nim-sum is not 0.

use crate::sequential::{Game, Indexed, Notation, Player, Value};
use crate::{Error, Result};

/// The most objects in all that sequential Nim is played with: a search lists every move of
/// every position it visits.
pub const MAX_OBJECTS: u64 = 1_000_000;

/// Nim on heaps no larger than the starting ones.
#[derive(Debug, Clone)]
pub struct Nim {
    heaps: Vec<u32>,
}

/// A position: the heaps and whose turn it is (kept for display; the value does not need it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Heaps {
    /// Heap sizes.
    pub heaps: Vec<u32>,
    /// Moves made so far, mod 2.
    pub second: bool,
}

/// Leave `to` objects on heap `heap`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Take {
    /// The heap, 0-based.
    pub heap: usize,
    /// What is left on it.
    pub to: u32,
}

impl Nim {
    /// Nim starting from `heaps`.
    pub fn new(heaps: Vec<u32>) -> Nim {
        Nim { heaps }
    }

    /// The starting heaps.
    pub fn heaps(&self) -> &[u32] {
        &self.heaps
    }
}

impl Game for Nim {
    type Position = Heaps;
    type Move = Take;

    fn start(&self) -> Heaps {
        Heaps {
            heaps: self.heaps.clone(),
            second: false,
        }
    }

    fn moves(&self, p: &Heaps, out: &mut Vec<Take>) {
        for (heap, &h) in p.heaps.iter().enumerate() {
            out.extend((0..h).map(|to| Take { heap, to }));
        }
    }

    fn play(&self, p: &Heaps, m: Take) -> Heaps {
        let mut q = p.clone();
        q.heaps[m.heap] = m.to;
        q.second = !q.second;
        q
    }

    fn outcome(&self, p: &Heaps) -> Option<Value> {
        p.heaps.iter().all(|&h| h == 0).then_some(-1)
    }

    fn to_move(&self, p: &Heaps) -> Player {
        if p.second {
            Player::Second
        } else {
            Player::First
        }
    }
}

impl Indexed for Nim {
    fn size(&self) -> u64 {
        self.heaps
            .iter()
            .try_fold(2u64, |acc, &h| acc.checked_mul(h as u64 + 1))
            .unwrap_or(u64::MAX)
    }

    fn rank(&self, p: &Heaps) -> u64 {
        let r = p
            .heaps
            .iter()
            .zip(&self.heaps)
            .fold(0u64, |acc, (&h, &max)| acc * (max as u64 + 1) + h as u64);
        r * 2 + p.second as u64
    }

    fn unrank(&self, i: u64) -> Heaps {
        let second = i % 2 == 1;
        let mut r = i / 2;
        let mut heaps = vec![0; self.heaps.len()];
        for (h, &max) in heaps.iter_mut().zip(&self.heaps).rev() {
            *h = (r % (max as u64 + 1)) as u32;
            r /= max as u64 + 1;
        }
        Heaps { heaps, second }
    }
}

impl Notation for Nim {
    /// Moves as `HEAP:LEFT` separated by spaces (heaps numbered from 1), e.g. `1:0 3:2`.
    fn parse_position(&self, text: &str) -> Result<Heaps> {
        super::play_tokens(self, super::word_tokens(text))
    }

    fn parse_move(&self, p: &Heaps, text: &str) -> Result<Take> {
        let t = text.trim();
        let bad = |why: String| Error::Invalid(format!("move `{t}`: {why}"));
        let (h, to) = t
            .split_once(':')
            .ok_or_else(|| bad("write HEAP:LEFT, such as 2:0".into()))?;
        let heap: usize = h
            .parse()
            .ok()
            .filter(|&h| h >= 1 && h <= p.heaps.len())
            .ok_or_else(|| bad(format!("heaps are 1-{}", p.heaps.len())))?;
        let to: u32 = to
            .parse()
            .map_err(|_| bad(format!("`{to}` is not a number")))?;
        if to >= p.heaps[heap - 1] {
            return Err(bad(format!(
                "heap {heap} has {}: leave fewer",
                p.heaps[heap - 1]
            )));
        }
        Ok(Take { heap: heap - 1, to })
    }

    fn show_move(&self, m: Take) -> String {
        format!("{}:{}", m.heap + 1, m.to)
    }

    fn show_position(&self, p: &Heaps) -> String {
        let heaps: Vec<String> = p.heaps.iter().map(u32::to_string).collect();
        format!("heaps {}\n", heaps.join(" "))
    }
}
