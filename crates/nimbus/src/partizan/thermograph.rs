//! Thermographs: how a game's left and right walls move as it is cooled by t (t ≥ −1), up to
//! the temperature where they meet in the mast at the mean.
//!
//! A wall is piecewise linear with slopes 0 and ±1 and dyadic breakpoints (the crossings of
//! such lines are dyadic), so everything here is exact. A game's walls are its options', moved
//! by t and taken at their best (Left's scaffold `max (R_t(G^L) − t)`, Right's
//! `min (L_t(G^R) + t)`), up to the first t where Left's is no longer right of Right's; a
//! number's walls stand still.

use super::dyadic::Dyadic;
use super::form::{Forms, Id};
use crate::core::error::{Error, Result};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// A piece of a wall: from `t` on (up to the next piece), the value `v + slope · (s − t)` at
/// temperature `s`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// Where the piece starts.
    pub t: Dyadic,
    /// The wall's value there.
    pub v: Dyadic,
    /// Its slope (value per unit of temperature).
    pub slope: i64,
}

/// A wall from t = −1 on.
pub type Wall = Vec<Piece>;

/// A game's thermograph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Thermograph {
    /// The left wall (its last piece is the mast).
    pub left: Wall,
    /// The right wall.
    pub right: Wall,
    /// Where the walls meet (for a number x = m/2^k, −1/2^k).
    pub temperature: Dyadic,
    /// The mast's value.
    pub mean: Dyadic,
}

fn at(w: &[Piece], t: Dyadic) -> Result<Dyadic> {
    let i = w.iter().rposition(|p| p.t <= t).unwrap_or(0);
    let p = w[i];
    p.v.plus(times(t.minus(p.t)?, p.slope)?)
}

fn times(x: Dyadic, k: i64) -> Result<Dyadic> {
    let mut out = Dyadic::ZERO;
    for _ in 0..k.unsigned_abs() {
        out = out.plus(x)?;
    }
    Ok(if k < 0 { out.negated() } else { out })
}

fn overflow() -> Error {
    Error::Overflow("a wall's slope past the range of short games".into())
}

/// `w` moved by `k · t`.
fn tilt(w: &[Piece], k: i64) -> Result<Wall> {
    w.iter()
        .map(|p| {
            Ok(Piece {
                t: p.t,
                v: p.v.plus(times(p.t, k)?)?,
                slope: p.slope + k,
            })
        })
        .collect()
}

/// Where two lines through (t0, a) with slope sa and (t0, b) with slope sb meet.
fn crossing(t0: Dyadic, a: Dyadic, sa: i64, b: Dyadic, sb: i64) -> Result<Dyadic> {
    // a + sa·d = b + sb·d: d = (b − a) / (sa − sb), with sa − sb ∈ {±1, ±2} for walls.
    let diff = b.minus(a)?;
    let d = match sa - sb {
        1 => diff,
        -1 => diff.negated(),
        2 => diff.half()?,
        -2 => diff.negated().half()?,
        _ => return Err(overflow()),
    };
    t0.plus(d)
}

/// The pointwise maximum (`max`) or minimum of two walls.
fn best(f: &[Piece], g: &[Piece], max: bool) -> Result<Wall> {
    let mut ts: Vec<Dyadic> = f.iter().chain(g.iter()).map(|p| p.t).collect();
    ts.sort_unstable();
    ts.dedup();
    let slope = |w: &[Piece], t: Dyadic| w[w.iter().rposition(|p| p.t <= t).unwrap_or(0)].slope;
    // On a tie the better is the one that stays better: the steeper for the maximum, the
    // flatter for the minimum.
    let better = |a: (Dyadic, i64), b: (Dyadic, i64)| if max { a > b } else { a < b };
    let mut out: Wall = Vec::new();
    for (j, &t) in ts.iter().enumerate() {
        let (a, sa) = (at(f, t)?, slope(f, t));
        let (b, sb) = (at(g, t)?, slope(g, t));
        let (v, s) = if better((a, sa), (b, sb)) {
            (a, sa)
        } else {
            (b, sb)
        };
        push(&mut out, Piece { t, v, slope: s });
        // The lines may cross before the next breakpoint: the other one takes over there.
        if sa != sb {
            let c = crossing(t, a, sa, b, sb)?;
            let before_next = ts.get(j + 1).is_none_or(|&n| c < n);
            if c > t && before_next {
                let v = at(f, c)?;
                let s = if better((v, sa), (v, sb)) { sa } else { sb };
                push(&mut out, Piece { t: c, v, slope: s });
            }
        }
    }
    Ok(out)
}

/// Appends a piece, merging it into the last when it only continues it.
fn push(w: &mut Wall, p: Piece) {
    if let Some(last) = w.last() {
        if last.slope == p.slope {
            return;
        }
    }
    w.push(p);
}

/// `w` up to `t`, then standing at its value there.
fn cut(w: &[Piece], t: Dyadic) -> Result<Wall> {
    let mut out: Wall = w.iter().copied().filter(|p| p.t < t).collect();
    push(
        &mut out,
        Piece {
            t,
            v: at(w, t)?,
            slope: 0,
        },
    );
    if out.is_empty() || out[0].t > t {
        return Err(overflow());
    }
    Ok(out)
}

/// The thermographs of forms, each computed once.
#[derive(Default)]
pub struct Thermographs {
    done: FxHashMap<Id, Thermograph>,
}

impl Thermographs {
    /// The thermograph of `g`, computing those of its subpositions first (in id order, each
    /// option's id below its game's: no recursion).
    pub fn of(&mut self, forms: &mut Forms, g: Id) -> Result<Thermograph> {
        let mut order = vec![g];
        let mut i = 0;
        let mut seen = rustc_hash::FxHashSet::default();
        seen.insert(g);
        while i < order.len() {
            let x = order[i];
            i += 1;
            if self.done.contains_key(&x) || forms.number(x).is_some() {
                continue;
            }
            for &o in forms.left(x).iter().chain(forms.right(x)) {
                if seen.insert(o) {
                    order.push(o);
                }
            }
        }
        forms.charge(order.len() as u64 * 16)?;
        order.sort_unstable();
        for x in order {
            if !self.done.contains_key(&x) {
                let t = self.one(forms, x)?;
                self.done.insert(x, t);
            }
        }
        Ok(self.done[&g].clone())
    }

    fn one(&self, forms: &Forms, g: Id) -> Result<Thermograph> {
        let minus_one = Dyadic::int(-1);
        if let Some(x) = forms.number(g) {
            let wall = vec![Piece {
                t: minus_one,
                v: x,
                slope: 0,
            }];
            let temperature = if x.is_integer() {
                minus_one
            } else {
                Dyadic::new(-1, x.exponent())?
            };
            return Ok(Thermograph {
                left: wall.clone(),
                right: wall,
                temperature,
                mean: x,
            });
        }
        let mut left: Option<Wall> = None;
        for &o in forms.left(g) {
            let w = tilt(&self.done[&o].right, -1)?;
            left = Some(match left {
                None => w,
                Some(l) => best(&l, &w, true)?,
            });
        }
        let mut right: Option<Wall> = None;
        for &o in forms.right(g) {
            let w = tilt(&self.done[&o].left, 1)?;
            right = Some(match right {
                None => w,
                Some(r) => best(&r, &w, false)?,
            });
        }
        let (Some(l), Some(r)) = (left, right) else {
            return Err(Error::Overflow(
                "a canonical form with one side empty that is not a number".into(),
            ));
        };
        // The first t where Left's scaffold is no longer right of (above) Right's.
        let mut ts: Vec<Dyadic> = l.iter().chain(r.iter()).map(|p| p.t).collect();
        ts.sort_unstable();
        ts.dedup();
        let mut meet = None;
        for (j, &t) in ts.iter().enumerate() {
            let (a, b) = (at(&l, t)?, at(&r, t)?);
            if a <= b {
                meet = Some(t);
                break;
            }
            let sa = l[l.iter().rposition(|p| p.t <= t).unwrap_or(0)].slope;
            let sb = r[r.iter().rposition(|p| p.t <= t).unwrap_or(0)].slope;
            if sa < sb {
                let c = crossing(t, a, sa, b, sb)?;
                if ts.get(j + 1).is_none_or(|&n| c <= n) {
                    meet = Some(c);
                    break;
                }
            }
        }
        let t = meet.ok_or_else(overflow)?;
        let mean = at(&l, t)?;
        Ok(Thermograph {
            left: cut(&l, t)?,
            right: cut(&r, t)?,
            temperature: t,
            mean,
        })
    }
}
