//! Strong solutions by retrograde analysis: the result (win, loss, draw) and the remoteness of
//! every position reachable from the start of an [`Indexed`] game, in parallel.
//!
//! First the reachable positions are found breadth-first (a bit per rank). Then round r marks
//! a position won in r plies when some move reaches a position lost in r − 1, and lost in r
//! when every move reaches a won position and the longest of those wins is r − 1 plies — the
//! rule that a win comes from the quickest losing successor and a loss from the slowest
//! winning one. Positions never marked are draws (a drawn ending, or play that can go on
//! forever). Each round looks only at the positions still open, in parallel with rayon.
//!
//! The solution takes one byte per rank: two bits of result and six of remoteness, with
//! remoteness 63 or more kept in a side table. It can be saved to a file and loaded to answer
//! queries later.

use crate::sequential::Indexed;
use crate::{Error, Result};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;

const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;
const ESCAPE: u8 = 63;
/// The format's name and version: 2 is sealed with a checksum ([`crate::core::sealed`]).
const MAGIC: &[u8; 8] = b"NIMBUSD2";

/// The game-theoretic result of a position for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "result", content = "remoteness", rename_all = "lowercase")]
pub enum Solved {
    /// The side to move wins; the number is the plies to the end with best play.
    Win(u32),
    /// The side to move loses, in this many plies with best play.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

/// Counts over the solved positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Positions reachable from the start.
    pub positions: u64,
    /// Of which won for the side to move.
    pub wins: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
    /// The largest remoteness of a won or lost position.
    pub longest: u32,
    /// The result of the start.
    pub start: Solved,
}

/// Where a strong solution is, for a progress display.
#[derive(Debug, Clone, Copy)]
pub enum Progress {
    /// Reachable positions found so far.
    Reached(u64),
    /// After retrograde round `round`, `open` reachable positions are still unsolved.
    Round {
        /// The round just finished (its remoteness).
        round: u32,
        /// Positions still unsolved.
        open: u64,
        /// Reachable positions.
        total: u64,
    },
}

/// A strong solution: one byte per rank.
pub struct Strong {
    name: String,
    codes: Vec<u8>,
    deep: FxHashMap<u64, u32>,
    summary: Summary,
}

fn decode(code: u8, rank: u64, deep: &FxHashMap<u64, u32>) -> Option<Solved> {
    let r = (code & ESCAPE) as u32;
    let r = if r == ESCAPE as u32 { deep[&rank] } else { r };
    match code >> 6 {
        WIN => Some(Solved::Win(r)),
        LOSS => Some(Solved::Loss(r)),
        DRAW => Some(Solved::Draw),
        _ => None,
    }
}

fn summarise(codes: &[u8], deep: &FxHashMap<u64, u32>, start: u64) -> Summary {
    let (mut wins, mut losses, mut draws, mut longest) = (0, 0, 0, 0);
    for (i, &c) in codes.iter().enumerate() {
        match decode(c, i as u64, deep) {
            Some(Solved::Win(r)) => {
                wins += 1;
                longest = longest.max(r);
            }
            Some(Solved::Loss(r)) => {
                losses += 1;
                longest = longest.max(r);
            }
            Some(Solved::Draw) => draws += 1,
            None => {}
        }
    }
    Summary {
        positions: wins + losses + draws,
        wins,
        losses,
        draws,
        longest,
        start: decode(codes[start as usize], start, deep).unwrap_or(Solved::Draw),
    }
}

/// Strongly solves `g`: every position reachable from the start. `name` identifies the game
/// in a saved file. Stops with an error past `max_states` reachable positions or when the
/// game has rewards (scores are not results; solve those by search); refuses at once a game
/// whose ranks need more than `max_memory` bytes (a bit a rank while exploring, then a byte a
/// rank, and two words a reachable position). `progress` is called from time to time.
// Kept as one function: the rounds of retrograde analysis share the rank tables, the counts and the
// progress; each round's work is in the functions it calls on the cores.
pub fn solve<G>(
    g: &G,
    name: &str,
    max_states: u64,
    max_memory: u64,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Strong>
where
    G: Indexed + Sync,
{
    if g.has_rewards() {
        return Err(Error::Invalid(format!(
            "{name} scores moves; the strong solver gives results (win, loss, draw), so search \
             it for its value instead"
        )));
    }
    let size = g.size();
    let bytes = size
        .saturating_add(size / 8)
        .saturating_add(size.min(max_states).saturating_mul(16));
    crate::core::budget::check_memory(
        &format!("the strong solution of {name} ({size} ranks)"),
        bytes,
        max_memory,
    )?;
    let Ok(len) = usize::try_from(size) else {
        return Err(Error::Invalid(format!(
            "{name} has too many ranks ({size})"
        )));
    };
    let seen: Vec<AtomicU64> = (0..len.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let mark = |i: u64| {
        let bit = 1u64 << (i % 64);
        seen[(i / 64) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
    };
    let start = g.rank(&g.start());
    mark(start);
    let mut reached = vec![start];
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        frontier = frontier
            .par_iter()
            .fold(Vec::new, |mut next, &i| {
                let p = g.unrank(i);
                if g.outcome(&p).is_none() {
                    let mut moves = Vec::new();
                    g.moves(&p, &mut moves);
                    for m in moves {
                        let c = g.rank(&g.play(&p, m));
                        if mark(c) {
                            next.push(c);
                        }
                    }
                }
                next
            })
            .reduce(Vec::new, |mut a, b| {
                a.extend(b);
                a
            });
        reached.extend_from_slice(&frontier);
        if reached.len() as u64 > max_states {
            return Err(Error::StateLimit {
                explored: reached.len() as u64,
                limit: max_states,
                what: name.into(),
            });
        }
        progress(Progress::Reached(reached.len() as u64));
        crate::core::progress::check()?;
    }
    drop(seen);
    let total = reached.len() as u64;

    let codes: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(0)).collect();
    let deep: Mutex<FxHashMap<u64, u32>> = Mutex::new(FxHashMap::default());
    let set = |i: u64, result: u8, r: u32| {
        let low = if r >= ESCAPE as u32 {
            deep.lock().expect("no panics hold it").insert(i, r);
            ESCAPE
        } else {
            r as u8
        };
        codes[i as usize].store(result << 6 | low, Ordering::Release);
    };
    let get = |i: u64| -> (u8, u32) {
        let c = codes[i as usize].load(Ordering::Acquire);
        let low = (c & ESCAPE) as u32;
        let r = if low == ESCAPE as u32 && c >> 6 != 0 {
            deep.lock().expect("no panics hold it")[&i]
        } else {
            low
        };
        (c >> 6, r)
    };
    // Round 0: the ends of the game.
    let mut open: Vec<u64> = reached
        .into_par_iter()
        .filter(|&i| {
            let p = g.unrank(i);
            let mut moves = Vec::new();
            match g.outcome(&p) {
                Some(v) if v > 0 => set(i, WIN, 0),
                Some(v) if v < 0 => set(i, LOSS, 0),
                Some(_) => set(i, DRAW, 0),
                None => {
                    g.moves(&p, &mut moves);
                    if moves.is_empty() {
                        set(i, DRAW, 0);
                    } else {
                        return true;
                    }
                }
            }
            false
        })
        .collect();
    progress(Progress::Round {
        round: 0,
        open: open.len() as u64,
        total,
    });
    let mut round = 0u32;
    while !open.is_empty() {
        round += 1;
        let before = open.len();
        open = open
            .into_par_iter()
            .filter(|&i| {
                let p = g.unrank(i);
                let mut moves = Vec::new();
                g.moves(&p, &mut moves);
                let mut all_won = true;
                let mut slowest = 0;
                for m in moves {
                    let (result, r) = get(g.rank(&g.play(&p, m)));
                    if result == LOSS && r + 1 == round {
                        set(i, WIN, round);
                        return false;
                    }
                    if result == WIN {
                        slowest = slowest.max(r);
                    } else {
                        all_won = false;
                    }
                }
                if all_won && slowest + 1 == round {
                    set(i, LOSS, round);
                    return false;
                }
                true
            })
            .collect();
        progress(Progress::Round {
            round,
            open: open.len() as u64,
            total,
        });
        crate::core::progress::check()?;
        if open.len() == before {
            break;
        }
    }
    for &i in &open {
        set(i, DRAW, 0);
    }
    let codes: Vec<u8> = codes.into_iter().map(AtomicU8::into_inner).collect();
    let deep = deep.into_inner().expect("no panics hold it");
    let summary = summarise(&codes, &deep, start);
    Ok(Strong {
        name: name.to_string(),
        codes,
        deep,
        summary,
    })
}

impl Strong {
    /// The counts of the solution.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// The name the solution was made (or saved) under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The result of a position, `None` when it is not reachable from the start.
    pub fn get<G: Indexed>(&self, g: &G, p: &G::Position) -> Option<Solved> {
        let i = g.rank(p);
        let code = *self.codes.get(usize::try_from(i).ok()?)?;
        decode(code, i, &self.deep)
    }

    /// Bytes the solution occupies (the side table counted at 12 bytes an entry).
    pub fn bytes(&self) -> u64 {
        self.codes.len() as u64 + 12 * self.deep.len() as u64
    }

    /// The solution as the bytes of a file: a magic string naming the format and its version,
    /// the game's name, the ranks' bytes, the side table (sealed with a checksum when written,
    /// see [`crate::core::sealed`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Vec::with_capacity(self.codes.len() + 64 + 12 * self.deep.len());
        w.extend_from_slice(MAGIC);
        w.extend_from_slice(&(self.name.len() as u64).to_le_bytes());
        w.extend_from_slice(self.name.as_bytes());
        w.extend_from_slice(&(self.codes.len() as u64).to_le_bytes());
        w.extend_from_slice(&self.codes);
        w.extend_from_slice(&(self.deep.len() as u64).to_le_bytes());
        let mut deep: Vec<_> = self.deep.iter().collect();
        deep.sort();
        for (&i, &r) in deep {
            w.extend_from_slice(&i.to_le_bytes());
            w.extend_from_slice(&r.to_le_bytes());
        }
        w
    }

    /// Reads a solution written by [`Strong::to_bytes`] for the game called `name` (of
    /// `g.size()` ranks); `path` names the file in errors.
    pub fn from_bytes<G: Indexed>(g: &G, name: &str, bytes: &[u8], path: &str) -> Result<Strong> {
        let bad = |why: &str| Error::Invalid(format!("{path}: not a solution of {name}: {why}"));
        let mut r = bytes;
        let mut take = |n: u64| -> Result<&[u8]> {
            if n > r.len() as u64 {
                return Err(bad("truncated"));
            }
            let (head, rest) = r.split_at(n as usize);
            r = rest;
            Ok(head)
        };
        if take(8)? != MAGIC {
            return Err(bad(&format!(
                "it does not start with {}",
                String::from_utf8_lossy(MAGIC)
            )));
        }
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        let n = word(take(8)?);
        if n > 1024 {
            return Err(bad("the name is too long"));
        }
        let saved = take(n)?;
        if saved != name.as_bytes() {
            return Err(bad(&format!(
                "it solves {}",
                String::from_utf8_lossy(saved)
            )));
        }
        let len = word(take(8)?);
        if len != g.size() {
            return Err(bad(&format!("it has {len} ranks, the game {}", g.size())));
        }
        let codes = take(len)?.to_vec();
        let deep_len = word(take(8)?);
        let mut deep = FxHashMap::default();
        for _ in 0..deep_len {
            let i = word(take(8)?);
            let four = take(4)?;
            deep.insert(i, u32::from_le_bytes(four.try_into().expect("4 bytes")));
        }
        if !r.is_empty() {
            return Err(bad("bytes follow the side table"));
        }
        for (i, &c) in codes.iter().enumerate() {
            if c & ESCAPE == ESCAPE
                && c >> 6 != DRAW
                && c >> 6 != 0
                && !deep.contains_key(&(i as u64))
            {
                return Err(bad("a remoteness is missing"));
            }
        }
        let start = g.rank(&g.start());
        if start >= len {
            return Err(bad("the start is out of range"));
        }
        let summary = summarise(&codes, &deep, start);
        Ok(Strong {
            name: name.into(),
            codes,
            deep,
            summary,
        })
    }
}

/// Checks that `Game::moves` and ranks agree: the ranks of the reachable positions are below
/// `size` and unranking gives the position back (for tests of an [`Indexed`] ruleset).
pub fn check_ranking<G>(g: &G, limit: usize) -> bool
where
    G: Indexed,
    G::Position: PartialEq,
{
    let mut stack = vec![g.start()];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(p) = stack.pop() {
        let i = g.rank(&p);
        if i >= g.size() || g.unrank(i) != p {
            return false;
        }
        if !seen.insert(i) || seen.len() > limit {
            continue;
        }
        if g.outcome(&p).is_none() {
            let mut moves = Vec::new();
            g.moves(&p, &mut moves);
            stack.extend(moves.into_iter().map(|m| g.play(&p, m)));
        }
    }
    true
}
