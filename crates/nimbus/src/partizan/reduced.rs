//! The reduced canonical form: the simplest game that differs from `G` by an infinitesimal
//! (Calistrat; Grossman and Siegel, "Reductions of partizan games", 2009). It keeps what
//! matters when infinitesimals do not — the stops, the thermograph, who wins in a hot sum —
//! and drops the rest: `{3||2*|1*}` reduces to `{3||2|1}`, `^` and every tiny to `0`.
//!
//! Computed as Grossman and Siegel prove it can be (and CGSuite computes it): heat `G` by `*`
//! (`∫G = G` for a number, else `{∫G^L + * | ∫G^R - *}`), then project out the stars
//! (`x*` becomes `x`, options projected, the result made canonical). A game whose stops are
//! equal is a number plus an infinitesimal and reduces to that number at once.

use super::form::{Forms, Id, ZERO};
use crate::core::error::Result;
use rustc_hash::FxHashMap;

/// The reduced canonical form of `g`.
pub fn reduced(forms: &mut Forms, g: Id) -> Result<Id> {
    let (left_stop, right_stop) = forms.stops(g);
    if left_stop == right_stop {
        return forms.number_form(left_stop);
    }
    let star = forms.canonical(&[ZERO], &[ZERO])?;
    let heated = map_up(forms, g, |forms, x, left, right| {
        if forms.number(x).is_some() {
            return Ok(x);
        }
        let left = shifted(forms, &left, star)?;
        // Heating subtracts * from Right's options: * is its own negative.
        let right = shifted(forms, &right, star)?;
        forms.canonical(&left, &right)
    })?;
    map_up(forms, heated, |forms, x, left, right| {
        if forms.number(x).is_some() {
            return Ok(x);
        }
        // `x*` is `{x | x}` in canonical form: its projection is the number `x`.
        if let ([l], [r]) = (forms.left(x), forms.right(x)) {
            if l == r && forms.number(*l).is_some() {
                return Ok(*l);
            }
        }
        forms.canonical(&left, &right)
    })
}

fn shifted(forms: &mut Forms, options: &[Id], by: Id) -> Result<Vec<Id>> {
    options.iter().map(|&o| forms.add(o, by)).collect()
}

/// `f` applied to `g` from its options up: for each subposition `x` in turn, `f(x, left,
/// right)` with `left` and `right` the images of `x`'s options. Returns the image of `g`.
fn map_up(
    forms: &mut Forms,
    g: Id,
    mut f: impl FnMut(&mut Forms, Id, Vec<Id>, Vec<Id>) -> Result<Id>,
) -> Result<Id> {
    let mut image: FxHashMap<Id, Id> = FxHashMap::default();
    for x in forms.subpositions(g)? {
        let left = forms.left(x).iter().map(|o| image[o]).collect();
        let right = forms.right(x).iter().map(|o| image[o]).collect();
        let y = f(forms, x, left, right)?;
        image.insert(x, y);
    }
    Ok(image[&g])
}
