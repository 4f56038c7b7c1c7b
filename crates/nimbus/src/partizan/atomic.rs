//! The atomic weight of an all-small game: the `w` with `G` "like" `w·^` in every sum that has
//! a far-enough star beside it (Berlekamp, Conway and Guy, *Winning Ways*, ch. 7–8; Siegel,
//! *Combinatorial Game Theory*, II.7). A weight of 2 or more means Left wins whoever starts
//! (the two-ahead rule), which is why players of all-small games such as Clobber want it.
//!
//! Computed by the atomic weight calculus: `G'' = {aw(G^L) - 2 | aw(G^R) + 2}` is the weight
//! unless it is an integer; then `G` is compared with the far star `☆` (a nimber larger than
//! every nimber among `G`'s subpositions), and if `G < ☆` the weight is the least integer
//! confused with or greater than every `aw(G^L) - 2` (if `G > ☆`, the mirror image).

use super::dyadic::Dyadic;
use super::form::{Forms, Id, ZERO};
use crate::core::error::Result;
use rustc_hash::FxHashMap;

/// What the calculus knows of one subposition.
#[derive(Clone, Copy)]
struct Known {
    /// Whether it is all-small: every subposition with moves for one side has moves for both.
    all_small: bool,
    /// The nimber it equals, if it is one.
    nimber: Option<u32>,
    /// The size of its far star: one more than the largest nimber among its subpositions.
    far: u32,
    /// Its atomic weight, once it is known to be all-small.
    weight: Id,
}

/// The atomic weight of `g` in canonical form, or `None` when `g` is not all-small (then the
/// weight may not exist; CGSuite's wider test for atomic infinitesimals is not made).
pub fn atomic_weight(forms: &mut Forms, g: Id) -> Result<Option<Id>> {
    let subs = forms.subpositions(g)?;
    let mut known: FxHashMap<Id, Known> = FxHashMap::default();
    let mut stars: Vec<Id> = vec![ZERO];
    for x in subs {
        let (left, right) = (forms.left(x).to_vec(), forms.right(x).to_vec());
        let all_small = left.is_empty() == right.is_empty()
            && left.iter().chain(&right).all(|o| known[o].all_small);
        let nimber = nimber_of(&left, &right, &known, x);
        let far = match nimber {
            Some(n) => n + 1,
            None => left
                .iter()
                .chain(&right)
                .map(|o| known[o].far)
                .max()
                .unwrap_or(1)
                .max(1),
        };
        let weight = if all_small {
            weight_of(forms, x, &left, &right, &known, far, &mut stars)?
        } else {
            ZERO
        };
        known.insert(
            x,
            Known {
                all_small,
                nimber,
                far,
                weight,
            },
        );
    }
    let k = known[&g];
    Ok(k.all_small.then_some(k.weight))
}

/// The nimber `x` is, given its options': `*n` has the nimbers `*0 … *(n-1)` for both sides.
fn nimber_of(left: &[Id], right: &[Id], known: &FxHashMap<Id, Known>, x: Id) -> Option<u32> {
    if x == ZERO {
        return Some(0);
    }
    if left != right {
        return None;
    }
    let mut values: Vec<u32> = left
        .iter()
        .map(|o| known[o].nimber)
        .collect::<Option<_>>()?;
    values.sort_unstable();
    let n = values.len() as u32;
    values.iter().copied().eq(0..n).then_some(n)
}

/// The weight of the all-small `x` from its options' weights.
fn weight_of(
    forms: &mut Forms,
    x: Id,
    left: &[Id],
    right: &[Id],
    known: &FxHashMap<Id, Known>,
    far: u32,
    stars: &mut Vec<Id>,
) -> Result<Id> {
    let two = forms.number_form(Dyadic::int(2))?;
    let minus_two = forms.number_form(Dyadic::int(-2))?;
    let mut lefts = Vec::with_capacity(left.len());
    for o in left {
        lefts.push(forms.add(known[o].weight, minus_two)?);
    }
    let mut rights = Vec::with_capacity(right.len());
    for o in right {
        rights.push(forms.add(known[o].weight, two)?);
    }
    let naive = forms.canonical(&lefts, &rights)?;
    if !forms.number(naive).is_some_and(Dyadic::is_integer) {
        return Ok(naive);
    }
    // The exceptional case: where `x` lies against the far star decides the integer.
    while stars.len() <= far as usize {
        let next = forms.canonical(stars, stars)?;
        stars.push(next);
    }
    let star = stars[far as usize];
    let below = forms.le(x, star)?;
    let above = forms.le(star, x)?;
    let n = match (below, above) {
        (true, false) => least_not_below(forms, &lefts)?,
        (false, true) => {
            let mut negated = Vec::with_capacity(rights.len());
            for &r in &rights {
                negated.push(forms.neg(r)?);
            }
            least_not_below(forms, &negated)?.map(|n| -n)
        }
        _ => return Ok(naive),
    };
    forms.number_form(Dyadic::int(n.unwrap_or(0)))
}

/// The least integer `n` with `n ⧐ h` (not `n <= h`) for every `h` in `hs`; `None` for none.
fn least_not_below(forms: &mut Forms, hs: &[Id]) -> Result<Option<i64>> {
    let mut best: Option<i64> = None;
    for &h in hs {
        // Integers below Right's stop of `h` are at most `h`, those above it are not: only the
        // stop's ceiling needs a comparison.
        let stop = forms.stops(h).1;
        let mut n = -stop.negated().floor();
        let at = forms.number_form(Dyadic::int(n))?;
        if forms.le(at, h)? {
            n += 1;
        }
        best = Some(best.map_or(n, |b| b.max(n)));
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partizan::show::show;

    fn aw(forms: &mut Forms, g: Id) -> String {
        let w = atomic_weight(forms, g).unwrap().expect("all-small");
        show(forms, w).unwrap()
    }

    #[test]
    fn ups_stars_and_tinies() {
        let mut f = Forms::default();
        let star = f.canonical(&[ZERO], &[ZERO]).unwrap();
        let up = f.canonical(&[ZERO], &[star]).unwrap();
        let up2 = f.add(up, up).unwrap();
        let up2_star = f.add(up2, star).unwrap();
        let down = f.neg(up).unwrap();
        assert_eq!(aw(&mut f, ZERO), "0");
        assert_eq!(aw(&mut f, star), "0");
        assert_eq!(aw(&mut f, up), "1");
        assert_eq!(aw(&mut f, up2_star), "2");
        assert_eq!(aw(&mut f, down), "-1");
        // A number is not all-small.
        let one = f.number_form(Dyadic::int(1)).unwrap();
        assert!(atomic_weight(&mut f, one).unwrap().is_none());
    }
}
