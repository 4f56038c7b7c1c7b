//! A solved database queried on disk, a block at a time.

use crate::core::error::{Error, Result};
use crate::sequential::strong::tiers::file::{damaged, ones_before, Kind, TierFile, BLOCK_BYTES};
use crate::sequential::strong::tiers::{Tiered, Value};
use std::path::{Path, PathBuf};

/// A solved database on disk, read a block at a time as queries need them.
pub struct Database<'g, G: Tiered> {
    game: &'g G,
    dir: PathBuf,
    max_memory: u64,
    blocks: std::collections::HashMap<(Kind, usize, usize), Vec<u8>>,
    /// Each tier's reachable ranks before each block of its reachability file.
    before: std::collections::HashMap<usize, Vec<u64>>,
    /// For each reachability block read, its reachable ranks before every 64th byte.
    marks: std::collections::HashMap<(usize, usize), Vec<u64>>,
    held: u64,
}

impl<'g, G: Tiered> Database<'g, G> {
    /// The database of `game` in `dir`; nothing is read until a query needs it.
    pub fn open(game: &'g G, dir: &Path, max_memory: u64) -> Self {
        Database {
            game,
            dir: dir.to_path_buf(),
            max_memory,
            blocks: Default::default(),
            before: Default::default(),
            marks: Default::default(),
            held: 0,
        }
    }

    /// The value of rank `i` of tier `t` (`Unreachable` for a position no play reaches).
    pub fn value(&mut self, t: usize, i: u64) -> Result<Value> {
        let Some(d) = self.dense(t, i)? else {
            return Ok(Value::Unreachable);
        };
        let code = self.byte(Kind::Values, t, d / 4)?.unwrap_or(0);
        Ok(Value::of(code >> (2 * (d % 4)) & 3))
    }

    /// The remoteness of rank `i` of tier `t` (plies to the end with best play), or `None`
    /// when the database keeps none or the position is not reachable.
    pub fn remoteness(&mut self, t: usize, i: u64) -> Result<Option<u32>> {
        let Some(d) = self.dense(t, i)? else {
            return Ok(None);
        };
        Ok(self.byte(Kind::Remoteness, t, d)?.map(u32::from))
    }

    /// The index of rank `i` of tier `t` among the tier's reachable positions, from its
    /// reachability file; `None` when it is not reachable.
    fn dense(&mut self, t: usize, i: u64) -> Result<Option<u64>> {
        let name = self.game.name();
        if t >= self.game.tiers() || i >= self.game.tier_size(t) {
            return Err(Error::Invalid(format!(
                "{name} has no rank {i} in tier {t}"
            )));
        }
        let byte = (i / 8) as usize;
        let Some(bits) = self.byte(Kind::Reach, t, byte as u64)? else {
            return Ok(None);
        };
        if bits >> (i % 8) & 1 == 0 {
            return Ok(None);
        }
        let b = byte / BLOCK_BYTES;
        let block = &self.blocks[&(Kind::Reach, t, b)];
        // Reachable ranks before every 64th byte of the block, counted once a block.
        let marks = self
            .marks
            .entry((t, b))
            .or_insert_with(|| ones_before(block, 64));
        let at = byte - b * BLOCK_BYTES;
        let within: u64 = marks[at / 64]
            + block[at / 64 * 64..at]
                .iter()
                .map(|x| u64::from(x.count_ones()))
                .sum::<u64>()
            + u64::from((bits & ((1u8 << (i % 8)) - 1)).count_ones());
        Ok(Some(self.before[&t][b] + within))
    }

    /// Byte `k` of tier `t`'s `kind` of file; `None` when a remoteness file is missing.
    fn byte(&mut self, kind: Kind, t: usize, k: u64) -> Result<Option<u8>> {
        let name = self.game.name();
        let n = self.game.tier_size(t);
        let b = k as usize / BLOCK_BYTES;
        if !self.blocks.contains_key(&(kind, t, b)) {
            let Some(mut file) = TierFile::open(&self.dir, &name, t, n, kind)? else {
                if kind == Kind::Remoteness {
                    return Ok(None);
                }
                return Err(Error::Invalid(format!(
                    "{}: tier {t} of {name} is not solved yet (solve it with {} {})",
                    kind.path(&self.dir, t).display(),
                    crate::core::hint::setting("all"),
                    crate::core::hint::setting_value("db", &self.dir.display().to_string())
                )));
            };
            if kind == Kind::Reach {
                self.before.insert(t, file.header.before.clone());
            }
            // Blocks read stay for later queries, within the memory budget.
            if self.held + BLOCK_BYTES as u64 > self.max_memory {
                self.blocks.clear();
                self.marks.clear();
                self.held = 0;
            }
            let values = file.block(b)?;
            self.held += values.len() as u64;
            self.blocks.insert((kind, t, b), values);
        }
        match self.blocks[&(kind, t, b)].get(k as usize - b * BLOCK_BYTES) {
            Some(&byte) => Ok(Some(byte)),
            None => Err(damaged(
                &kind.path(&self.dir, t),
                "it holds fewer positions than its tier",
            )),
        }
    }

    /// The value of the position written as `text` in the game's notation.
    pub fn query(&mut self, text: &str) -> Result<Value> {
        let (t, i) = self.game.parse(text)?;
        self.value(t, i)
    }
}

/// The value of the position written as `text` (the game's notation), from the one tier file
/// that holds it.
pub fn query<G: Tiered>(g: &G, dir: &Path, text: &str) -> Result<Value> {
    Database::open(g, dir, crate::core::budget::default_max_memory()).query(text)
}
