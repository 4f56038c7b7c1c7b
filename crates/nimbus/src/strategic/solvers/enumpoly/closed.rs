//! Support profiles on which exactly three players mix, two strategies each, solved in closed
//! form: one quadratic.
//!
//! Every other player plays one strategy, so each mixing player's indifference is bilinear in
//! the other two mixing players' second probabilities. Call them `x`, `y`, `z` (players `u`,
//! `v`, `w`, in order). `u`'s indifference gives `y = nu(z) / pu(z)` and `v`'s gives
//! `x = nv(z) / pv(z)`, ratios of linear functions of `z`; `w`'s, multiplied by both
//! denominators, is a quadratic `f(z)`. Every solution with `pu(z)` and `pv(z)` not zero has
//! `z` a root of `f`, and each such root gives exactly one solution. A solution where a
//! denominator vanishes needs its numerator to vanish there too, at a rational `z` that is
//! then a root of `f` as well: there one player is indifferent whatever its opponent does,
//! and the other two equations are linear in turn (McKelvey and McLennan's 2×2×2 game has
//! one of its two totally mixed equilibria there). Where the solutions are not isolated (`f`
//! vanishes identically, or a point's last equation does for every value of an unknown) the
//! profile is left to the subdivision, which reports continua.
//!
//! Roots are first placed by interval arithmetic on doubles, which discards those outside the
//! open cube (on random games most profiles end there, in machine integers). A rational root is
//! verified in rational arithmetic; an irrational one, `(-f1 ± sqrt(D)) / (2 f2)`, is enclosed
//! from an integer square root, its box shown to hold no other solution (the other root and the
//! denominators' zeros are outside it), and handed to the refinement that certifies the
//! subdivision's roots, which decides positivity and the strategies outside the supports and
//! bounds the regret. On the random 3×3×3 games of the benchmark a fifth of the subdivision's
//! time was on such profiles, and on 2×2×2 games the whole of it.

use crate::exact::interval::{down, up, Bound, Dy, Iv, Scalar};
use crate::exact::ring::{Overflow, Ring};
use crate::exact::Q;
use crate::strategic::solvers::enumpoly::{
    exact_is_equilibrium, refine, regret_bound, system, Coefs, Isolated, Payoffs, Solved,
};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

mod triple;

/// `c[0] + c[1] z`.
type Lin<T> = [T; 2];

/// The elimination of `x` and `y`: `y = nu / pu`, `x = nv / pv`, at the roots `z` of
/// `f[0] + f[1] z + f[2] z^2`.
struct Elim<T> {
    pu: Lin<T>,
    nu: Lin<T>,
    pv: Lin<T>,
    nv: Lin<T>,
    /// `w`'s indifference, `a + b x + c y + d x y`.
    w: [T; 4],
    f: [T; 3],
}

/// Which root of `f` (the quadratic formula's sign, or the one root of a linear `f`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Which {
    Linear,
    Minus,
    Plus,
}

/// What a closed form decided before exact arithmetic, with its coefficients `E` in big
/// integers and `K` unknowns.
enum Placed<E, const K: usize> {
    /// Not decided here.
    General,
    /// No root in the open cube.
    Nothing,
    /// Roots that may lie in the open cube (the others are outside it), with intervals of
    /// doubles around the unknowns (the whole line for a ratio the doubles cannot bound).
    Roots(Box<E>, Vec<(Which, [Iv<f64>; K])>),
}

/// The placement in machine integers, or in big ones when they overflow: `None` where the
/// closed form does not decide, `Some(None)` when no root is in the cube.
#[allow(clippy::type_complexity)]
fn placed<E, const K: usize>(
    pay: &Payoffs,
    small: impl FnOnce(&[Vec<i128>]) -> Result<Placed<E, K>, Overflow>,
    big: impl FnOnce(&[Vec<BigInt>]) -> Result<Placed<E, K>, Overflow>,
) -> Option<Option<(Box<E>, Vec<(Which, [Iv<f64>; K])>)>> {
    let p = match pay.small.as_deref().map(small) {
        Some(Ok(p)) => p,
        _ => big(&pay.scaled).ok()?,
    };
    match p {
        Placed::General => None,
        Placed::Nothing => Some(None),
        Placed::Roots(e, roots) => Some(Some((e, roots))),
    }
}

fn neg<T: Ring>(a: &T) -> Result<T, Overflow> {
    T::small(0).sub(a)
}

fn lin_mul<T: Ring>(a: &Lin<T>, b: &Lin<T>) -> Result<[T; 3], Overflow> {
    Ok([
        a[0].mul(&b[0])?,
        a[0].mul(&b[1])?.add(&a[1].mul(&b[0])?)?,
        a[1].mul(&b[1])?,
    ])
}

/// `w · a · b` added to `acc`.
fn add_scaled<T: Ring>(acc: &mut [T; 3], w: &T, a: &Lin<T>, b: &Lin<T>) -> Result<(), Overflow> {
    let p = lin_mul(a, b)?;
    for (s, t) in acc.iter_mut().zip(&p) {
        *s = s.add(&w.mul(t)?)?;
    }
    Ok(())
}

/// Player `i`'s indifference between its two strategies as `a + b s + c t + d s t`, where `s`
/// and `t` are the second probabilities of the first and second other mixing players.
fn bilinear<T: Ring>(
    pay: &Payoffs,
    table: &[Vec<T>],
    support: &[Vec<usize>],
    i: usize,
) -> Result<[T; 4], Overflow> {
    // Four profiles of the others' supports, the first other mixing player fastest.
    let bases = pay.bases(i, support);
    let st = pay.strides[i];
    let (a0, a1) = (support[i][0], support[i][1]);
    let c = |k: usize| table[i][bases[k] + a1 * st].sub(&table[i][bases[k] + a0 * st]);
    of_corners([c(0)?, c(1)?, c(2)?, c(3)?])
}

/// The bilinear function `a + b s + c t + d s t` with values `c00, c10, c01, c11` at the
/// corners `(s, t) = (0, 0), (1, 0), (0, 1), (1, 1)`.
fn of_corners<T: Ring>([c00, c10, c01, c11]: [T; 4]) -> Result<[T; 4], Overflow> {
    let b = c10.sub(&c00)?;
    let c = c01.sub(&c00)?;
    let d = c11.sub(&c10)?.sub(&c01)?.add(&c00)?;
    Ok([c00, b, c, d])
}

/// The interval of doubles around an integer.
fn iv<T: Ring>(t: &T) -> Iv<f64> {
    match t.to_small() {
        Some(s) if s.unsigned_abs() <= 1 << 53 => Iv::point(s as f64),
        _ => {
            let (lo, hi) = f64::enclose(&Q::from_integer(t.to_big()));
            Iv::new(lo, hi)
        }
    }
}

fn lin_iv(c: &[Iv<f64>; 2], z: &Iv<f64>) -> Iv<f64> {
    // `z` may be the whole line (a ratio at its pole), and zero times infinity is not a
    // number: a coefficient that does not depend on `z` is its constant term (taken as NaN,
    // every bound after it failed its comparisons, and a root with `u`'s indifference free of
    // `v`'s probability was dropped as outside the cube).
    if c[1].lo == 0.0 && c[1].hi == 0.0 {
        return c[0].clone();
    }
    let v = c[0].add(&c[1].mul(z));
    if v.lo.is_nan() || v.hi.is_nan() {
        line()
    } else {
        v
    }
}

/// `a / b`, rounded outward; `None` if `b` may be zero.
fn quotient(a: &Iv<f64>, b: &Iv<f64>) -> Option<Iv<f64>> {
    // (A bound that is not a number fails every comparison: no quotient is known.)
    if !(b.lo > 0.0 || b.hi < 0.0) || [a.lo, a.hi].iter().any(|v| v.is_nan()) {
        return None;
    }
    let q = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi];
    if q.iter().any(|v| v.is_nan()) {
        return None;
    }
    let lo = q.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = q.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some(Iv::new(down(lo), up(hi)))
}

/// The whole line, for a ratio the doubles cannot bound.
fn line() -> Iv<f64> {
    Iv::new(f64::NEG_INFINITY, f64::INFINITY)
}

/// The roots of `f` (not zero) as intervals of doubles, `None` if it has no real root.
#[allow(clippy::type_complexity)]
fn roots_f64<T: Ring>(f: &[T; 3]) -> Result<Option<Vec<(Which, Iv<f64>)>>, Overflow> {
    let fi = [iv(&f[0]), iv(&f[1]), iv(&f[2])];
    let mut roots = Vec::with_capacity(2);
    if f[2].signum_i() == 0 {
        if f[1].signum_i() != 0 {
            let x = quotient(&fi[0].mul(&Iv::point(-1.0)), &fi[1]).unwrap_or_else(line);
            roots.push((Which::Linear, x));
        }
        return Ok(Some(roots));
    }
    let disc = f[1].mul(&f[1])?.sub(&T::small(4).mul(&f[0])?.mul(&f[2])?)?;
    if disc.signum_i() < 0 {
        return Ok(None);
    }
    let d = iv(&disc);
    let s = Iv::new(down(d.lo.max(0.0).sqrt()), up(d.hi.sqrt()));
    let two_f2 = fi[2].mul(&Iv::point(2.0));
    let minus_f1 = fi[1].mul(&Iv::point(-1.0));
    roots.push((
        Which::Minus,
        quotient(&minus_f1.sub(&s), &two_f2).unwrap_or_else(line),
    ));
    if disc.signum_i() != 0 {
        roots.push((
            Which::Plus,
            quotient(&minus_f1.add(&s), &two_f2).unwrap_or_else(line),
        ));
    }
    Ok(Some(roots))
}

/// True when `v` lies outside `(0, 1)` for certain.
fn outside(v: &Iv<f64>) -> bool {
    v.hi <= 0.0 || v.lo >= 1.0
}

/// The elimination in the ring `T`, and the roots the doubles cannot exclude.
fn place<T: Ring>(
    pay: &Payoffs,
    table: &[Vec<T>],
    support: &[Vec<usize>],
    [u, v, w]: [usize; 3],
) -> Result<Placed<Elim<BigInt>, 3>, Overflow> {
    let [au, bu, cu, du] = bilinear(pay, table, support, u)?;
    let [av, bv, cv, dv] = bilinear(pay, table, support, v)?;
    let [aw, bw, cw, dw] = bilinear(pay, table, support, w)?;
    let pu = [bu, du];
    let nu = [neg(&au)?, neg(&cu)?];
    let pv = [bv, dv];
    let nv = [neg(&av)?, neg(&cv)?];
    let zero = |l: &Lin<T>| l.iter().all(|c| c.signum_i() == 0);
    if zero(&pu) || zero(&pv) {
        return Ok(Placed::General);
    }
    let mut f = [T::small(0), T::small(0), T::small(0)];
    add_scaled(&mut f, &aw, &pu, &pv)?;
    add_scaled(&mut f, &bw, &nv, &pu)?;
    add_scaled(&mut f, &cw, &nu, &pv)?;
    add_scaled(&mut f, &dw, &nv, &nu)?;
    if f.iter().all(|c| c.signum_i() == 0) {
        return Ok(Placed::General);
    }
    let Some(roots) = roots_f64(&f)? else {
        return Ok(Placed::Nothing);
    };
    let (pui, nui, pvi, nvi) = (
        [iv(&pu[0]), iv(&pu[1])],
        [iv(&nu[0]), iv(&nu[1])],
        [iv(&pv[0]), iv(&pv[1])],
        [iv(&nv[0]), iv(&nv[1])],
    );
    let kept: Vec<(Which, [Iv<f64>; 3])> = roots
        .into_iter()
        .filter_map(|(which, z)| {
            let y = quotient(&lin_iv(&nui, &z), &lin_iv(&pui, &z)).unwrap_or_else(line);
            let x = quotient(&lin_iv(&nvi, &z), &lin_iv(&pvi, &z)).unwrap_or_else(line);
            (!(outside(&z) || outside(&x) || outside(&y))).then_some((which, [x, y, z]))
        })
        .collect();
    if kept.is_empty() {
        return Ok(Placed::Nothing);
    }
    let l = |c: &[T]| [c[0].to_big(), c[1].to_big()];
    let e = Elim {
        pu: l(&pu),
        nu: l(&nu),
        pv: l(&pv),
        nv: l(&nv),
        w: [aw, bw, cw, dw].map(|c| c.to_big()),
        f: f.map(|c| c.to_big()),
    };
    Ok(Placed::Roots(Box::new(e), kept))
}

fn at(c: &Lin<BigInt>, z: &Q) -> Q {
    Q::from_integer(c[0].clone()) + z * Q::from_integer(c[1].clone())
}

/// The three mixing players, when exactly three mix over two strategies each and the others
/// play one.
fn shape(support: &[Vec<usize>]) -> Option<[usize; 3]> {
    let mut mixing = support.iter().enumerate().filter(|(_, s)| s.len() > 1);
    let (u, v, w) = (mixing.next()?, mixing.next()?, mixing.next()?);
    if mixing.next().is_some() || [u, v, w].iter().any(|(_, s)| s.len() != 2) {
        return None;
    }
    Some([u.0, v.0, w.0])
}

/// A point of the support profile with the mixing players' second probabilities `t`
/// (`S` an exact number or an interval).
fn point<S: Scalar>(support: &[Vec<usize>], mixing: [usize; 3], t: [S; 3]) -> Vec<S> {
    let mut out = Vec::with_capacity(support.len() + 3);
    for (i, s) in support.iter().enumerate() {
        match mixing.iter().position(|&m| m == i) {
            Some(k) => {
                out.push(S::unit().sub(&t[k]));
                out.push(t[k].clone());
            }
            None => out.extend((0..s.len()).map(|_| S::unit())),
        }
    }
    out
}

/// Every equilibrium of a support profile on which exactly three players mix, two strategies
/// each or two, two and three, or `None` for other profiles and where the closed form does not
/// decide (the subdivision then does).
pub(super) fn solve(
    pay: &Payoffs,
    support: &[Vec<usize>],
    dens: &[BigInt],
    digits: u32,
) -> Option<Solved> {
    if let Some(mixing) = shape(support) {
        return solve_three(pay, support, mixing, dens, digits);
    }
    let players = triple::shape(support)?;
    triple::solve(pay, support, players, dens, digits)
}

/// [`solve`] where three players mix two strategies each.
fn solve_three(
    pay: &Payoffs,
    support: &[Vec<usize>],
    mixing: [usize; 3],
    dens: &[BigInt],
    digits: u32,
) -> Option<Solved> {
    let Some((e, roots)) = placed(
        pay,
        |t| place(pay, t, support, mixing),
        |t| place(pay, t, support, mixing),
    )?
    else {
        return Some(Solved::default());
    };
    settle(
        Setting {
            pay,
            support,
            dens,
            digits,
            f: &e.f,
        },
        roots,
        |t| point(support, mixing, t),
        |z| rational_solution(&e, support, mixing, z),
        |disc, which, bits| {
            Some(point(
                support,
                mixing,
                irrational_box(&e, disc, which, bits)?,
            ))
        },
    )
}

/// What both closed forms decide the same way once their roots are placed.
struct Setting<'a> {
    pay: &'a Payoffs,
    support: &'a [Vec<usize>],
    dens: &'a [BigInt],
    digits: u32,
    /// The quadratic whose roots are placed.
    f: &'a [BigInt; 3],
}

/// The equilibria at the placed roots of `s.f`: those the doubles show beaten by a strategy
/// outside the supports are dropped; rational roots give their point by `rational` (`Err`
/// where the solutions are not isolated), checked exactly; irrational ones a box by
/// `irrational` (from the discriminant, the root and the bits asked), proved to hold that one
/// solution, which the refinement certifies. `None` where this does not decide.
fn settle<const K: usize>(
    s: Setting,
    roots: Vec<(Which, [Iv<f64>; K])>,
    point_of: impl Fn([Iv<f64>; K]) -> Vec<Iv<f64>>,
    rational: impl Fn(Q) -> Result<Option<Vec<Q>>, ()>,
    irrational: impl Fn(&BigInt, Which, u64) -> Option<Vec<Iv<Dy>>>,
) -> Option<Solved> {
    let mut out = Solved::default();
    let (sys, cq) = system(s.pay, s.support);
    let ci: Coefs<Iv<f64>> = Coefs::of(&cq);
    // Most roots in the cube give a strategy outside the supports a better payoff, which the
    // doubles already show.
    let roots: Vec<Which> = roots
        .into_iter()
        .filter(|(_, t)| {
            let finite = t.iter().all(|v| v.lo.is_finite() && v.hi.is_finite());
            !finite
                || !sys
                    .inequalities(&ci, &point_of(t.clone()))
                    .iter()
                    .any(|v| v.sign() == Ordering::Greater)
        })
        .map(|(w, _)| w)
        .collect();
    if roots.is_empty() {
        return Some(out);
    }
    let [f0, f1, f2] = s.f;
    let disc = f1 * f1 - BigInt::from(4) * f0 * f2;
    let root = disc.sqrt();
    if f2.is_zero() || &root * &root == disc {
        for which in roots {
            let t = match which {
                Which::Linear => Q::new(-f0, f1.clone()),
                Which::Minus => Q::new(-f1 - &root, f2 * 2),
                Which::Plus => Q::new(-f1 + &root, f2 * 2),
            };
            if let Some(q) = rational(t).ok()? {
                if exact_is_equilibrium(&sys, &cq, &q) {
                    out.exact.push(q);
                }
            }
        }
        out.exact.sort();
        return Some(out);
    }
    let cf: Coefs<f64> = Coefs::of(&cq);
    let cd: Coefs<Dy> = Coefs::of(&cq);
    let bits = (s.digits as f64 * 3.33) as u64 + 88;
    for which in roots {
        let start = irrational(&disc, which, bits)?;
        match refine(&sys, &cq, &cd, &ci, &cf, start, s.digits, false) {
            Isolated::Exact(q) => out.exact.push(q),
            Isolated::Certified(b) => {
                let (regret, payoffs) = regret_bound(s.pay, &sys, &b, s.dens, s.digits);
                out.certified.push((b, regret, payoffs));
            }
            Isolated::NotEquilibrium => {}
            Isolated::Undecided(_) => return None,
        }
    }
    // In the order the subdivision lists its roots: by the lower ends of their boxes.
    out.certified.sort_by(|a, b| {
        a.0.iter()
            .map(|v| &v.lo)
            .partial_cmp(b.0.iter().map(|v| &v.lo))
            .unwrap_or(Ordering::Equal)
    });
    Some(out)
}

/// The point of the solution at the rational root `z`, `Ok(None)` if there is none there, and
/// `Err` where the solutions through `z` are not isolated.
fn rational_solution(
    e: &Elim<BigInt>,
    support: &[Vec<usize>],
    mixing: [usize; 3],
    z: Q,
) -> Result<Option<Vec<Q>>, ()> {
    let (pu, nu, pv, nv) = (at(&e.pu, &z), at(&e.nu, &z), at(&e.pv, &z), at(&e.nv, &z));
    let inside = |t: &Q| t.is_positive() && t < &Q::one();
    let [a, b, c, d] = e.w.clone().map(Q::from_integer);
    // `k0 + k1 s = 0`, for `s`.
    let last = |k0: Q, k1: Q| match (k1.is_zero(), k0.is_zero()) {
        (false, _) => Ok(Some(-k0 / k1)),
        (true, true) => Err(()),
        (true, false) => Ok(None),
    };
    // One unknown `t` known, the other from the last equation, `k0 + k1 t + (k2 + k3 t) s`.
    let then = |t: Q, k: [&Q; 4]| -> Result<Option<(Q, Q)>, ()> {
        if !inside(&t) {
            return Ok(None);
        }
        Ok(last(k[0] + k[1] * &t, k[2] + k[3] * &t)?.map(|s| (t, s)))
    };
    let (x, y) = match (pu.is_zero(), pv.is_zero()) {
        (false, false) => (nv / pv, nu / pu),
        // `u` indifferent whatever `v` plays: `x` from `v`'s equation, then `y` from the last.
        (true, false) if nu.is_zero() => match then(nv / pv, [&a, &b, &c, &d])? {
            Some((x, y)) => (x, y),
            None => return Ok(None),
        },
        (false, true) if nv.is_zero() => match then(nu / pu, [&a, &c, &b, &d])? {
            Some((y, x)) => (x, y),
            None => return Ok(None),
        },
        (true, true) if nu.is_zero() && nv.is_zero() => return Err(()),
        // A denominator's zero where its numerator is not: no solution.
        _ => return Ok(None),
    };
    Ok(Some(point(support, mixing, [x, y, z])))
}

/// The irrational root `which` of `f` (discriminant `disc`) between two multiples of
/// `2^-bits`, in an interval narrower than the distance to the other root.
fn root_interval(f: &[BigInt; 3], disc: &BigInt, which: Which, bits: u64) -> Option<(Dy, Dy)> {
    let [_, f1, f2] = f;
    // sqrt(D) lies in [s, s + 1] / 2^bits.
    let s = (disc << (2 * bits)).sqrt();
    let den = Dy::int(f2 << (bits + 1));
    let sign = if which == Which::Plus { 1 } else { -1 };
    let ends = [&s, &(&s + 1)].map(|s| Dy::int((-f1 << bits) + s * sign));
    let (lo, hi) = (
        ends.iter().map(|n| n.div_to(&den, bits, false)).min()?,
        ends.iter().map(|n| n.div_to(&den, bits, true)).max()?,
    );
    // The other root is sqrt(D) / |f2| >= s / (2^bits |f2|) away: more than the width.
    (hi.sub(&lo).mul(&Dy::int(f2.abs() << bits)) < Dy::int(s)).then_some((lo, hi))
}

/// `c[0] + c[1] t`, exactly.
fn lin_dy(c: &Lin<BigInt>, t: &Dy) -> Dy {
    Dy::int(c[0].clone()).add(&Dy::int(c[1].clone()).mul(t))
}

/// The range of `n / p` for `t` in `[lo, hi]`, rounded outward to multiples of `2^-bits`;
/// `None` if `p` may vanish there.
fn ratio_range(n: &Lin<BigInt>, p: &Lin<BigInt>, lo: &Dy, hi: &Dy, bits: u64) -> Option<Iv<Dy>> {
    let zero = Dy::int(BigInt::zero());
    let (dl, dh) = (lin_dy(p, lo), lin_dy(p, hi));
    // A linear function with one sign at both ends has no zero between them.
    if dl == zero || dh == zero || (dl < zero) != (dh < zero) {
        return None;
    }
    // A ratio of linear functions is monotone where its denominator keeps its sign: it lies
    // between its values at the ends.
    let (nl, nh) = (lin_dy(n, lo), lin_dy(n, hi));
    let low = nl.div_to(&dl, bits, false).min(nh.div_to(&dh, bits, false));
    let high = nl.div_to(&dl, bits, true).max(nh.div_to(&dh, bits, true));
    Some(Iv::new(low, high))
}

/// A box of dyadics, narrower than `2^-bits` or so, around the solution at the irrational root
/// `which` of `f`, proved to hold no other solution (the other root and the denominators'
/// zeros are outside it); `None` if that cannot be shown.
fn irrational_box(e: &Elim<BigInt>, disc: &BigInt, which: Which, bits: u64) -> Option<[Iv<Dy>; 3]> {
    let (zl, zh) = root_interval(&e.f, disc, which, bits)?;
    let x = ratio_range(&e.nv, &e.pv, &zl, &zh, bits)?;
    let y = ratio_range(&e.nu, &e.pu, &zl, &zh, bits)?;
    Some([x, y, Iv::new(zl, zh)])
}
