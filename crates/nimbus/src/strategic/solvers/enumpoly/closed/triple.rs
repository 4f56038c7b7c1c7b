//! Support profiles on which exactly three players mix, two of them over two strategies and
//! one over three, solved in closed form.
//!
//! Call the two-strategy players' second probabilities `x` and `y` (players `u` and `v`, in
//! order) and the third player's `(1 - z1 - z2, z1, z2)` (player `w`). `w`'s two
//! indifferences are bilinear in `x` and `y` alone: the first gives `y = n(x) / p(x)`, and the
//! second, times `p(x)`, is a quadratic in `x` (or `p` and `n` vanish together at a rational
//! `x`, where the second equation is linear in `y`), as in the parent module. At each such
//! `(x, y)`, `u`'s and `v`'s indifferences are linear in `(z1, z2)`: one 2 × 2 system. A
//! singular system, or a quadratic that vanishes identically, is left to the subdivision.

use crate::exact::interval::{Dy, Iv, Scalar};
use crate::exact::ring::{Overflow, Ring};
use crate::exact::Q;
use crate::strategic::solvers::enumpoly::closed::{
    add_scaled, at, iv, lin_iv, line, neg, of_corners, outside, placed, quotient, ratio_range,
    root_interval, roots_f64, settle, Lin, Placed, Setting, Which,
};
use crate::strategic::solvers::enumpoly::{Payoffs, Solved};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// The two-strategy players `u < v` and the three-strategy player `w`, when exactly these
/// three mix and the others play one strategy.
pub(super) fn shape(support: &[Vec<usize>]) -> Option<[usize; 3]> {
    let mixing: Vec<usize> = (0..support.len())
        .filter(|&i| support[i].len() > 1)
        .collect();
    if mixing.len() != 3 {
        return None;
    }
    let three: Vec<usize> = mixing
        .iter()
        .copied()
        .filter(|&i| support[i].len() == 3)
        .collect();
    let two: Vec<usize> = mixing
        .iter()
        .copied()
        .filter(|&i| support[i].len() == 2)
        .collect();
    (three.len() == 1 && two.len() == 2).then(|| [two[0], two[1], three[0]])
}

/// What the doubles left of the profile.
struct Coefficients<T> {
    /// `y = n(x) / p(x)` from `w`'s first indifference.
    p: Lin<T>,
    n: Lin<T>,
    /// `w`'s second indifference, `a + b x + c y + d x y`.
    second: [T; 4],
    /// `u`'s indifference `g[0] + g[1] z1 + g[2] z2`, each coefficient linear in `y`.
    g: [Lin<T>; 3],
    /// `v`'s indifference `h[0] + h[1] z1 + h[2] z2`, each coefficient linear in `x`.
    h: [Lin<T>; 3],
    f: [T; 3],
}

/// Player `i`'s payoff from `a` minus from its first strategy, where the players `picks`
/// name play the strategies they name and every other player its only one.
fn diff<T: Ring>(
    pay: &Payoffs,
    table: &[Vec<T>],
    support: &[Vec<usize>],
    i: usize,
    a: usize,
    picks: [(usize, usize); 2],
) -> Result<T, Overflow> {
    let mut base = 0;
    for (j, s) in support.iter().enumerate() {
        if j != i && picks.iter().all(|&(k, _)| k != j) {
            base += s[0] * pay.strides[j];
        }
    }
    for (j, t) in picks {
        base += t * pay.strides[j];
    }
    let st = pay.strides[i];
    table[i][base + a * st].sub(&table[i][base + support[i][0] * st])
}

/// `u`'s (or `v`'s) indifference as `[g0, g1, g2]` over `w`'s probabilities, each linear in
/// the other two-strategy player's (`other`) second probability.
fn against_w<T: Ring>(
    pay: &Payoffs,
    table: &[Vec<T>],
    support: &[Vec<usize>],
    [i, other, w]: [usize; 3],
) -> Result<[Lin<T>; 3], Overflow> {
    let a = support[i][1];
    let e = |s: usize, k: usize| {
        diff(
            pay,
            table,
            support,
            i,
            a,
            [(other, support[other][s]), (w, support[w][k])],
        )
    };
    // At other's strategy s: e(s, 0) + (e(s, 1) - e(s, 0)) z1 + (e(s, 2) - e(s, 0)) z2.
    let at = |s: usize| -> Result<[T; 3], Overflow> {
        let e0 = e(s, 0)?;
        Ok([e0.clone(), e(s, 1)?.sub(&e0)?, e(s, 2)?.sub(&e0)?])
    };
    let (c0, c1) = (at(0)?, at(1)?);
    let lin = |k: usize| -> Result<Lin<T>, Overflow> { Ok([c0[k].clone(), c1[k].sub(&c0[k])?]) };
    Ok([lin(0)?, lin(1)?, lin(2)?])
}

fn place<T: Ring>(
    pay: &Payoffs,
    table: &[Vec<T>],
    support: &[Vec<usize>],
    [u, v, w]: [usize; 3],
) -> Result<Placed<Coefficients<BigInt>, 4>, Overflow> {
    let bil = |a: usize| -> Result<[T; 4], Overflow> {
        let c = |s: usize, r: usize| {
            diff(
                pay,
                table,
                support,
                w,
                a,
                [(u, support[u][s]), (v, support[v][r])],
            )
        };
        of_corners([c(0, 0)?, c(1, 0)?, c(0, 1)?, c(1, 1)?])
    };
    let [a1, b1, c1, d1] = bil(support[w][1])?;
    let second = bil(support[w][2])?;
    let p = [c1, d1];
    let n = [neg(&a1)?, neg(&b1)?];
    if p.iter().all(|c| c.signum_i() == 0) {
        return Ok(Placed::General);
    }
    let [a2, b2, c2, d2] = second.clone();
    let mut f = [T::small(0), T::small(0), T::small(0)];
    add_scaled(&mut f, &T::small(1), &[a2, b2], &p)?;
    add_scaled(&mut f, &T::small(1), &[c2, d2], &n)?;
    if f.iter().all(|c| c.signum_i() == 0) {
        return Ok(Placed::General);
    }
    let g = against_w(pay, table, support, [u, v, w])?;
    let h = against_w(pay, table, support, [v, u, w])?;
    let Some(roots) = roots_f64(&f)? else {
        return Ok(Placed::Nothing);
    };
    let ivl = |c: &Lin<T>| [iv(&c[0]), iv(&c[1])];
    let (pi, ni) = (ivl(&p), ivl(&n));
    let (gi, hi) = (g.each_ref().map(ivl), h.each_ref().map(ivl));
    let kept: Vec<(Which, [Iv<f64>; 4])> = roots
        .into_iter()
        .filter_map(|(which, x)| {
            let y = quotient(&lin_iv(&ni, &x), &lin_iv(&pi, &x)).unwrap_or_else(line);
            if outside(&x) || outside(&y) {
                return None;
            }
            let z = cramer_f64(
                &gi.each_ref().map(|c| lin_iv(c, &y)),
                &hi.each_ref().map(|c| lin_iv(c, &x)),
            )
            .unwrap_or_else(|| [line(), line()]);
            let z0 = Iv::point(1.0).sub(&z[0]).sub(&z[1]);
            if outside(&z[0]) || outside(&z[1]) || outside(&z0) {
                return None;
            }
            let [z1, z2] = z;
            Some((which, [x, y, z1, z2]))
        })
        .collect();
    if kept.is_empty() {
        return Ok(Placed::Nothing);
    }
    let l = |c: &Lin<T>| [c[0].to_big(), c[1].to_big()];
    let e = Coefficients {
        p: l(&p),
        n: l(&n),
        second: second.map(|c| c.to_big()),
        g: g.each_ref().map(l),
        h: h.each_ref().map(l),
        f: f.map(|c| c.to_big()),
    };
    Ok(Placed::Roots(Box::new(e), kept))
}

/// `(z1, z2)` with `g0 + g1 z1 + g2 z2 = 0` and `h0 + h1 z1 + h2 z2 = 0`, in intervals of
/// doubles; `None` if the determinant may vanish.
fn cramer_f64(g: &[Iv<f64>; 3], h: &[Iv<f64>; 3]) -> Option<[Iv<f64>; 2]> {
    let det = g[1].mul(&h[2]).sub(&g[2].mul(&h[1]));
    let z1 = g[2].mul(&h[0]).sub(&g[0].mul(&h[2]));
    let z2 = g[0].mul(&h[1]).sub(&g[1].mul(&h[0]));
    Some([quotient(&z1, &det)?, quotient(&z2, &det)?])
}

/// `a / b` for dyadic intervals, rounded outward to multiples of `2^-bits`; `None` if `b` may
/// vanish.
fn quotient_dy(a: &Iv<Dy>, b: &Iv<Dy>, bits: u64) -> Option<Iv<Dy>> {
    if b.sign() == Ordering::Equal {
        return None;
    }
    let ends = [
        (&a.lo, &b.lo),
        (&a.lo, &b.hi),
        (&a.hi, &b.lo),
        (&a.hi, &b.hi),
    ];
    let lo = ends.iter().map(|(n, d)| n.div_to(d, bits, false)).min()?;
    let hi = ends.iter().map(|(n, d)| n.div_to(d, bits, true)).max()?;
    Some(Iv::new(lo, hi))
}

/// The point of the profile with `u`'s and `v`'s second probabilities `x`, `y` and `w`'s last
/// two `z1`, `z2`.
fn point<S: Scalar>(
    support: &[Vec<usize>],
    [u, v, w]: [usize; 3],
    [x, y, z1, z2]: [S; 4],
) -> Vec<S> {
    let mut out = Vec::with_capacity(support.len() + 4);
    for (i, s) in support.iter().enumerate() {
        if i == u || i == v {
            let t = if i == u { &x } else { &y };
            out.push(S::unit().sub(t));
            out.push(t.clone());
        } else if i == w {
            out.push(S::unit().sub(&z1).sub(&z2));
            out.push(z1.clone());
            out.push(z2.clone());
        } else {
            out.extend((0..s.len()).map(|_| S::unit()));
        }
    }
    out
}

/// Every equilibrium of a support profile of this shape, or `None` where the closed form does
/// not decide (the subdivision then does).
pub(super) fn solve(
    pay: &Payoffs,
    support: &[Vec<usize>],
    players: [usize; 3],
    dens: &[BigInt],
    digits: u32,
) -> Option<Solved> {
    let Some((e, roots)) = placed(
        pay,
        |t| place(pay, t, support, players),
        |t| place(pay, t, support, players),
    )?
    else {
        return Some(Solved::default());
    };
    let irrational = |disc: &BigInt, which: Which, bits: u64| {
        let (xl, xh) = root_interval(&e.f, disc, which, bits)?;
        let y = ratio_range(&e.n, &e.p, &xl, &xh, bits)?;
        let x = Iv::new(xl, xh);
        let lin = |c: &Lin<BigInt>, t: &Iv<Dy>| {
            let [a, b] = c.clone().map(|v| Iv::point(Dy::int(v)));
            a.add(&b.mul(t))
        };
        let g = e.g.each_ref().map(|c| lin(c, &y));
        let h = e.h.each_ref().map(|c| lin(c, &x));
        // The determinant keeps one sign over the box, so each (x, y) in it has one (z1, z2):
        // the box holds one solution.
        let det = g[1].mul(&h[2]).sub(&g[2].mul(&h[1]));
        let z1 = quotient_dy(&g[2].mul(&h[0]).sub(&g[0].mul(&h[2])), &det, bits)?;
        let z2 = quotient_dy(&g[0].mul(&h[1]).sub(&g[1].mul(&h[0])), &det, bits)?;
        Some(point(support, players, [x, y, z1, z2]))
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
        |t| point(support, players, t),
        |x| rational_solution(&e, support, players, x),
        irrational,
    )
}

/// The point of the solution at the rational root `x`, `Ok(None)` if there is none there, and
/// `Err` where the solutions through `x` are not isolated.
fn rational_solution(
    e: &Coefficients<BigInt>,
    support: &[Vec<usize>],
    players: [usize; 3],
    x: Q,
) -> Result<Option<Vec<Q>>, ()> {
    let inside = |t: &Q| t.is_positive() && t < &Q::one();
    let (p, n) = (at(&e.p, &x), at(&e.n, &x));
    let y = if !p.is_zero() {
        n / p
    } else if n.is_zero() {
        // `w`'s first indifference holds whatever `y`: `y` from the second, linear in it.
        let [a, b, c, d] = e.second.clone().map(Q::from_integer);
        let (k0, k1) = (&a + &b * &x, &c + &d * &x);
        match (k1.is_zero(), k0.is_zero()) {
            (false, _) => -k0 / k1,
            (true, true) => return Err(()),
            (true, false) => return Ok(None),
        }
    } else {
        return Ok(None);
    };
    if !inside(&x) || !inside(&y) {
        return Ok(None);
    }
    let g = e.g.each_ref().map(|c| at(c, &y));
    let h = e.h.each_ref().map(|c| at(c, &x));
    let det = &g[1] * &h[2] - &g[2] * &h[1];
    if det.is_zero() {
        return Err(());
    }
    let z1 = (&g[2] * &h[0] - &g[0] * &h[2]) / &det;
    let z2 = (&g[0] * &h[1] - &g[1] * &h[0]) / &det;
    Ok(Some(point(support, players, [x, y, z1, z2])))
}
