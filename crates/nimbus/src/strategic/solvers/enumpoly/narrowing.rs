//! The interval methods on a box: the ranges and vertex values of the equations, their
//! combination by the inverse Jacobian, the narrowing of each unknown, the whole-box linear
//! program, and Krawczyk's operator.

use super::*;

/// The range of a tensor written by [`on_simplex`] over a box of probabilities: the
/// polynomial is affine in each probability, so its extremes are at the box's vertices, and
/// evaluating it there (each in outward-rounded intervals) gives the range itself rather than
/// the overestimate of interval evaluation. Too many vertices fall back to the latter.
pub(super) fn range(coef: &[Iv<f64>], dims: &[usize], xs: &[&[Iv<f64>]]) -> Iv<f64> {
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
pub(super) fn corner_values(coef: &[Iv<f64>], dims: &[usize], xs: &[&[Iv<f64>]]) -> Vec<Iv<f64>> {
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
pub(super) fn corner_mid_rad(
    coef: &[Iv<f64>],
    dims: &[usize],
    xs: &[&[Iv<f64>]],
) -> (Vec<f64>, Vec<f64>) {
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
pub(super) type Table = (Vec<f64>, Vec<f64>);

/// Sums over a player's corners: of midpoints, of radii, of magnitudes.
pub(super) type Sums = (Vec<f64>, Vec<f64>, Vec<f64>);

/// Unknowns up to which [`System::vertex_narrow`] runs (it visits every vertex of the box).
pub(super) const VERTEX_UNKNOWNS: usize = 12;

/// Unknowns up to which [`System::hull_excludes`] runs (a linear program over every vertex).
pub(super) const HULL_UNKNOWNS: usize = 10;

impl System {
    pub(super) fn slices<'a, S>(&self, x: &'a [S], p: &Poly) -> Vec<&'a [S]> {
        p.others
            .iter()
            .map(|&j| &x[self.off[j]..self.off[j] + self.support[j].len()])
            .collect()
    }

    pub(super) fn residual<S: Scalar>(&self, c: &Coefs<S>, x: &[S]) -> Vec<S> {
        let mut scratch = Vec::new();
        self.polys
            .iter()
            .zip(&c.eq)
            .map(|(p, coef)| contract_in(coef, &p.dims, &self.slices(x, p), None, &mut scratch))
            .collect()
    }

    /// Each mixing player's first probability set to one minus the others.
    pub(super) fn firsts<S: Scalar>(&self, x: &mut [S]) {
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
    pub(super) fn corner_tables(&self, c: &Coefs<Iv<f64>>, x: &[Iv<f64>]) -> Option<Vec<Table>> {
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
    pub(super) fn ranges(
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
    pub(super) fn combine(&self, row: &[f64], tables: &[Table], groups: &mut Vec<Sums>) {
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
    pub(super) fn at(&self, groups: &[Sums], v: usize, gamma: f64) -> Iv<f64> {
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
    pub(super) fn vertex_narrow(
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
    pub(super) fn narrow_affine(
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
    pub(super) fn owner(&self, p: &Poly) -> usize {
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
    // Kept as one function: one dense first-phase simplex whose tableau lives in local buffers; the
    // pivots are its loop.
    pub(super) fn hull_excludes(
        &self,
        c: &Coefs<Iv<f64>>,
        tables: &[Table],
        x: &[Iv<f64>],
    ) -> bool {
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

    pub(super) fn inequalities<S: Scalar>(&self, c: &Coefs<S>, x: &[S]) -> Vec<S> {
        let mut scratch = Vec::new();
        self.ineq_polys
            .iter()
            .zip(&c.ineq)
            .map(|(p, coef)| contract_in(coef, &p.dims, &self.slices(x, p), None, &mut scratch))
            .collect()
    }

    /// The derivatives of the indifferences by the unknowns.
    pub(super) fn jacobian<S: Scalar>(&self, c: &Coefs<S>, x: &[S]) -> Vec<Vec<S>> {
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
    pub(super) fn krawczyk<B: Bound>(
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
    pub(super) fn gauss_seidel(
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
    pub(super) fn krawczyk_fine(
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
    pub(super) fn add_root(&self, roots: &mut Vec<Root>, (big, narrow): Root) -> bool {
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
    pub(super) fn tighten(&self, x: &mut [Iv<f64>]) -> bool {
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
pub(super) fn inverse(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
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
