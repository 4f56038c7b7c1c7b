//! The candidate quotient: an observation table in the manner of Angluin's L* (1987).
//!
//! Positions (`reps`) are told apart by the misère outcomes of their sums with a growing set
//! of test positions (`tests`): two positions whose sums with every test have the same outcome
//! are taken to be the same element. Every representative is a previous one plus one heap, so
//! the table is closed when each representative plus each heap matches some representative's
//! row; that gives the transitions `delta`. Representatives are told apart by some test, so
//! they are truly different elements of the quotient: a table can only be too small, never
//! too large, and a counterexample (a position whose outcome the candidate gets wrong) yields,
//! by Rivest and Schapire's binary search (1993), a test that adds an element.

use super::heaps::{join, Oracle, Word};
use crate::core::budget::{check_memory, Limits};
use crate::core::error::{Error, Result};
use rustc_hash::FxHashMap as HashMap;

/// A row: one bit per test, set where the sum is a P-position.
pub type Bits = Vec<u64>;

fn get(b: &[u64], i: usize) -> bool {
    b[i / 64] >> (i % 64) & 1 == 1
}

fn put(b: &mut Bits, i: usize, v: bool) {
    if i / 64 >= b.len() {
        b.push(0);
    }
    if v {
        b[i / 64] |= 1 << (i % 64);
    }
}

/// The observation table.
pub struct Table {
    /// The tests; the first is the empty position, so a row's first bit is its own outcome.
    pub tests: Vec<Word>,
    /// The representatives; the first is the empty position (the identity).
    pub reps: Vec<Word>,
    rows: Vec<Bits>,
    /// `ext[r][a]`: the row of `reps[r]` plus heap `a`.
    ext: Vec<Vec<Bits>>,
    /// `delta[r][a]`: the representative whose row is `ext[r][a]`.
    pub delta: Vec<Vec<u32>>,
    /// How many letters (live heaps) are in play.
    pub letters: usize,
    limits: Limits,
}

impl Table {
    /// The table with the empty position only.
    pub fn new(oracle: &mut Oracle, limits: Limits) -> Result<Self> {
        let mut t = Table {
            tests: vec![Vec::new()],
            reps: vec![Vec::new()],
            rows: Vec::new(),
            ext: vec![Vec::new()],
            delta: vec![Vec::new()],
            letters: 0,
            limits,
        };
        let row = t.row(oracle, &[])?;
        t.rows.push(row);
        Ok(t)
    }

    /// How many elements the candidate has.
    pub fn order(&self) -> usize {
        self.reps.len()
    }

    /// Whether representative `r` is a P-position.
    pub fn accept(&self, r: u32) -> bool {
        get(&self.rows[r as usize], 0)
    }

    /// The P-portion of the first `q` elements: which are P-positions.
    pub fn p_portion(&self, q: usize) -> Vec<bool> {
        (0..q as u32).map(|x| self.accept(x)).collect()
    }

    /// Each heap's element: where its letter leads from the empty position.
    pub fn images(&self) -> Vec<u32> {
        (0..self.letters).map(|a| self.delta[0][a]).collect()
    }

    /// Whether `reps[r]` plus `tests[i]` is a P-position.
    pub fn entry(&self, r: u32, i: usize) -> bool {
        get(&self.rows[r as usize], i)
    }

    /// The first test telling representatives `x` and `y` apart.
    pub fn split(&self, x: u32, y: u32) -> usize {
        (0..self.tests.len())
            .find(|&i| self.entry(x, i) != self.entry(y, i))
            .expect("representatives have different rows")
    }

    fn row(&self, oracle: &mut Oracle, pos: &[u16]) -> Result<Bits> {
        let mut b = Vec::with_capacity(self.tests.len().div_ceil(64));
        for (i, t) in self.tests.iter().enumerate() {
            put(&mut b, i, oracle.is_p(&join(pos, t))?);
        }
        Ok(b)
    }

    fn check_size(&self) -> Result<()> {
        let words = self.tests.len().div_ceil(64) as u64;
        let rows = self.reps.len() as u64 * (self.letters as u64 + 1);
        let bytes = rows * (8 * words + 24)
            + self.reps.len() as u64 * (4 * self.letters as u64 + 48)
            + self
                .tests
                .iter()
                .map(|t| 24 + 2 * t.len() as u64)
                .sum::<u64>();
        check_memory("the misère quotient's table", bytes, self.limits.max_memory)
    }

    /// Brings in the next live heap.
    pub fn add_letter(&mut self, oracle: &mut Oracle) -> Result<()> {
        let a = self.letters as u16;
        self.letters += 1;
        self.check_size()?;
        for r in 0..self.reps.len() {
            let row = self.row(oracle, &join(&self.reps[r], &[a]))?;
            self.ext[r].push(row);
        }
        Ok(())
    }

    /// Adds the test `z`, extending every row by one column.
    pub fn add_test(&mut self, oracle: &mut Oracle, z: Word) -> Result<()> {
        let i = self.tests.len();
        self.tests.push(z);
        self.check_size()?;
        let z = &self.tests[i];
        for r in 0..self.reps.len() {
            let v = oracle.is_p(&join(&self.reps[r], z))?;
            put(&mut self.rows[r], i, v);
            for a in 0..self.letters {
                let w = join(&self.reps[r], &[a as u16]);
                let v = oracle.is_p(&join(&w, z))?;
                put(&mut self.ext[r][a], i, v);
            }
        }
        Ok(())
    }

    /// Makes the table closed: every representative plus every heap matches a
    /// representative's row, new representatives being added where none does.
    pub fn close(&mut self, oracle: &mut Oracle) -> Result<()> {
        let mut index: HashMap<Bits, u32> = HashMap::default();
        for (r, row) in self.rows.iter().enumerate() {
            index.insert(row.clone(), r as u32);
        }
        let mut r = 0;
        while r < self.reps.len() {
            self.delta[r].clear();
            for a in 0..self.letters {
                let row = &self.ext[r][a];
                let to = match index.get(row) {
                    Some(&to) => to,
                    None => {
                        let to = self.reps.len() as u32;
                        let word = join(&self.reps[r], &[a as u16]);
                        index.insert(row.clone(), to);
                        self.rows.push(row.clone());
                        self.reps.push(word);
                        self.delta.push(Vec::new());
                        self.ext.push(Vec::new());
                        self.check_size()?;
                        let new = to as usize;
                        for b in 0..self.letters {
                            let w = join(&self.reps[new], &[b as u16]);
                            let row = self.row(oracle, &w)?;
                            self.ext[new].push(row);
                        }
                        to
                    }
                };
                self.delta[r].push(to);
            }
            r += 1;
        }
        Ok(())
    }

    /// The representative reached from `r` by adding the heaps of `seq` one by one.
    pub fn run(&self, mut r: u32, seq: &[u16]) -> u32 {
        for &a in seq {
            r = self.delta[r as usize][a as usize];
        }
        r
    }

    /// Given a start `r` and heaps `seq` such that the table's prediction for `reps[r]` plus
    /// `seq` (the outcome of the representative reached) is wrong, a test that tells apart a
    /// representative plus one heap from the representative the table matched it with.
    pub fn repair(&self, oracle: &mut Oracle, r: u32, seq: &[u16]) -> Result<Word> {
        // alpha(i): the outcome of the representative reached after i heaps, plus the rest.
        let mut states = vec![r];
        for &a in seq {
            let last = *states.last().expect("one state at least");
            states.push(self.delta[last as usize][a as usize]);
        }
        let mut alpha = |i: usize| -> Result<bool> {
            let mut rest = seq[i..].to_vec();
            rest.sort_unstable();
            oracle.is_p(&join(&self.reps[states[i] as usize], &rest))
        };
        let first = alpha(0)?;
        if first == alpha(seq.len())? {
            return Err(Error::Invalid(
                "internal: a quotient repair was asked for a correct prediction".into(),
            ));
        }
        let (mut lo, mut hi) = (0, seq.len());
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if alpha(mid)? == first {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let mut z = seq[lo + 1..].to_vec();
        z.sort_unstable();
        Ok(z)
    }
}
