//! An opening book: every position of Connect Four with at most `depth` stones that play can
//! reach and where the game goes on, with its exact score (Pons' scoring, as
//! [`Connect4::score`] gives it), a position and its reflection stored once.
//!
//! A book is built from its deepest level up. Only the positions of exactly `depth` stones
//! are searched, one after another with one table kept warm (they share most of their
//! subtrees, and a table's entries hold for any root). Every shallower position's score then
//! follows from its moves without a search: a move that completes four scores the win of
//! that stone, one that fills the board scores 0, and any other scores minus the score of
//! the position it reaches, one level deeper and already in the book.
//!
//! Answering from a book needs the scores of a position's moves ([`Book::moves`]): the
//! positions of fewer than `depth` stones are answered whole (score, every best move, each
//! move's score) without a search.
//!
//! The file is sealed ([`crate::core::sealed`]: a changed, cut or lengthened file is refused)
//! and its body is the line `nimbus connect4 book 1`, the width, height and depth (4 bytes
//! each, little-endian), the number of positions (8 bytes), their keys in ascending order
//! (8 bytes each: Pons' key `current + mask` or its reflection's, the smaller) and their
//! scores (a byte each). Nine bytes a position: the depth-8 book of the 7 × 6 board is a few
//! megabytes, small enough to read whole at each query.
//!
//! ```
//! use nimbus::sequential::games::connect4::{book::Book, Connect4};
//! use nimbus::sequential::{Notation, SearchLimits};
//! let g = Connect4::new(5, 4).unwrap();
//! let limits = SearchLimits { table_bits: 16, ..SearchLimits::default() };
//! let built = Book::build(&g, 3, &limits, u64::MAX, u64::MAX).unwrap();
//! let book = Book::from_bytes(&built.book.to_bytes(), &g, "book").unwrap();
//! assert_eq!(book.score(&g, &g.parse_position("").unwrap()), Some(0)); // 5 × 4: a draw
//! let moves = book.moves(&g, &g.parse_position("33").unwrap()).unwrap();
//! assert_eq!(moves.len(), 5);
//! ```

use super::{Connect4, Position};
use crate::core::error::{Error, Result};
use crate::sequential::search::alphabeta::Searcher;
use crate::sequential::{Game, SearchLimits, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// The first line of a book's body: the format and its version.
const MAGIC: &[u8] = b"nimbus connect4 book 1\n";
/// Bytes of the body before the keys: the line, three sizes and the count.
const HEAD: usize = MAGIC.len() + 12 + 8;
/// Bytes a position costs while a book is built: itself in its level's list, its key in the
/// level's set of keys (at the worst moment of the set's growth), and its score's entry.
const BUILD_BYTES: u64 = 24 + 3 * 9 + 16 + 3 * 10 + 16;

/// Every position of up to [`Book::depth`] stones with its exact score; see the module's
/// documentation.
#[derive(Debug, Clone)]
pub struct Book {
    width: u32,
    height: u32,
    depth: u32,
    keys: Vec<u64>,
    scores: Vec<i8>,
}

/// A book just built, and what building it took.
#[derive(Debug, Clone)]
pub struct Built {
    /// The book.
    pub book: Book,
    /// Positions searched (those of exactly the book's depth).
    pub searched: u64,
    /// Nodes those searches visited.
    pub nodes: u64,
}

/// Whether the file at `path` starts as a book does (its checksum is checked when it is read).
pub fn is_book(path: &std::path::Path) -> bool {
    board_of(path).is_some()
}

/// The width and height of the board whose book the file at `path` says it is, when it
/// starts as a book does (its checksum is checked when it is read).
pub fn board_of(path: &std::path::Path) -> Option<(u32, u32)> {
    use std::io::Read;
    let mut start = [0u8; MAGIC.len() + 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .ok()?;
    let word = |at: usize| u32::from_le_bytes(start[at..at + 4].try_into().expect("4 bytes"));
    (&start[..MAGIC.len()] == MAGIC).then(|| (word(MAGIC.len()), word(MAGIC.len() + 4)))
}

impl Connect4 {
    /// The key a book stores `p` under: Pons' key or its reflection's, the smaller.
    fn book_key(&self, p: &Position) -> u64 {
        let key = p.current + p.mask;
        key.min(self.mirror(key))
    }

    /// The score for the side to move at `p` of playing column `c` when that move ends the
    /// game: four in a row, or the last cell filled.
    fn ending(&self, p: &Position, c: u32) -> Option<Value> {
        let q = self.drop_stone(p, c);
        if self.aligned(q.current ^ q.mask) {
            Some(self.win_score(p.moves / 2 + 1))
        } else if q.moves == self.cells {
            Some(0)
        } else {
            None
        }
    }
}

impl Book {
    /// Builds the book of `g` to `depth` stones; see the module's documentation. The searches
    /// share `limits`' table (growing as it allows), its deadline and, in all, its work
    /// budget; the positions kept count against `max_states`, their memory against
    /// `max_memory`, each checked before the position is kept.
    pub fn build(
        g: &Connect4,
        depth: u32,
        limits: &SearchLimits,
        max_states: u64,
        max_memory: u64,
    ) -> Result<Built> {
        if depth > g.cells {
            return Err(Error::Invalid(format!(
                "a book of depth {depth}: the {} x {} board holds {} stones",
                g.width, g.height, g.cells
            )));
        }
        let levels = levels(g, depth, max_states, max_memory)?;
        let mut scores: Vec<FxHashMap<u64, i8>> = vec![FxHashMap::default(); levels.len()];
        let (searched, nodes) = search_deepest(g, &levels[depth as usize], limits, {
            let last = &mut scores[depth as usize];
            move |key, v| {
                last.insert(key, v as i8);
            }
        })?;
        for d in (0..depth as usize).rev() {
            let (shallow, deep) = scores.split_at_mut(d + 1);
            let (here, below) = (&mut shallow[d], &deep[0]);
            for p in &levels[d] {
                let best = move_scores(g, p, |q| below.get(&g.book_key(q)).map(|&s| s.into()))
                    .map(|moves| moves.iter().map(|&(_, v)| v).max().unwrap_or(0))
                    .expect("every position one stone deeper is in the book");
                here.insert(g.book_key(p), best as i8);
            }
        }
        let mut all: Vec<(u64, i8)> = scores.into_iter().flatten().collect();
        all.sort_unstable_by_key(|&(k, _)| k);
        Ok(Built {
            book: Book {
                width: g.width,
                height: g.height,
                depth,
                keys: all.iter().map(|&(k, _)| k).collect(),
                scores: all.iter().map(|&(_, s)| s).collect(),
            },
            searched,
            nodes,
        })
    }

    /// The deepest positions the book holds, in stones.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no position is stored (never, for a book that was built).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The stored score of `p` for the side to move, when the book holds it.
    pub fn score(&self, g: &Connect4, p: &Position) -> Option<Value> {
        let key = g.book_key(p);
        self.keys
            .binary_search(&key)
            .ok()
            .map(|i| self.scores[i].into())
    }

    /// Every legal column of `p` (0-based, in the search's centre-first order) with its score
    /// for the side to move, when the book answers every one of them: `p` has fewer stones
    /// than the book's depth, or each move ends the game. `None` otherwise, and when the game
    /// is over at `p`.
    pub fn moves(&self, g: &Connect4, p: &Position) -> Option<Vec<(u8, Value)>> {
        if g.outcome(p).is_some() {
            return None;
        }
        move_scores(g, p, |q| self.score(g, q))
    }

    /// The first best column of `p` (centre first among equals) and its score, when the book
    /// answers every move of `p` ([`Book::moves`]).
    pub fn best_move(&self, g: &Connect4, p: &Position) -> Option<(u8, Value)> {
        let moves = self.moves(g, p)?;
        let best = moves.iter().map(|&(_, v)| v).max()?;
        moves.into_iter().find(|&(_, v)| v == best)
    }

    /// The file's body (sealed by the writer).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEAD + 9 * self.keys.len());
        out.extend_from_slice(MAGIC);
        for x in [self.width, self.height, self.depth] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&(self.keys.len() as u64).to_le_bytes());
        for k in &self.keys {
            out.extend_from_slice(&k.to_le_bytes());
        }
        out.extend(self.scores.iter().map(|&s| s as u8));
        out
    }

    /// A book from a file's body (its seal already checked), for the board `g`; `path` names
    /// the file in errors.
    pub fn from_bytes(body: &[u8], g: &Connect4, path: &str) -> Result<Book> {
        let bad = |why: String| Error::Invalid(format!("{path}: {why}"));
        if !body.starts_with(MAGIC) || body.len() < HEAD {
            return Err(bad(
                "not a Connect Four book of this version of Nimbus".into()
            ));
        }
        let word = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes"));
        let (width, height, depth) = (
            word(MAGIC.len()),
            word(MAGIC.len() + 4),
            word(MAGIC.len() + 8),
        );
        if (width, height) != (g.width, g.height) {
            return Err(bad(format!(
                "a book of the {width} x {height} board, not of {} x {}",
                g.width, g.height
            )));
        }
        let count = u64::from_le_bytes(body[HEAD - 8..HEAD].try_into().expect("8 bytes"));
        if count
            .checked_mul(9)
            .and_then(|b| b.checked_add(HEAD as u64))
            != Some(body.len() as u64)
        {
            return Err(bad(format!("{count} positions do not fill its length")));
        }
        let count = count as usize;
        let keys: Vec<u64> = body[HEAD..HEAD + 8 * count]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let scores: Vec<i8> = body[HEAD + 8 * count..].iter().map(|&b| b as i8).collect();
        let most = g.win_score(1);
        if depth > g.cells
            || keys.windows(2).any(|w| w[0] >= w[1])
            || scores.iter().any(|&s| Value::from(s).abs() > most)
        {
            return Err(bad("its positions are out of order or out of range".into()));
        }
        Ok(Book {
            width,
            height,
            depth,
            keys,
            scores,
        })
    }
}

/// The positions of each number of stones up to `depth`, reflections folded, where the game
/// goes on; refused when they would pass `max_states` or `max_memory`.
fn levels(
    g: &Connect4,
    depth: u32,
    max_states: u64,
    max_memory: u64,
) -> Result<Vec<Vec<Position>>> {
    let most = max_states.min(max_memory / BUILD_BYTES);
    let mut kept: u64 = 1;
    let mut levels = vec![vec![g.start()]];
    for d in 0..depth {
        crate::core::progress::phase(&format!("listing the positions of {} stones", d + 1), 0);
        let mut seen = FxHashSet::default();
        let mut next = Vec::new();
        for p in &levels[d as usize] {
            for c in 0..g.width {
                if !g.can_play(p, c) || g.ending(p, c).is_some() {
                    continue;
                }
                let q = g.drop_stone(p, c);
                if seen.insert(g.book_key(&q)) {
                    kept += 1;
                    if kept > most {
                        return Err(if kept > max_states {
                            Error::StateLimit {
                                explored: kept,
                                limit: max_states,
                                what: format!("the book's positions of up to {depth} stones"),
                            }
                        } else {
                            Error::Budget {
                                what: format!("the book's positions of up to {depth} stones"),
                                resource: crate::core::error::Resource::Memory,
                                needed: kept * BUILD_BYTES,
                                limit: max_memory,
                            }
                        });
                    }
                    next.push(q);
                }
            }
        }
        crate::core::progress::check()?;
        levels.push(next);
    }
    Ok(levels)
}

/// Searches each of `positions` for its exact score, one table kept across them, and hands
/// each key and score to `keep`; the positions searched and the nodes visited.
fn search_deepest(
    g: &Connect4,
    positions: &[Position],
    limits: &SearchLimits,
    mut keep: impl FnMut(u64, Value),
) -> Result<(u64, u64)> {
    let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
    let mut s = Searcher::new(g, limits);
    crate::core::progress::phase(
        "searching the book's deepest positions",
        positions.len() as u64,
    );
    for (i, p) in positions.iter().enumerate() {
        // The node count runs on across the positions: the work budget is the whole book's.
        let Some(v) = g.score(&mut s, p) else {
            crate::core::progress::check()?;
            crate::core::budget::check_work(
                "the search of the book's deepest positions",
                s.nodes + 1,
                max_nodes,
            )?;
            return Err(Error::Invalid(
                "the book's searches stopped before the deepest positions were scored".into(),
            ));
        };
        keep(g.book_key(p), v);
        crate::core::progress::tick(i as u64 + 1)?;
    }
    Ok((positions.len() as u64, s.nodes))
}

/// Each legal column of `p` (in the centre-first order) with its score for the side to move,
/// given the scores of the positions one stone deeper (`deeper`); `None` when one is missing.
fn move_scores(
    g: &Connect4,
    p: &Position,
    deeper: impl Fn(&Position) -> Option<Value>,
) -> Option<Vec<(u8, Value)>> {
    let mut out = Vec::with_capacity(g.width as usize);
    for &c in &g.order {
        if !g.can_play(p, c.into()) {
            continue;
        }
        let v = match g.ending(p, c.into()) {
            Some(v) => v,
            None => -deeper(&g.drop_stone(p, c.into()))?,
        };
        out.push((c, v));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequential::Notation;

    /// A book's every position agrees with a search of it, on a board small enough to search
    /// all of them; a changed byte of the body is refused by its checks or the seal.
    #[test]
    fn every_entry_is_the_searched_score() {
        let g = Connect4::new(5, 4).unwrap();
        let small = SearchLimits {
            table_bits: 16,
            ..SearchLimits::default()
        };
        let built = Book::build(&g, 4, &small, u64::MAX, u64::MAX).unwrap();
        let book = built.book;
        // The positions of up to 4 stones, reflections folded, counted by a plain walk.
        let mut count = 0;
        let mut stack = vec![g.start()];
        let mut seen = FxHashSet::default();
        while let Some(p) = stack.pop() {
            if !seen.insert(g.book_key(&p)) {
                continue;
            }
            count += 1;
            let mut s = Searcher::new(&g, &small);
            assert_eq!(book.score(&g, &p), g.score(&mut s, &p), "{p:?}");
            if p.moves < 4 {
                for c in 0..5 {
                    if g.can_play(&p, c) && g.ending(&p, c).is_none() {
                        stack.push(g.drop_stone(&p, c));
                    }
                }
            }
        }
        assert_eq!(book.len(), count);
        assert!(book
            .score(&g, &g.parse_position("12121").unwrap())
            .is_none());
        let body = book.to_bytes();
        let back = Book::from_bytes(&body, &g, "b").unwrap();
        assert_eq!(back.keys, book.keys);
        assert_eq!(back.scores, book.scores);
        assert!(Book::from_bytes(&body, &Connect4::new(4, 5).unwrap(), "b").is_err());
        assert!(Book::from_bytes(&body[..body.len() - 1], &g, "b").is_err());
        let mut swapped = body.clone();
        let (first, second) = swapped[HEAD..HEAD + 16].split_at_mut(8);
        first.swap_with_slice(second);
        assert!(Book::from_bytes(&swapped, &g, "b").is_err());
    }
}
