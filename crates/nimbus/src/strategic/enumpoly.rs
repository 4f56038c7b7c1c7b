//! Every Nash equilibrium of a game with any number of players, by support enumeration with
//! certified solutions of the indifference equations (what Gambit's enumpoly attempts in
//! floating point).
//!
//! Every equilibrium has one support profile: the strategies each player uses with positive
//! probability. On a support profile the equilibria are the solutions, with every probability
//! positive, of a square system — each player's probabilities sum to one, and each player is
//! indifferent among the strategies of its support (multilinear polynomials in the others'
//! probabilities) — at which no strategy outside a support pays more. So every equilibrium is
//! found exactly once, on its own support, by solving that system everywhere.
//!
//! Support profiles are visited small and balanced first (Porter, Nudelman and Shoham 2008),
//! and one with a strategy that another strategy beats against every profile of the others'
//! supports (conditional dominance) is skipped: no mixture of those supports makes it a best
//! reply. Where at most two players mix, each one's indifferences are linear in the other's
//! probabilities, and exact linear algebra solves the profile (unless its solutions form a
//! continuum); where three mix two strategies each, or two mix two and one three, one quadratic
//! does (module `closed`). On the rest the system is solved by subdivision of a box around the
//! product of simplices, in interval arithmetic rounded outward:
//!
//! - a box where some equation cannot vanish, or where a strategy outside a support pays
//!   more everywhere, holds no equilibrium;
//! - the equations combined by the inverse Jacobian at the box's middle are still affine in
//!   each unknown, so their values at the box's vertices bound them exactly: a combination
//!   that keeps one sign excludes the box, and each unknown is narrowed to the roots of its
//!   combination at the vertices (on random 4×4×4 games this leaves six times fewer boxes);
//! - a box that would be cut is first tested as a whole: no solution is in it if no convex
//!   combination of its vertices' values solves the system (every function here is affine
//!   in each unknown, so its value anywhere in the box is such a combination), which a small
//!   linear program decides and a rigorous check of its answer proves (ten times fewer boxes
//!   again);
//! - a box where Krawczyk's operator maps an enlargement of the box into its interior holds
//!   exactly one solution, and the operator's iterates shrink the box around it;
//! - other boxes are cut in two, down to a width below which they are kept as unresolved:
//!   their solutions are not isolated (a continuum of equilibria) or not simple.
//!
//! Each isolated solution is then made exact where it is rational: the simplest rational in
//! each coordinate's interval is tried in exact arithmetic, at the interval of doubles and
//! again after each step of the same operator in rational intervals (about fifteen more
//! digits a step), and one that solves the system exactly is the solution. Irrational ones
//! are reported as their certified boxes, as narrow as asked, with a rigorous bound on the
//! regret. Positivity and the inequalities are decided exactly for rational solutions and by
//! the intervals (narrowed until they decide) for the others; what cannot be decided is
//! reported, never dropped.

use super::game::NormalForm;
use crate::core::error::Result;
use crate::core::progress;
use crate::exact::hull;
use crate::exact::interval::{down, up, Bound, Dy, Iv, Scalar};
use crate::exact::linalg::Solution;
use crate::exact::ring::{Overflow, Ring};
use crate::exact::Q;
use num_bigint::BigInt;
use num_traits::{One, Signed, ToPrimitive, Zero};
use rayon::prelude::*;
use std::cmp::Ordering as Order;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

mod closed;

/// Limits on one enumeration. The enumeration stops (with what it covered) rather than fail
/// when one is reached.
#[derive(Debug, Clone)]
pub struct Options {
    /// Support profiles to examine at most.
    pub max_supports: Option<u64>,
    /// Stop when this instant passes.
    pub deadline: Option<Instant>,
    /// Steps of work (boxes times the size of their equations) at most.
    pub max_work: u64,
    /// Certified boxes are narrowed below `10^-digits` in every coordinate.
    pub digits: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_supports: None,
            deadline: None,
            max_work: crate::core::budget::DEFAULT_MAX_WORK,
            digits: 16,
        }
    }
}

/// An isolated equilibrium that is not rational (or whose rational form was not found):
/// a box proved to hold exactly one solution of its support's system, and that solution is
/// an equilibrium.
#[derive(Debug, Clone)]
pub struct Certified {
    /// Each player's support (strategy indices).
    pub support: Vec<Vec<usize>>,
    /// Lower bounds of every probability (zero off the support).
    pub lower: Vec<Vec<Q>>,
    /// Upper bounds of every probability.
    pub upper: Vec<Vec<Q>>,
    /// Lower bounds of each player's payoff.
    pub payoffs_lower: Vec<Q>,
    /// Upper bounds of each player's payoff.
    pub payoffs_upper: Vec<Q>,
    /// An upper bound, over the box, of the most any player gains by deviating.
    pub regret_bound: Q,
}

/// A region of one support's system the enumeration could not resolve into isolated
/// solutions.
#[derive(Debug, Clone)]
pub struct Unresolved {
    /// Each player's support.
    pub support: Vec<Vec<usize>>,
    /// Lower bounds of the region's probabilities.
    pub lower: Vec<Vec<Q>>,
    /// Upper bounds.
    pub upper: Vec<Vec<Q>>,
    /// An exact equilibrium in the region, when one was found.
    pub point: Option<Vec<Vec<Q>>>,
    /// Why it is unresolved, in words.
    pub reason: String,
}

/// What the enumeration found and what it covered.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Equilibria found exactly (every probability rational), each a full profile.
    pub exact: Vec<Vec<Vec<Q>>>,
    /// Isolated equilibria with irrational probabilities, as certified boxes.
    pub certified: Vec<Certified>,
    /// Regions not resolved into isolated solutions.
    pub unresolved: Vec<Unresolved>,
    /// Support profiles in the game (saturating at `u64::MAX`).
    pub supports: u64,
    /// Support profiles examined completely, in the order of size.
    pub examined: u64,
    /// Of those, the ones skipped by conditional dominance.
    pub pruned: u64,
    /// Boxes examined.
    pub boxes: u64,
    /// Why the enumeration stopped before the last support profile, if it did.
    pub stopped: Option<String>,
}

/// Boxes a piece of a shared support examines, depth first, before it hands back its stack:
/// enough to reach the narrowest width (and give up on a continuum) on its own.
const DIVE: u64 = 1024;

/// Width below which a box that neither holds a proved solution nor can be discarded is kept
/// as unresolved.
const MIN_WIDTH: f64 = 1e-9;
/// Unresolved boxes one support profile may collect before the rest of its region is given up
/// as one unresolved region (a continuum is covered by ever more boxes as they shrink).
const MAX_UNRESOLVED: usize = 64;
/// How far below zero and above one the search box reaches, so that solutions on a face of
/// the simplex (those of smaller supports) are isolated inside it rather than on its edge.
const MARGIN: f64 = 1.0 / 64.0;

/// One multilinear polynomial: `coef` is a tensor over the support profiles of `others`
/// (the first of them fastest).
#[derive(Debug, Clone)]
struct Poly {
    others: Vec<usize>,
    dims: Vec<usize>,
}

/// The system of one support profile.
struct System {
    support: Vec<Vec<usize>>,
    off: Vec<usize>,
    d: usize,
    /// The coordinates that are unknowns: every probability but each player's first, which
    /// is one minus the others.
    free: Vec<usize>,
    /// The position in `free` of each coordinate.
    col: Vec<Option<usize>>,
    /// The indifferences, as many as `free`.
    polys: Vec<Poly>,
    /// The strategies outside the supports: each one's payoff minus the support's first.
    ineq_polys: Vec<Poly>,
    /// For each player with indifferences (their polynomials, `polys[first..first + count]`),
    /// `(first, count, player)`: the player's corners at each vertex are `vertex_map[player]`
    /// (empty beyond [`VERTEX_UNKNOWNS`]).
    corner_of: Vec<(usize, usize, usize)>,
    /// For each player, the corner of its polynomials' variables (the others' unknowns) at
    /// each vertex of the box of unknowns (empty beyond [`VERTEX_UNKNOWNS`]).
    vertex_map: Vec<Vec<u16>>,
}

/// The coefficients of a system's polynomials in one kind of number.
struct Coefs<S> {
    eq: Vec<Vec<S>>,
    ineq: Vec<Vec<S>>,
}

impl<S: Scalar> Coefs<S> {
    fn of(q: &Coefs<Q>) -> Self {
        let conv = |v: &Vec<Vec<Q>>| v.iter().map(|t| t.iter().map(S::of).collect()).collect();
        Coefs {
            eq: conv(&q.eq),
            ineq: conv(&q.ineq),
        }
    }
}

/// A tensor over the others' supports rewritten for probability vectors that sum to one:
/// along each axis, entry `t >= 1` becomes its difference with entry 0, so that
/// `sum_t c_t x_t = c_0 + sum_{t>=1} (c_t - c_0) x_t` uses each probability once (interval
/// evaluation then overestimates far less) and the first probability not at all.
fn on_simplex(coef: Vec<BigInt>, dims: &[usize]) -> Vec<Q> {
    // Integers until here: differences of rationals would each be reduced by a gcd.
    simplex_integers(coef, dims)
        .into_iter()
        .map(Q::from_integer)
        .collect()
}

/// [`on_simplex`] of integers, left as integers.
fn simplex_integers(mut coef: Vec<BigInt>, dims: &[usize]) -> Vec<BigInt> {
    let mut stride = 1;
    for &k in dims {
        for idx in 0..coef.len() {
            let t = (idx / stride) % k;
            if t > 0 {
                let base = coef[idx - t * stride].clone();
                coef[idx] -= base;
            }
        }
        stride *= k;
    }
    coef
}

/// A tensor written by [`on_simplex`] evaluated at one probability vector for each axis (the
/// first entry of each vector is not used), or with the axis `fixed.0` differentiated along
/// its entry `fixed.1 >= 1`.
fn contract<S: Scalar>(
    coef: &[S],
    dims: &[usize],
    xs: &[&[S]],
    fixed: Option<(usize, usize)>,
) -> S {
    contract_in(coef, dims, xs, fixed, &mut Vec::new())
}

/// [`contract`] in the buffer `cur` (its contents are replaced), so that a caller contracting
/// many times (a Jacobian) allocates once.
fn contract_in<S: Scalar>(
    coef: &[S],
    dims: &[usize],
    xs: &[&[S]],
    fixed: Option<(usize, usize)>,
    cur: &mut Vec<S>,
) -> S {
    // In place: entry `r` of an axis's result is written after its block `r k ..` is read,
    // and later blocks start beyond it.
    cur.clear();
    cur.extend_from_slice(coef);
    for (a, &k) in dims.iter().enumerate() {
        let len = cur.len() / k;
        for r in 0..len {
            let block = &cur[r * k..(r + 1) * k];
            let value = match fixed {
                Some((fa, t)) if fa == a => block[t].clone(),
                _ => {
                    let mut acc = block[0].clone();
                    for (b, x) in block[1..].iter().zip(&xs[a][1..]) {
                        acc = acc.add(&b.mul(x));
                    }
                    acc
                }
            };
            cur[r] = value;
        }
        cur.truncate(len);
    }
    cur.pop().unwrap_or_else(S::nil)
}

/// The range of a tensor written by [`on_simplex`] over a box of probabilities: the
/// polynomial is affine in each probability, so its extremes are at the box's vertices, and
/// evaluating it there (each in outward-rounded intervals) gives the range itself rather than
/// the overestimate of interval evaluation. Too many vertices fall back to the latter.
fn range(coef: &[Iv<f64>], dims: &[usize], xs: &[&[Iv<f64>]]) -> Iv<f64> {
    let corners: usize = xs
        .iter()
        .map(|x| x[1..].iter().filter(|v| v.lo != v.hi).count())
        .sum();
    if corners > 12 {
        return contract(coef, dims, xs, None);
    }
    let cur = corner_values(coef, dims, xs);
    let lo = cur.iter().map(|v| v.lo).fold(f64::INFINITY, f64::min);
    let hi = cur.iter().map(|v| v.hi).fold(f64::NEG_INFINITY, f64::max);
    Iv::new(lo, hi)
}

/// The values (outward-rounded intervals) of a tensor written by [`on_simplex`] at the
/// corners of a box: one per combination of bounds of the probabilities that move.
fn corner_values(coef: &[Iv<f64>], dims: &[usize], xs: &[&[Iv<f64>]]) -> Vec<Iv<f64>> {
    // All corners at once: each axis in turn is replaced by an axis over its corners (the
    // slowest one), so the work is about one evaluation per corner, not one contraction.
    let mut cur: Vec<Iv<f64>> = coef.to_vec();
    let mut corners_so_far = 1;
    for (a, &k) in dims.iter().enumerate() {
        let moving: Vec<usize> = (1..k).filter(|&t| xs[a][t].lo != xs[a][t].hi).collect();
        let count = 1usize << moving.len();
        let rest = cur.len() / (k * corners_so_far);
        let mut next = Vec::with_capacity(rest * corners_so_far * count);
        let mut point: Vec<f64> = xs[a].iter().map(|v| v.lo).collect();
        for c in 0..count {
            for (b, &t) in moving.iter().enumerate() {
                point[t] = if c >> b & 1 == 1 {
                    xs[a][t].hi
                } else {
                    xs[a][t].lo
                };
            }
            for w in 0..corners_so_far {
                for r in 0..rest {
                    let block = &cur[k * (r + rest * w)..k * (r + rest * w) + k];
                    let (mut lo, mut hi) = (block[0].lo, block[0].hi);
                    for (b, &x) in block[1..].iter().zip(&point[1..]) {
                        // An interval times a point: two products, not four.
                        let (a, c) = if x >= 0.0 {
                            (b.lo * x, b.hi * x)
                        } else {
                            (b.hi * x, b.lo * x)
                        };
                        lo = down(lo + down(a));
                        hi = up(hi + up(c));
                    }
                    next.push(Iv::new(lo, hi));
                }
            }
        }
        corners_so_far *= count;
        cur = next;
    }
    cur
}

/// A polynomial's values at the corners of a box, each as a midpoint and a radius. Corner `c`
/// takes, for the `b`-th probability (axis by axis, each axis's entries `1..` in order), its
/// upper bound when bit `b` of `c` is set. Computed in plain doubles with a
/// bound on the rounding (no directed rounding per operation, which was most of the
/// enumeration's time). Along any path of the evaluation there are at most `K = 1 + sum k`
/// roundings, so the error is at most `2 K eps` times the same sums taken in magnitudes.
fn corner_mid_rad(coef: &[Iv<f64>], dims: &[usize], xs: &[&[Iv<f64>]]) -> (Vec<f64>, Vec<f64>) {
    // The tables between axes live in buffers kept by the thread (a box builds one table per
    // indifference, and these were most of its allocations).
    thread_local! {
        static SCRATCH: std::cell::RefCell<[Vec<f64>; 7]> = Default::default();
    }
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let [val, rad, mag, nv, nr, nm, point] = &mut *guard;
        val.clear();
        rad.clear();
        mag.clear();
        for c in coef {
            let m = 0.5 * (c.lo + c.hi);
            val.push(m);
            rad.push(up((c.hi - m).max(m - c.lo)));
            mag.push(m.abs());
        }
        let mut roundings = 1;
        let mut corners_so_far = 1;
        for (a, &k) in dims.iter().enumerate() {
            let count = 1usize << (k - 1);
            let rest = val.len() / (k * corners_so_far);
            // Written by index into buffers of the final size, with the sums in registers
            // (pushing each value kept them in memory: a tenth of a 2^5 game's time).
            let total = rest * corners_so_far * count;
            for v in [&mut *nv, &mut *nr, &mut *nm] {
                v.clear();
                v.resize(total, 0.0);
            }
            point.clear();
            point.extend(xs[a].iter().map(|v| v.lo));
            let mut o = 0;
            for c in 0..count {
                for t in 1..k {
                    point[t] = if c >> (t - 1) & 1 == 1 {
                        xs[a][t].hi
                    } else {
                        xs[a][t].lo
                    };
                }
                let span = k * rest * corners_so_far;
                let rows = val[..span]
                    .chunks_exact(k)
                    .zip(rad[..span].chunks_exact(k))
                    .zip(mag[..span].chunks_exact(k));
                let out = nv[o..o + span / k]
                    .iter_mut()
                    .zip(&mut nr[o..o + span / k])
                    .zip(&mut nm[o..o + span / k]);
                if k == 2 {
                    // Two strategies: one product per sum.
                    let (x, ax) = (point[1], point[1].abs());
                    for (((v, r), m), ((ov, or), om)) in rows.zip(out) {
                        *ov = v[0] + v[1] * x;
                        *or = r[0] + r[1] * ax;
                        *om = m[0] + m[1] * ax;
                    }
                } else {
                    for (((v, r), m), ((ov, or), om)) in rows.zip(out) {
                        let (mut sv, mut sr, mut sm) = (v[0], r[0], m[0]);
                        for t in 1..k {
                            let x = point[t];
                            sv += v[t] * x;
                            sr += r[t] * x.abs();
                            sm += m[t] * x.abs();
                        }
                        (*ov, *or, *om) = (sv, sr, sm);
                    }
                }
                o += span / k;
            }
            roundings += k;
            corners_so_far *= count;
            std::mem::swap(val, nv);
            std::mem::swap(rad, nr);
            std::mem::swap(mag, nm);
        }
        let gamma = 2.0 * roundings as f64 * f64::EPSILON;
        let rad = rad
            .iter()
            .zip(mag.iter())
            .map(|(r, m)| up((r + gamma * m) * (1.0 + gamma) + f64::MIN_POSITIVE))
            .collect();
        (val.clone(), rad)
    })
}

/// A polynomial's corner values: midpoints and radii.
type Table = (Vec<f64>, Vec<f64>);

/// Sums over a player's corners: of midpoints, of radii, of magnitudes.
type Sums = (Vec<f64>, Vec<f64>, Vec<f64>);

/// Unknowns up to which [`System::vertex_narrow`] runs (it visits every vertex of the box).
const VERTEX_UNKNOWNS: usize = 12;

/// Unknowns up to which [`System::hull_excludes`] runs (a linear program over every vertex).
const HULL_UNKNOWNS: usize = 10;

impl System {
    fn slices<'a, S>(&self, x: &'a [S], p: &Poly) -> Vec<&'a [S]> {
        p.others
            .iter()
            .map(|&j| &x[self.off[j]..self.off[j] + self.support[j].len()])
            .collect()
    }

    fn residual<S: Scalar>(&self, c: &Coefs<S>, x: &[S]) -> Vec<S> {
        let mut scratch = Vec::new();
        self.polys
            .iter()
            .zip(&c.eq)
            .map(|(p, coef)| contract_in(coef, &p.dims, &self.slices(x, p), None, &mut scratch))
            .collect()
    }

    /// Each mixing player's first probability set to one minus the others.
    fn firsts<S: Scalar>(&self, x: &mut [S]) {
        let one = S::unit();
        for (i, s) in self.support.iter().enumerate() {
            let o = self.off[i];
            let mut v = one.clone();
            for t in 1..s.len() {
                v = v.sub(&x[o + t]);
            }
            x[o] = v;
        }
    }

    /// Each indifference's values at the corners of the box (see [`corner_mid_rad`]), when
    /// there are few enough unknowns for [`System::vertex_narrow`] to visit every vertex.
    fn corner_tables(&self, c: &Coefs<Iv<f64>>, x: &[Iv<f64>]) -> Option<Vec<Table>> {
        (!self.corner_of.is_empty()).then(|| {
            self.polys
                .iter()
                .zip(&c.eq)
                .map(|(p, coef)| corner_mid_rad(coef, &p.dims, &self.slices(x, p)))
                .collect()
        })
    }

    /// The range of every indifference over a box (from its corner values when given), and
    /// of every inequality.
    fn ranges(
        &self,
        c: &Coefs<Iv<f64>>,
        x: &[Iv<f64>],
        tables: Option<&[Table]>,
    ) -> (Vec<Iv<f64>>, Vec<Iv<f64>>) {
        let eq = match tables {
            Some(t) => t
                .iter()
                .map(|(mid, rad)| {
                    let lo = mid
                        .iter()
                        .zip(rad)
                        .map(|(m, r)| down(m - r))
                        .fold(f64::INFINITY, f64::min);
                    let hi = mid
                        .iter()
                        .zip(rad)
                        .map(|(m, r)| up(m + r))
                        .fold(f64::NEG_INFINITY, f64::max);
                    Iv::new(lo, hi)
                })
                .collect(),
            None => self
                .polys
                .iter()
                .zip(&c.eq)
                .map(|(p, coef)| range(coef, &p.dims, &self.slices(x, p)))
                .collect(),
        };
        let ineq = self
            .ineq_polys
            .iter()
            .zip(&c.ineq)
            .map(|(p, coef)| range(coef, &p.dims, &self.slices(x, p)))
            .collect();
        (eq, ineq)
    }

    /// For each player's indifferences, their combination by `row` at each of their corners:
    /// the sum of midpoints, of radii and of magnitudes (for the rounding bound).
    fn combine(&self, row: &[f64], tables: &[Table], groups: &mut Vec<Sums>) {
        // The buffers of the previous row are reused.
        groups.resize_with(self.corner_of.len(), Default::default);
        for ((first, count, _), (s, r, a)) in self.corner_of.iter().zip(groups.iter_mut()) {
            let size = tables[*first].0.len();
            for v in [&mut *s, &mut *r, &mut *a] {
                v.clear();
                v.resize(size, 0.0);
            }
            for k in *first..first + count {
                let w = row[k];
                let (mid, rad) = &tables[k];
                for cc in 0..size {
                    s[cc] += w * mid[cc];
                    r[cc] += w.abs() * rad[cc];
                    a[cc] += w.abs() * mid[cc].abs();
                }
            }
        }
    }

    /// The combination at vertex `v` of the box of unknowns, as an interval that holds its
    /// exact value: the midpoints' sum widened by the radii and by `gamma` times the
    /// magnitudes (the rounding of the sums).
    fn at(&self, groups: &[Sums], v: usize, gamma: f64) -> Iv<f64> {
        let (mut s, mut b, mut a) = (0.0, 0.0, 0.0);
        for ((gs, gb, ga), &(_, _, i)) in groups.iter().zip(&self.corner_of) {
            let cc = self.vertex_map[i][v] as usize;
            s += gs[cc];
            b += gb[cc];
            a += ga[cc];
        }
        let bound = up((b + gamma * a) * (1.0 + gamma) + f64::MIN_POSITIVE);
        Iv::new(down(s - bound), up(s + bound))
    }

    /// The indifferences combined by the rows of `y` (the inverse of the Jacobian at the box's
    /// middle): each combination is still affine in every unknown, so its range is spanned by
    /// its values at the box's vertices, and near a simple solution it behaves like `x - x*`.
    /// A combination that keeps one sign excludes the box (`false`), long before each
    /// equation's own range, or the mean-value form's, leaves zero. Otherwise each unknown is
    /// narrowed to where its row's combination can vanish (see [`System::narrow_affine`]).
    /// Where every mixing player mixes two strategies, each indifference is also solved for
    /// each unknown it depends on: far from a solution, where no combination keeps a sign,
    /// the equations themselves often narrow (on the 2^5 games a tenth fewer boxes and a
    /// twentieth fewer instructions; with more strategies the many pairs cost more than they
    /// save). `tables` are the values on the box `pre`, which holds `x`. Evaluated in
    /// doubles with a rigorous bound on the rounding.
    fn vertex_narrow(
        &self,
        tables: &[Table],
        y: &[Vec<f64>],
        pre: &[Iv<f64>],
        x: &mut [Iv<f64>],
        groups: &mut Vec<Sums>,
    ) -> bool {
        let nf = self.free.len();
        if self.corner_of.is_empty() || nf < 2 {
            return true;
        }
        // Rounding: each combined value is a sum of at most `terms` products.
        let terms = (2 * nf + 2 * self.corner_of.len()) as f64;
        let gamma = 2.0 * terms * f64::EPSILON;
        for (r, row) in y.iter().enumerate() {
            self.combine(row, tables, groups);
            let value = |v: usize| self.at(groups, v, gamma);
            // One sign on every vertex (rows give up as soon as both are possible).
            let (mut below, mut above) = (false, false);
            for v in 0..1usize << nf {
                let g = value(v);
                below |= g.lo <= 0.0;
                above |= g.hi >= 0.0;
                if below && above {
                    break;
                }
            }
            if !(below && above && self.narrow_affine(value, r, pre, x)) {
                return false;
            }
        }
        if !self.support.iter().all(|s| s.len() <= 2) {
            return true;
        }
        for &(first, count, player) in &self.corner_of {
            let map = &self.vertex_map[player];
            for (mid, rad) in &tables[first..first + count] {
                let value = |v: usize| {
                    let c = map[v] as usize;
                    Iv::new(down(mid[c] - rad[c]), up(mid[c] + rad[c]))
                };
                // The player's own unknowns do not appear in its indifferences.
                for r in (0..nf).filter(|&r| map[1 << r] != map[0]) {
                    if !self.narrow_affine(value, r, pre, x) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Narrows the `r`-th unknown to where a function affine in every unknown, with intervals
    /// `value(v)` at the vertices of `pre`, can vanish: where its slope in that unknown keeps
    /// one sign, its root is a monotone function of each other unknown, so the roots at the
    /// vertices of the other unknowns span every root in the box. `false` when none is in
    /// `x`; nothing is narrowed where the slope may change sign.
    fn narrow_affine(
        &self,
        value: impl Fn(usize) -> Iv<f64>,
        r: usize,
        pre: &[Iv<f64>],
        x: &mut [Iv<f64>],
    ) -> bool {
        let f = self.free[r];
        let (lo, hi) = (pre[f].lo, pre[f].hi);
        let width = Iv::new(down(hi - lo), up(hi - lo));
        let bit = 1usize << r;
        let mut slope = Order::Equal;
        let (mut tlo, mut thi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in (0..1usize << self.free.len()).filter(|v| v & bit == 0) {
            let (g0, g1) = (value(v), value(v | bit));
            let den = g0.sub(&g1);
            let sign = den.sign();
            if sign == Order::Equal || (slope != Order::Equal && sign != slope) {
                return true;
            }
            slope = sign;
            let (il, ih) = (down(1.0 / den.hi), up(1.0 / den.lo));
            // `g0 / den` times the width, with the signs known (the quotient's from the slope,
            // the width's positive), so each bound is one rounded product: the products the
            // general interval product would pick, without its case analysis (a tenth of a
            // 2^5 game's time was in it).
            let (ql, qh) = if sign == Order::Greater {
                (
                    down(g0.lo * if g0.lo >= 0.0 { il } else { ih }),
                    up(g0.hi * if g0.hi >= 0.0 { ih } else { il }),
                )
            } else {
                (
                    down(g0.hi * if g0.hi >= 0.0 { il } else { ih }),
                    up(g0.lo * if g0.lo >= 0.0 { ih } else { il }),
                )
            };
            let sl = down(ql * if ql >= 0.0 { width.lo } else { width.hi });
            let sh = up(qh * if qh >= 0.0 { width.hi } else { width.lo });
            tlo = tlo.min(down(lo + sl));
            thi = thi.max(up(lo + sh));
            // The roots already cover the box: nothing to narrow in this unknown.
            if tlo <= x[f].lo && thi >= x[f].hi {
                return true;
            }
        }
        match x[f].meet(&Iv::new(tlo, thi)) {
            Some(v) => {
                x[f] = v;
                true
            }
            None => false,
        }
    }

    /// The player whose payoffs a polynomial compares (the one not among its `others`).
    fn owner(&self, p: &Poly) -> usize {
        (0..self.support.len())
            .find(|i| !p.others.contains(i))
            .unwrap_or(0)
    }

    /// Whether the box `x`, whose indifferences' corner values are `tables`, holds no
    /// equilibrium because no convex combination of its vertices' values is one. Every
    /// function here is affine in each unknown, so its value anywhere in the box is the
    /// combination of its vertex values with the same (multilinear interpolation) weights: an
    /// equilibrium in the box would combine the vertices' indifferences into zeros while each
    /// player's first probability (one minus the unknowns), and what each strategy outside
    /// the supports loses, stay at or above zero. The linear program of [`hull::separate`]
    /// looks for multipliers that make that impossible — their combination negative at every
    /// vertex, where it could not be at an equilibrium — and finds them on boxes where no
    /// single combination chosen in advance (those of [`System::vertex_narrow`]) works. An
    /// indifference times one of its owner's probabilities is also affine in every unknown
    /// and also vanishes at an equilibrium, so those products are rows too: the multipliers of
    /// the indifferences may then be affine functions of their owners' probabilities, which
    /// discards many boxes near a curve where some of the equations hold (a third of the boxes
    /// or fewer on the benchmark games). They are found in doubles and then checked at every
    /// vertex with a rigorous bound on the rounding; only a checked one discards.
    fn hull_excludes(&self, c: &Coefs<Iv<f64>>, tables: &[Table], x: &[Iv<f64>]) -> bool {
        let nf = self.free.len();
        if self.vertex_map.is_empty() || nf == 0 || nf > HULL_UNKNOWNS {
            return false;
        }
        let n = 1usize << nf;
        let ineq: Vec<(Table, usize)> = self
            .ineq_polys
            .iter()
            .zip(&c.ineq)
            .map(|(p, coef)| {
                (
                    corner_mid_rad(coef, &p.dims, &self.slices(x, p)),
                    self.owner(p),
                )
            })
            .collect();
        let owners: Vec<usize> = self.polys.iter().map(|p| self.owner(p)).collect();
        // Each player's unknowns, as bits of the vertex number (none for a pure player).
        let own_bits: Vec<Vec<usize>> = (0..self.support.len())
            .map(|i| {
                let own = self.off[i] + 1..self.off[i] + self.support[i].len();
                (0..nf).filter(|&b| own.contains(&self.free[b])).collect()
            })
            .collect();
        let mixing: Vec<&Vec<usize>> = (0..self.support.len())
            .filter(|&i| self.support[i].len() > 1)
            .map(|i| &own_bits[i])
            .collect();
        let point = |v: usize, b: usize| {
            let f = &x[self.free[b]];
            if v >> b & 1 == 1 {
                f.hi
            } else {
                f.lo
            }
        };
        // An indifference does not depend on its owner's probabilities, so its product with
        // one of them is still affine in every unknown, and vanishes with it: multipliers
        // affine in the owner's probabilities, not only constant ones.
        let products: Vec<(usize, usize)> = owners
            .iter()
            .enumerate()
            .flat_map(|(k, &i)| own_bits[i].iter().map(move |&b| (k, b)))
            .collect();
        let eq = self.polys.len() + products.len();
        let ge = mixing.len() + ineq.len();
        let mut rows = Vec::with_capacity((eq + ge) * n);
        for ((mid, _), &i) in tables.iter().zip(&owners) {
            let map = &self.vertex_map[i];
            rows.extend(map.iter().map(|&c| mid[c as usize]));
        }
        for &(k, b) in &products {
            let (mid, _) = &tables[k];
            let map = &self.vertex_map[owners[k]];
            rows.extend((0..n).map(|v| mid[map[v] as usize] * point(v, b)));
        }
        for own in &mixing {
            rows.extend((0..n).map(|v| 1.0 - own.iter().map(|&b| point(v, b)).sum::<f64>()));
        }
        for ((mid, _), i) in &ineq {
            rows.extend(self.vertex_map[*i].iter().map(|&c| -mid[c as usize]));
        }
        // An inequality at or above zero at every vertex cannot help (its multiplier could
        // only add to the combination), and most are, once the box is inside the simplex: the
        // linear program goes without them, and their multipliers are zero.
        let useful: Vec<bool> = rows[eq * n..]
            .chunks_exact(n)
            .map(|row| row.iter().any(|&v| v < 0.0))
            .collect();
        let kept = useful.iter().filter(|&&u| u).count();
        if kept < ge {
            let mut k = eq * n;
            for (g, &u) in useful.iter().enumerate() {
                if u {
                    rows.copy_within((eq + g) * n..(eq + g + 1) * n, k);
                    k += n;
                }
            }
            rows.truncate(k);
        }
        let hull::Hull::Separated(found) = hull::separate(&rows, n, eq, kept) else {
            return false;
        };
        let mut found_ge = found[eq..].iter();
        let l: Vec<f64> = found[..eq]
            .iter()
            .copied()
            .chain(useful.iter().map(|&u| match u {
                true => found_ge.next().copied().unwrap_or(0.0),
                false => 0.0,
            }))
            .collect();
        // The combination at each vertex, in doubles: at most `terms` roundings along any
        // sum, each bounded by eps times the magnitudes summed in `mag`.
        let terms = (eq + ge + 2 * nf + 6) as f64;
        let gamma = 2.0 * terms * f64::EPSILON;
        let (lp, rest) = l[self.polys.len()..].split_at(products.len());
        let (lf, lg) = rest.split_at(mixing.len());
        let mut weight = vec![(0.0f64, 0.0f64); tables.len()];
        (0..n).all(|v| {
            // Each indifference's multiplier at this vertex, and a bound on its magnitude.
            for (k, w) in weight.iter_mut().enumerate() {
                *w = (l[k], l[k].abs());
            }
            for (&(k, b), &m) in products.iter().zip(lp) {
                let t = m * point(v, b);
                weight[k].0 += t;
                weight[k].1 += t.abs();
            }
            let (mut s, mut bound, mut mag) = (0.0f64, 0.0f64, 0.0f64);
            for (((mid, rad), &i), &(w, wm)) in tables.iter().zip(&owners).zip(&weight) {
                let c = self.vertex_map[i][v] as usize;
                s += w * mid[c];
                bound += wm * rad[c];
                mag += wm * mid[c].abs();
            }
            for (own, &w) in mixing.iter().zip(lf) {
                let (mut f, mut fm) = (1.0f64, 1.0f64);
                for &b in own.iter() {
                    f -= point(v, b);
                    fm += point(v, b).abs();
                }
                s += w * f;
                mag += w * fm;
            }
            for (((mid, rad), i), &w) in ineq.iter().zip(lg) {
                let c = self.vertex_map[*i][v] as usize;
                s -= w * mid[c];
                bound += w * rad[c];
                mag += (w * mid[c]).abs();
            }
            let err = up((bound + gamma * mag) * (1.0 + gamma) + f64::MIN_POSITIVE);
            up(s + err) < 0.0
        })
    }

    fn inequalities<S: Scalar>(&self, c: &Coefs<S>, x: &[S]) -> Vec<S> {
        let mut scratch = Vec::new();
        self.ineq_polys
            .iter()
            .zip(&c.ineq)
            .map(|(p, coef)| contract_in(coef, &p.dims, &self.slices(x, p), None, &mut scratch))
            .collect()
    }

    /// The derivatives of the indifferences by the unknowns.
    fn jacobian<S: Scalar>(&self, c: &Coefs<S>, x: &[S]) -> Vec<Vec<S>> {
        let mut scratch = Vec::new();
        self.polys
            .iter()
            .zip(&c.eq)
            .map(|(poly, coef)| {
                let mut out = vec![S::nil(); self.free.len()];
                let xs = self.slices(x, poly);
                for (a, &j) in poly.others.iter().enumerate() {
                    // The first probability of each player does not appear.
                    for t in 1..self.support[j].len() {
                        if let Some(f) = self.col[self.off[j] + t] {
                            out[f] = contract_in(coef, &poly.dims, &xs, Some((a, t)), &mut scratch);
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// Krawczyk's operator on the box `x` at the point `m` with the preconditioner `y`: an
    /// interval for each unknown.
    fn krawczyk<B: Bound>(
        &self,
        c: &Coefs<Iv<B>>,
        x: &[Iv<B>],
        m: &[B],
        y: &[Vec<f64>],
    ) -> Vec<Iv<B>> {
        let mp: Vec<Iv<B>> = m.iter().map(|v| Iv::point(v.clone())).collect();
        let fm = self.residual(c, &mp);
        let jx = self.jacobian(c, x);
        let yv: Vec<Vec<Iv<B>>> = y
            .iter()
            .map(|r| r.iter().map(|&v| Iv::point(B::from_f64(v))).collect())
            .collect();
        let nf = self.free.len();
        let dx: Vec<Iv<B>> = self.free.iter().map(|&f| x[f].sub(&mp[f])).collect();
        let one = Iv::<B>::unit();
        (0..nf)
            .map(|i| {
                let mut acc = mp[self.free[i]].clone();
                for k in 0..nf {
                    acc = acc.sub(&yv[i][k].mul(&fm[k]));
                }
                for j in 0..nf {
                    let mut cij = if i == j { one.clone() } else { Iv::<B>::nil() };
                    for k in 0..nf {
                        cij = cij.sub(&yv[i][k].mul(&jx[k][j]));
                    }
                    acc = acc.add(&cij.mul(&dx[j]));
                }
                acc
            })
            .collect()
    }

    /// One sweep of the preconditioned interval Gauss–Seidel step: each unknown narrowed to
    /// what the equations (combined by `y`) allow given the others. `false` when the box
    /// holds no solution.
    fn gauss_seidel(
        &self,
        c: &Coefs<Iv<f64>>,
        x: &mut [Iv<f64>],
        m: &[f64],
        y: &[Vec<f64>],
    ) -> bool {
        let mp: Vec<Iv<f64>> = m.iter().map(|&v| Iv::point(v)).collect();
        let fm = self.residual(c, &mp);
        let jx = self.jacobian(c, x);
        let nf = self.free.len();
        for i in 0..nf {
            let mut r = Iv::<f64>::nil();
            let mut row = vec![Iv::<f64>::nil(); nf];
            for k in 0..nf {
                let yik = Iv::point(y[i][k]);
                r = r.add(&yik.mul(&fm[k]));
                for (j, v) in row.iter_mut().enumerate() {
                    *v = v.add(&yik.mul(&jx[k][j]));
                }
            }
            let diag = &row[i];
            if diag.sign() == Order::Equal {
                continue;
            }
            let mut num = r;
            for (j, (r, &f)) in row.iter().zip(&self.free).enumerate() {
                if j != i {
                    num = num.add(&r.mul(&x[f].sub(&mp[f])));
                }
            }
            let f = self.free[i];
            let inv = Iv::new(down(1.0 / diag.hi), up(1.0 / diag.lo));
            let step = mp[f].sub(&num.mul(&inv));
            match x[f].meet(&step) {
                Some(v) => x[f] = v,
                None => return false,
            }
        }
        true
    }

    /// Krawczyk's operator on a narrow box of rationals: the residual at the centre exact,
    /// the rest (a correction many orders of magnitude smaller) in intervals of doubles,
    /// which enclose it just as surely and cost far less than rational intervals.
    fn krawczyk_fine(
        &self,
        cd: &Coefs<Dy>,
        ci: &Coefs<Iv<f64>>,
        x: &[Iv<Dy>],
        m: &[Dy],
        y: &[Vec<f64>],
    ) -> Vec<Iv<Dy>> {
        let fm = self.residual(cd, m);
        let xf: Vec<Iv<f64>> = x.iter().map(enclose_dy).collect();
        let jx = self.jacobian(ci, &xf);
        let nf = self.free.len();
        let dx: Vec<Iv<f64>> = self
            .free
            .iter()
            .map(|&f| enclose_dy(&Iv::new(x[f].lo.sub(&m[f]), x[f].hi.sub(&m[f]))))
            .collect();
        let yd: Vec<Vec<Dy>> = y
            .iter()
            .map(|r| r.iter().map(|&v| Dy::from_f64(v)).collect())
            .collect();
        (0..nf)
            .map(|i| {
                let mut centre = m[self.free[i]].clone();
                for k in 0..nf {
                    centre = centre.sub(&yd[i][k].mul(&fm[k]));
                }
                let mut corr = Iv::<f64>::nil();
                for j in 0..nf {
                    let mut cij = if i == j { Iv::unit() } else { Iv::nil() };
                    for k in 0..nf {
                        cij = cij.sub(&Iv::point(y[i][k]).mul(&jx[k][j]));
                    }
                    corr = corr.add(&cij.mul(&dx[j]));
                }
                Iv::new(
                    centre.add(&Dy::from_f64(corr.lo)),
                    centre.add(&Dy::from_f64(corr.hi)),
                )
            })
            .collect()
    }

    /// Adds a proved solution unless it is one already found: its narrow box lies in an earlier
    /// one's enlarged box, or the other way round (a solution on the cut between two boxes is
    /// proved in both).
    fn add_root(&self, roots: &mut Vec<Root>, (big, narrow): Root) -> bool {
        let within = |a: &[Iv<f64>], b: &[Iv<f64>]| {
            self.free
                .iter()
                .all(|&f| a[f].lo >= b[f].lo && a[f].hi <= b[f].hi)
        };
        let seen = roots
            .iter()
            .any(|(big0, narrow0)| within(&narrow, big0) || within(narrow0, &big));
        if !seen {
            roots.push((big, narrow));
        }
        !seen
    }

    /// Each player's probabilities narrowed to what the others' allow (they sum to one).
    fn tighten(&self, x: &mut [Iv<f64>]) -> bool {
        let one = Iv::<f64>::unit();
        for (i, s) in self.support.iter().enumerate() {
            if s.len() == 1 {
                continue;
            }
            let own = self.off[i]..self.off[i] + s.len();
            for t in own.clone() {
                let mut rest = one.clone();
                for u in own.clone() {
                    if u != t {
                        rest = rest.sub(&x[u]);
                    }
                }
                match x[t].meet(&rest) {
                    Some(v) => x[t] = v,
                    None => return false,
                }
            }
        }
        true
    }
}

/// The inverse of a square matrix of doubles, or `None` when it is (nearly) singular.
fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-300);
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for col in 0..n {
        let piv = (col..n).max_by(|&r, &s| m[r][col].abs().total_cmp(&m[s][col].abs()))?;
        if m[piv][col].abs().partial_cmp(&(1e-12 * scale)) != Some(Order::Greater) {
            return None;
        }
        m.swap(col, piv);
        let p = m[col][col];
        for v in &mut m[col] {
            *v /= p;
        }
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col && row[col] != 0.0 {
                let f = row[col];
                for (v, pv) in row.iter_mut().zip(&pivot_row) {
                    *v -= f * pv;
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// The game's payoffs as each player's integers (scaled by a positive common denominator,
/// which changes no comparison and no solution of an indifference).
struct Payoffs {
    shape: Vec<usize>,
    strides: Vec<usize>,
    scaled: Vec<Vec<BigInt>>,
    /// `scaled` in machine integers, when every entry fits in 64 bits.
    small: Option<Vec<Vec<i128>>>,
}

impl Payoffs {
    fn new(game: &NormalForm) -> Self {
        let shape = game.shape();
        let strides = game.strides();
        let scaled: Vec<Vec<BigInt>> = (0..shape.len())
            .map(|i| {
                crate::exact::over_common_denominator(
                    (0..game.profiles()).map(|k| &game.payoffs_at(k)[i]),
                )
                .0
            })
            .collect();
        let small = scaled
            .iter()
            .map(|col| {
                col.iter()
                    .map(|v| v.to_i64().map(i128::from))
                    .collect::<Option<Vec<i128>>>()
            })
            .collect();
        Payoffs {
            shape,
            strides,
            scaled,
            small,
        }
    }

    /// The profile numbers of every profile of the others' supports with player `i` at its
    /// strategy 0, the first other player fastest.
    fn bases(&self, i: usize, support: &[Vec<usize>]) -> Vec<usize> {
        let total = support
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, s)| s.len())
            .product();
        // One allocation: each player's strategies after its first append copies of the list
        // so far (the newest player's strategy slowest, as the tensors want), and its first
        // is added in place last.
        let mut out = Vec::with_capacity(total);
        out.push(0usize);
        for (j, s) in support.iter().enumerate() {
            if j == i {
                continue;
            }
            let (len, st) = (out.len(), self.strides[j]);
            for &t in &s[1..] {
                for b in 0..len {
                    out.push(out[b] + t * st);
                }
            }
            for b in &mut out[..len] {
                *b += s[0] * st;
            }
        }
        out
    }

    /// A strategy that beats `a` against every profile of the others' supports, if any.
    fn conditionally_dominated(&self, i: usize, a: usize, bases: &[usize]) -> bool {
        let pay = &self.scaled[i];
        let st = self.strides[i];
        (0..self.shape[i])
            .any(|b| b != a && bases.iter().all(|&k| pay[k + b * st] > pay[k + a * st]))
    }
}

/// The system of the support profile `support`, and its coefficients (scaled payoffs).
fn system(pay: &Payoffs, support: &[Vec<usize>]) -> (System, Coefs<Q>) {
    let n = support.len();
    let mut off = Vec::with_capacity(n);
    let mut d = 0;
    for s in support {
        off.push(d);
        d += s.len();
    }
    let mut polys = Vec::new();
    let mut eq = Vec::new();
    let mut ineq_polys = Vec::new();
    let mut ineq = Vec::new();
    for i in 0..n {
        let others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
        let dims: Vec<usize> = others.iter().map(|&j| support[j].len()).collect();
        let bases = pay.bases(i, support);
        let st = pay.strides[i];
        let p = &pay.scaled[i];
        let a0 = support[i][0];
        let diff = |b: usize| -> Vec<BigInt> {
            bases
                .iter()
                .map(|&k| &p[k + b * st] - &p[k + a0 * st])
                .collect()
        };
        for &a in &support[i][1..] {
            polys.push(Poly {
                others: others.clone(),
                dims: dims.clone(),
            });
            eq.push(on_simplex(diff(a), &dims));
        }
        for b in (0..pay.shape[i]).filter(|b| !support[i].contains(b)) {
            ineq_polys.push(Poly {
                others: others.clone(),
                dims: dims.clone(),
            });
            ineq.push(on_simplex(diff(b), &dims));
        }
    }
    let free: Vec<usize> = (0..d).filter(|t| !off.contains(t)).collect();
    // The unknowns of the others, in the order of `corner_mid_rad`'s bits, at each vertex.
    let vertex_map: Vec<Vec<u16>> = if free.len() > VERTEX_UNKNOWNS {
        Vec::new()
    } else {
        (0..n)
            .map(|i| {
                let bits: Vec<usize> = (0..n)
                    .filter(|&j| j != i)
                    .flat_map(|j| (1..support[j].len()).map(move |t| (j, t)))
                    .map(|(j, t)| free.iter().position(|&f| f == off[j] + t).unwrap_or(0))
                    .collect();
                (0..1usize << free.len())
                    .map(|v| {
                        bits.iter()
                            .enumerate()
                            .map(|(b, &g)| ((v >> g & 1) << b) as u16)
                            .sum()
                    })
                    .collect()
            })
            .collect()
    };
    let corner_of = {
        let mut groups = Vec::new();
        let mut first = 0;
        for (i, s) in support.iter().enumerate() {
            let count = s.len() - 1;
            if count > 0 && free.len() <= VERTEX_UNKNOWNS {
                groups.push((first, count, i));
            }
            first += count;
        }
        groups
    };
    (
        System {
            corner_of,
            vertex_map,
            support: support.to_vec(),
            free,
            col: {
                let mut col = vec![None; d];
                for (k, t) in (0..d).filter(|t| !off.contains(t)).enumerate() {
                    col[t] = Some(k);
                }
                col
            },
            off,
            d,
            polys,
            ineq_polys,
        },
        Coefs { eq, ineq },
    )
}

/// What linear algebra decides on a support profile where at most two players mix.
#[derive(Debug, PartialEq)]
enum Linear {
    /// No equilibrium has this support profile.
    Nothing,
    /// The one equilibrium with this support profile (probabilities in the order of the
    /// supports).
    Equilibrium(Vec<Q>),
    /// Not decided here: more than two players mix, or the solutions are not isolated.
    General,
}

/// The equilibria of a support profile on which at most two players mix, by exact linear
/// algebra instead of subdivision: the others play one strategy each, so each mixing player's
/// indifferences are linear in the other mixing player's probabilities alone, and the system
/// splits into two linear systems (each with that player's probabilities summing to one).
/// On random games most of the support profiles that survive conditional dominance are of
/// this kind, and their subdivision and certification cost far more than this. A system with
/// a continuum of solutions (dependent columns, or one player mixing alone among equal
/// payoffs) is left to the general method, which reports continua.
fn linear_support<T: Ring>(
    pay: &Payoffs,
    table: &[Vec<T>],
    support: &[Vec<usize>],
    all_bases: &[Vec<usize>],
) -> std::result::Result<Linear, Overflow> {
    let mixing: Vec<usize> = (0..support.len())
        .filter(|&i| support[i].len() > 1)
        .collect();
    if mixing.len() > 2 {
        return Ok(Linear::General);
    }
    // Each player's probabilities over its support: numerators and a positive denominator.
    let mut probs: Vec<(Vec<T>, T)> = support
        .iter()
        .map(|s| (vec![T::small(1); s.len()], T::small(1)))
        .collect();
    let mut dependent = false;
    for (w, &i) in mixing.iter().enumerate() {
        let other = mixing.get(1 - w).copied();
        // The others' support profiles: only `other`'s strategy varies, in support order.
        let bases = &all_bases[i];
        let st = pay.strides[i];
        let a0 = support[i][0];
        let diff = |a: usize, k: usize| table[i][k + a * st].sub(&table[i][k + a0 * st]);
        let Some(j) = other else {
            // Alone: its indifferences are constants, so some strategy of its support beats
            // another (no equilibrium) or all pay the same (a continuum).
            for &a in &support[i][1..] {
                if diff(a, bases[0])?.signum_i() != 0 {
                    return Ok(Linear::Nothing);
                }
            }
            return Ok(Linear::General);
        };
        let mut rows = Vec::with_capacity(support[i].len());
        for &a in &support[i][1..] {
            let mut row = bases
                .iter()
                .map(|&k| diff(a, k))
                .collect::<std::result::Result<Vec<T>, Overflow>>()?;
            row.push(T::small(0));
            rows.push(row);
        }
        rows.push(vec![T::small(1); support[j].len() + 1]);
        match crate::exact::linalg::solve(rows, support[j].len())? {
            Solution::Inconsistent => return Ok(Linear::Nothing),
            // The other player's system may still have no solution (its player has more
            // equations than the unknowns they constrain): only then is this decided.
            Solution::Dependent => dependent = true,
            Solution::Unique(x, d) => {
                if x.iter().any(|v| v.signum_i() <= 0) {
                    return Ok(Linear::Nothing);
                }
                probs[j] = (x, d);
            }
        }
    }
    if dependent {
        return Ok(Linear::General);
    }
    // No strategy outside a support pays more than the support's (the denominators are
    // positive, so numerators decide the sign).
    for (k, s) in support.iter().enumerate() {
        let bases = &all_bases[k];
        let mut weights = vec![T::small(1)];
        for (j, sj) in support.iter().enumerate() {
            if j == k {
                continue;
            }
            let mut next = Vec::with_capacity(weights.len() * sj.len());
            for p in &probs[j].0 {
                for v in &weights {
                    next.push(v.mul(p)?);
                }
            }
            weights = next;
        }
        let st = pay.strides[k];
        for b in (0..pay.shape[k]).filter(|b| !s.contains(b)) {
            let mut gain = T::small(0);
            for (&base, v) in bases.iter().zip(&weights) {
                let d = table[k][base + b * st].sub(&table[k][base + s[0] * st])?;
                gain = gain.add(&d.mul(v)?)?;
            }
            if gain.signum_i() > 0 {
                return Ok(Linear::Nothing);
            }
        }
    }
    Ok(Linear::Equilibrium(
        probs
            .iter()
            .flat_map(|(x, d)| {
                let d = d.to_big();
                x.iter().map(move |v| crate::exact::ratio(&v.to_big(), &d))
            })
            .collect(),
    ))
}

/// [`linear_support`] in machine integers, or in big ones when they overflow; `bases[i]` is
/// [`Payoffs::bases`] of player `i`.
fn linear(pay: &Payoffs, support: &[Vec<usize>], bases: &[Vec<usize>]) -> Linear {
    if let Some(Ok(l)) = pay
        .small
        .as_ref()
        .map(|t| linear_support(pay, t, support, bases))
    {
        return l;
    }
    linear_support(pay, &pay.scaled, support, bases).unwrap_or(Linear::General)
}

/// A proved solution: its box and regret bound and payoff intervals.
type Boxed = (Vec<Iv<Q>>, Q, Vec<Iv<Q>>);
/// A proved solution's enlarged box (where it is unique) and its narrow box.
type Root = (Vec<Iv<f64>>, Vec<Iv<f64>>);
/// What the refinement of a proved solution decided, with the regret bound and payoffs of a
/// certified one.
type Settled = (Isolated, Option<(Q, Vec<Iv<Q>>)>);
/// The refinement of a proved solution's narrow box, run where the solution is found.
type Settle<'a> = &'a (dyn Fn(&[Iv<f64>]) -> Settled + Sync);

/// What one support profile's system gave.
#[derive(Default)]
struct Solved {
    exact: Vec<Vec<Q>>,
    certified: Vec<Boxed>,
    unresolved: Vec<Unresolved>,
    boxes: u64,
}

/// Counts work and watches the deadline, for every thread at once.
struct Meter<'a> {
    opts: &'a Options,
    work: AtomicU64,
    boxes: AtomicU64,
    halted: AtomicBool,
    stopped: Mutex<Option<String>>,
}

impl<'a> Meter<'a> {
    fn new(opts: &'a Options) -> Self {
        Meter {
            opts,
            work: AtomicU64::new(0),
            boxes: AtomicU64::new(0),
            halted: AtomicBool::new(false),
            stopped: Mutex::new(None),
        }
    }

    fn spend(&self, steps: u64) -> Result<bool> {
        let work = self
            .work
            .fetch_add(steps, Ordering::Relaxed)
            .saturating_add(steps);
        if self.halted.load(Ordering::Relaxed) {
            return Ok(false);
        }
        if work > self.opts.max_work {
            self.halt(format!(
                "the work budget of {} steps was spent",
                self.opts.max_work
            ));
            return Ok(false);
        }
        if self.boxes.fetch_add(1, Ordering::Relaxed) % 64 == 0 {
            progress::check()?;
            if self.opts.deadline.is_some_and(|t| Instant::now() >= t) {
                self.halt("the time limit was reached".into());
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn halt(&self, why: String) {
        if let Ok(mut s) = self.stopped.lock() {
            s.get_or_insert(why);
        }
        self.halted.store(true, Ordering::Relaxed);
    }
}

fn widest(x: &[Iv<f64>]) -> (usize, f64) {
    x.iter()
        .enumerate()
        .map(|(i, v)| (i, v.width()))
        .fold((0, -1.0), |b, c| if c.1 > b.1 { c } else { b })
}

/// The narrowest interval of doubles around an interval of dyadics.
fn enclose_dy(v: &Iv<Dy>) -> Iv<f64> {
    Iv::new(v.lo.down_f64(), v.hi.up_f64())
}

/// A box of doubles as dyadic intervals (exactly).
fn as_dyadic(x: &[Iv<f64>]) -> Vec<Iv<Dy>> {
    x.iter()
        .map(|v| Iv::new(Dy::from_f64(v.lo), Dy::from_f64(v.hi)))
        .collect()
}

/// A box of dyadics as rational intervals.
fn dyadic_to_exact(x: &[Iv<Dy>]) -> Vec<Iv<Q>> {
    x.iter()
        .map(|v| Iv::new(v.lo.exact(), v.hi.exact()))
        .collect()
}

fn as_exact(x: &[Iv<f64>]) -> Vec<Iv<Q>> {
    x.iter()
        .map(|v| Iv::new(v.lo.exact(), v.hi.exact()))
        .collect()
}

/// The simplest rational point of a box, if it solves the system exactly.
fn exact_point<B: Bound>(sys: &System, cq: &Coefs<Q>, x: &[Iv<B>]) -> Option<Vec<Q>> {
    let mut q: Vec<Q> = x.iter().map(|v| B::simplest_near(&v.lo, &v.hi)).collect();
    sys.firsts(&mut q);
    // Most candidates are not solutions (the solution is irrational), and a residual that is
    // not zero modulo a prime proves it with machine integers; the exact residual, with the
    // candidate's long denominators, is computed only for those that pass.
    if let Some(r) = q.iter().map(Fp::of_rational).collect::<Option<Vec<Fp>>>() {
        let cp: Coefs<Fp> = Coefs::of(cq);
        if sys.residual(&cp, &r).iter().any(|v| v.0 != 0) {
            return None;
        }
    }
    sys.residual(cq, &q).iter().all(Zero::is_zero).then_some(q)
}

/// The prime `2^61 - 1`.
const PRIME: u64 = (1 << 61) - 1;

/// A residue modulo [`PRIME`].
#[derive(Debug, Clone, Copy)]
struct Fp(u64);

impl Fp {
    /// `x mod PRIME` without a division: `2^61 = 1` modulo the prime, so the high bits fold
    /// onto the low ones (twice, for any `x` below `2^128`).
    fn reduce(x: u128) -> u64 {
        let p = PRIME as u128;
        let x = (x & p) + (x >> 61);
        let x = ((x & p) + (x >> 61)) as u64;
        if x >= PRIME {
            x - PRIME
        } else {
            x
        }
    }

    fn product(a: u64, b: u64) -> u64 {
        Fp::reduce(a as u128 * b as u128)
    }

    /// An integer's residue, from its 64-bit digits (most significant first).
    fn of_integer(n: &BigInt) -> Fp {
        let r = n
            .magnitude()
            .iter_u64_digits()
            .rev()
            .fold(0u64, |r, d| Fp::reduce((r as u128) << 64 | d as u128));
        Fp(if n.is_negative() && r != 0 {
            PRIME - r
        } else {
            r
        })
    }

    /// `a^(p-2)`: the inverse of a residue that is not zero.
    fn inverse(self) -> Fp {
        let (mut base, mut e, mut acc) = (self.0, PRIME - 2, 1u64);
        while e > 0 {
            if e & 1 == 1 {
                acc = Fp::product(acc, base);
            }
            base = Fp::product(base, base);
            e >>= 1;
        }
        Fp(acc)
    }

    /// A rational's residue, unless the prime divides its denominator.
    fn of_rational(q: &Q) -> Option<Fp> {
        if q.denom().is_one() {
            // The coefficients are integers: no inverse (sixty-odd products) needed.
            return Some(Fp::of_integer(q.numer()));
        }
        let d = Fp::of_integer(q.denom());
        (d.0 != 0).then(|| Fp(Fp::product(Fp::of_integer(q.numer()).0, d.inverse().0)))
    }
}

impl Scalar for Fp {
    /// Only for the integer coefficients (a denominator the prime divides would give zero).
    fn of(q: &Q) -> Fp {
        Fp::of_rational(q).unwrap_or(Fp(0))
    }
    fn add(&self, o: &Fp) -> Fp {
        Fp(Fp::reduce((self.0 + o.0) as u128))
    }
    fn sub(&self, o: &Fp) -> Fp {
        Fp(Fp::reduce((self.0 + PRIME - o.0) as u128))
    }
    fn mul(&self, o: &Fp) -> Fp {
        Fp(Fp::product(self.0, o.0))
    }
}

/// Whether an exact solution is an equilibrium of its support: every probability positive,
/// no strategy outside the support better.
fn exact_is_equilibrium(sys: &System, cq: &Coefs<Q>, q: &[Q]) -> bool {
    q.iter().all(Signed::is_positive) && sys.inequalities(cq, q).iter().all(|v| !v.is_positive())
}

/// Narrows a box holding a solution by Krawczyk steps in doubles, while each takes off at
/// least a tenth of its width (the free unknowns only: the first probabilities follow).
fn narrow_in_doubles(sys: &System, ci: &Coefs<Iv<f64>>, cf: &Coefs<f64>, x: &mut [Iv<Dy>]) {
    let free_width = |b: &[Iv<f64>]| sys.free.iter().map(|&f| b[f].width()).fold(0.0, f64::max);
    let mut b: Vec<Iv<f64>> = x.iter().map(enclose_dy).collect();
    let mut moved = false;
    for _ in 0..60 {
        let before = free_width(&b);
        let m: Vec<f64> = b.iter().map(Iv::mid).collect();
        let Some(y) = inverse(&sys.jacobian(cf, &m)) else {
            break;
        };
        let k = sys.krawczyk(ci, &b, &m, &y);
        let mut next = b.clone();
        for (&f, v) in sys.free.iter().zip(&k) {
            match b[f].meet(v) {
                Some(v) => next[f] = v,
                None => return,
            }
        }
        let slow = free_width(&next).partial_cmp(&(0.9 * before)) != Some(Order::Less);
        b = next;
        moved = true;
        if slow {
            break;
        }
    }
    if moved {
        for &f in &sys.free {
            let v = Iv::new(Dy::from_f64(b[f].lo), Dy::from_f64(b[f].hi));
            if let Some(v) = x[f].meet(&v) {
                x[f] = v;
            }
        }
    }
}

/// What the refinement of an isolated solution decided.
enum Isolated {
    Exact(Vec<Q>),
    Certified(Vec<Iv<Q>>),
    NotEquilibrium,
    Undecided(Vec<Iv<Q>>),
}

/// Narrows a box proved to hold one solution until the solution is found exactly, or is
/// decided (positive, no better strategy outside) and the box is narrower than asked.
/// `rational: false` says the solution is known to be irrational (no rational is tried).
#[allow(clippy::too_many_arguments)]
fn refine(
    sys: &System,
    cq: &Coefs<Q>,
    cd: &Coefs<Dy>,
    ci: &Coefs<Iv<f64>>,
    cf: &Coefs<f64>,
    start: Vec<Iv<Dy>>,
    digits: u32,
    rational: bool,
) -> Isolated {
    // Dyadic intervals: every centre is on a dyadic grid and every coefficient an integer,
    // so the arithmetic stays exact without reducing fractions.
    let mut x = start;
    // Krawczyk steps in doubles first, while they still narrow the box: a step costs a few
    // microseconds there and tens in dyadics, and the boxes handed over (from the subdivision
    // or a closed form) are up to a hundredth wide, which took four to seven dyadic steps.
    // Every solution in a box is in its Krawczyk image, so the solution stays in the meet.
    narrow_in_doubles(sys, ci, cf, &mut x);
    let zero = Dy::from_f64(0.0);
    // Dyadic interval coefficients, made only when the doubles leave an inequality open.
    let mut cdi: Option<Coefs<Iv<Dy>>> = None;
    sys.firsts(&mut x);
    let target = 10f64.powi(-(digits as i32));
    let bits = (digits as f64 * 3.33) as u32 + 80;
    let mut last_width = f64::INFINITY;
    let mut stalled = 0;
    // The simplest rational of a box is looked for only where the answer would otherwise be
    // open or given (the boxes are nested, so the last box finds every rational an earlier
    // one would: a solution that is the simplest rational of a box is so of any smaller box
    // around it); it took a tenth of a certificate's time on each step.
    let exact = |x: &[Iv<Dy>]| {
        let q = rational.then(|| exact_point(sys, cq, x)).flatten()?;
        Some(if exact_is_equilibrium(sys, cq, &q) {
            Isolated::Exact(q)
        } else {
            Isolated::NotEquilibrium
        })
    };
    for _ in 0..24 {
        let positive = x.iter().map(|v| v.sign()).collect::<Vec<_>>();
        // The doubles decide the inequalities unless one is nearly tight.
        let coarse = sys.inequalities(ci, &x.iter().map(enclose_dy).collect::<Vec<_>>());
        let ineq = if coarse.iter().all(|v| v.sign() != Order::Equal) {
            coarse
                .iter()
                .map(|v| Iv::new(Dy::from_f64(v.lo), Dy::from_f64(v.hi)))
                .collect()
        } else {
            sys.inequalities(cdi.get_or_insert_with(|| Coefs::of(cq)), &x)
        };
        if positive.contains(&Order::Less) || ineq.iter().any(|v| v.sign() == Order::Greater) {
            return Isolated::NotEquilibrium;
        }
        let decided =
            positive.iter().all(|&s| s == Order::Greater) && ineq.iter().all(|v| v.hi <= zero);
        // Exactly: the doubles of two bounds this close are equal.
        let width = x
            .iter()
            .map(|v| v.hi.sub(&v.lo).approx())
            .fold(0.0, f64::max);
        if !decided || width < target {
            if let Some(found) = exact(&x) {
                return found;
            }
        }
        if decided && width < target {
            return Isolated::Certified(dyadic_to_exact(&x));
        }
        if width > 0.9 * last_width {
            stalled += 1;
            if stalled > 2 {
                break;
            }
        }
        last_width = width;
        let m: Vec<Dy> = x
            .iter()
            .map(|v| {
                Iv::point(v.mid())
                    .rounded(bits + 8)
                    .lo
                    .clone()
                    .max(v.lo.clone())
                    .min(v.hi.clone())
            })
            .collect();
        let mf: Vec<f64> = m.iter().map(|v| v.approx()).collect();
        let Some(y) = inverse(&sys.jacobian(cf, &mf)) else {
            break;
        };
        let mut m = m;
        sys.firsts(&mut m);
        let k = sys.krawczyk_fine(cd, ci, &x, &m, &y);
        let mut next = x.clone();
        for (&f, v) in sys.free.iter().zip(&k) {
            match x[f].meet(&v.rounded(bits)) {
                Some(v) => next[f] = v,
                // The box holds a solution, so the operator's image meets it; an empty meet
                // can only come from a preconditioner too poor to keep the enclosure.
                None => {
                    return exact(&x).unwrap_or_else(|| Isolated::Undecided(dyadic_to_exact(&x)))
                }
            }
        }
        sys.firsts(&mut next);
        if next == x {
            break;
        }
        x = next;
    }
    exact(&x).unwrap_or_else(|| Isolated::Undecided(dyadic_to_exact(&x)))
}

/// What the subdivision of some boxes of one support profile found.
#[derive(Default)]
struct Explored {
    boxes: u64,
    /// Proved solutions: the enlarged box where each is unique, and its narrow box.
    roots: Vec<Root>,
    /// Each root's refinement, when it was run where the root was found.
    settled: Vec<Option<Settled>>,
    loose: Vec<Vec<Iv<f64>>>,
    /// Exact equilibria met where the equations are singular: in a continuum of equilibria,
    /// the simple rationals of a box's middle are the points worth reporting.
    singular: Vec<Vec<Q>>,
    gave_up: bool,
    /// The boxes not examined (when `gave_up`, or when split off).
    rest: Vec<Vec<Iv<f64>>>,
}

/// The subdivision of `stack`'s boxes; with `split = Some((wait, dive))`, it stops once `wait`
/// boxes wait and it has examined at least `dive`, and returns the waiting ones in `rest` to
/// be explored apart. `None` when the meter stopped it.
#[allow(clippy::too_many_arguments)]
fn explore(
    sys: &System,
    cq: &Coefs<Q>,
    ci: &Coefs<Iv<f64>>,
    cf: &Coefs<f64>,
    meter: &Meter,
    cost: u64,
    mut stack: Vec<Vec<Iv<f64>>>,
    split: Option<(usize, u64)>,
    settle: Option<Settle>,
) -> Result<Option<Explored>> {
    let mut found = Explored::default();
    let Explored {
        roots,
        settled,
        loose,
        singular,
        boxes,
        ..
    } = &mut found;
    let mut attempts = 0;
    // The vertex narrowing's sums, kept from box to box (fifteen buffers on a 2^5 game).
    let mut groups: Vec<Sums> = Vec::new();
    while let Some(mut x) = stack.pop() {
        if split.is_some_and(|(wait, dive)| stack.len() + 1 >= wait && *boxes >= dive) {
            stack.push(x);
            break;
        }
        if !meter.spend(cost)? {
            return Ok(None);
        }
        *boxes += 1;
        if !sys.tighten(&mut x) || x.iter().any(|v| v.hi < 0.0) {
            continue;
        }
        let corners = sys.corner_tables(ci, &x);
        // The box the corner values are of (narrowing below only shrinks `x` inside it).
        let pre = corners.as_ref().map(|_| x.clone());
        let (eq, ineq) = sys.ranges(ci, &x, corners.as_deref());
        if eq.iter().any(|v| v.sign() != Order::Equal)
            || ineq.iter().any(|v| v.sign() == Order::Greater)
        {
            continue;
        }
        let m: Vec<f64> = x.iter().map(Iv::mid).collect();
        let jm = sys.jacobian(cf, &m);
        let y = inverse(&jm);
        if y.is_none() && singular.len() < 4 && attempts < 16 {
            attempts += 1;
            let middle: Vec<Iv<Q>> = as_exact(&x)
                .into_iter()
                .map(|v| {
                    let third = (&v.hi - &v.lo) / Q::from_integer(3.into());
                    Iv::new(&v.lo + &third, &v.hi - &third)
                })
                .collect();
            if let Some(q) = exact_point(sys, cq, &middle) {
                if exact_is_equilibrium(sys, cq, &q) && !singular.contains(&q) {
                    singular.push(q);
                }
            }
        }
        if let Some(y) = y {
            // The test runs on an enlarged box, so that a solution on the boundary between two
            // boxes (a rational one on the grid of cuts) is still inside one of them.
            let mut big = x.clone();
            for &f in &sys.free {
                let pad = x[f].width() * 0.1 + 1e-12;
                big[f] = Iv::new(x[f].lo - pad, x[f].hi + pad);
            }
            // Wide boxes almost never pass, and the test costs as much as a contraction: on the
            // benchmark games it proves nothing on boxes wider than a twentieth that the
            // narrowing would not soon shrink (from a fifth: 3% more instructions on 2^5 #0,
            // the same boxes within two).
            let k = (widest(&x).1 < 0.05).then(|| sys.krawczyk(ci, &big, &m, &y));
            if let Some(k) = k.filter(|k| k.iter().zip(&sys.free).all(|(a, &f)| a.inside(&big[f])))
            {
                let mut narrow = big.clone();
                let mut image = k;
                for _ in 0..40 {
                    let before = widest(&narrow).1;
                    for (&f, v) in sys.free.iter().zip(&image) {
                        // The image holds the solution, and so does the box.
                        narrow[f] = narrow[f].meet(v).unwrap_or_else(|| v.clone());
                    }
                    if widest(&narrow).1 > 0.7 * before {
                        break;
                    }
                    let mm: Vec<f64> = narrow.iter().map(Iv::mid).collect();
                    let Some(yy) = inverse(&sys.jacobian(cf, &mm)) else {
                        break;
                    };
                    image = sys.krawczyk(ci, &narrow, &mm, &yy);
                }
                sys.firsts(&mut narrow);
                if sys.add_root(roots, (big, narrow)) {
                    settled.push(settle.map(|f| f(&roots[roots.len() - 1].1)));
                }
                continue;
            }
            let before = widest(&x).1;
            // The vertex tests narrow at least as well as the interval Gauss–Seidel step (which
            // pays for an interval Jacobian), where there are few enough unknowns for them.
            let narrowed = match (&corners, &pre) {
                (Some(c), Some(pre)) => sys.vertex_narrow(c, &y, pre, &mut x, &mut groups),
                _ => sys.gauss_seidel(ci, &mut x, &m, &y),
            };
            if !narrowed || !sys.tighten(&mut x) {
                continue;
            }
            if widest(&x).1 < 0.7 * before {
                stack.push(x);
                continue;
            }
        }
        if let (Some(c), Some(pre)) = (&corners, &pre) {
            if sys.hull_excludes(ci, c, pre) {
                continue;
            }
        }
        // The first probability of each player follows from the others: cut the others.
        let (axis, w) = sys
            .free
            .iter()
            .map(|&t| (t, x[t].width()))
            .fold((0, -1.0), |b, c| if c.1 > b.1 { c } else { b });
        if w < MIN_WIDTH {
            loose.push(x);
            if loose.len() >= MAX_UNRESOLVED {
                found.gave_up = true;
                break;
            }
            continue;
        }
        // Cut off the middle, so that simple rationals (1/2, 1/3) are rarely on a cut.
        let cut = x[axis].lo + w * 0.4617;
        let mut left = x.clone();
        left[axis].hi = cut;
        x[axis].lo = cut;
        stack.push(left);
        stack.push(x);
    }
    found.rest = stack;
    Ok(Some(found))
}

/// Every solution of one support profile's system that is an equilibrium: in closed form
/// where three players mix two strategies each, or two mix two and one three, by subdivision
/// otherwise.
fn solve_support(
    pay: &Payoffs,
    support: &[Vec<usize>],
    dens: &[BigInt],
    meter: &Meter,
    digits: u32,
) -> Result<Option<Solved>> {
    if let Some(solved) = closed::solve(pay, support, dens, digits) {
        return Ok(Some(solved));
    }
    subdivide(pay, support, dens, meter, digits)
}

/// [`solve_support`] by subdivision.
fn subdivide(
    pay: &Payoffs,
    support: &[Vec<usize>],
    dens: &[BigInt],
    meter: &Meter,
    digits: u32,
) -> Result<Option<Solved>> {
    let (sys, cq) = system(pay, support);
    let cf: Coefs<f64> = Coefs::of(&cq);
    let ci: Coefs<Iv<f64>> = Coefs::of(&cq);
    let size: usize = sys
        .polys
        .iter()
        .map(|p| p.dims.iter().product::<usize>())
        .sum::<usize>()
        + sys.ineq_polys.len();
    let cost = ((size + 1) * (sys.free.len() + 1)) as u64;
    let mut out = Solved::default();
    let start: Vec<Iv<f64>> = support
        .iter()
        .flat_map(|s| {
            let one = s.len() == 1;
            s.iter().map(move |_| {
                if one {
                    Iv::new(1.0, 1.0)
                } else {
                    Iv::new(-MARGIN, 1.0 + MARGIN)
                }
            })
        })
        .collect();
    // A large profile's boxes are split among the cores once there are enough of them to share
    // (the last profiles of a game are its largest, and ran on one core while the other
    // waited; from five unknowns: the full profile of a 2^5 game, a few hundred boxes, took 15%
    // less time shared). The rounds below depend only on the number of threads, and the proved
    // solutions are sorted at the end, so the answer does not depend on it.
    let threads = rayon::current_num_threads();
    let split = (threads > 1 && sys.free.len() >= 5).then_some((4 * threads, 0));
    // Dyadic coefficients only where a solution is to be refined (most profiles have none).
    let cd: std::sync::OnceLock<Coefs<Dy>> = std::sync::OnceLock::new();
    // Most proved solutions are not equilibria (a probability below zero, a better strategy
    // outside the support); the doubles already say so for those. Each certificate takes
    // about a tenth of a millisecond in exact arithmetic.
    let candidate = |narrow: &[Iv<f64>]| {
        !(narrow.iter().any(|v| v.hi < 0.0)
            || sys
                .inequalities(&ci, narrow)
                .iter()
                .any(|v| v.sign() == Order::Greater))
    };
    let settle = |narrow: &[Iv<f64>]| -> Settled {
        if !candidate(narrow) {
            return (Isolated::NotEquilibrium, None);
        }
        let cd = cd.get_or_init(|| Coefs::of(&cq));
        match refine(&sys, &cq, cd, &ci, &cf, as_dyadic(narrow), digits, true) {
            Isolated::Certified(b) => {
                let (regret, payoffs) = regret_bound(pay, &sys, &b, dens, digits);
                (Isolated::Certified(b), Some((regret, payoffs)))
            }
            other => (other, None),
        }
    };
    // A shared profile's solutions are refined by the piece that finds them, on whichever
    // core runs it: refined after the search, the last few ran on one core while the others
    // waited (three on a 2^5 game's full profile, a seventh of its time).
    let in_pieces = split.map(|_| &settle as Settle);
    let Some(first) = explore(
        &sys,
        &cq,
        &ci,
        &cf,
        meter,
        cost,
        vec![start],
        split,
        in_pieces,
    )?
    else {
        return Ok(None);
    };
    let deadline = crate::core::progress::current_deadline();
    let mut all = first;
    // The boxes left over are explored on every core, and a piece that still has a stack after
    // diving `DIVE` boxes deep first hands it back for the next round, so that one large piece
    // does not leave a core idle. (Without the dive, the rounds would go breadth first: in a
    // continuum of solutions, which only boxes at the narrowest width reveal, the waiting
    // boxes multiplied by thousands before the first was found.)
    let pieces_split = split.map(|(wait, _)| (wait, DIVE));
    let mut waiting = if split.is_some() && !all.gave_up {
        std::mem::take(&mut all.rest)
    } else {
        Vec::new()
    };
    // A round takes the newest waiting boxes (depth first, as one core would), a few per
    // core, so that a round's work is bounded; its pieces are merged in order, and once the
    // unresolved boxes reach the limit the pieces after that one count as unexplored. The
    // rounds depend only on the number of cores, never on timing.
    let per_round = 4 * threads;
    while !waiting.is_empty() && !all.gave_up {
        let round = waiting.split_off(waiting.len().saturating_sub(per_round));
        let pieces: Vec<Result<Option<Explored>>> = round
            .par_iter()
            .map(|b| {
                crate::core::progress::with_deadline(deadline, || {
                    explore(
                        &sys,
                        &cq,
                        &ci,
                        &cf,
                        meter,
                        cost,
                        vec![b.clone()],
                        pieces_split,
                        in_pieces,
                    )
                })
            })
            .collect();
        let mut next = Vec::new();
        for (piece, b) in pieces.into_iter().zip(round) {
            let Some(piece) = piece? else {
                return Ok(None);
            };
            if all.gave_up {
                all.rest.push(b);
                continue;
            }
            all.boxes += piece.boxes;
            for (root, settled) in piece.roots.into_iter().zip(piece.settled) {
                if sys.add_root(&mut all.roots, root) {
                    all.settled.push(settled);
                }
            }
            all.loose.extend(piece.loose);
            for q in piece.singular {
                if !all.singular.contains(&q) {
                    all.singular.push(q);
                }
            }
            all.gave_up |= piece.gave_up || all.loose.len() >= MAX_UNRESOLVED;
            if piece.gave_up {
                all.rest.extend(piece.rest);
            } else {
                next.extend(piece.rest);
            }
        }
        waiting.append(&mut next);
    }
    all.rest.append(&mut waiting);
    out.boxes = all.boxes;
    let Explored {
        roots,
        settled,
        mut loose,
        singular,
        gave_up,
        rest: stack,
        ..
    } = all;
    // The order the boxes were met in depends on the cores; the answer does not.
    let mut roots: Vec<(Root, Option<Settled>)> = roots.into_iter().zip(settled).collect();
    roots.sort_by(|a, b| {
        (a.0)
            .1
            .iter()
            .map(|v| v.lo)
            .partial_cmp((b.0).1.iter().map(|v| v.lo))
            .unwrap_or(Order::Equal)
    });
    // Several left to refine are shared among the cores (in order, so the answer does not
    // depend on them).
    let open = roots
        .iter()
        .filter(|((_, narrow), done)| done.is_none() && candidate(narrow))
        .count();
    let settled: Vec<Settled> = if threads > 1 && open > 1 {
        crate::core::progress::with_deadline(deadline, || {
            roots
                .into_par_iter()
                .map(|((_, narrow), done)| done.unwrap_or_else(|| settle(&narrow)))
                .collect()
        })
    } else {
        roots
            .into_iter()
            .map(|((_, narrow), done)| done.unwrap_or_else(|| settle(&narrow)))
            .collect()
    };
    for (isolated, bound) in settled {
        match isolated {
            Isolated::Exact(q) => out.exact.push(q),
            Isolated::Certified(b) => {
                let (regret, payoffs) =
                    bound.unwrap_or_else(|| regret_bound(pay, &sys, &b, dens, digits));
                out.certified.push((b, regret, payoffs));
            }
            Isolated::NotEquilibrium => {}
            Isolated::Undecided(b) => {
                let (lower, upper) = spread_box(pay, support, &b);
                out.unresolved.push(Unresolved {
                    support: support.to_vec(),
                    lower,
                    upper,
                    point: None,
                    reason: "an isolated solution whose positivity, or whose comparison with \
                             a strategy outside the support, the intervals could not decide"
                        .into(),
                })
            }
        }
    }
    if !loose.is_empty() || gave_up {
        loose.extend(stack);
        let hull: Vec<Iv<f64>> = (0..sys.d)
            .map(|t| {
                let lo = loose.iter().map(|b| b[t].lo).fold(f64::INFINITY, f64::min);
                let hi = loose
                    .iter()
                    .map(|b| b[t].hi)
                    .fold(f64::NEG_INFINITY, f64::max);
                Iv::new(lo, hi)
            })
            .collect();
        let point = singular.first().cloned().or_else(|| {
            loose.iter().find_map(|b| {
                let q = exact_point(&sys, &cq, &as_exact(b))?;
                exact_is_equilibrium(&sys, &cq, &q).then_some(q)
            })
        });
        if let Some(q) = &point {
            out.exact.push(q.clone());
        }
        let (lower, upper) = spread_box(pay, support, &as_exact(&hull));
        out.unresolved.push(Unresolved {
            support: support.to_vec(),
            lower,
            upper,
            point: point.map(|q| full(pay, support, &q)),
            reason: if gave_up {
                format!(
                    "solutions that are not isolated (a continuum of equilibria, or a \
                     singular solution): {MAX_UNRESOLVED} boxes narrower than {MIN_WIDTH:e} \
                     could not be separated"
                )
            } else {
                format!(
                    "{} boxes narrower than {MIN_WIDTH:e} neither hold a proved solution nor \
                     can be discarded (a singular solution, or a continuum)",
                    loose.len()
                )
            },
        });
    }
    Ok(Some(out))
}

/// Probabilities on a support spread over every strategy (zero elsewhere).
fn full(pay: &Payoffs, support: &[Vec<usize>], x: &[Q]) -> Vec<Vec<Q>> {
    let mut k = 0;
    support
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut v = vec![<Q as Zero>::zero(); pay.shape[i]];
            for &a in s {
                v[a] = x[k].clone();
                k += 1;
            }
            v
        })
        .collect()
}

/// A box on a support as lower and upper bounds of every strategy's probability.
fn spread_box(pay: &Payoffs, support: &[Vec<usize>], b: &[Iv<Q>]) -> (Vec<Vec<Q>>, Vec<Vec<Q>>) {
    let lo: Vec<Q> = b.iter().map(|v| v.lo.clone()).collect();
    let hi: Vec<Q> = b.iter().map(|v| v.hi.clone()).collect();
    (full(pay, support, &lo), full(pay, support, &hi))
}

/// An upper bound on the regret over the box, and each player's payoff interval, in the
/// game's own units (`dens[i]`: what player `i`'s payoffs were scaled by), its ends on a grid
/// of `2^-(3.33 digits + 24)` in the scaled units.
fn regret_bound(
    pay: &Payoffs,
    sys: &System,
    x: &[Iv<Q>],
    dens: &[BigInt],
    digits: u32,
) -> (Q, Vec<Iv<Q>>) {
    // The payoffs are exact over the box to some 40 digits, far beyond the box's own: they
    // are rounded outward to a grid a little finer than the digits asked for, so that they
    // are written in some 25 digits rather than 130 (writing and reading those was a tenth
    // of a 2^5 game's time in Python).
    let grid = (digits as f64 * 3.33) as u32 + 24;
    let mut worst = <Q as Zero>::zero();
    let mut payoffs = Vec::new();
    let n = sys.support.len();
    // The payoffs exactly over the box, in dyadic intervals on the scaled (integer) payoffs:
    // the box's bounds are dyadic, so nothing is rounded and no fraction is reduced until the
    // one division by the scale at the end.
    let xd: Vec<Iv<Dy>> = x
        .iter()
        .map(|v| Iv::new(Dy::enclose(&v.lo).0, Dy::enclose(&v.hi).1))
        .collect();
    let xf: Vec<Iv<f64>> = xd.iter().map(enclose_dy).collect();
    for i in 0..n {
        let others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
        let poly = Poly {
            dims: others.iter().map(|&j| sys.support[j].len()).collect(),
            others,
        };
        let bases = pay.bases(i, &sys.support);
        let st = pay.strides[i];
        let den = Q::from_integer(dens[i].clone());
        // Each strategy's payoff tensor once, in integers (the payoffs are scaled to integers),
        // and as intervals of doubles.
        let ints: Vec<Vec<BigInt>> = (0..pay.shape[i])
            .map(|b| {
                let c: Vec<BigInt> = bases
                    .iter()
                    .map(|&k| pay.scaled[i][k + b * st].clone())
                    .collect();
                simplex_integers(c, &poly.dims)
            })
            .collect();
        let floats: Vec<Vec<Iv<f64>>> = ints
            .iter()
            .map(|c| {
                c.iter()
                    .map(|n| Iv::of(&Q::from_integer(n.clone())))
                    .collect()
            })
            .collect();
        // The payoff exactly over the box; the regret, a bound only, in doubles.
        let xs = sys.slices(&xd, &poly);
        let xfs = sys.slices(&xf, &poly);
        let own = &xd[sys.off[i]..sys.off[i] + sys.support[i].len()];
        let ownf = &xf[sys.off[i]..sys.off[i] + sys.support[i].len()];
        let mut expected = Iv::<Dy>::nil();
        let mut expected_f = Iv::<f64>::nil();
        for ((p, pf), &a) in own.iter().zip(ownf).zip(&sys.support[i]) {
            let cd: Vec<Iv<Dy>> = ints[a]
                .iter()
                .map(|n| Iv::point(Dy::int(n.clone())))
                .collect();
            expected = expected.add(&p.mul(&contract(&cd, &poly.dims, &xs, None)));
            expected_f = expected_f.add(&pf.mul(&contract(&floats[a], &poly.dims, &xfs, None)));
        }
        // The largest gain as a double first: one conversion and one division a player.
        let mut most = f64::NEG_INFINITY;
        for cf in &floats {
            most = most.max(contract(cf, &poly.dims, &xfs, None).sub(&expected_f).hi);
        }
        let unscaled = |v: Q| if dens[i].is_one() { v } else { v / &den };
        let gain = unscaled(most.exact());
        if gain > worst {
            worst = gain;
        }
        let expected = expected.rounded(grid);
        payoffs.push(Iv::new(
            unscaled(expected.lo.exact()),
            unscaled(expected.hi.exact()),
        ));
    }
    (worst, payoffs)
}

/// The smallest `d > 0` with every payoff of player `i` equal to its scaled value over `d`.
fn denominators(game: &NormalForm) -> Vec<BigInt> {
    (0..game.players.len())
        .map(|i| {
            let col: Vec<Q> = (0..game.profiles())
                .map(|k| game.payoffs_at(k)[i].clone())
                .collect();
            crate::exact::over_common_denominator(&col).1
        })
        .collect()
}

/// The number of support profiles: `prod (2^m_i - 1)`, saturating.
fn support_count(shape: &[usize]) -> u64 {
    shape.iter().fold(1u64, |acc, &m| {
        let s = if m >= 64 { u64::MAX } else { (1u64 << m) - 1 };
        acc.saturating_mul(s)
    })
}

/// The next `k`-subset of `0..m` in lexicographic order, or `false` after the last.
fn next_subset(c: &mut [usize], m: usize) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < m - k + i {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// Every Nash equilibrium of `game` (of two or more players), by support enumeration, within
/// the limits of `opts`.
pub fn enumerate(game: &NormalForm, opts: &Options) -> Result<Report> {
    let pay = Payoffs::new(game);
    let dens = denominators(game);
    let shape = pay.shape.clone();
    let n = shape.len();
    let mut report = Report {
        supports: support_count(&shape),
        ..Report::default()
    };
    // Size profiles, small and balanced first.
    let mut sizes: Vec<Vec<usize>> = vec![vec![]];
    for &m in &shape {
        sizes = sizes
            .into_iter()
            .flat_map(|s| {
                (1..=m).map(move |k| {
                    let mut t = s.clone();
                    t.push(k);
                    t
                })
            })
            .collect();
        crate::core::budget::check_memory(
            "the list of support sizes",
            (sizes.len() * n * 8) as u64,
            1 << 30,
        )?;
    }
    sizes.sort_by_key(|s| {
        let total: usize = s.iter().sum();
        let spread = s.iter().max().unwrap_or(&0) - s.iter().min().unwrap_or(&0);
        (total, spread)
    });
    progress::phase("support profiles", report.supports);
    let meter = Meter::new(opts);
    // Support profiles are independent: each batch is solved across the cores, and merged in
    // order, so that the answer is the same whatever the number of threads and a stop leaves
    // an exact prefix covered.
    let batch_size = 32 * rayon::current_num_threads().max(1);
    let mut batch: Vec<Vec<Vec<usize>>> = Vec::with_capacity(batch_size);
    let mut sizes = sizes.iter();
    let mut current: Option<Vec<Vec<usize>>> = None;
    loop {
        // The next support profile: the first player's subset fastest, then the next sizes.
        let next = match current.take() {
            None => sizes
                .next()
                .map(|ks| ks.iter().map(|&k| (0..k).collect()).collect()),
            Some(mut support) => {
                let mut advanced = false;
                for (i, s) in support.iter_mut().enumerate() {
                    if next_subset(s, shape[i]) {
                        advanced = true;
                        break;
                    }
                    *s = (0..s.len()).collect();
                }
                if advanced {
                    Some(support)
                } else {
                    sizes
                        .next()
                        .map(|ks| ks.iter().map(|&k| (0..k).collect()).collect())
                }
            }
        };
        let limit_reached = opts
            .max_supports
            .is_some_and(|m| report.examined + batch.len() as u64 >= m);
        if let Some(s) = &next {
            if !limit_reached {
                batch.push(s.clone());
            }
        }
        if batch.len() == batch_size || next.is_none() || limit_reached {
            if !solve_batch(&pay, &dens, &meter, opts.digits, &batch, &mut report)? {
                break;
            }
            batch.clear();
        }
        if limit_reached && next.is_some() {
            meter.halt(format!(
                "the limit of {} support profiles was reached",
                report.examined
            ));
            break;
        }
        match next {
            Some(s) => current = Some(s),
            None => break,
        }
    }
    report.stopped = meter.stopped.into_inner().unwrap_or(None);
    Ok(report)
}

/// The equilibria whose support profile is exactly `support` (each player's strategy
/// indices, increasing): the enumeration's work on that one profile.
pub fn on_support(game: &NormalForm, support: &[Vec<usize>], opts: &Options) -> Result<Report> {
    let pay = Payoffs::new(game);
    let dens = denominators(game);
    let meter = Meter::new(opts);
    let mut report = Report {
        supports: support_count(&pay.shape),
        ..Report::default()
    };
    if support.iter().any(Vec::is_empty) {
        // Not a support profile: a player would play nothing.
        return Ok(report);
    }
    solve_batch(
        &pay,
        &dens,
        &meter,
        opts.digits,
        &[support.to_vec()],
        &mut report,
    )?;
    report.stopped = meter.stopped.into_inner().unwrap_or(None);
    Ok(report)
}

/// A proved solution on `support` as the report lists it.
fn certified(
    pay: &Payoffs,
    support: &[Vec<usize>],
    (b, regret_bound, payoffs): Boxed,
) -> Certified {
    let (lower, upper) = spread_box(pay, support, &b);
    Certified {
        support: support.to_vec(),
        lower,
        upper,
        payoffs_lower: payoffs.iter().map(|p| p.lo.clone()).collect(),
        payoffs_upper: payoffs.iter().map(|p| p.hi.clone()).collect(),
        regret_bound,
    }
}

/// The equilibrium on `support` next to `point` (a profile of doubles near one, such as the
/// end of a path): Newton's method on the support's equations from there, Krawczyk's test on
/// small boxes around the result, and the enumeration's refinement (exact when rational, a
/// certified box otherwise). An empty report when no equilibrium is proved there.
pub fn near(
    game: &NormalForm,
    support: &[Vec<usize>],
    point: &[Vec<f64>],
    digits: u32,
) -> Result<Report> {
    let pay = Payoffs::new(game);
    let dens = denominators(game);
    if support.iter().any(Vec::is_empty) || point.iter().flatten().any(|v| !v.is_finite()) {
        // No support profile (a player plays nothing) or no point: nothing is near.
        return Ok(Report {
            supports: support_count(&pay.shape),
            ..Report::default()
        });
    }
    let (sys, cq) = system(&pay, support);
    let cf: Coefs<f64> = Coefs::of(&cq);
    let ci: Coefs<Iv<f64>> = Coefs::of(&cq);
    let cd: Coefs<Dy> = Coefs::of(&cq);
    let mut x: Vec<f64> = support
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            let total: f64 = s.iter().map(|&a| point[i][a]).sum();
            s.iter().map(move |&a| point[i][a] / total)
        })
        .collect();
    for _ in 0..30 {
        progress::check()?;
        sys.firsts(&mut x);
        let f = sys.residual(&cf, &x);
        let Some(y) = inverse(&sys.jacobian(&cf, &x)) else {
            break;
        };
        let mut size: f64 = 0.0;
        for (r, &t) in sys.free.iter().enumerate() {
            let step: f64 = -y[r].iter().zip(&f).map(|(a, b)| a * b).sum::<f64>();
            x[t] += step;
            size = size.max(step.abs());
        }
        if size < 1e-15 {
            break;
        }
    }
    sys.firsts(&mut x);
    let mut report = Report {
        supports: support_count(&pay.shape),
        examined: 0,
        ..Report::default()
    };
    for radius in [1e-12, 1e-9, 1e-6] {
        let mut b: Vec<Iv<f64>> = x.iter().map(|&v| Iv::new(v - radius, v + radius)).collect();
        for (i, s) in support.iter().enumerate() {
            if s.len() == 1 {
                b[sys.off[i]] = Iv::new(1.0, 1.0);
            }
        }
        let m: Vec<f64> = b.iter().map(Iv::mid).collect();
        let Some(y) = inverse(&sys.jacobian(&cf, &m)) else {
            break;
        };
        let k = sys.krawczyk(&ci, &b, &m, &y);
        if !k.iter().zip(&sys.free).all(|(a, &f)| a.inside(&b[f])) {
            continue;
        }
        let mut narrow = b;
        for (&f, v) in sys.free.iter().zip(&k) {
            narrow[f] = v.clone();
        }
        sys.firsts(&mut narrow);
        match refine(&sys, &cq, &cd, &ci, &cf, as_dyadic(&narrow), digits, true) {
            Isolated::Exact(q) => report.exact.push(full(&pay, support, &q)),
            Isolated::Certified(b) => {
                let (regret, payoffs) = regret_bound(&pay, &sys, &b, &dens, digits);
                report
                    .certified
                    .push(certified(&pay, support, (b, regret, payoffs)));
            }
            Isolated::NotEquilibrium | Isolated::Undecided(_) => {}
        }
        break;
    }
    Ok(report)
}

/// What became of one support profile.
enum Outcome {
    Pruned,
    Solved(Solved),
    Stopped,
}

/// Solves a batch of support profiles across the cores and merges them into the report in
/// order; `false` once a limit stopped the enumeration (the report then covers an exact
/// prefix of the support profiles).
fn solve_batch(
    pay: &Payoffs,
    dens: &[BigInt],
    meter: &Meter,
    digits: u32,
    batch: &[Vec<Vec<usize>>],
    report: &mut Report,
) -> Result<bool> {
    let n = pay.shape.len();
    // Pruning and the linear cases take microseconds: they run here, and only the profiles
    // left for subdivision go to the cores, when there are two or more of them (handing work
    // to the thread pool costs more than the small games' whole enumeration).
    let mut outcomes: Vec<Option<Result<Outcome>>> = batch
        .iter()
        .map(|support| {
            // Each profile is charged the size of its payoff table (what pruning and the
            // linear systems read), so that the limits hold where no box is ever explored.
            let size: usize = support.iter().map(Vec::len).product();
            match meter.spend((size * n) as u64) {
                Err(e) => return Some(Err(e)),
                Ok(false) => return Some(Ok(Outcome::Stopped)),
                Ok(true) => {}
            }
            // Each player's profiles of the others' supports, for pruning and the linear case.
            let mut bases: Vec<Vec<usize>> = Vec::with_capacity(n);
            for i in 0..n {
                let b = pay.bases(i, support);
                if support[i]
                    .iter()
                    .any(|&a| pay.conditionally_dominated(i, a, &b))
                {
                    return Some(Ok(Outcome::Pruned));
                }
                bases.push(b);
            }
            match linear(pay, support, &bases) {
                Linear::Nothing => Some(Ok(Outcome::Solved(Solved::default()))),
                Linear::Equilibrium(q) => Some(Ok(Outcome::Solved(Solved {
                    exact: vec![q],
                    ..Solved::default()
                }))),
                Linear::General => None,
            }
        })
        .collect();
    let mut general: Vec<usize> = (0..batch.len())
        .filter(|&k| outcomes[k].is_none())
        .collect();
    // The profiles with the most unknowns first: they are the longest, and the last ones of
    // the batch (the enumeration's order), so that one started last kept its core busy while
    // the other cores had nothing left. Each answer goes back to its place in the batch.
    general
        .sort_by_key(|&k| std::cmp::Reverse(batch[k].iter().map(|s| s.len() - 1).sum::<usize>()));
    let solve = |k: &usize| -> Result<Outcome> {
        Ok(match solve_support(pay, &batch[*k], dens, meter, digits)? {
            Some(s) => Outcome::Solved(s),
            None => Outcome::Stopped,
        })
    };
    let solved: Vec<Result<Outcome>> = if general.len() >= 2 {
        // A time limit set on the calling thread (a server's request) holds on every core.
        let deadline = crate::core::progress::current_deadline();
        // Each core takes the next profile in that order as soon as it is free (rayon's
        // halving of the list let the other core take the small ones first, and then left it
        // one of the longest to finish alone).
        let next = AtomicUsize::new(0);
        let slots: Vec<Mutex<Option<Result<Outcome>>>> =
            general.iter().map(|_| Mutex::new(None)).collect();
        let workers = rayon::current_num_threads().min(general.len());
        (0..workers).into_par_iter().for_each(|_| loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(k) = general.get(i) else {
                break;
            };
            let outcome = crate::core::progress::with_deadline(deadline, || solve(k));
            if let Ok(mut slot) = slots[i].lock() {
                *slot = Some(outcome);
            }
        });
        slots
            .into_iter()
            .map(|slot| {
                slot.into_inner().ok().flatten().unwrap_or_else(|| {
                    Err(crate::core::error::Error::Invalid(
                        "a support profile was not solved".into(),
                    ))
                })
            })
            .collect()
    } else {
        general.iter().map(solve).collect()
    };
    for (k, outcome) in general.into_iter().zip(solved) {
        outcomes[k] = Some(outcome);
    }
    let outcomes = outcomes.into_iter().flatten();
    for (support, outcome) in batch.iter().zip(outcomes) {
        match outcome? {
            Outcome::Stopped => return Ok(false),
            Outcome::Pruned => report.pruned += 1,
            Outcome::Solved(solved) => {
                report.boxes += solved.boxes;
                report
                    .exact
                    .extend(solved.exact.iter().map(|q| full(pay, support, q)));
                for boxed in solved.certified {
                    report.certified.push(certified(pay, support, boxed));
                }
                report.unresolved.extend(solved.unresolved);
            }
        }
        report.examined += 1;
    }
    progress::tick(report.examined)?;
    Ok(!meter.halted.load(Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_in_order() {
        let mut c = vec![0, 1];
        let mut all = vec![c.clone()];
        while next_subset(&mut c, 4) {
            all.push(c.clone());
        }
        assert_eq!(all.len(), 6);
        assert_eq!(all[5], vec![2, 3]);
        assert_eq!(support_count(&[2, 2, 2]), 27);
    }

    /// A 3-player game whose full-support indifferences vanish at `p` (each player's
    /// probabilities): random integer payoffs, each strategy's row then shifted by a constant
    /// so that it pays at `p` what the first strategy pays.
    fn game_with_root(shape: &[usize], raw: &[i64], p: &[Vec<Q>]) -> NormalForm {
        let n = shape.len();
        let count: usize = shape.iter().product();
        let strides: Vec<usize> = (0..n).map(|i| shape[..i].iter().product()).collect();
        let mut pay = raw_payoffs(shape, raw);
        let strategy = |k: usize, j: usize| (k / strides[j]) % shape[j];
        for i in 0..n {
            let expect = |pay: &Vec<Vec<Q>>, a: usize| -> Q {
                (0..count)
                    .filter(|&k| strategy(k, i) == a)
                    .map(|k| {
                        let w: Q = (0..n)
                            .filter(|&j| j != i)
                            .map(|j| p[j][strategy(k, j)].clone())
                            .product();
                        w * &pay[k][i]
                    })
                    .sum()
            };
            let base = expect(&pay, 0);
            for a in 1..shape[i] {
                let shift = &base - expect(&pay, a);
                for (k, row) in pay.iter_mut().enumerate() {
                    if strategy(k, i) == a {
                        row[i] += &shift;
                    }
                }
            }
        }
        game_of(shape, pay)
    }

    /// Payoffs for every profile of `shape`: `raw`, repeated as needed, profile by profile.
    fn raw_payoffs(shape: &[usize], raw: &[i64]) -> Vec<Vec<Q>> {
        let n = shape.len();
        (0..shape.iter().product::<usize>())
            .map(|k| {
                (0..n)
                    .map(|i| Q::from_integer(raw[(k * n + i) % raw.len()].into()))
                    .collect()
            })
            .collect()
    }

    fn game_of(shape: &[usize], pay: Vec<Vec<Q>>) -> NormalForm {
        let names = |m: usize| (0..m).map(|t| t.to_string()).collect::<Vec<_>>();
        NormalForm::new(
            String::new(),
            (0..shape.len()).map(|i| format!("P{i}")).collect(),
            shape.iter().map(|&m| names(m)).collect(),
            pay,
        )
        .unwrap()
    }

    /// Whether the vertex and hull tests keep a box of width about `10^width` around a
    /// solution of the full support profile of a game of `shape` built to have the profile
    /// of `weights` as an equilibrium (`below`: where the solution sits in the box).
    fn keeps_root(
        shape: &[usize],
        raw: &[i64],
        weights: &[i64],
        below: &[f64],
        width: i32,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut used = 0;
        let p: Vec<Vec<Q>> = shape
            .iter()
            .map(|&m| {
                let w = &weights[used..used + m];
                used += m;
                let total: i64 = w.iter().sum();
                w.iter().map(|&v| Q::new(v.into(), total.into())).collect()
            })
            .collect();
        let game = game_with_root(shape, raw, &p);
        let pay = Payoffs::new(&game);
        let support: Vec<Vec<usize>> = shape.iter().map(|&m| (0..m).collect()).collect();
        let (sys, cq) = system(&pay, &support);
        let ci: Coefs<Iv<f64>> = Coefs::of(&cq);
        let cf: Coefs<f64> = Coefs::of(&cq);
        let r = 10f64.powi(width);
        let mut x: Vec<Iv<f64>> = p
            .iter()
            .flatten()
            .enumerate()
            .map(|(t, q)| {
                let v = <f64 as Scalar>::of(q);
                Iv::new(down(v - r * below[t]), up(v + r * (1.0 - below[t])))
            })
            .collect();
        for &o in &sys.off {
            x[o] = Iv::new(-1.0, 2.0);
        }
        proptest::prop_assert!(sys.tighten(&mut x));
        let corners = sys.corner_tables(&ci, &x).unwrap();
        let (eq, _) = sys.ranges(&ci, &x, Some(&corners));
        proptest::prop_assert!(eq.iter().all(|v| v.sign() == Order::Equal));
        // Nor by the hull of the vertices' values.
        proptest::prop_assert!(!sys.hull_excludes(&ci, &corners, &x));
        let m: Vec<f64> = x.iter().map(Iv::mid).collect();
        if let Some(y) = inverse(&sys.jacobian(&cf, &m)) {
            // Neither excluded nor narrowed off the root.
            let mut narrow = x.clone();
            proptest::prop_assert!(sys.vertex_narrow(
                &corners,
                &y,
                &x,
                &mut narrow,
                &mut Vec::new()
            ));
            for (v, q) in narrow.iter().zip(p.iter().flatten()) {
                let (lo, hi) = (v.lo.exact(), v.hi.exact());
                proptest::prop_assert!(&lo <= q && q <= &hi);
            }
        }
        Ok(())
    }

    proptest::proptest! {
        /// The vertex and hull tests never exclude a box that holds a solution, whatever its
        /// size and wherever the solution sits in it: on 3 x 3 x 3 games, and on 2^5 games,
        /// where each indifference also narrows each unknown by itself.
        #[test]
        fn the_vertex_and_hull_tests_keep_boxes_with_a_root(
            raw in proptest::collection::vec(0i64..100, 160),
            weights in proptest::collection::vec(1i64..20, 10),
            below in proptest::collection::vec(0.0f64..1.0, 10),
            width in -17i32..0,
            five in proptest::bool::ANY,
        ) {
            let shape: &[usize] = if five { &[2, 2, 2, 2, 2] } else { &[3, 3, 3] };
            keeps_root(shape, &raw, &weights, &below, width)?;
        }
    }

    proptest::proptest! {
        /// Each corner value's midpoint and radius hold the exact value at that corner.
        #[test]
        fn corner_values_hold_the_exact_ones(
            coef in proptest::collection::vec(-1000i64..1000, 27),
            ends in proptest::collection::vec((-1.0f64..1.0, 0.0f64..1.0), 6),
        ) {
            let dims = [3usize, 3, 3];
            let coef: Vec<Q> = coef.iter().map(|&c| Q::from_integer(c.into())).collect();
            let ci: Vec<Iv<f64>> = coef.iter().map(Iv::of).collect();
            // Axis a's entries 1.. (entry 0 is not used): ends[..] as [lo, lo + width].
            let mut at = 0;
            let boxes: Vec<Vec<Iv<f64>>> = dims
                .iter()
                .map(|&k| {
                    (0..k)
                        .map(|t| {
                            if t == 0 {
                                return Iv::new(0.0, 0.0);
                            }
                            let (lo, w) = ends[at];
                            at += 1;
                            Iv::new(lo, lo + w)
                        })
                        .collect()
                })
                .collect();
            let xs: Vec<&[Iv<f64>]> = boxes.iter().map(Vec::as_slice).collect();
            let (mid, rad) = corner_mid_rad(&ci, &dims, &xs);
            proptest::prop_assert_eq!(mid.len(), 1 << 6);
            for c in 0..mid.len() {
                let mut bit = 0;
                let points: Vec<Vec<Q>> = boxes
                    .iter()
                    .map(|b| {
                        b.iter()
                            .enumerate()
                            .map(|(t, v)| {
                                if t == 0 {
                                    return <Q as Zero>::zero();
                                }
                                bit += 1;
                                let end = if c >> (bit - 1) & 1 == 1 { v.hi } else { v.lo };
                                <f64 as Bound>::exact(&end)
                            })
                            .collect()
                    })
                    .collect();
                let slices: Vec<&[Q]> = points.iter().map(Vec::as_slice).collect();
                let exact = contract(&coef, &dims, &slices, None);
                let lo = <f64 as Bound>::exact(&down(mid[c] - rad[c]));
                let hi = <f64 as Bound>::exact(&up(mid[c] + rad[c]));
                proptest::prop_assert!(lo <= exact && exact <= hi);
            }
        }
    }

    proptest::proptest! {
        /// Residues agree with BigInt's remainder, and a rational's residue times its
        /// denominator's is its numerator's.
        #[test]
        fn residues_modulo_the_prime(a in proptest::prelude::any::<i128>(), b in 1u64..u64::MAX) {
            let p = BigInt::from(PRIME);
            let n = BigInt::from(a) * BigInt::from(a);
            let n = if a < 0 { -n } else { n };
            let r = ((&n % &p) + &p) % &p;
            proptest::prop_assert_eq!(BigInt::from(Fp::of_integer(&n).0), r);
            let q = Q::new(n.clone(), BigInt::from(b));
            if let Some(f) = Fp::of_rational(&q) {
                let back = f.mul(&Fp::of_integer(q.denom()));
                proptest::prop_assert_eq!(back.0, Fp::of_integer(q.numer()).0);
            }
        }

        /// The folding reduction is the remainder, for every 128-bit number, and sums and
        /// differences of residues stay residues.
        #[test]
        fn the_fold_is_the_remainder(x in proptest::prelude::any::<u128>(), a in 0..PRIME, b in 0..PRIME) {
            proptest::prop_assert_eq!(Fp::reduce(x) as u128, x % PRIME as u128);
            proptest::prop_assert_eq!(Fp(a).add(&Fp(b)).0 as u128, (a as u128 + b as u128) % PRIME as u128);
            proptest::prop_assert_eq!(Fp(a).sub(&Fp(b)).0 as u128, (a as u128 + PRIME as u128 - b as u128) % PRIME as u128);
            proptest::prop_assert_eq!(Fp::reduce(u128::MAX) as u128, u128::MAX % PRIME as u128);
        }
    }

    /// Every support profile of a game (each player's nonempty subsets).
    fn all_supports(shape: &[usize]) -> Vec<Vec<Vec<usize>>> {
        let mut out: Vec<Vec<Vec<usize>>> = vec![vec![]];
        for &m in shape {
            let subsets: Vec<Vec<usize>> = (1..1usize << m)
                .map(|bits| (0..m).filter(|t| bits >> t & 1 == 1).collect())
                .collect();
            out = out
                .into_iter()
                .flat_map(|s| {
                    subsets.iter().map(move |t| {
                        let mut s = s.clone();
                        s.push(t.clone());
                        s
                    })
                })
                .collect();
        }
        out
    }

    fn random_game(shape: &[usize], raw: &[i64]) -> NormalForm {
        game_of(shape, raw_payoffs(shape, raw))
    }

    /// Compares the closed forms with the subdivision on every support profile of `game`
    /// where three players mix two strategies each, or two mix two and one three; the number
    /// of profiles the closed form decided, and of the roots it found (exact, certified).
    fn closed_against_subdivision(
        game: &NormalForm,
    ) -> std::result::Result<(usize, (usize, usize)), proptest::test_runner::TestCaseError> {
        let pay = Payoffs::new(game);
        let dens = denominators(game);
        let opts = Options::default();
        let meter = Meter::new(&opts);
        let (mut decided, mut exact, mut certified) = (0, 0, 0);
        for support in all_supports(&game.shape()) {
            let Some(got) = closed::solve(&pay, &support, &dens, 16) else {
                continue;
            };
            decided += 1;
            let want = subdivide(&pay, &support, &dens, &meter, 16)
                .unwrap()
                .unwrap();
            if !want.unresolved.is_empty() {
                // Where the subdivision could not decide (a singular solution on the simplex's
                // boundary, outside this support), each root the closed form lists is one it
                // found or in a region it left open.
                let within = |p: &[Vec<Q>]| {
                    want.unresolved.iter().any(|u| {
                        p.iter()
                            .flatten()
                            .zip(u.lower.iter().flatten())
                            .all(|(v, l)| v >= l)
                            && p.iter()
                                .flatten()
                                .zip(u.upper.iter().flatten())
                                .all(|(v, h)| v <= h)
                    })
                };
                for q in &got.exact {
                    proptest::prop_assert!(
                        want.exact.contains(q) || within(&full(&pay, &support, q)),
                        "support {:?}",
                        support
                    );
                }
                for (b, _, _) in &got.certified {
                    let lo: Vec<Q> = b.iter().map(|v| v.lo.clone()).collect();
                    let meets = want
                        .certified
                        .iter()
                        .any(|(c, _, _)| b.iter().zip(c).all(|(u, v)| u.meet(v).is_some()));
                    proptest::prop_assert!(meets || within(&full(&pay, &support, &lo)));
                }
                continue;
            }
            let mut w = want.exact.clone();
            w.sort();
            proptest::prop_assert_eq!(&got.exact, &w, "support {:?}", support);
            proptest::prop_assert_eq!(got.certified.len(), want.certified.len());
            for (b, regret, _) in &got.certified {
                proptest::prop_assert!(
                    want.certified
                        .iter()
                        .any(|(c, _, _)| b.iter().zip(c).all(|(u, v)| u.meet(v).is_some())),
                    "support {:?}",
                    support
                );
                proptest::prop_assert!(regret < &Q::new(1.into(), BigInt::from(10).pow(12)));
            }
            exact += got.exact.len();
            certified += got.certified.len();
        }
        Ok((decided, (exact, certified)))
    }

    /// A root where the first indifference of the three-strategy player vanishes whatever the
    /// second one's probability (its ratio has a pole there) and one coefficient of another
    /// player's indifference does not depend on that probability: the doubles took zero times
    /// the unbounded ratio as not a number and dropped the root, so the enumeration missed
    /// this equilibrium (found by `closed_form_agrees_with_subdivision`).
    #[test]
    fn a_root_at_a_pole_with_a_coefficient_free_of_the_ratio() {
        let shape = [2, 2, 2, 3];
        let game = random_game(&shape, &[2, 1, 2, 4, 1, 4, 5, 1, 5, 0, 5, 4, 5, 4, 0]);
        let pay = Payoffs::new(&game);
        let dens = denominators(&game);
        let support = vec![vec![0], vec![0, 1], vec![0, 1], vec![0, 1, 2]];
        let got = closed::solve(&pay, &support, &dens, 16).expect("decided in closed form");
        let q = |n: i64, d: i64| Q::new(n.into(), d.into());
        let want = vec![
            q(1, 1),
            q(5, 9),
            q(4, 9),
            q(4, 27),
            q(23, 27),
            q(7, 18),
            q(5, 23),
            q(163, 414),
        ];
        assert_eq!(got.exact, vec![want.clone()]);
        // And the enumeration reports it.
        let report = enumerate(&game, &Options::default()).unwrap();
        let spread = full(&pay, &support, &want);
        assert!(report.exact.contains(&spread), "{:?}", report.exact);
    }

    /// The closed forms on random 2×2×2 and 2×2×3 games with payoffs 0..9 (mostly isolated
    /// roots, some of them rational): what the subdivision finds, and both kinds of roots met.
    #[test]
    fn closed_form_on_random_games() {
        for shape in [[2, 2, 2], [2, 2, 3], [3, 2, 2]] {
            closed_form_on_random(&shape);
        }
    }

    /// `cells` payoffs 0..9 from a linear congruential generator.
    fn digits_from(seed: &mut u64, cells: usize) -> Vec<i64> {
        (0..cells)
            .map(|_| {
                *seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((*seed >> 33) % 10) as i64
            })
            .collect()
    }

    fn closed_form_on_random(shape: &[usize]) {
        let mut seed: u64 = 7;
        let (mut decided, mut exact, mut certified) = (0, 0, 0);
        let cells = 3 * shape.iter().product::<usize>();
        for _ in 0..200 {
            let raw = digits_from(&mut seed, cells);
            let game = random_game(shape, &raw);
            let (d, (e, c)) = closed_against_subdivision(&game).unwrap();
            decided += d;
            exact += e;
            certified += c;
        }
        assert!(
            decided > 150 && exact > 0 && certified > 0,
            "{shape:?}: {decided} decided, {exact} exact, {certified} certified"
        );
    }

    /// The closed forms in big integers (payoffs times 2^58, whose quadratics overflow 128
    /// bits) give the answers they give in machine integers: scaling the payoffs changes no
    /// equilibrium.
    #[test]
    fn closed_forms_in_big_integers() {
        let mut seed: u64 = 11;
        let mut compared = 0;
        for shape in [[2, 2, 2], [2, 2, 3]] {
            let cells = 3 * shape.iter().product::<usize>();
            for _ in 0..60 {
                let raw = digits_from(&mut seed, cells);
                let big: Vec<i64> = raw.iter().map(|v| v << 58).collect();
                let (small_game, big_game) = (random_game(&shape, &raw), random_game(&shape, &big));
                let solve = |game: &NormalForm, support: &[Vec<usize>]| {
                    let (pay, dens) = (Payoffs::new(game), denominators(game));
                    closed::solve(&pay, support, &dens, 16)
                };
                for support in all_supports(&shape) {
                    let (a, b) = (solve(&small_game, &support), solve(&big_game, &support));
                    assert_eq!(a.is_some(), b.is_some(), "{raw:?} {support:?}");
                    let (Some(a), Some(b)) = (a, b) else { continue };
                    assert_eq!(a.exact, b.exact, "{raw:?} {support:?}");
                    assert_eq!(a.certified.len(), b.certified.len());
                    for ((x, _, _), (y, _, _)) in a.certified.iter().zip(&b.certified) {
                        assert!(x.iter().zip(y).all(|(u, v)| u.meet(v).is_some()));
                    }
                    compared += a.exact.len() + a.certified.len();
                }
            }
        }
        assert!(compared > 10, "{compared} roots compared");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Where at most two players mix, linear algebra finds what subdivision finds: the
        /// same equilibrium, or none, on every support profile it decides (small payoffs, so
        /// that ties and singular systems are common).
        #[test]
        fn linear_supports_agree_with_subdivision(
            shape in proptest::collection::vec(2usize..4, 3..5),
            raw in proptest::collection::vec(0i64..6, 1..200),
        ) {
            let game = random_game(&shape, &raw);
            let pay = Payoffs::new(&game);
            let dens = denominators(&game);
            let opts = Options::default();
            let meter = Meter::new(&opts);
            let mut decided = 0;
            for support in all_supports(&shape) {
                let bases: Vec<Vec<usize>> = (0..shape.len()).map(|i| pay.bases(i, &support)).collect();
                let want = match linear(&pay, &support, &bases) {
                    Linear::General => continue,
                    Linear::Nothing => vec![],
                    Linear::Equilibrium(q) => vec![q],
                };
                decided += 1;
                let got = solve_support(&pay, &support, &dens, &meter, 16).unwrap().unwrap();
                proptest::prop_assert_eq!(&got.exact, &want, "support {:?}", support);
                // The subdivision may leave a region undecided (a singular solution on the
                // simplex's boundary, outside this support) where linear algebra decides.
                proptest::prop_assert!(got.certified.is_empty());
                proptest::prop_assert!(got.unresolved.is_empty() || want.is_empty());
            }
            proptest::prop_assert!(decided > 0);
        }

        /// Where three players mix two strategies each, the closed form finds what the
        /// subdivision finds on every profile it decides: the same exact equilibria and as
        /// many certified ones, each box meeting one of the subdivision's (small payoffs, so
        /// that ties, poles and singular systems are common).
        #[test]
        fn closed_form_agrees_with_subdivision(
            shape in proptest::collection::vec(2usize..4, 3..5),
            raw in proptest::collection::vec(0i64..6, 1..200),
        ) {
            closed_against_subdivision(&random_game(&shape, &raw))?;
        }

        /// Machine integers give the big integers' answer whenever they do not overflow
        /// (payoffs near 2^60, so that many overflow).
        #[test]
        fn linear_supports_in_machine_integers(
            raw in proptest::collection::vec(-(1i64 << 60)..(1i64 << 60), 1..100),
            small in proptest::collection::vec(-3i64..4, 1..100),
            big in proptest::prelude::any::<bool>(),
        ) {
            let shape = [3usize, 3, 2];
            let game = random_game(&shape, if big { &raw } else { &small });
            let pay = Payoffs::new(&game);
            let table = pay.small.as_ref().unwrap();
            for support in all_supports(&shape) {
                let bases: Vec<Vec<usize>> = (0..3).map(|i| pay.bases(i, &support)).collect();
                let exact = linear_support(&pay, &pay.scaled, &support, &bases).unwrap();
                if let Ok(l) = linear_support(&pay, table, &support, &bases) {
                    proptest::prop_assert_eq!(l, exact);
                }
            }
        }
    }
}
