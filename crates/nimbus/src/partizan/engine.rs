//! The canonical value of a ruleset's position: every region is valued once (remembered under
//! its folded form), a position of several regions is their sum, and the walk keeps its own
//! stack, so a long game needs no deep call stack.

use super::form::{Forms, Id, ZERO};
use super::Ruleset;
use crate::core::error::{Error, Result};
use rustc_hash::FxHashMap;

/// Values of positions already met, shared between calls (a table of a family reuses the
/// smaller boards' values).
pub struct Memo<P> {
    values: FxHashMap<P, Id>,
}

impl<P> Default for Memo<P> {
    fn default() -> Self {
        Memo {
            values: FxHashMap::default(),
        }
    }
}

impl<P> Memo<P> {
    /// How many regions are remembered.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

/// Bytes a remembered region costs at worst besides its own heap data.
const ENTRY_BYTES: u64 = 64;

/// The value of `p`, in canonical form.
pub fn value_of<R: Ruleset>(rules: &R, p: &R::Position, forms: &mut Forms) -> Result<Id> {
    value_with(rules, p, forms, &mut Memo::default())
}

/// A frame of the walk: a region and its options, each option the regions it falls into
/// (Left's options first).
struct Frame<P> {
    region: P,
    options: Vec<Vec<P>>,
    lefts: usize,
}

/// The value of `p` with `memo` holding the values met before.
pub fn value_with<R: Ruleset>(
    rules: &R,
    p: &R::Position,
    forms: &mut Forms,
    memo: &mut Memo<R::Position>,
) -> Result<Id> {
    let mut total = ZERO;
    for r in rules.regions(p) {
        let v = region_value(rules, r, forms, memo)?;
        total = forms.add(total, v)?;
    }
    Ok(total)
}

fn region_value<R: Ruleset>(
    rules: &R,
    region: R::Position,
    forms: &mut Forms,
    memo: &mut Memo<R::Position>,
) -> Result<Id> {
    if let Some(&v) = memo.values.get(&region) {
        return Ok(v);
    }
    let limits = forms.limits();
    let mut stack = vec![frame(rules, region, forms)?];
    loop {
        let top = stack
            .last()
            .expect("the loop returns when the stack empties");
        // A region pushed twice (an option of two frames) is valued once.
        if let Some(&v) = memo.values.get(&top.region) {
            stack.pop();
            if stack.is_empty() {
                return Ok(v);
            }
            continue;
        }
        // Regions of its options not valued yet come first.
        let pending: Vec<R::Position> = top
            .options
            .iter()
            .flatten()
            .filter(|q| !memo.values.contains_key(*q))
            .cloned()
            .collect();
        if !pending.is_empty() {
            let mut seen = rustc_hash::FxHashSet::default();
            for q in pending {
                if seen.insert(q.clone()) {
                    stack.push(frame(rules, q, forms)?);
                }
            }
            continue;
        }
        let f = stack.pop().expect("checked above");
        let mut ids = Vec::with_capacity(f.options.len());
        for option in &f.options {
            let mut total = ZERO;
            for q in option {
                total = forms.add(total, memo.values[q])?;
            }
            ids.push(total);
        }
        let value = forms.canonical(&ids[..f.lefts], &ids[f.lefts..])?;
        if memo.values.len() as u64 >= limits.max_states {
            return Err(Error::StateLimit {
                explored: memo.values.len() as u64,
                limit: limits.max_states,
                what: "the game's regions".into(),
            });
        }
        forms.hold(ENTRY_BYTES + std::mem::size_of::<R::Position>() as u64 * 2)?;
        memo.values.insert(f.region, value);
        if stack.is_empty() {
            return Ok(value);
        }
    }
}

/// The frame of `region`: its options, each split into regions.
fn frame<R: Ruleset>(
    rules: &R,
    region: R::Position,
    forms: &mut Forms,
) -> Result<Frame<R::Position>> {
    let left = rules.left_moves(&region);
    let right = rules.right_moves(&region);
    forms.charge(1 + 4 * (left.len() + right.len()) as u64)?;
    let lefts = left.len();
    let options = left
        .iter()
        .chain(right.iter())
        .map(|q| rules.regions(q))
        .collect();
    Ok(Frame {
        region,
        options,
        lefts,
    })
}
