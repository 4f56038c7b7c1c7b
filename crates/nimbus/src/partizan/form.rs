//! Canonical forms of short partizan games, interned: each distinct value is stored once and
//! named by an [`Id`], so that equal values are equal ids and a value is compared, added or
//! negated once.
//!
//! A form is `{ L1, L2, … | R1, R2, … }` over forms made before it (an option's id is always
//! smaller than its game's, so every property can be computed in id order without recursion).
//! Comparison, sums and negatives run on explicit stacks: a game born on day 1000 (a
//! Hackenbush stalk of 1000 edges) needs no deep call stack.
//!
//! ```
//! use nimbus::partizan::form::{Forms, ZERO};
//! let mut f = Forms::new(Default::default());
//! let star = f.canonical(&[ZERO], &[ZERO])?;
//! let two_stars = f.add(star, star)?;
//! assert_eq!(two_stars, ZERO); // * + * = 0
//! # Ok::<(), nimbus::Error>(())
//! ```

use super::dyadic::Dyadic;
use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::{Error, Result};
use hashbrown::HashTable;
use rustc_hash::FxHashMap;

/// The name of an interned form.
pub type Id = u32;

/// The game `{ | }`, zero: always the first form.
pub const ZERO: Id = 0;

/// Ids from here on name forms still being made canonical (see [`Forms::canonical`]).
const TEMP: Id = 1 << 31;

/// One stored form: where its options lie in the arena (Left's then Right's, each sorted by
/// id) and how many are Left's.
#[derive(Debug, Clone)]
struct Node {
    start: usize,
    len: u32,
    split: u32,
    /// The number it is, if it is one.
    number: Option<Dyadic>,
    /// The day it is born on.
    birthday: u32,
    /// Left's and Right's stops.
    stops: (Dyadic, Dyadic),
}

/// Bytes one interned form costs at worst, besides its options (4 bytes each, in the arena):
/// the node, the index entry and the memo entries it brings.
const FORM_BYTES: u64 = 128;

/// Steps a new form costs: its key hashed and stored twice and its properties computed take
/// about as long as that many options examined.
const INTERN_STEPS: u64 = 64;

/// The budget's steps one counted operation stands for. The work budget assumes 15–20 ns a
/// step; an operation counted here (a comparison's condition, an option listed, a form
/// interned) took 185 ns on average for Domineering 6 × 6 and 280 ns for Clobber on a 3 × 6
/// board (measured on the 2-core CI machine, 2026-11-27: the time to reach a budget of 10^7),
/// the memo look-ups and the splitting into regions being uncounted. 16 keeps the slowest
/// measured at about 18 ns a step.
pub const STEP_WEIGHT: u64 = 16;

/// The store of canonical forms and the memos of the operations on them.
pub struct Forms {
    nodes: Vec<Node>,
    /// Every stored form's options, one after another: one allocation for all of them.
    arena: Vec<Id>,
    /// The stored forms by their options, hashed from the arena (no key stored twice).
    index: HashTable<Id>,
    /// Forms being made canonical: ids from [`TEMP`] on, their options in `temp_arena`.
    temp: Vec<Node>,
    temp_arena: Vec<Id>,
    le_memo: FxHashMap<(Id, Id), bool>,
    /// Comparisons with forms being made canonical, forgotten with them.
    temp_memo: FxHashMap<(Id, Id), bool>,
    sum_memo: FxHashMap<(Id, Id), Id>,
    neg_memo: FxHashMap<Id, Id>,
    numbers: FxHashMap<Dyadic, Id>,
    limits: Limits,
    work: u64,
    bytes: u64,
}

impl Default for Forms {
    fn default() -> Self {
        Forms::new(Limits::default())
    }
}

impl Forms {
    /// An empty store (holding zero), spending at most `limits`.
    pub fn new(limits: Limits) -> Forms {
        let zero = Node {
            start: 0,
            len: 0,
            split: 0,
            number: Some(Dyadic::ZERO),
            birthday: 0,
            stops: (Dyadic::ZERO, Dyadic::ZERO),
        };
        let mut index = HashTable::new();
        index.insert_unique(key_hash(0, &[]), ZERO, |_| key_hash(0, &[]));
        let mut numbers = FxHashMap::default();
        numbers.insert(Dyadic::ZERO, ZERO);
        Forms {
            nodes: vec![zero],
            arena: Vec::new(),
            index,
            temp: Vec::new(),
            temp_arena: Vec::new(),
            le_memo: FxHashMap::default(),
            temp_memo: FxHashMap::default(),
            sum_memo: FxHashMap::default(),
            neg_memo: FxHashMap::default(),
            numbers,
            limits,
            work: 0,
            bytes: 0,
        }
    }

    /// How many distinct values are stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only zero is stored.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// Steps spent so far (options examined, comparisons made).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Bytes held so far, as the memory budget counts them.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The budgets in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Charges `steps` counted operations of work (each [`STEP_WEIGHT`] of the budget's
    /// steps), and checks for Ctrl-C and the time limit now and then.
    pub fn charge(&mut self, steps: u64) -> Result<()> {
        let before = self.work;
        self.work = self.work.saturating_add(steps.saturating_mul(STEP_WEIGHT));
        check_work("the canonical forms", self.work, self.limits.max_work)?;
        if before >> 16 != self.work >> 16 {
            crate::core::progress::tick(self.work)?;
        }
        Ok(())
    }

    /// Charges `bytes` of memory held.
    pub fn hold(&mut self, bytes: u64) -> Result<()> {
        self.bytes = self.bytes.saturating_add(bytes);
        check_memory("the canonical forms", self.bytes, self.limits.max_memory)
    }

    fn node(&self, id: Id) -> &Node {
        if id >= TEMP {
            &self.temp[(id - TEMP) as usize]
        } else {
            &self.nodes[id as usize]
        }
    }

    /// The options of `g`, Left's then Right's.
    fn options(&self, g: Id) -> &[Id] {
        let n = self.node(g);
        let arena = if g >= TEMP {
            &self.temp_arena
        } else {
            &self.arena
        };
        &arena[n.start..n.start + n.len as usize]
    }

    /// Left's options of `g`.
    pub fn left(&self, g: Id) -> &[Id] {
        &self.options(g)[..self.node(g).split as usize]
    }

    /// Right's options of `g`.
    pub fn right(&self, g: Id) -> &[Id] {
        &self.options(g)[self.node(g).split as usize..]
    }

    /// The number `g` is, if it is one.
    pub fn number(&self, g: Id) -> Option<Dyadic> {
        self.node(g).number
    }

    /// The day `g` is born on: 0 for zero, one more than its latest option's.
    pub fn birthday(&self, g: Id) -> u32 {
        self.node(g).birthday
    }

    /// Left's stop and Right's stop: where play ends when each moves first and both stop
    /// once a number is reached.
    pub fn stops(&self, g: Id) -> (Dyadic, Dyadic) {
        self.node(g).stops
    }

    /// `g` and every form it can reach, in increasing id order: each after its options (an
    /// option's id is below its game's), so a pass over them needs no recursion, however deep
    /// `g` is.
    pub fn subpositions(&mut self, g: Id) -> Result<Vec<Id>> {
        let mut subs = vec![g];
        let mut seen = rustc_hash::FxHashSet::default();
        seen.insert(g);
        let mut i = 0;
        while i < subs.len() {
            let x = subs[i];
            i += 1;
            for &o in self.options(x) {
                if seen.insert(o) {
                    subs.push(o);
                }
            }
        }
        self.charge(subs.len() as u64)?;
        subs.sort_unstable();
        Ok(subs)
    }

    /// Stores the form with these options (already canonical and free of dominated and
    /// reversible options), or finds it stored.
    fn intern(&mut self, mut left: Vec<Id>, mut right: Vec<Id>) -> Result<Id> {
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let split = left.len() as u32;
        let hash = key_hash_of(&left, &right);
        let found = {
            let (nodes, arena) = (&self.nodes, &self.arena);
            self.index
                .find(hash, |&id| {
                    let n = &nodes[id as usize];
                    n.split == split
                        && n.len as usize == left.len() + right.len()
                        && arena[n.start..n.start + split as usize] == left[..]
                        && arena[n.start + split as usize..n.start + n.len as usize] == right[..]
                })
                .copied()
        };
        if let Some(id) = found {
            return Ok(id);
        }
        self.hold(FORM_BYTES + 4 * (left.len() + right.len()) as u64)?;
        self.charge(INTERN_STEPS)?;
        let (number, birthday, stops) = self.describe(&left, &right)?;
        let id = Id::try_from(self.nodes.len())
            .ok()
            .filter(|&id| id < TEMP)
            .ok_or_else(|| Error::Overflow("more than 2^31 distinct game values".into()))?;
        if let Some(x) = number {
            self.numbers.insert(x, id);
        }
        let start = self.arena.len();
        self.arena.extend_from_slice(&left);
        self.arena.extend_from_slice(&right);
        self.nodes.push(Node {
            start,
            len: (left.len() + right.len()) as u32,
            split,
            number,
            birthday,
            stops,
        });
        let Forms {
            index,
            nodes,
            arena,
            ..
        } = self;
        index.insert_unique(hash, id, |&g| {
            let n = &nodes[g as usize];
            key_hash(n.split, &arena[n.start..n.start + n.len as usize])
        });
        Ok(id)
    }

    /// The number a form with these options is, the day it is born on and its stops, from its
    /// options' (which are all stored).
    #[allow(clippy::type_complexity)]
    fn describe(&self, l: &[Id], r: &[Id]) -> Result<(Option<Dyadic>, u32, (Dyadic, Dyadic))> {
        let birthday = l
            .iter()
            .chain(r)
            .map(|&o| self.node(o).birthday + 1)
            .max()
            .unwrap_or(0);
        let number = self.number_of(l, r)?;
        let stops = match number {
            Some(x) => (x, x),
            None => {
                let ls = l.iter().map(|&o| self.node(o).stops.1).max();
                let rs = r.iter().map(|&o| self.node(o).stops.0).min();
                match (ls, rs) {
                    (Some(a), Some(b)) => (a, b),
                    // Not reached for a canonical form (one without Right's options is an
                    // integer).
                    (Some(a), None) => (a, a),
                    (None, Some(b)) => (b, b),
                    (None, None) => (Dyadic::ZERO, Dyadic::ZERO),
                }
            }
        };
        Ok((number, birthday, stops))
    }

    /// The number `{ l | r }` is when its options are numbers, each side has at most one
    /// and Left's is below Right's (the shape of every canonical number).
    fn number_of(&self, l: &[Id], r: &[Id]) -> Result<Option<Dyadic>> {
        if l.len() > 1 || r.len() > 1 {
            return Ok(None);
        }
        let lo = match l.first() {
            Some(&o) => match self.node(o).number {
                Some(x) => Some(x),
                None => return Ok(None),
            },
            None => None,
        };
        let hi = match r.first() {
            Some(&o) => match self.node(o).number {
                Some(x) => Some(x),
                None => return Ok(None),
            },
            None => None,
        };
        Dyadic::simplest_between(lo, hi)
    }

    /// The canonical form of the number `x`.
    pub fn number_form(&mut self, x: Dyadic) -> Result<Id> {
        if let Some(&id) = self.numbers.get(&x) {
            return Ok(id);
        }
        if x.is_integer() {
            // n = { n-1 | } and -n = { | -n+1 }, built up from the nearest stored integer.
            let n = x.numerator();
            let step = if n > 0 { 1 } else { -1 };
            // Each integer up to n is a form of its own: the budgets are asked first.
            let forms = n.unsigned_abs();
            self.charge(forms.saturating_mul(INTERN_STEPS))?;
            check_memory(
                "the canonical forms",
                self.bytes
                    .saturating_add(forms.saturating_mul(FORM_BYTES + 16)),
                self.limits.max_memory,
            )?;
            let mut k = n;
            while k != 0 && !self.numbers.contains_key(&Dyadic::int(k - step)) {
                k -= step;
            }
            let mut id = self.numbers[&Dyadic::int(k - step)];
            let mut m = k;
            loop {
                id = if step > 0 {
                    self.intern(vec![id], vec![])?
                } else {
                    self.intern(vec![], vec![id])?
                };
                if m == n {
                    return Ok(id);
                }
                m += step;
            }
        }
        // m/2^k = { (m-1)/2^k | (m+1)/2^k }, whose denominators are smaller: the recursion
        // is at most MOST_EXP deep whatever the input.
        let unit = Dyadic::new(1, x.exponent())?;
        let lo = self.number_form(x.minus(unit)?)?;
        let hi = self.number_form(x.plus(unit)?)?;
        self.intern(vec![lo], vec![hi])
    }

    /// Whether `a <= b` (Left, playing second in b - a, wins): no Left option of `a` is at
    /// least `b` and no Right option of `b` is at most `a`.
    pub fn le(&mut self, a: Id, b: Id) -> Result<bool> {
        if let Some(v) = self.le_quick(a, b) {
            return Ok(v);
        }
        // Each frame: the pair, and which of its conditions is next.
        let mut stack: Vec<(Id, Id, usize)> = vec![(a, b, 0)];
        let mut answer: Option<bool> = None;
        loop {
            let Some(&mut (x, y, ref mut k)) = stack.last_mut() else {
                unreachable!("the loop returns when the first frame ends")
            };
            if let Some(child) = answer.take() {
                if child {
                    // A condition failed: x is not <= y.
                    stack.pop();
                    self.remember(x, y, false);
                    if stack.is_empty() {
                        return Ok(false);
                    }
                    answer = Some(false);
                    continue;
                }
                *k += 1;
            }
            let k = *k;
            let (nl, nr) = (self.left(x).len(), self.right(y).len());
            let next = if k < nl {
                (y, self.left(x)[k])
            } else if k < nl + nr {
                (self.right(y)[k - nl], x)
            } else {
                stack.pop();
                self.remember(x, y, true);
                if stack.is_empty() {
                    return Ok(true);
                }
                answer = Some(true);
                continue;
            };
            self.charge(1)?;
            match self.le_quick(next.0, next.1) {
                Some(v) => answer = Some(v),
                None => stack.push((next.0, next.1, 0)),
            }
        }
    }

    fn remember(&mut self, a: Id, b: Id, v: bool) {
        if a >= TEMP || b >= TEMP {
            self.temp_memo.insert((a, b), v);
        } else {
            self.le_memo.insert((a, b), v);
        }
    }

    /// `a <= b` when it is known without search: the same form, two numbers, or memoised.
    fn le_quick(&self, a: Id, b: Id) -> Option<bool> {
        if a == b {
            return Some(true);
        }
        let (na, nb) = (self.node(a), self.node(b));
        match (na.number, nb.number) {
            (Some(x), Some(y)) => return Some(x <= y),
            // A number against a game is decided by the game's stops unless they touch it:
            // x <= G when x < R(G), not when x > R(G); G <= y when L(G) < y, not when L(G) > y.
            (Some(x), None) if a < TEMP && b < TEMP && x != nb.stops.1 => {
                return Some(x < nb.stops.1)
            }
            (None, Some(y)) if a < TEMP && b < TEMP && y != na.stops.0 => {
                return Some(na.stops.0 < y)
            }
            _ => {}
        }
        if a >= TEMP || b >= TEMP {
            return self.temp_memo.get(&(a, b)).copied();
        }
        // Stops are monotone (a <= b gives Left's stop of a <= Left's stop of b, and the same
        // for Right's), and a stored form's stops are its value's: they rule out at once.
        if na.stops.0 > nb.stops.0 || na.stops.1 > nb.stops.1 {
            return Some(false);
        }
        self.le_memo.get(&(a, b)).copied()
    }

    /// The canonical form of `{ left | right }`, whose options are stored forms: dominated
    /// options removed and reversible ones bypassed, until neither applies.
    pub fn canonical(&mut self, left: &[Id], right: &[Id]) -> Result<Id> {
        let mut l = left.to_vec();
        let mut r = right.to_vec();
        self.charge((l.len() + r.len()) as u64)?;
        let result = self.canonical_loop(&mut l, &mut r);
        // Comparisons with the forms being made canonical mean nothing afterwards.
        if !self.temp.is_empty() {
            self.temp_memo.clear();
            self.temp.clear();
            self.temp_arena.clear();
        }
        match result? {
            Some(id) => Ok(id),
            None => self.intern(l, r),
        }
    }

    /// Removes dominated and bypasses reversible options of `{ l | r }` in place; `Some` when
    /// the game turned out to be a number found directly.
    fn canonical_loop(&mut self, l: &mut Vec<Id>, r: &mut Vec<Id>) -> Result<Option<Id>> {
        loop {
            l.sort_unstable();
            l.dedup();
            r.sort_unstable();
            r.dedup();
            // A game whose options are all numbers is a number or a switch; numbers are
            // found at once (the simplicity rule), without any comparison.
            if l.iter()
                .chain(r.iter())
                .all(|&o| self.node(o).number.is_some())
            {
                let lo = l.iter().filter_map(|&o| self.node(o).number).max();
                let hi = r.iter().filter_map(|&o| self.node(o).number).min();
                if let Some(x) = Dyadic::simplest_between(lo, hi)? {
                    return self.number_form(x).map(Some);
                }
                // A switch-like game: keep only the best option on each side.
                l.retain(|&o| self.node(o).number == lo);
                r.retain(|&o| self.node(o).number == hi);
                return Ok(None);
            }
            self.remove_dominated(l, true)?;
            self.remove_dominated(r, false)?;
            if !self.bypass_reversible(l, r)? {
                return Ok(None);
            }
        }
    }

    /// Keeps the options not dominated by another: for Left the maximal ones, for Right the
    /// minimal ones.
    fn remove_dominated(&mut self, opts: &mut Vec<Id>, left: bool) -> Result<()> {
        let mut keep = vec![true; opts.len()];
        for i in 0..opts.len() {
            if !keep[i] {
                continue;
            }
            for j in 0..opts.len() {
                if i == j || !keep[j] {
                    continue;
                }
                let (a, b) = (opts[i], opts[j]);
                // i is dominated by j (distinct canonical forms are never equal).
                let dominated = if left { self.le(a, b)? } else { self.le(b, a)? };
                if dominated {
                    keep[i] = false;
                    break;
                }
            }
        }
        let mut it = keep.iter();
        opts.retain(|_| *it.next().unwrap_or(&true));
        Ok(())
    }

    /// Bypasses the first reversible option found; whether one was.
    fn bypass_reversible(&mut self, l: &mut Vec<Id>, r: &mut Vec<Id>) -> Result<bool> {
        let g = self.make_temp(l, r)?;
        for i in 0..l.len() {
            let x = l[i];
            for j in 0..self.right(x).len() {
                let xr = self.right(x)[j];
                // Left's x reverses through xr when xr <= g: replace x by xr's Left options.
                if self.le(xr, g)? {
                    let replacement = self.left(xr).to_vec();
                    l.swap_remove(i);
                    l.extend(replacement);
                    return Ok(true);
                }
            }
        }
        for i in 0..r.len() {
            let y = r[i];
            for j in 0..self.left(y).len() {
                let yl = self.left(y)[j];
                if self.le(g, yl)? {
                    let replacement = self.right(yl).to_vec();
                    r.swap_remove(i);
                    r.extend(replacement);
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Stores `{ l | r }` as a form being made canonical, for comparisons with it.
    fn make_temp(&mut self, l: &[Id], r: &[Id]) -> Result<Id> {
        let start = self.temp_arena.len();
        self.temp_arena.extend_from_slice(l);
        self.temp_arena.extend_from_slice(r);
        // Its number and stops are never read: a form that is not canonical may equal a
        // number without having a number's shape, so the quick comparisons skip it.
        let node = Node {
            start,
            len: (l.len() + r.len()) as u32,
            split: l.len() as u32,
            number: None,
            birthday: 0,
            stops: (Dyadic::ZERO, Dyadic::ZERO),
        };
        let id = TEMP + self.temp.len() as Id;
        self.temp.push(node);
        Ok(id)
    }

    /// The negative `{ -R | -L }` (canonical when `g` is).
    pub fn neg(&mut self, g: Id) -> Result<Id> {
        let mut stack = vec![g];
        while let Some(&x) = stack.last() {
            if x == ZERO || self.neg_memo.contains_key(&x) {
                stack.pop();
                continue;
            }
            let missing: Vec<Id> = self
                .options(x)
                .iter()
                .copied()
                .filter(|&o| o != ZERO && !self.neg_memo.contains_key(&o))
                .collect();
            if !missing.is_empty() {
                stack.extend(missing);
                continue;
            }
            self.charge(self.options(x).len() as u64 + 1)?;
            let n = |o: &Id| if *o == ZERO { ZERO } else { self.neg_memo[o] };
            let l: Vec<Id> = self.right(x).iter().map(n).collect();
            let r: Vec<Id> = self.left(x).iter().map(n).collect();
            let id = self.intern(l, r)?;
            self.neg_memo.insert(x, id);
            self.neg_memo.insert(id, x);
            stack.pop();
        }
        Ok(if g == ZERO { ZERO } else { self.neg_memo[&g] })
    }

    /// The canonical form of the sum `a + b`: `{ a^L + b, a + b^L | a^R + b, a + b^R }`.
    pub fn add(&mut self, a: Id, b: Id) -> Result<Id> {
        if let Some(v) = self.sum_quick(a, b)? {
            return Ok(v);
        }
        let mut stack = vec![(a, b)];
        while let Some(&(x, y)) = stack.last() {
            if self.sum_quick(x, y)?.is_some() {
                stack.pop();
                continue;
            }
            let pairs = self.summands(x, y);
            let before = stack.len();
            for &(p, q, _) in &pairs {
                if self.sum_quick(p, q)?.is_none() {
                    stack.push((p, q));
                }
            }
            if stack.len() > before {
                continue;
            }
            let (mut l, mut r) = (Vec::new(), Vec::new());
            for &(p, q, left) in &pairs {
                let s = self.sum_quick(p, q)?.expect("computed above");
                if left {
                    l.push(s)
                } else {
                    r.push(s)
                }
            }
            let id = self.canonical(&l, &r)?;
            self.sum_memo.insert(key(x, y), id);
            stack.pop();
        }
        Ok(self.sum_quick(a, b)?.expect("computed above"))
    }

    /// The options of `x + y`: each pair to add and whether it is Left's.
    fn summands(&self, x: Id, y: Id) -> Vec<(Id, Id, bool)> {
        let mut out = Vec::with_capacity(self.options(x).len() + self.options(y).len());
        out.extend(self.left(x).iter().map(|&o| (o, y, true)));
        out.extend(self.left(y).iter().map(|&o| (x, o, true)));
        out.extend(self.right(x).iter().map(|&o| (o, y, false)));
        out.extend(self.right(y).iter().map(|&o| (x, o, false)));
        out
    }

    /// `a + b` when known without search: a zero summand, two numbers, or memoised.
    fn sum_quick(&mut self, a: Id, b: Id) -> Result<Option<Id>> {
        if a == ZERO {
            return Ok(Some(b));
        }
        if b == ZERO {
            return Ok(Some(a));
        }
        if let (Some(x), Some(y)) = (self.node(a).number, self.node(b).number) {
            return self.number_form(x.plus(y)?).map(Some);
        }
        Ok(self.sum_memo.get(&key(a, b)).copied())
    }

    /// `a - b`.
    pub fn sub(&mut self, a: Id, b: Id) -> Result<Id> {
        let nb = self.neg(b)?;
        self.add(a, nb)
    }
}

/// The hash of a form's options and how many are Left's.
fn key_hash(split: u32, options: &[Id]) -> u64 {
    let (l, r) = options.split_at(split as usize);
    key_hash_of(l, r)
}

/// The same hash, from Left's and Right's options apart.
fn key_hash_of(left: &[Id], right: &[Id]) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write_usize(left.len());
    for &o in left.iter().chain(right) {
        h.write_u32(o);
    }
    h.finish()
}

/// The memo key of a sum, the same for `a + b` and `b + a`.
fn key(a: Id, b: Id) -> (Id, Id) {
    (a.min(b), a.max(b))
}
