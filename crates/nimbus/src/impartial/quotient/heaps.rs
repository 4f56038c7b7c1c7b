//! The heaps a quotient is taken over, and the exact misère outcome of any multiset of them.
//!
//! A heap without moves changes nothing in a misère sum (the sum's options and whether it is
//! terminal are those of the rest), so such heaps are dropped: the *live* heaps are the
//! letters positions are written in, a position is a sorted multiset of letters, and the empty
//! multiset is the terminal position — an N-position in misère play.

use crate::core::budget::{check_memory, check_work, map_entry_bytes, Limits};
use crate::core::error::{Error, Result};
use rustc_hash::FxHashMap as HashMap;

/// A position: letters (indices of live heaps, in increasing heap size), sorted.
pub type Word = Vec<u16>;

/// The live heaps up to a bound, with each heap's options written in letters.
pub struct Heaps {
    /// The size of each letter's heap, increasing.
    pub sizes: Vec<u64>,
    /// Each letter's options, sorted and without repeats.
    pub options: Vec<Vec<Word>>,
    /// For every heap size `0..=upto`: its letter, or `None` for a heap without moves.
    pub letter: Vec<Option<u16>>,
}

/// The largest heap a quotient is computed to: letters are 16-bit, and a heap's options are
/// listed in full.
pub const MOST_HEAP: u64 = 4096;

impl Heaps {
    /// The heaps `1..=upto` of a game whose heap of `n` leaves the heaps `moves(n)` lists,
    /// checking the work of listing their moves and the memory of holding them.
    pub fn new(
        moves: &dyn Fn(u64, &mut Vec<Vec<u64>>),
        upto: u64,
        limits: &Limits,
    ) -> Result<Self> {
        if upto > MOST_HEAP {
            return Err(Error::Invalid(format!(
                "heap {upto} is past the largest a quotient is computed to ({MOST_HEAP})"
            )));
        }
        let mut heaps = Heaps {
            sizes: Vec::new(),
            options: Vec::new(),
            letter: vec![None],
        };
        let (mut work, mut bytes) = (0u64, 0u64);
        let mut left: Vec<Vec<u64>> = Vec::new();
        for n in 1..=upto {
            left.clear();
            moves(n, &mut left);
            work = work.saturating_add(left.len() as u64 + 1);
            check_work("the moves of the quotient's heaps", work, limits.max_work)?;
            if left.is_empty() {
                heaps.letter.push(None);
                continue;
            }
            if let Some(&p) = left.iter().flatten().find(|&&p| p >= n) {
                return Err(Error::Invalid(format!(
                    "a move from a heap of {n} leaves a heap of {p}: a quotient needs moves \
                     that leave smaller heaps"
                )));
            }
            let mut opts: Vec<Word> = left
                .iter()
                .map(|parts| {
                    let mut w: Word = parts
                        .iter()
                        .filter_map(|&p| heaps.letter[p as usize])
                        .collect();
                    w.sort_unstable();
                    w
                })
                .collect();
            opts.sort_unstable();
            opts.dedup();
            bytes = bytes.saturating_add(opts.iter().map(|w| 24 + 2 * w.len() as u64).sum());
            check_memory(
                "the options of the quotient's heaps",
                bytes,
                limits.max_memory,
            )?;
            heaps.letter.push(Some(heaps.sizes.len() as u16));
            heaps.sizes.push(n);
            heaps.options.push(opts);
        }
        Ok(heaps)
    }

    /// How many live heaps there are.
    pub fn letters(&self) -> usize {
        self.sizes.len()
    }
}

/// `a + b` as one sorted word.
pub fn join(a: &[u16], b: &[u16]) -> Word {
    let mut w = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            w.push(a[i]);
            i += 1;
        } else {
            w.push(b[j]);
            j += 1;
        }
    }
    w.extend_from_slice(&a[i..]);
    w.extend_from_slice(&b[j..]);
    w
}

/// `w` with its `i`-th letter replaced by the letters of `by`.
pub fn replace(w: &[u16], i: usize, by: &[u16]) -> Word {
    let mut rest = Vec::with_capacity(w.len() - 1);
    rest.extend_from_slice(&w[..i]);
    rest.extend_from_slice(&w[i + 1..]);
    join(&rest, by)
}

/// A candidate known to be right on the positions of the first `letters` heaps with fewer
/// than `below` tokens (all of them, for a proved quotient): those are decided by a product,
/// without search.
pub struct Known {
    /// How many letters it covers.
    pub letters: usize,
    /// The positions it covers have fewer tokens than this.
    pub below: u64,
    /// Each letter's element.
    pub image: Vec<u32>,
    /// The order.
    pub q: usize,
    /// The multiplication, `mult[x * q + y]`.
    pub mult: Vec<u32>,
    /// The P-portion.
    pub p: Vec<bool>,
}

/// The exact misère outcome of multisets of heaps, remembered across questions.
pub struct Oracle<'h> {
    heaps: &'h Heaps,
    known: Option<Known>,
    sound: Option<Known>,
    /// true: a P-position.
    memo: HashMap<Word, bool>,
    work: u64,
    bytes: u64,
    searched: usize,
    limits: Limits,
}

struct Frame {
    pos: Word,
    /// The letter being tried, and the option of it.
    i: usize,
    j: usize,
    /// Whether the options decided without search have been looked at.
    scanned: bool,
}

impl<'h> Oracle<'h> {
    /// An oracle for the positions of `heaps`.
    pub fn new(heaps: &'h Heaps, limits: Limits) -> Self {
        let mut memo = HashMap::default();
        // No heaps: no move, so the player to move has won.
        memo.insert(Vec::new(), false);
        Oracle {
            heaps,
            known: None,
            sound: None,
            memo,
            work: 0,
            bytes: 0,
            searched: 0,
            limits,
        }
    }

    /// How many positions have been decided by search.
    pub fn positions(&self) -> usize {
        self.searched
    }

    /// Counts `steps` of work (searching, or building and checking candidates) against the
    /// work budget.
    pub fn charge(&mut self, steps: u64) -> Result<()> {
        let before = self.work;
        self.work = self.work.saturating_add(steps);
        check_work(
            "the misère quotient's search",
            self.work,
            self.limits.max_work,
        )?;
        if before >> 16 != self.work >> 16 {
            crate::core::progress::tick(self.work)?;
        }
        Ok(())
    }

    fn remember(&mut self, pos: Word, p: bool) -> Result<()> {
        self.bytes = self
            .bytes
            .saturating_add(map_entry_bytes::<Word, bool>() + 2 * pos.len() as u64);
        check_memory(
            "the misère quotient's search",
            self.bytes,
            self.limits.max_memory,
        )?;
        if self.memo.len() as u64 >= self.limits.max_states {
            return Err(Error::StateLimit {
                explored: self.memo.len() as u64,
                limit: self.limits.max_states,
                what: "the misère quotient's search".into(),
            });
        }
        self.memo.insert(pos, p);
        self.searched += 1;
        Ok(())
    }

    /// From now on, decides positions of the first `known.letters` heaps by `known`, a
    /// proved quotient.
    pub fn know(&mut self, known: Known) {
        self.known = Some(known);
        self.sound = None;
    }

    /// From now on, decides the positions `sound` covers by it, unless a candidate already
    /// trusted covers more.
    pub fn trust(&mut self, sound: Known) {
        let better = self.sound.as_ref().is_none_or(|s| {
            s.letters < sound.letters || (s.letters == sound.letters && s.below < sound.below)
        });
        if better && sound.below > 0 {
            self.sound = Some(sound);
        }
    }

    /// The outcome of `pos` if it is known without search.
    fn lookup(&self, pos: &[u16]) -> Option<bool> {
        let product = |k: &Known| {
            let x = pos.iter().fold(0u32, |x, &a| {
                k.mult[x as usize * k.q + k.image[a as usize] as usize]
            });
            k.p[x as usize]
        };
        if let Some(k) = &self.known {
            if pos.last().is_none_or(|&a| (a as usize) < k.letters) {
                return Some(product(k));
            }
        }
        if let Some(k) = &self.sound {
            if pos.last().is_none_or(|&a| (a as usize) < k.letters) {
                let size: u64 = pos.iter().map(|&a| self.heaps.sizes[a as usize]).sum();
                if size < k.below {
                    return Some(product(k));
                }
            }
        }
        self.memo.get(pos).copied()
    }

    /// Whether `pos` is a misère P-position: it has a move and every move leads to an
    /// N-position. Searched depth first on an explicit stack, stopping at the first move to a
    /// P-position; positions of heaps a proved quotient covers are decided by it.
    pub fn is_p(&mut self, pos: &[u16]) -> Result<bool> {
        if let Some(p) = self.lookup(pos) {
            return Ok(p);
        }
        let mut stack = vec![Frame {
            pos: pos.to_vec(),
            i: 0,
            j: 0,
            scanned: false,
        }];
        let heaps = self.heaps;
        while let Some(top) = stack.last_mut() {
            let mut decided = None;
            let mut next = None;
            let mut steps = 0u64;
            if !top.scanned {
                // A move to a P-position that is already known ends the search at once: look
                // for one before searching any option.
                top.scanned = true;
                'scan: for i in 0..top.pos.len() {
                    if i > 0 && top.pos[i] == top.pos[i - 1] {
                        continue;
                    }
                    for w in &heaps.options[top.pos[i] as usize] {
                        let child = replace(&top.pos, i, w);
                        steps += 1 + child.len() as u64;
                        if self.lookup(&child) == Some(true) {
                            decided = Some(false);
                            break 'scan;
                        }
                    }
                }
            }
            while decided.is_none() && next.is_none() {
                if top.i >= top.pos.len() {
                    // Every move leads to an N-position (and there is one: no letter is dead).
                    decided = Some(true);
                    break;
                }
                if top.i > 0 && top.pos[top.i] == top.pos[top.i - 1] {
                    top.i += 1;
                    continue;
                }
                let opts = &heaps.options[top.pos[top.i] as usize];
                if top.j >= opts.len() {
                    top.i += 1;
                    top.j = 0;
                    continue;
                }
                let child = replace(&top.pos, top.i, &opts[top.j]);
                steps += 1 + child.len() as u64;
                // An unknown option is searched first and then looked at again here.
                match self.lookup(&child) {
                    Some(true) => decided = Some(false),
                    Some(false) => top.j += 1,
                    None => next = Some(child),
                }
            }
            self.charge(steps + 1)?;
            if let Some(p) = decided {
                let done = stack.pop().expect("a frame is on the stack");
                self.remember(done.pos, p)?;
            } else if let Some(child) = next {
                stack.push(Frame {
                    pos: child,
                    i: 0,
                    j: 0,
                    scanned: false,
                });
            }
        }
        Ok(self.memo[pos])
    }

    /// Forgets searched positions that `known` now decides.
    pub fn forget_known(&mut self) {
        if let Some(k) = &self.known {
            let letters = k.letters;
            self.memo
                .retain(|pos, _| pos.last().is_some_and(|&a| a as usize >= letters));
            self.memo.insert(Vec::new(), false);
            self.bytes = self
                .memo
                .keys()
                .map(|pos| map_entry_bytes::<Word, bool>() + 2 * pos.len() as u64)
                .sum();
        }
    }
}
