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
//! The quotient is computed heap by heap. Where a heap adds elements, a candidate is first
//! guessed without search ([`guess`]); when no guess passes, a candidate is learnt from exact
//! outcomes ([`table`], after Angluin's L*). Either is checked exactly by a finite argument
//! that covers every one of the infinitely many positions ([`verify`]); a failed check yields
//! a position the candidate gets wrong, which adds an element. Since the candidate's elements are always
//! told apart by some position, the candidate that passes *is* the quotient — not an
//! approximation, and not merely a bipartite monoid that needs reducing.
//!
//! - [`heaps`]: the live heaps and the exact outcome of a multiset of them;
//! - [`table`]: the candidate;
//! - [`verify`]: the exact check and what a failure teaches;
//! - [`guess`]: a quick candidate where a heap adds elements, checked the same way;
//! - [`present`]: generators, relations and the names of the elements;
//! - [`forever`]: when the quotient computed is that of every heap, proved.

pub mod forever;
pub mod guess;
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
    /// When the heaps computed prove the pretending function periodic for every heap (and so
    /// this quotient the quotient of all heaps).
    pub forever: Option<forever::Forever>,
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

/// What the test of one new heap keeps for the next, while the quotient does not grow: each
/// old heap's options' elements under one multiplication and one image of the heaps, and the
/// exact check's layers (see [`verify::Layers`]). Recomputed for every new heap, they made a
/// heap's test cost time quadratic in the heaps (Kayles to heap 300).
#[derive(Default)]
struct Kept {
    mult: Vec<u32>,
    image: Vec<u32>,
    sets: Vec<Vec<u32>>,
    layers: verify::Layers,
}

impl Kept {
    /// The sets of the letters `0..letters`, under `m` and `image`, computed as needed by
    /// `options`.
    fn update(
        &mut self,
        m: &Monoid,
        image: &[u32],
        letters: usize,
        options: &dyn Fn(&[u16]) -> Vec<u32>,
    ) -> &[Vec<u32>] {
        let kept = self.mult == m.mult
            && self.image.len() <= image.len()
            && self.image[..] == image[..self.image.len()];
        if !kept {
            self.mult.clone_from(&m.mult);
            self.sets.clear();
        }
        self.image = image[..letters].to_vec();
        self.sets.truncate(letters);
        while self.sets.len() < letters {
            let a = self.sets.len() as u16;
            self.sets.push(options(&[a]));
        }
        &self.sets
    }
}

/// The old quotient with one more heap whose image is an old element: the element that makes
/// it right on the most positions (all of them, `below == u64::MAX`, when the new heap adds
/// no element).
fn extension(
    table: &Table,
    m: &Monoid,
    heaps: &Heaps,
    limits: &Limits,
    oracle: &mut Oracle,
    kept: &mut Kept,
) -> Result<heaps::Known> {
    let p = table.p_portion(m.q);
    // Each quick test below looks at every pair of elements.
    oracle.charge((m.q as u64).saturating_mul(m.q as u64).saturating_mul(2))?;
    let mut image = table.images();
    image.push(0);
    let (mut best, mut below) = (0, 0);
    let phi = |w: &[u16]| w.iter().fold(0, |y, &b| m.mul(y, image[b as usize]));
    // The elements of the options of a position (a sorted word of letters).
    let options = |word: &[u16]| {
        let mut o: Vec<u32> = Vec::new();
        for i in 0..word.len() {
            if i > 0 && word[i] == word[i - 1] {
                continue;
            }
            let rest = phi(&[&word[..i], &word[i + 1..]].concat());
            o.extend(
                heaps.options[word[i] as usize]
                    .iter()
                    .map(|w| m.mul(rest, phi(w))),
            );
        }
        o.sort_unstable();
        o.dedup();
        o
    };
    let new = options(&[(image.len() - 1) as u16]);
    // An old position — a heap, or an element's representative — whose options' elements
    // are among the new heap's makes its element the new heap's, proved without the exact
    // check, once no P-position gets a P-option through the new heap (see `no_p_to_p`).
    // Each element's representative's options, for this test and for `plausible`.
    let rep_options: Vec<Vec<u32>> = table.reps.iter().map(|r| options(r)).collect();
    let among = |old: &[u32]| old.iter().all(|o| new.binary_search(o).is_ok());
    let old = image.len() - 1;
    let sets = kept.update(m, &image[..old], old, &options);
    let single = (0..old).find(|&g| among(&sets[g]) && no_p_to_p(m, &p, &new, image[g]));
    // The empty representative is left out: the argument needs a position that is not
    // terminal.
    let like = single.map(|g| image[g]).or_else(|| {
        (1..m.q as u32).find(|&x| among(&rep_options[x as usize]) && no_p_to_p(m, &p, &new, x))
    });
    if let Some(x) = like {
        *image.last_mut().expect("one letter at least") = x;
        return Ok(heaps::Known {
            letters: image.len(),
            below: u64::MAX,
            image,
            q: m.q,
            mult: m.mult.clone(),
            p,
        });
    }
    // Every letter's options' elements, the new heap's last, for the exact checks below.
    let all_sets: Vec<Vec<u32>> = sets
        .iter()
        .cloned()
        .chain(std::iter::once(new.clone()))
        .collect();
    for x in 0..m.q as u32 {
        oracle.charge((m.q as u64).saturating_mul(m.q as u64))?;
        if !plausible(m, &p, &new, &rep_options, x) {
            continue;
        }
        *image.last_mut().expect("one letter at least") = x;
        let c = verify::Candidate {
            m,
            p: &p,
            image: &image,
        };
        oracle.charge((m.q as u64).saturating_mul(image.len() as u64))?;
        let size = verify::smallest_failure_with(
            &c,
            heaps,
            Some(&all_sets),
            Some(&mut kept.layers),
            limits,
        )?
        .map_or(u64::MAX, |f| f.0);
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

/// Whether, with `x` as the new heap's element, no position predicted P has an option
/// through the new heap (whose options' elements are `new`) predicted P.
///
/// With this, `x` *is* the new heap's element when a non-empty position `g` of old heaps has
/// element `x` and its options' elements are among the new heap's. By induction on the
/// number of new heaps in a position and then on its tokens, a position `h + W` is predicted
/// as `g + W` is (same element, fewer new heaps, so predicted right; and not terminal, as `g`
/// is not empty). If that is an N-position, a P-option `g' + W` of it (an option of `g`) has
/// a twin `t + W` (an option of `h` with the element of `g'`), and a P-option `g + W'` has the
/// twin `h + W'`. If it is a P-position, the options `h + W'` have the elements of the
/// N-positions `g + W'`, and the options through `h` are predicted N by this test; each
/// rightly, by induction.
fn no_p_to_p(m: &Monoid, p: &[bool], new: &[u32], x: u32) -> bool {
    (0..m.q as u32)
        .all(|y| !p[m.mul(x, y) as usize] || new.iter().all(|&o| !p[m.mul(y, o) as usize]))
}

/// Whether `x` can be the new heap's image at all: the positions made of the new heap and one
/// representative of each element (or none), whose options' elements are `rep_options`, must
/// be predicted in agreement with their options. A cheap necessary condition, so that the
/// exact check runs on few elements.
fn plausible(m: &Monoid, p: &[bool], new: &[u32], rep_options: &[Vec<u32>], x: u32) -> bool {
    no_p_to_p(m, p, new, x)
        && (0..m.q as u32).all(|y| {
            // Predicted N with no P-option through the new heap: one through the rest is
            // needed.
            p[m.mul(x, y) as usize]
                || new.iter().any(|&o| p[m.mul(y, o) as usize])
                || rep_options[y as usize]
                    .iter()
                    .any(|&o| p[m.mul(x, o) as usize])
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
        let mut q = Self::of_moves(&moves, upto, limits)?;
        q.forever = forever::proved_period(&q.image, &|n0, p| rule.proof_horizon(n0, p));
        Ok(q)
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
        let mut kept = Kept::default();
        for n in 1..=upto {
            if heaps.letter[n as usize].is_some() {
                let mut same = None;
                if let Some(m) = &monoid {
                    // Most heaps add no element: if some element as the new heap's image
                    // passes the exact check, the quotient is the old one, proved, and the
                    // table's new rows come from it without search.
                    let k = extension(&table, m, &heaps, &limits, &mut oracle, &mut kept)?;
                    if k.below == u64::MAX {
                        oracle.know(k);
                        // Proved by the exact check already: the old monoid, the new heap
                        // one of its elements.
                        same = Some(m.clone());
                    } else if let Some(guess::Guess { m, p, image }) =
                        guess::grow(m, &table.images(), &heaps, &limits, &mut oracle)?
                    {
                        // Where the new heap adds elements, a guess that passes the exact
                        // check is the quotient: the table's new rows come from it without
                        // search.
                        oracle.know(heaps::Known {
                            letters: image.len(),
                            below: u64::MAX,
                            image,
                            q: m.q,
                            mult: m.mult,
                            p,
                        });
                    } else {
                        // Right below `k.below` tokens all the same: searches stop there.
                        oracle.trust(k);
                    }
                }
                table.add_letter(&mut oracle)?;
                monoid = None;
                if let Some(m) = same.take() {
                    table.close(&mut oracle)?;
                    if table.order() == m.q {
                        monoid = Some(m);
                    }
                }
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
            forever: None,
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
