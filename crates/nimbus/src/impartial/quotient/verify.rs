//! Whether a candidate quotient is right, decided exactly, and what to learn when it is not.
//!
//! A candidate is a commutative monoid `Q` with a subset `P` and a map `Φ` from heaps to `Q`.
//! It is right — `Φ(G) ∈ P` exactly for the misère P-positions `G` of the heaps — iff
//! (a) no position predicted P has an option predicted P, and (b) every non-terminal position
//! predicted N has an option predicted P (the empty position, the only terminal one, is the
//! identity, and is N in every row). Induction on positions gives the truth from (a) and (b).
//!
//! (a) is a finite check: a position is `X + h`, and its options through `h` are `X + h'`, so
//! it is enough to check every element `x` (every element is some `Φ(X)`) with every heap.
//! (b) is over infinitely many positions, but a position `c` fails it iff, for every heap `h`
//! in it, `x = Φ(c − h)` lies in the set `F_h` of elements with `x·Φ(h) ∉ P` and `x·Φ(h') ∉ P`
//! for every option `h'`. Heaps with the same image and the same option images are one *type*;
//! a type's multiplicity matters only up to the point where its image's powers cycle. So the
//! search runs over types, one at a time, keeping `(Φ(part so far), A)`, where `A` is the set
//! of products `R` of the types still to come that would satisfy every requirement made so far
//! (`Φ(c − h) = Φ(part − h)·R ∈ F_h`): a finite search that either finds a failing position or
//! proves there is none.
//!
//! Before that, the candidate must be a monoid at all: its transitions must commute, and
//! adding a representative must act as its word does. Each failure is turned into a position
//! whose outcome the candidate gets wrong (found with the exact outcome oracle), or directly
//! into a new test.

use super::heaps::{join, Heaps, Oracle, Word};
use super::table::Table;
use crate::core::budget::{check_memory, map_entry_bytes, Limits};
use crate::core::error::{Error, Result};
use rustc_hash::FxHashMap as HashMap;

/// What to do about a wrong candidate.
pub enum Fix {
    /// The prediction for `reps[start]` plus these heaps is wrong.
    Wrong(u32, Vec<u16>),
    /// A new test that splits an element.
    Test(Word),
}

/// The candidate's multiplication: `mult[x * q + y]`.
#[derive(Clone)]
pub struct Monoid {
    /// Its order.
    pub q: usize,
    /// The table.
    pub mult: Vec<u32>,
}

impl Monoid {
    /// `x · y`.
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.mult[x as usize * self.q + y as usize]
    }
}

/// The representative reached by each representative's own word must be itself, and the
/// transitions must commute; the first failure, made into a fix.
fn check_transitions(t: &Table, o: &mut Oracle) -> Result<Option<Fix>> {
    for s in 0..t.order() as u32 {
        let x = t.run(0, &t.reps[s as usize]);
        if x != s {
            let i = t.split(x, s);
            let mut seq = t.reps[s as usize].clone();
            seq.extend_from_slice(&t.tests[i]);
            return Ok(Some(first_wrong(t, o, &[(x, i), (s, i)], &[(0, seq)])?));
        }
    }
    for r in 0..t.order() as u32 {
        for a in 0..t.letters as u16 {
            for b in a + 1..t.letters as u16 {
                let x = t.run(r, &[a, b]);
                let y = t.run(r, &[b, a]);
                if x != y {
                    let i = t.split(x, y);
                    let tail = &t.tests[i];
                    let s1 = [&[a, b][..], tail].concat();
                    let s2 = [&[b, a][..], tail].concat();
                    return Ok(Some(first_wrong(
                        t,
                        o,
                        &[(x, i), (y, i)],
                        &[(r, s1), (r, s2)],
                    )?));
                }
            }
        }
    }
    Ok(None)
}

/// Among rows `(x, i)` (does running test `i` from `x` agree with the table's entry?) and
/// sequences `(start, seq)` (does the prediction agree with the truth?), the first that is
/// wrong.
fn find_wrong(
    t: &Table,
    o: &mut Oracle,
    rows: &[(u32, usize)],
    seqs: &[(u32, Vec<u16>)],
) -> Result<Option<Fix>> {
    for &(x, i) in rows {
        let tail = &t.tests[i];
        if t.accept(t.run(x, tail)) != t.entry(x, i) {
            return Ok(Some(Fix::Wrong(x, tail.clone())));
        }
    }
    for (start, seq) in seqs {
        if wrong(t, o, *start, seq)? {
            return Ok(Some(Fix::Wrong(*start, seq.clone())));
        }
    }
    Ok(None)
}

/// [`find_wrong`] where one is wrong by the argument at each call.
fn first_wrong(
    t: &Table,
    o: &mut Oracle,
    rows: &[(u32, usize)],
    seqs: &[(u32, Vec<u16>)],
) -> Result<Fix> {
    find_wrong(t, o, rows, seqs)?.ok_or_else(|| {
        Error::Invalid("internal: a failed quotient check gave no counterexample".into())
    })
}

/// Whether the table's prediction for `reps[start]` plus `seq` is wrong.
fn wrong(t: &Table, o: &mut Oracle, start: u32, seq: &[u16]) -> Result<bool> {
    let mut sorted = seq.to_vec();
    sorted.sort_unstable();
    let truth = o.is_p(&join(&t.reps[start as usize], &sorted))?;
    Ok(truth != t.accept(t.run(start, seq)))
}

/// The multiplication `x · y = run(x, word(y))`, and its check: adding a representative
/// must act as its word does (`x·δ(s, a) = δ(x·s, a)`), which makes it a monoid with `Φ` a
/// homomorphism onto it.
fn monoid(t: &Table, o: &mut Oracle, limits: &Limits) -> Result<std::result::Result<Monoid, Fix>> {
    let q = t.order();
    check_memory(
        "the misère quotient's multiplication table",
        (q as u64).saturating_mul(q as u64).saturating_mul(4),
        limits.max_memory,
    )?;
    let mut mult = vec![0u32; q * q];
    for x in 0..q {
        for y in 0..q {
            mult[x * q + y] = t.run(x as u32, &t.reps[y]);
        }
        crate::core::progress::check()?;
    }
    let m = Monoid { q, mult };
    for r in 0..q as u32 {
        for s in 0..q as u32 {
            for a in 0..t.letters as u16 {
                let via_rep = m.mul(r, t.delta[s as usize][a as usize]);
                let via_word = t.delta[m.mul(r, s) as usize][a as usize];
                if via_rep == via_word {
                    continue;
                }
                let i = t.split(via_rep, via_word);
                let tail = &t.tests[i];
                let rep = &t.reps[t.delta[s as usize][a as usize] as usize];
                let s1 = [&rep[..], tail].concat();
                let s2 = [&t.reps[s as usize][..], &[a], tail].concat();
                let rows = [(via_rep, i), (via_word, i)];
                if let Some(fix) = find_wrong(t, o, &rows, &[(r, s1), (r, s2)])? {
                    return Ok(Err(fix));
                }
                // Both predictions are right and differ: reps[r] + tests[i] tells the word of
                // s plus a from the representative it was matched with.
                return Ok(Err(Fix::Test(join(&t.reps[r as usize], tail))));
            }
        }
    }
    Ok(Ok(m))
}

/// A candidate as algebra: a monoid, its P-portion and each letter's image.
pub struct Candidate<'a> {
    /// The multiplication.
    pub m: &'a Monoid,
    /// Whether each element is in the P-portion.
    pub p: &'a [bool],
    /// Each letter's element.
    pub image: &'a [u32],
}

impl Candidate<'_> {
    fn accept(&self, x: u32) -> bool {
        self.p[x as usize]
    }

    /// The element of a position.
    pub fn phi(&self, w: &[u16]) -> u32 {
        w.iter()
            .fold(0, |x, &a| self.m.mul(x, self.image[a as usize]))
    }
}

/// One type of heap: its image, its options' images, and one heap of the type.
struct Kind {
    image: u32,
    options: Vec<u32>,
    letter: u16,
}

/// What a check found.
pub struct Checked {
    /// What to fix, or `None` when the candidate is the quotient.
    pub fix: Option<Fix>,
    /// The multiplication, when the candidate is a monoid with `Φ` a homomorphism.
    pub monoid: Option<Monoid>,
    /// Then: every position of fewer tokens is predicted right (`u64::MAX` when all are).
    pub sound_below: u64,
}

/// The fewest tokens of a position with each element as image, and the last heap of one
/// such position (shortest paths from the identity, a heap of `n` tokens costing `n`).
fn lightest(c: &Candidate, sizes: &[u64]) -> (Vec<u64>, Vec<Option<(u32, u16)>>) {
    let m = c.m;
    let mut dist = vec![u64::MAX; m.q];
    let mut back = vec![None; m.q];
    dist[0] = 0;
    let mut heap = std::collections::BinaryHeap::new();
    heap.push(std::cmp::Reverse((0u64, 0u32)));
    while let Some(std::cmp::Reverse((d, x))) = heap.pop() {
        if d > dist[x as usize] {
            continue;
        }
        for a in 0..c.image.len() as u16 {
            let y = m.mul(x, c.image[a as usize]);
            let e = d + sizes[a as usize];
            if e < dist[y as usize] {
                dist[y as usize] = e;
                back[y as usize] = Some((x, a));
                heap.push(std::cmp::Reverse((e, y)));
            }
        }
    }
    (dist, back)
}

/// Checks the candidate. When it is a monoid, the smallest position (in tokens) where the
/// prediction disagrees with the prediction for the position's options is found: every
/// smaller position is then predicted right (by induction on positions), so that position's
/// true outcome is the one its options' predictions give, and it is the counterexample —
/// found without searching any sum.
pub fn check(t: &Table, heaps: &Heaps, o: &mut Oracle, limits: &Limits) -> Result<Checked> {
    let failed = |fix| Checked {
        fix: Some(fix),
        monoid: None,
        sound_below: 0,
    };
    if let Some(fix) = check_transitions(t, o)? {
        return Ok(failed(fix));
    }
    let m = match monoid(t, o, limits)? {
        Ok(m) => m,
        Err(fix) => return Ok(failed(fix)),
    };
    let p = t.p_portion(m.q);
    let image = t.images();
    let c = Candidate {
        m: &m,
        p: &p,
        image: &image,
    };
    let worst = smallest_failure(&c, heaps, limits)?;
    Ok(match worst {
        None => Checked {
            fix: None,
            monoid: Some(m),
            sound_below: u64::MAX,
        },
        Some((size, c)) => Checked {
            fix: Some(Fix::Wrong(0, c)),
            monoid: Some(m),
            sound_below: size,
        },
    })
}

/// The lightest position (fewest tokens) where the candidate's prediction disagrees with the
/// predictions for its options, with its weight; `None` when there is none, and then the
/// candidate is right on every position.
pub fn smallest_failure(
    c: &Candidate,
    heaps: &Heaps,
    limits: &Limits,
) -> Result<Option<(u64, Word)>> {
    smallest_failure_with(c, heaps, None, None, limits)
}

/// [`smallest_failure`], given each letter's options' elements (sorted, without repeats)
/// when the caller has them, and keeping the search's layers in `layers` for the next check
/// (see [`Layers`]).
pub fn smallest_failure_with(
    c: &Candidate,
    heaps: &Heaps,
    option_sets: Option<&[Vec<u32>]>,
    layers: Option<&mut Layers>,
    limits: &Limits,
) -> Result<Option<(u64, Word)>> {
    let mut kinds: Vec<Kind> = Vec::new();
    let mut by_key: HashMap<(u32, Vec<u32>), usize> = HashMap::default();
    for a in 0..c.image.len() as u16 {
        let image = c.image[a as usize];
        let options = match option_sets.and_then(|s| s.get(a as usize)) {
            Some(set) => set.clone(),
            None => {
                let mut o: Vec<u32> = heaps.options[a as usize].iter().map(|w| c.phi(w)).collect();
                o.sort_unstable();
                o.dedup();
                o
            }
        };
        if let std::collections::hash_map::Entry::Vacant(e) = by_key.entry((image, options)) {
            let options = e.key().1.clone();
            e.insert(kinds.len());
            kinds.push(Kind {
                image,
                options,
                letter: a,
            });
        }
    }
    // (a): a P-position with a P-option; the lightest such position.
    let (dist, back) = lightest(c, &heaps.sizes);
    let mut worst: Option<(u64, Word)> = None;
    for x in 0..c.m.q as u32 {
        if dist[x as usize] == u64::MAX {
            continue;
        }
        for k in &kinds {
            if !c.accept(c.m.mul(x, k.image)) || !k.options.iter().any(|&y| c.accept(c.m.mul(x, y)))
            {
                continue;
            }
            let size = dist[x as usize] + heaps.sizes[k.letter as usize];
            if worst.as_ref().is_some_and(|w| w.0 <= size) {
                continue;
            }
            let mut word = vec![k.letter];
            let mut y = x;
            while let Some((prev, a)) = back[y as usize] {
                word.push(a);
                y = prev;
            }
            word.sort_unstable();
            worst = Some((size, word));
        }
    }
    // (b): a non-terminal N-position without a P-option; the lightest such position.
    if let Some((size, c)) = failing_position(c, &heaps.sizes, &kinds, limits, layers)? {
        if worst.as_ref().is_none_or(|w| size < w.0) {
            worst = Some((size, c));
        }
    }
    Ok(worst)
}

/// A subset of the elements.
type Set = Vec<u64>;

/// A state of [`failing_position`]'s search: the element so far, the products of the rest
/// that keep the position failing, and whether any heap was taken.
type State = (u32, Set, bool);

/// The layers of the exact check's search (for a position that fails) over the first kinds of heaps, kept for the
/// next check of the same candidate with more heaps, or another element for the last heap:
/// the checks of a quotient that does not grow share all but their last kind, and redoing
/// those layers for every heap and every element tried was most of the work (Kayles to heap
/// 300).
#[derive(Default)]
pub struct Layers {
    mult: Vec<u32>,
    p: Vec<bool>,
    /// The kinds searched: image, options' elements, letter.
    kinds: Vec<(u32, Vec<u32>, u16)>,
    layer: Vec<State>,
    cost: Vec<u64>,
    parents: Vec<Vec<(u32, u32)>>,
}

impl Layers {
    /// Whether the layers are those of `c` over a prefix of `kinds`; else starts afresh.
    fn fit(&mut self, c: &Candidate, kinds: &[Kind]) {
        let prefix = self.kinds.len() <= kinds.len()
            && self
                .kinds
                .iter()
                .zip(kinds)
                .all(|(a, k)| a.0 == k.image && a.1 == k.options && a.2 == k.letter);
        if prefix && self.mult == c.m.mult && self.p == c.p && !self.layer.is_empty() {
            return;
        }
        let q = c.m.q;
        let mut full: Set = vec![0; q.div_ceil(64)];
        for x in 0..q {
            full[x / 64] |= 1 << (x % 64);
        }
        self.mult.clone_from(&c.m.mult);
        self.p = c.p.to_vec();
        self.kinds.clear();
        self.layer = vec![(0, full, false)];
        self.cost = vec![0];
        self.parents.clear();
    }
}

/// A non-empty position predicted N none of whose options is predicted P, if there is one.
/// The layers of all kinds but the last are kept in `layers` (when given) for the next call.
fn failing_position(
    c: &Candidate,
    sizes: &[u64],
    kinds: &[Kind],
    limits: &Limits,
    layers: Option<&mut Layers>,
) -> Result<Option<(u64, Word)>> {
    let mut scratch = Layers::default();
    let cache = layers.unwrap_or(&mut scratch);
    cache.fit(c, kinds);
    let has = |s: &Set, x: u32| s[x as usize / 64] >> (x % 64) & 1 == 1;
    while cache.kinds.len() + 1 < kinds.len() {
        let k = &kinds[cache.kinds.len()];
        let (next, cost, back) = layer_step(c, k, sizes, &cache.layer, &cache.cost, limits)?;
        cache.kinds.push((k.image, k.options.clone(), k.letter));
        cache.layer = next;
        cache.cost = cost;
        cache.parents.push(back);
    }
    let last = match kinds.get(cache.kinds.len()) {
        Some(k) => Some(layer_step(c, k, sizes, &cache.layer, &cache.cost, limits)?),
        None => None,
    };
    let (layer, cost) = match &last {
        Some((l, c, _)) => (l, c),
        None => (&cache.layer, &cache.cost),
    };
    let Some(end) = (0..layer.len())
        .filter(|&i| {
            let (v, a, nonempty) = &layer[i];
            *nonempty && !c.accept(*v) && has(a, 0)
        })
        .min_by_key(|&i| cost[i])
    else {
        return Ok(None);
    };
    let mut word = Vec::new();
    let mut s = end as u32;
    let parents: Vec<&Vec<(u32, u32)>> = cache
        .parents
        .iter()
        .chain(last.as_ref().map(|l| &l.2))
        .collect();
    for (k, back) in kinds.iter().zip(parents).rev() {
        let (prev, e) = back[s as usize];
        word.extend(std::iter::repeat_n(k.letter, e as usize));
        s = prev;
    }
    word.sort_unstable();
    Ok(Some((cost[end], word)))
}

/// One layer of [`failing_position`]'s search: every state after any number of heaps of
/// kind `k`, the fewest tokens reaching each, and each one's state before and heaps taken.
// Kept as one function: the states, their costs and the way back share one pass.
#[allow(clippy::type_complexity)]
fn layer_step(
    c: &Candidate,
    k: &Kind,
    sizes: &[u64],
    layer: &[State],
    cost: &[u64],
    limits: &Limits,
) -> Result<(Vec<State>, Vec<u64>, Vec<(u32, u32)>)> {
    let (m, q) = (c.m, c.m.q);
    let words = q.div_ceil(64);
    let has = |s: &Set, x: u32| s[x as usize / 64] >> (x % 64) & 1 == 1;
    let state_bytes = map_entry_bytes::<State, u32>() + 16 * words as u64;
    // F: x·g ∉ P and x·y ∉ P for every option image y.
    let mut f: Set = vec![0; words];
    for x in 0..q as u32 {
        if !c.accept(m.mul(x, k.image)) && k.options.iter().all(|&y| !c.accept(m.mul(x, y))) {
            f[x as usize / 64] |= 1 << (x % 64);
        }
    }
    // Powers of the image until one repeats: multiplicities past that change nothing.
    let mut powers = vec![0u32];
    loop {
        let next = m.mul(*powers.last().expect("the identity"), k.image);
        if powers.contains(&next) {
            break;
        }
        powers.push(next);
    }
    let most = powers.len();
    let power = |e: usize| -> u32 {
        if e < powers.len() {
            powers[e]
        } else {
            m.mul(powers[powers.len() - 1], k.image)
        }
    };
    let mut next: Vec<State> = Vec::new();
    let mut seen: HashMap<State, u32> = HashMap::default();
    let mut back: Vec<(u32, u32, u64)> = Vec::new();
    let k_size = sizes[k.letter as usize];
    for (si, (v, a, nonempty)) in layer.iter().enumerate() {
        let base = cost[si];
        // Keeps the cheapest way to each state, so that the position found is small.
        let mut push =
            |s: State, k: u32, next: &mut Vec<State>, back: &mut Vec<(u32, u32, u64)>| {
                let c = base + u64::from(k) * k_size;
                match seen.get(&s) {
                    Some(&i) => {
                        if c < back[i as usize].2 {
                            back[i as usize] = (si as u32, k, c);
                        }
                    }
                    None => {
                        seen.insert(s.clone(), next.len() as u32);
                        next.push(s);
                        back.push((si as u32, k, c));
                    }
                }
            };
        push((*v, a.clone(), *nonempty), 0, &mut next, &mut back);
        for e in 1..=most {
            let (ge, ge1) = (power(e), power(e - 1));
            let before = m.mul(*v, ge1);
            let mut allowed: Set = vec![0; words];
            let mut any = false;
            for r in 0..q as u32 {
                if has(a, m.mul(ge, r)) && has(&f, m.mul(before, r)) {
                    allowed[r as usize / 64] |= 1 << (r % 64);
                    any = true;
                }
            }
            if any {
                push(
                    (m.mul(*v, ge), allowed, true),
                    e as u32,
                    &mut next,
                    &mut back,
                );
            }
        }
        check_memory(
            "the misère quotient's check",
            (next.len() as u64).saturating_mul(state_bytes),
            limits.max_memory,
        )?;
        if next.len() as u64 > limits.max_states {
            return Err(Error::StateLimit {
                explored: next.len() as u64,
                limit: limits.max_states,
                what: "the misère quotient's check".into(),
            });
        }
    }
    crate::core::progress::check()?;
    let cost = back.iter().map(|b| b.2).collect();
    let parents = back.into_iter().map(|(p, k, _)| (p, k)).collect();
    Ok((next, cost, parents))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::impartial::quotient::Quotient;

    /// Kayles: take one or two adjacent pins, leaving up to two rows.
    fn kayles(n: u64, out: &mut Vec<Vec<u64>>) {
        for take in 1..=n.min(2) {
            for a in 0..=(n - take) / 2 {
                let rows = [a, n - take - a];
                out.push(rows.into_iter().filter(|&r| r > 0).collect());
            }
        }
    }

    /// A check with kept layers finds what a fresh one finds: heaps added one by one, and
    /// every element tried as the last heap's (right and wrong candidates alike).
    #[test]
    fn kept_layers_change_no_answer() {
        let limits = Limits::default();
        let q = Quotient::of_moves(&kayles, 40, limits).expect("Kayles to 40");
        let heaps = Heaps::new(&kayles, 40, &limits).expect("the heaps");
        let image: Vec<u32> = (1..=40).map(|n| q.image[n]).collect();
        let mut layers = Layers::default();
        let mut failures = 0;
        for letters in 20..=image.len() {
            for x in 0..q.monoid.q as u32 {
                let mut img = image[..letters].to_vec();
                *img.last_mut().expect("a heap") = x;
                let c = Candidate {
                    m: &q.monoid,
                    p: &q.p,
                    image: &img,
                };
                let fresh = smallest_failure(&c, &heaps, &limits).expect("within limits");
                let kept = smallest_failure_with(&c, &heaps, None, Some(&mut layers), &limits)
                    .expect("within limits");
                assert_eq!(fresh, kept, "{letters} heaps, last {x}");
                failures += usize::from(fresh.is_some());
            }
            // The quotient's own image passes.
            let c = Candidate {
                m: &q.monoid,
                p: &q.p,
                image: &image[..letters],
            };
            assert_eq!(
                smallest_failure_with(&c, &heaps, None, Some(&mut layers), &limits)
                    .expect("within limits"),
                None
            );
        }
        assert!(failures > 100, "{failures}");
    }
}
