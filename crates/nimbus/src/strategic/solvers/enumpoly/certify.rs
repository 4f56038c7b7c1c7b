//! Solutions made exact where they are rational (the simplest rational in each interval, tried
//! in exact arithmetic, and checked modulo a prime first), refined by Krawczyk's operator in
//! rational intervals, with a rigorous bound on the regret of the irrational ones.

use super::*;

/// The simplest rational point of a box, if it solves the system exactly.
pub(super) fn exact_point<B: Bound>(sys: &System, cq: &Coefs<Q>, x: &[Iv<B>]) -> Option<Vec<Q>> {
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
pub(super) const PRIME: u64 = (1 << 61) - 1;

/// A residue modulo [`PRIME`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Fp(pub(super) u64);

impl Fp {
    /// `x mod PRIME` without a division: `2^61 = 1` modulo the prime, so the high bits fold
    /// onto the low ones (twice, for any `x` below `2^128`).
    pub(super) fn reduce(x: u128) -> u64 {
        let p = PRIME as u128;
        let x = (x & p) + (x >> 61);
        let x = ((x & p) + (x >> 61)) as u64;
        if x >= PRIME {
            x - PRIME
        } else {
            x
        }
    }

    pub(super) fn product(a: u64, b: u64) -> u64 {
        Fp::reduce(a as u128 * b as u128)
    }

    /// An integer's residue, from its 64-bit digits (most significant first).
    pub(super) fn of_integer(n: &BigInt) -> Fp {
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
    pub(super) fn inverse(self) -> Fp {
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
    pub(super) fn of_rational(q: &Q) -> Option<Fp> {
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
pub(super) fn exact_is_equilibrium(sys: &System, cq: &Coefs<Q>, q: &[Q]) -> bool {
    q.iter().all(Signed::is_positive) && sys.inequalities(cq, q).iter().all(|v| !v.is_positive())
}

/// Narrows a box holding a solution by Krawczyk steps in doubles, while each takes off at
/// least a tenth of its width (the free unknowns only: the first probabilities follow).
pub(super) fn narrow_in_doubles(
    sys: &System,
    ci: &Coefs<Iv<f64>>,
    cf: &Coefs<f64>,
    x: &mut [Iv<Dy>],
) {
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
pub(super) enum Isolated {
    Exact(Vec<Q>),
    Certified(Vec<Iv<Q>>),
    NotEquilibrium,
    Undecided(Vec<Iv<Q>>),
}

/// Narrows a box proved to hold one solution until the solution is found exactly, or is
/// decided (positive, no better strategy outside) and the box is narrower than asked.
/// `rational: false` says the solution is known to be irrational (no rational is tried).
#[allow(clippy::too_many_arguments)]
pub(super) fn refine(
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

/// Probabilities on a support spread over every strategy (zero elsewhere).
pub(super) fn full(pay: &Payoffs, support: &[Vec<usize>], x: &[Q]) -> Vec<Vec<Q>> {
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
pub(super) fn spread_box(
    pay: &Payoffs,
    support: &[Vec<usize>],
    b: &[Iv<Q>],
) -> (Vec<Vec<Q>>, Vec<Vec<Q>>) {
    let lo: Vec<Q> = b.iter().map(|v| v.lo.clone()).collect();
    let hi: Vec<Q> = b.iter().map(|v| v.hi.clone()).collect();
    (full(pay, support, &lo), full(pay, support, &hi))
}

/// An upper bound on the regret over the box, and each player's payoff interval, in the
/// game's own units (`dens[i]`: what player `i`'s payoffs were scaled by), its ends on a grid
/// of `2^-(3.33 digits + 24)` in the scaled units.
pub(super) fn regret_bound(
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
