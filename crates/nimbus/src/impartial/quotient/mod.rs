//! Misère quotients (Plambeck 2005, Plambeck and Siegel 2008): the Sprague–Grundy theory of
//! misère play, local to one game.
//!
//! Two positions `G` and `H` made of heaps up to `n` are *indistinguishable* when `G + X` and
//! `H + X` have the same misère outcome for every such position `X`. The classes form a
//! commutative monoid, the *quotient*; the classes of P-positions are its *P-portion*, and the
//! map from each heap to its class is the *pretending function*. With the quotient, a
//! position of many heaps is decided by multiplying its heaps' elements and asking whether
//! the product lies in the P-portion — no search of the sum.
//!
//! The quotient is computed heap by heap. A candidate is learnt from exact outcomes
//! ([`table`], after Angluin's L*), then checked exactly by a finite argument that covers
//! every one of the infinitely many positions ([`verify`]); a failed check yields a position
//! the candidate gets wrong, which adds an element. Since the candidate's elements are always
//! told apart by some position, the candidate that passes *is* the quotient — not an
//! approximation, and not merely a bipartite monoid that needs reducing.
//!
//! - [`heaps`]: the live heaps and the exact outcome of a multiset of them;
//! - [`table`]: the candidate;
//! - [`verify`]: the exact check and what a failure teaches;
//! - [`present`]: generators, relations and the names of the elements.

pub mod heaps;
pub mod present;
pub mod table;
pub mod verify;

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::impartial::games::heap::HeapRule;
use crate::impartial::Outcome;
use heaps::{Heaps, Oracle};
use table::Table;
use verify::{check, Fix, Monoid};

/// The misère quotient of the heaps `1..=upto` of a heap game.
pub struct Quotient {
    /// The largest heap.
    pub upto: u64,
    /// The multiplication.
    pub monoid: Monoid,
    /// Whether each element is in the P-portion.
    pub p: Vec<bool>,
    /// The identity (the class of the empty position).
    pub identity: u32,
    /// The element of each heap `0..=upto`.
    pub image: Vec<u32>,
    /// The order of the quotient of heaps `1..=k`, for `k = 1..=upto`.
    pub growth: Vec<u64>,
    /// How many tests the candidate needed, and how many positions were searched exactly.
    pub tests: usize,
    /// Positions decided by exact search on the way.
    pub searched: usize,
}

/// What the oracle may take from a candidate right below `below` tokens.
fn known(table: &Table, m: &Monoid, below: u64) -> heaps::Known {
    heaps::Known {
        letters: table.letters,
        below,
        image: table.images(),
        q: m.q,
        mult: m.mult.clone(),
        p: table.p_portion(m.q),
    }
}

/// The old quotient with one more heap whose image is an old element: the element that makes
/// it right on the most positions (all of them, `below == u64::MAX`, when the new heap adds
/// no element).
fn extension(table: &Table, m: &Monoid, heaps: &Heaps, limits: &Limits) -> Result<heaps::Known> {
    let p = table.p_portion(m.q);
    let mut image = table.images();
    image.push(0);
    let (mut best, mut below) = (0, 0);
    for x in 0..m.q as u32 {
        *image.last_mut().expect("one letter at least") = x;
        let c = verify::Candidate {
            m,
            p: &p,
            image: &image,
        };
        let size = verify::smallest_failure(&c, heaps, limits)?.map_or(u64::MAX, |f| f.0);
        if size > below {
            (best, below) = (x, size);
        }
        if size == u64::MAX {
            break;
        }
    }
    *image.last_mut().expect("one letter at least") = best;
    Ok(heaps::Known {
        letters: image.len(),
        below,
        image,
        q: m.q,
        mult: m.mult.clone(),
        p,
    })
}

impl Quotient {
    /// The quotient of the heaps `1..=upto` of `rule`, within `limits`.
    pub fn of(rule: &dyn HeapRule, upto: u64, limits: Limits) -> Result<Self> {
        let moves = |n: u64, out: &mut Vec<Vec<u64>>| {
            let mut m = Vec::new();
            rule.heap_moves(n, &mut m);
            out.extend(m.iter().map(|m| m.left().to_vec()));
        };
        Self::of_moves(&moves, upto, limits)
    }

    /// The quotient of the heaps `1..=upto` of a game whose heap of `n` leaves the heaps
    /// `moves(n)` lists (parts smaller than `n`), within `limits`.
    pub fn of_moves(
        moves: &dyn Fn(u64, &mut Vec<Vec<u64>>),
        upto: u64,
        limits: Limits,
    ) -> Result<Self> {
        let heaps = Heaps::new(moves, upto, &limits)?;
        let mut oracle = Oracle::new(&heaps, limits);
        let mut table = Table::new(&mut oracle, limits)?;
        crate::core::progress::phase("the misère quotient (heaps)", upto);
        let mut growth = Vec::with_capacity(upto as usize);
        let mut monoid = None;
        for n in 1..=upto {
            if heaps.letter[n as usize].is_some() {
                if let Some(m) = &monoid {
                    // Most heaps add no element: if some element as the new heap's image
                    // passes the exact check, the quotient is the old one, proved, and the
                    // table's new rows come from it without search.
                    let k = extension(&table, m, &heaps, &limits)?;
                    if k.below == u64::MAX {
                        oracle.know(k);
                    } else {
                        // Right below `k.below` tokens all the same: searches stop there.
                        oracle.trust(k);
                    }
                }
                table.add_letter(&mut oracle)?;
                monoid = None;
            }
            while monoid.is_none() {
                table.close(&mut oracle)?;
                let before = table.order();
                let checked = check(&table, &heaps, &mut oracle, &limits)?;
                if let Some(m) = &checked.monoid {
                    oracle.trust(known(&table, m, checked.sound_below));
                }
                let z = match checked.fix {
                    None => {
                        monoid = checked.monoid;
                        break;
                    }
                    Some(Fix::Test(z)) => z,
                    Some(Fix::Wrong(start, seq)) => table.repair(&mut oracle, start, &seq)?,
                };
                table.add_test(&mut oracle, z)?;
                table.close(&mut oracle)?;
                if table.order() <= before {
                    return Err(Error::Invalid(
                        "internal: a quotient repair added no element".into(),
                    ));
                }
            }
            if let Some(m) = &monoid {
                // The quotient of these heaps is proved: it decides their positions from now on.
                oracle.know(known(&table, m, u64::MAX));
                oracle.forget_known();
            }
            growth.push(table.order() as u64);
            crate::core::progress::tick(n)?;
        }
        let monoid = match monoid {
            Some(m) => m,
            // upto = 0: the trivial quotient of the empty position alone.
            None => {
                table.close(&mut oracle)?;
                let checked = check(&table, &heaps, &mut oracle, &limits)?;
                checked
                    .monoid
                    .ok_or_else(|| Error::Invalid("internal: no quotient of no heaps".into()))?
            }
        };
        let image = heaps
            .letter
            .iter()
            .map(|l| l.map_or(0, |a| table.delta[0][a as usize]))
            .collect();
        Ok(Quotient {
            upto,
            p: (0..monoid.q as u32).map(|x| table.accept(x)).collect(),
            monoid,
            identity: 0,
            image,
            growth,
            tests: table.tests.len(),
            searched: oracle.positions(),
        })
    }

    /// The order of the quotient.
    pub fn order(&self) -> usize {
        self.monoid.q
    }

    /// The element of a position made of `heaps` (each at most `upto`).
    pub fn element(&self, heaps: &[u64]) -> u32 {
        heaps.iter().fold(self.identity, |x, &h| {
            self.monoid.mul(x, self.image[h as usize])
        })
    }

    /// Every winning move of the position `sizes` (each heap at most `upto`): which heap, and
    /// the heaps the move leaves of it, as `parts` lists them (a move of a heap of `n`), in
    /// heap order. Moves of equal heaps are listed for each heap, as the search counts them.
    pub fn winning_moves(
        &self,
        sizes: &[u64],
        parts: &mut dyn FnMut(u64, &mut Vec<Vec<u64>>),
    ) -> Vec<(usize, Vec<u64>)> {
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for (i, &h) in sizes.iter().enumerate() {
            // The other heaps' product, times each move's parts.
            let others = self.element(&[&sizes[..i], &sizes[i + 1..]].concat());
            moves.clear();
            parts(h, &mut moves);
            for m in moves.drain(..) {
                let x = m
                    .iter()
                    .fold(others, |x, &k| self.monoid.mul(x, self.image[k as usize]));
                if self.p[x as usize] {
                    out.push((i, m));
                }
            }
        }
        out
    }

    /// The misère outcome of a position made of `heaps` (each at most `upto`).
    pub fn outcome(&self, heaps: &[u64]) -> Outcome {
        if self.p[self.element(heaps) as usize] {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// The smallest `k` such that the quotients of heaps `1..=k` up to `1..=upto` all have
    /// the final order (and so are the same monoid, each new heap an old element).
    pub fn stable_from(&self) -> u64 {
        let last = self.growth.last().copied().unwrap_or(1);
        let mut k = self.growth.len();
        while k > 0 && self.growth[k - 1] == last {
            k -= 1;
        }
        k as u64 + 1
    }
}
