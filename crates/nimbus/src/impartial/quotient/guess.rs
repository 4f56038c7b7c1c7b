//! A quick guess at the quotient when a new heap adds elements, in the manner of Siegel's
//! MisereSolver: no sum is searched.
//!
//! The guess is a product of the old quotient (without the heaps split off) and one cyclic
//! monoid `⟨g | g^(i+2) = g^i⟩` for the new heap and each heap split off. Each element is given
//! an outcome from its lightest position: a P-position iff no option of that position lands
//! in the P-portion (the options are lighter, so their elements are decided first). Elements
//! no position tells apart are then merged (the syntactic congruence of the P-portion, found
//! as an automaton is minimised), and the result goes to the exact check of [`super::verify`].
//! When the check finds a position the guess gets wrong (the lightest such, so its true
//! outcome follows from its options, which the guess gets right), the guess is made freer —
//! one or two heaps of that position split off it into cycles of their own — until that
//! position comes out right, and checked again.
//!
//! The guess is never trusted by itself: it is used only when the exact check finds no
//! position it gets wrong, and then it *is* the quotient (its elements are told apart by
//! construction). When no guess passes, the table learns from exact outcomes as before.

use super::heaps::{Heaps, Oracle};
use super::verify::{smallest_failure, Candidate, Monoid};
use crate::core::budget::Limits;
use crate::core::error::Result;
use rustc_hash::FxHashMap as HashMap;

/// The most elements an unreduced guess may have; past it the guess gives up (the table's
/// learning takes over).
const MOST_ELEMENTS: usize = 1 << 20;

/// The most times a guess is made freer before it gives up.
const MOST_ROUNDS: usize = 400;

/// One heap split off: its letter and its cycle `g^(index + period) = g^index`.
#[derive(Clone, Copy)]
struct Cycle {
    letter: u16,
    index: u32,
    period: u32,
}

impl Cycle {
    fn len(&self) -> usize {
        (self.index + self.period) as usize
    }

    fn add(&self, a: usize, b: usize) -> usize {
        let s = a + b;
        if s < self.len() {
            s
        } else {
            let i = self.index as usize;
            i + (s - i) % self.period as usize
        }
    }
}

/// The unreduced product: the base (the old quotient's elements reached by the heaps not
/// split off) times one cycle per split heap, an element written in mixed radix.
struct Product<'a> {
    old: &'a Monoid,
    /// The base's elements, as old elements; `base[0]` is the identity.
    base: Vec<u32>,
    /// The base index of each old element in the base, if it is there.
    in_base: Vec<Option<u32>>,
    cycles: Vec<Cycle>,
    size: usize,
}

impl<'a> Product<'a> {
    /// The product for the heaps `0..letters` with `cycles` split off, or `None` when it
    /// would be too large.
    fn new(old: &'a Monoid, old_image: &[u32], letters: usize, cycles: Vec<Cycle>) -> Option<Self> {
        let split = |a: usize| cycles.iter().any(|c| c.letter as usize == a);
        let mut in_base = vec![None; old.q];
        let mut base = vec![0u32];
        in_base[0] = Some(0);
        let mut i = 0;
        while i < base.len() {
            let x = base[i];
            for (a, &g) in old_image.iter().enumerate().take(letters) {
                if split(a) {
                    continue;
                }
                let y = old.mul(x, g);
                if in_base[y as usize].is_none() {
                    in_base[y as usize] = Some(base.len() as u32);
                    base.push(y);
                }
            }
            i += 1;
        }
        let size = cycles
            .iter()
            .try_fold(base.len(), |n, c| n.checked_mul(c.len()))?;
        (size <= MOST_ELEMENTS).then_some(Product {
            old,
            base,
            in_base,
            cycles,
            size,
        })
    }

    fn mul(&self, x: usize, y: usize) -> usize {
        // Mixed radix, the base's digit least significant, then each cycle's in turn.
        let nb = self.base.len();
        let b = self.in_base[self.old.mul(self.base[x % nb], self.base[y % nb]) as usize]
            .expect("the base is a submonoid") as usize;
        let (mut rx, mut ry) = (x / nb, y / nb);
        let (mut e, mut place) = (0, 1);
        for c in &self.cycles {
            let len = c.len();
            e += c.add(rx % len, ry % len) * place;
            place *= len;
            rx /= len;
            ry /= len;
        }
        e * nb + b
    }

    /// The element of heap `a` (its old image, or its cycle's generator).
    fn image(&self, a: usize, old_image: &[u32]) -> usize {
        let mut e = 0;
        let mut found = false;
        for c in self.cycles.iter().rev() {
            let d = usize::from(c.letter as usize == a);
            found |= d == 1;
            e = e * c.len() + d;
        }
        if found {
            e * self.base.len()
        } else {
            self.in_base[old_image[a] as usize].expect("an unsplit heap is in the base") as usize
        }
    }
}

/// A guess, reduced: the candidate's monoid, P-portion and images.
pub struct Guess {
    /// The multiplication, the identity first.
    pub m: Monoid,
    /// Whether each element is in the P-portion.
    pub p: Vec<bool>,
    /// Each heap's element.
    pub image: Vec<u32>,
}

/// Builds the guess for the heaps `0..letters` from `product`; `None` if the budgets would be
/// passed.
fn build(
    product: &Product,
    heaps: &Heaps,
    old_image: &[u32],
    letters: usize,
    limits: &Limits,
    oracle: &mut Oracle,
) -> Result<Option<Guess>> {
    let n = product.size;
    let image: Vec<usize> = (0..letters).map(|a| product.image(a, old_image)).collect();
    let mut gens = image.clone();
    gens.sort_unstable();
    gens.dedup();
    // An element's distance, back pointer, outcome and class (about 40 bytes), the shortest
    // paths' queue (at worst an entry of 16 bytes for each element and generator) and the
    // merging's keys (4 bytes for each, with the map's own 48): the budget is checked first.
    let g = gens.len() as u64;
    let bytes = (n as u64).saturating_mul(40 + 16 * g + 4 * (g + 1) + 48);
    if bytes > limits.max_memory || n as u64 > limits.max_states {
        return Ok(None);
    }
    // Each element meets each heap a few times over (shortest positions, outcomes, merging).
    oracle.charge((n as u64).saturating_mul(4 * letters as u64 + 4))?;
    let (order, p) = outcomes(product, heaps, &image);
    merged(product, &order, &p, &image, &gens, limits, oracle)
}

/// The elements of `product` in order of their lightest positions (fewest tokens), and each
/// one's outcome: P iff no option of its lightest position is (those options are lighter).
fn outcomes(product: &Product, heaps: &Heaps, image: &[usize]) -> (Vec<usize>, Vec<bool>) {
    let (n, letters) = (product.size, image.len());
    let mut dist = vec![u64::MAX; n];
    let mut back: Vec<(u32, u16)> = vec![(u32::MAX, 0); n];
    dist[0] = 0;
    let mut queue = std::collections::BinaryHeap::new();
    queue.push(std::cmp::Reverse((0u64, 0usize)));
    // Each distinct element of a heap, with the lightest heap that has it.
    let mut lightest: Vec<(usize, u16)> = Vec::new();
    for (a, &g) in image.iter().enumerate() {
        match lightest.iter_mut().find(|(h, _)| *h == g) {
            Some(l) if heaps.sizes[a] < heaps.sizes[l.1 as usize] => l.1 = a as u16,
            Some(_) => {}
            None => lightest.push((g, a as u16)),
        }
    }
    while let Some(std::cmp::Reverse((d, x))) = queue.pop() {
        if d > dist[x] {
            continue;
        }
        for &(g, a) in &lightest {
            let y = product.mul(x, g);
            let e = d + heaps.sizes[a as usize];
            if e < dist[y] {
                dist[y] = e;
                back[y] = (x as u32, a);
                queue.push(std::cmp::Reverse((e, y)));
            }
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&e| dist[e] != u64::MAX).collect();
    order.sort_by_key(|&e| dist[e]);
    // Each heap's option elements.
    let options: Vec<Vec<usize>> = (0..letters)
        .map(|a| {
            let mut o: Vec<usize> = heaps.options[a]
                .iter()
                .map(|w| w.iter().fold(0, |x, &b| product.mul(x, image[b as usize])))
                .collect();
            o.sort_unstable();
            o.dedup();
            o
        })
        .collect();
    let mut p = vec![false; n];
    let mut word = Vec::new();
    for &e in order.iter().skip(1) {
        word.clear();
        let mut x = e;
        while x != 0 {
            let (prev, a) = back[x];
            word.push(a);
            x = prev as usize;
        }
        word.sort_unstable();
        word.dedup();
        let mut to_p = false;
        'letters: for &a in &word {
            // The rest of the lightest position once one heap of `a` is taken out.
            let mut rest = 0;
            let mut taken = false;
            let mut y = e;
            while y != 0 {
                let (prev, b) = back[y];
                if b == a && !taken {
                    taken = true;
                } else {
                    rest = product.mul(rest, image[b as usize]);
                }
                y = prev as usize;
            }
            for &o in &options[a as usize] {
                if p[product.mul(rest, o)] {
                    to_p = true;
                    break 'letters;
                }
            }
        }
        p[e] = !to_p;
    }
    (order, p)
}

/// The guess with elements no position tells apart merged: refined by outcome, then by where
/// each heap leads, until nothing splits (Moore's minimisation); numbered in order of first
/// reach, so the identity is element 0.
fn merged(
    product: &Product,
    order: &[usize],
    p: &[bool],
    image: &[usize],
    gens: &[usize],
    limits: &Limits,
    oracle: &mut Oracle,
) -> Result<Option<Guess>> {
    let n = product.size;
    let mut class: Vec<u32> = (0..n).map(|e| u32::from(p[e])).collect();
    let mut classes = 0;
    loop {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::default();
        let mut next = vec![u32::MAX; n];
        for &e in order {
            let mut key = Vec::with_capacity(gens.len() + 1);
            key.push(class[e]);
            key.extend(gens.iter().map(|&g| class[product.mul(e, g)]));
            let len = ids.len() as u32;
            next[e] = *ids.entry(key).or_insert(len);
        }
        let count = ids.len();
        class = next;
        if count == classes {
            break;
        }
        classes = count;
        oracle.charge((n as u64).saturating_mul(gens.len() as u64 + 1))?;
    }
    let mut rep: Vec<usize> = vec![0; classes];
    for &e in order.iter().rev() {
        rep[class[e] as usize] = e;
    }
    if (classes as u64)
        .saturating_mul(classes as u64)
        .saturating_mul(4)
        > limits.max_memory
    {
        return Ok(None);
    }
    oracle.charge((classes as u64).saturating_mul(classes as u64))?;
    let mut mult = vec![0u32; classes * classes];
    for x in 0..classes {
        for y in 0..classes {
            mult[x * classes + y] = class[product.mul(rep[x], rep[y])];
        }
    }
    Ok(Some(Guess {
        m: Monoid { q: classes, mult },
        p: (0..classes).map(|x| p[rep[x]]).collect(),
        image: image.iter().map(|&g| class[g]).collect(),
    }))
}

/// The outcome a guess predicts for a position (a list of letters).
fn predicts(g: &Guess, word: &[u16]) -> bool {
    let x = word.iter().fold(0, |x, &a| g.m.mul(x, g.image[a as usize]));
    g.p[x as usize]
}

/// The true outcome of the lightest position a guess gets wrong: every lighter position is
/// predicted right, so it is a P-position iff none of its options is predicted P.
fn truth(g: &Guess, heaps: &Heaps, word: &[u16]) -> bool {
    for i in 0..word.len() {
        if i > 0 && word[i] == word[i - 1] {
            continue;
        }
        for w in &heaps.options[word[i] as usize] {
            let option = super::heaps::replace(word, i, w);
            if predicts(g, &option) {
                return false;
            }
        }
    }
    !word.is_empty()
}

/// Powers of `g` in `m` until one repeats: `(index, period)`.
fn cycle_of(m: &Monoid, g: u32) -> (u32, u32) {
    let mut powers = vec![0u32];
    loop {
        let next = m.mul(*powers.last().expect("the identity"), g);
        if let Some(i) = powers.iter().position(|&x| x == next) {
            return (i as u32, (powers.len() - i) as u32);
        }
        powers.push(next);
    }
}

/// The quotient of the heaps `0..=new` (letters), guessed from the proved quotient `old` of
/// the heaps before it and proved by the exact check, or `None` when no guess within reach
/// passes.
pub fn grow(
    old: &Monoid,
    old_image: &[u32],
    heaps: &Heaps,
    limits: &Limits,
    oracle: &mut Oracle,
) -> Result<Option<Guess>> {
    let letters = old_image.len() + 1;
    let new = (letters - 1) as u16;
    // The new heap's image is its own cycle; the placeholder is never used.
    let image: Vec<u32> = old_image.iter().copied().chain([0]).collect();
    let start = Cycle {
        letter: new,
        index: 2,
        period: 2,
    };
    let Some(mut g) = freer(old, &image, &[start], heaps, limits, oracle)? else {
        return Ok(None);
    };
    for _ in 0..MOST_ROUNDS {
        let c = Candidate {
            m: &g.m,
            p: &g.p,
            image: &g.image,
        };
        oracle.charge((g.m.q as u64).saturating_mul(letters as u64))?;
        let Some((_, wrong)) = smallest_failure(&c, heaps, limits)? else {
            return Ok(Some(g));
        };
        let want = truth(&g, heaps, &wrong);
        // A freer guess: one heap of the wrong position split off the guess so far (then
        // two), its cycle long enough to keep its copies in that position apart; the first
        // that gets the position right is kept.
        let mut letters_in = wrong.clone();
        letters_in.dedup();
        let mut tries: Vec<Vec<Cycle>> = letters_in
            .iter()
            .rev()
            .map(|&a| vec![split_off(&g, a, &wrong)])
            .collect();
        for (i, &a) in letters_in.iter().enumerate() {
            for &b in &letters_in[i + 1..] {
                tries.push(vec![split_off(&g, a, &wrong), split_off(&g, b, &wrong)]);
            }
        }
        let mut fixed = None;
        for cycles in tries {
            if let Some(h) = freer(&g.m, &g.image, &cycles, heaps, limits, oracle)? {
                if predicts(&h, &wrong) == want {
                    fixed = Some(h);
                    break;
                }
            }
            crate::core::progress::check()?;
        }
        match fixed {
            Some(h) => g = h,
            None => return Ok(None),
        }
    }
    Ok(None)
}

/// Heap `a` split off guess `g`: a cycle at least as long as its element's and long enough
/// to keep apart its copies in the position `wrong`.
fn split_off(g: &Guess, a: u16, wrong: &[u16]) -> Cycle {
    let (index, period) = cycle_of(&g.m, g.image[a as usize]);
    let count = wrong.iter().filter(|&&b| b == a).count() as u32;
    Cycle {
        letter: a,
        index: index.max(count).max(2),
        period: period.max(2),
    }
}

/// The guess from `base` (a monoid with each heap's image) with the heaps of `cycles` split
/// off, reduced; `None` when it would be too large.
fn freer(
    base: &Monoid,
    image: &[u32],
    cycles: &[Cycle],
    heaps: &Heaps,
    limits: &Limits,
    oracle: &mut Oracle,
) -> Result<Option<Guess>> {
    let letters = image.len();
    let Some(product) = Product::new(base, image, letters, cycles.to_vec()) else {
        return Ok(None);
    };
    build(&product, heaps, image, letters, limits, oracle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cycle_wraps_back_to_its_index() {
        let c = Cycle {
            letter: 0,
            index: 2,
            period: 2,
        };
        // g^4 = g^2, g^5 = g^3, g^6 = g^2.
        assert_eq!(c.add(3, 1), 2);
        assert_eq!(c.add(3, 2), 3);
        assert_eq!(c.add(3, 3), 2);
        assert_eq!(c.add(1, 1), 2);
    }

    /// The product of Z/2 with a cycle is a commutative monoid with the identity first.
    #[test]
    fn the_product_is_a_commutative_monoid() {
        let z2 = Monoid {
            q: 2,
            mult: vec![0, 1, 1, 0],
        };
        let cycle = Cycle {
            letter: 1,
            index: 1,
            period: 2,
        };
        let p = Product::new(&z2, &[1, 0], 2, vec![cycle]).unwrap();
        assert_eq!(p.size, 6);
        for x in 0..6 {
            assert_eq!(p.mul(0, x), x);
            for y in 0..6 {
                assert_eq!(p.mul(x, y), p.mul(y, x));
                for z in 0..6 {
                    assert_eq!(p.mul(p.mul(x, y), z), p.mul(x, p.mul(y, z)));
                }
            }
        }
        assert_eq!(p.image(0, &[1, 0]), 1);
        assert_eq!(p.mul(p.image(1, &[1, 0]), p.image(1, &[1, 0])), 4);
    }

    /// Misère Nim's heap 2, from the quotient Z/2 of heap 1: T2, of order 6 with P = {a, b²}.
    #[test]
    fn nim_heap_two_is_guessed_and_proved() {
        let moves = |n: u64, out: &mut Vec<Vec<u64>>| {
            out.extend((0..n).map(|k| if k == 0 { vec![] } else { vec![k] }));
        };
        let limits = Limits::default();
        let heaps = Heaps::new(&moves, 2, &limits).unwrap();
        let mut oracle = Oracle::new(&heaps, limits);
        let z2 = Monoid {
            q: 2,
            mult: vec![0, 1, 1, 0],
        };
        let Guess { m, p, image } = grow(&z2, &[1], &heaps, &limits, &mut oracle)
            .unwrap()
            .unwrap();
        assert_eq!(m.q, 6);
        assert_eq!(p.iter().filter(|&&b| b).count(), 2);
        let (a, b) = (image[0], image[1]);
        assert!(p[a as usize]);
        assert!(p[m.mul(b, b) as usize]);
        assert!(!p[b as usize] && !p[0]);
        assert_eq!(m.mul(m.mul(b, b), b), b);
        // Within too little memory the guess gives up before allocating (the table's
        // learning, with its own budget checks, is left to answer).
        let tight = Limits {
            max_memory: 100,
            ..Limits::default()
        };
        assert!(grow(&z2, &[1], &heaps, &tight, &mut oracle)
            .unwrap()
            .is_none());
    }
}
