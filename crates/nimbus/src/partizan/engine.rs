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

/// Bytes a remembered region costs at worst besides its own heap data.
const ENTRY_BYTES: u64 = 64;

/// The value of `p`, in canonical form.
pub fn value_of<R: Ruleset>(rules: &R, p: &R::Position, forms: &mut Forms) -> Result<Id> {
    value_with(rules, p, forms, &mut Memo::default())
}

/// A frame of the walk: a region, the regions its options fall into (Left's options first;
/// option `k` is `regions[ends[k - 1]..ends[k]]`), their values as they become known, and
/// which are still missing.
struct Frame<P> {
    region: P,
    regions: Vec<P>,
    ends: Vec<u32>,
    lefts: usize,
    values: Vec<Id>,
    missing: Vec<u32>,
    visited: bool,
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
    // The regions whose frames have pushed their options' frames and wait for their values:
    // every frame above such a frame on the stack is reached from it, so meeting one of them
    // again among an option's regions means the game can come back to it.
    let mut open: rustc_hash::FxHashSet<R::Position> = rustc_hash::FxHashSet::default();
    loop {
        let top = stack
            .last_mut()
            .expect("the loop returns when the stack empties");
        // A region pushed twice (an option of two frames) is valued once.
        if let Some(&v) = memo.values.get(&top.region) {
            stack.pop();
            if stack.is_empty() {
                return Ok(v);
            }
            continue;
        }
        // The values of its options' regions: each looked up once, the missing ones valued
        // first (and looked up again when the frame comes back to the top).
        let look: Vec<u32> = if top.visited {
            std::mem::take(&mut top.missing)
        } else {
            (0..top.regions.len() as u32).collect()
        };
        if !top.visited {
            open.insert(top.region.clone());
        }
        top.visited = true;
        for i in look {
            match memo.values.get(&top.regions[i as usize]) {
                Some(&v) => top.values[i as usize] = v,
                None => top.missing.push(i),
            }
        }
        if !top.missing.is_empty() {
            let mut seen = rustc_hash::FxHashSet::default();
            let pending: Vec<R::Position> = top
                .missing
                .iter()
                .map(|&i| top.regions[i as usize].clone())
                .filter(|q| seen.insert(q.clone()))
                .collect();
            for q in pending {
                if open.contains(&q) {
                    return Err(cycle(rules, &q));
                }
                stack.push(frame(rules, q, forms)?);
            }
            continue;
        }
        let f = stack.pop().expect("checked above");
        open.remove(&f.region);
        let mut ids = Vec::with_capacity(f.ends.len());
        let mut from = 0;
        for &end in &f.ends {
            let mut total = ZERO;
            for &v in &f.values[from..end as usize] {
                total = forms.add(total, v)?;
            }
            ids.push(total);
            from = end as usize;
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

/// The error of a game that can come back to `q`: it has no value as a short game.
fn cycle<R: Ruleset>(rules: &R, q: &R::Position) -> Error {
    Error::Invalid(format!(
        "the position {} can be reached again from itself: a partizan value is defined for \
         games that always end, and this one can go on for ever",
        rules.show(q)
    ))
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
    let mut regions = Vec::new();
    let mut ends = Vec::with_capacity(left.len() + right.len());
    for q in left.iter().chain(right.iter()) {
        regions.extend(rules.regions(q));
        ends.push(regions.len() as u32);
    }
    Ok(Frame {
        region,
        values: vec![ZERO; regions.len()],
        regions,
        ends,
        lefts,
        missing: Vec::new(),
        visited: false,
    })
}
