//! Whether the convex hull of some points meets the cone `{p : p_eq = 0, p_ge >= 0}`, and if
//! not, a linear function that separates them: a dense first-phase simplex method in `f64`,
//! which brings the points in as they are needed.
//!
//! The enumeration of n-player equilibria uses it to discard boxes: a multilinear function's
//! value anywhere in a box is a convex combination of its values at the box's vertices, so a
//! box whose vertex values cannot be combined into a solution holds none. The answer here
//! is found in floating point and only ever used as a guess: the caller checks the separating
//! function at every vertex with a rigorous bound on the rounding before it discards anything.
//!
//! The problem has few rows (one per equation or inequality) and many columns (one per
//! vertex, up to a few thousand), so the tableau is kept row by row and every pivot is a few
//! long, vectorisable row updates over the points brought in so far.

/// What [`separate`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum Hull {
    /// Multipliers `(eq rows, then ge rows)`, those of the ge rows non-negative, whose
    /// combination is at most about `-1` at every point: the hull misses the cone.
    Separated(Vec<f64>),
    /// Convex weights of the points whose combination is (to rounding) in the cone.
    Meets(Vec<f64>),
    /// The pivot limit was reached (degenerate or badly scaled data): nothing is known.
    Unknown,
}

/// Reduced costs and ratios smaller than this count as zero (the rows are scaled to 1).
const EPS: f64 = 1e-9;

/// Decides whether some convex combination `w` of the `n` points has `A_eq w = 0` and
/// `A_ge w >= 0`, where `rows` holds the `eq` rows of `A_eq` and then the `ge` rows of
/// `A_ge`, each of length `n` (one entry per point).
///
/// Many points (a box's vertices) and few rows: the points are brought in as they are needed
/// (column generation). A subset whose hull meets the cone answers for all of them; multipliers
/// that separate a subset are checked on every point, and the points they fail join the
/// tableau, whose basis stays feasible, for the simplex method to go on from where it stopped.
/// A separating function rests on few points, so most of a box's vertices are never pivoted
/// on.
pub fn separate(rows: &[f64], n: usize, eq: usize, ge: usize) -> Hull {
    let m = eq + ge;
    debug_assert_eq!(rows.len(), m * n);
    if n == 0 {
        return Hull::Unknown;
    }
    let mut t = Tableau::new(rows, n, eq, ge);
    // The first points: each row's smallest and largest, which span the hull's extent along
    // every row (all of them when there are few).
    if n <= 2 * (m + 1) + 8 {
        for v in 0..n {
            t.add(v);
        }
    } else {
        for k in 0..m {
            let row = &rows[k * n..(k + 1) * n];
            let (lo, hi) = (1..n).fold((0, 0), |(lo, hi), v| {
                (
                    if row[v] < row[lo] { v } else { lo },
                    if row[v] > row[hi] { v } else { hi },
                )
            });
            t.add(lo);
            t.add(hi);
        }
    }
    let batch = m + 1;
    let mut failed: Vec<(f64, usize)> = Vec::new();
    loop {
        let l = match t.run() {
            Hull::Separated(l) => l,
            other => return other,
        };
        // The points the multipliers do not put well below zero, worst first.
        failed.clear();
        failed.extend(
            (0..n)
                .filter(|&v| !t.chosen[v])
                .map(|v| {
                    let value: f64 = l.iter().enumerate().map(|(k, x)| x * rows[k * n + v]).sum();
                    (value, v)
                })
                .filter(|&(value, _)| value > -0.9),
        );
        if failed.is_empty() {
            return Hull::Separated(l);
        }
        failed.sort_by(|a, b| b.0.total_cmp(&a.0));
        for &(_, v) in failed.iter().take(batch) {
            t.add(v);
        }
    }
}

/// The first phase of the simplex method ("minimise the artificials' sum"), kept row by row:
/// the artificial columns first (they start as the identity, so they always hold the basis'
/// inverse, which a point joining later is multiplied by), then a surplus for each ge row,
/// the right-hand side, and the points in the order they joined.
struct Tableau<'a> {
    rows: &'a [f64],
    n: usize,
    eq: usize,
    ge: usize,
    /// Each row's scale, which brings its entries to at most 1.
    scale: Vec<f64>,
    /// `r` rows (the weights' sum, then the eq and ge rows) and the objective, each `stride`
    /// long.
    t: Vec<f64>,
    r: usize,
    stride: usize,
    /// The points in the tableau, by column, and which are.
    cols: Vec<usize>,
    chosen: Vec<bool>,
    basis: Vec<usize>,
    pivots: usize,
    /// A point's scaled entries, kept between calls of [`Tableau::add`].
    column: Vec<f64>,
}

impl<'a> Tableau<'a> {
    fn new(rows: &'a [f64], n: usize, eq: usize, ge: usize) -> Self {
        let m = eq + ge;
        let r = m + 1;
        let scale: Vec<f64> = (0..m)
            .map(|k| {
                let big = rows[k * n..(k + 1) * n]
                    .iter()
                    .fold(0.0f64, |a, v| a.max(v.abs()));
                if big > 0.0 && big.is_finite() {
                    1.0 / big
                } else {
                    1.0
                }
            })
            .collect();
        let stride = r + ge + 1 + n;
        let mut t = vec![0.0f64; (r + 1) * stride];
        let rhs = r + ge;
        for k in 0..r {
            let row = &mut t[k * stride..(k + 1) * stride];
            row[k] = 1.0;
            if k > eq {
                row[r + (k - 1 - eq)] = -1.0;
            }
            // Every right-hand side but the weights' sum is zero: a slight, distinct
            // perturbation keeps the method from stalling on degenerate pivots.
            row[rhs] = if k == 0 {
                1.0
            } else {
                1e-9 * (1.0 + ((k - 1) as f64 * 0.618_034).fract())
            };
        }
        // The objective row: reduced costs, and minus the artificials' sum.
        let (body, obj) = t.split_at_mut(r * stride);
        for k in 0..r {
            for (o, v) in obj[r..=rhs]
                .iter_mut()
                .zip(&body[k * stride + r..=k * stride + rhs])
            {
                *o -= v;
            }
        }
        Tableau {
            rows,
            n,
            eq,
            ge,
            scale,
            t,
            r,
            stride,
            cols: Vec::new(),
            chosen: vec![false; n],
            basis: (0..r).collect(),
            pivots: 0,
            column: Vec::with_capacity(r),
        }
    }

    /// Brings point `v` into the tableau (once): its column is the basis' inverse times its
    /// scaled entries, and its reduced cost follows from the objective's artificial entries.
    fn add(&mut self, v: usize) {
        if self.chosen[v] {
            return;
        }
        self.chosen[v] = true;
        let (r, s, n) = (self.r, self.stride, self.n);
        let col = r + self.ge + 1 + self.cols.len();
        self.cols.push(v);
        let mut a = std::mem::take(&mut self.column);
        a.clear();
        a.push(1.0);
        a.extend((0..r - 1).map(|k| self.rows[k * n + v] * self.scale[k]));
        let sum: f64 = a.iter().sum();
        if self.pivots == 0 {
            // The basis is still the artificials': its inverse is the identity.
            for (k, x) in a.iter().enumerate() {
                self.t[k * s + col] = *x;
            }
            self.t[r * s + col] = -sum;
        } else {
            for k in 0..=r {
                let inv = &self.t[k * s..k * s + r];
                let mut x: f64 = inv.iter().zip(&a).map(|(p, q)| p * q).sum();
                if k == r {
                    x -= sum;
                }
                self.t[k * s + col] = x;
            }
        }
        self.column = a;
    }

    /// Pivots until no point or surplus improves the objective, and answers.
    fn run(&mut self) -> Hull {
        let (r, s) = (self.r, self.stride);
        let rhs = r + self.ge;
        let width = rhs + 1 + self.cols.len();
        let limit = 8 * r + 64 + 2 * self.cols.len();
        let mut pivot_row = vec![0.0f64; width];
        while self.pivots < limit {
            let obj = &self.t[r * s..r * s + width];
            // Dantzig's rule over the surpluses and points (an artificial that left stays out).
            let (mut e, mut best) = (usize::MAX, -EPS);
            for (j, &d) in obj.iter().enumerate().take(rhs).skip(r) {
                if d < best {
                    (e, best) = (j, d);
                }
            }
            for (j, &d) in obj.iter().enumerate().skip(rhs + 1) {
                if d < best {
                    (e, best) = (j, d);
                }
            }
            if e == usize::MAX {
                return self.finish();
            }
            // The smallest ratio `rhs / a` over the rows with `a > EPS`, compared as products
            // (`r1 / a1 < r2 / a2` exactly when `r1 a2 < r2 a1`, both `a` positive): a
            // division per row was a sixth of the method's time.
            let mut leave: Option<(usize, f64, f64)> = None;
            for k in 0..r {
                let a = self.t[k * s + e];
                if a > EPS {
                    let b = self.t[k * s + rhs];
                    if leave.is_none_or(|(_, bb, ab)| b * ab < bb * a) {
                        leave = Some((k, b, a));
                    }
                }
            }
            let Some((p, _, _)) = leave else {
                // Cannot happen (the objective is bounded below by zero) unless the data is
                // not finite.
                return Hull::Unknown;
            };
            let inv = 1.0 / self.t[p * s + e];
            for (dst, v) in pivot_row.iter_mut().zip(&self.t[p * s..p * s + width]) {
                *dst = v * inv;
            }
            for (k, row) in self.t.chunks_exact_mut(s).enumerate() {
                let f = row[e];
                if k != p && f != 0.0 {
                    // Equal lengths, so that the loop has no bounds checks and vectorises.
                    let (dst, src) = (&mut row[..width], &pivot_row[..width]);
                    for i in 0..width {
                        dst[i] -= f * src[i];
                    }
                }
            }
            self.t[p * s..p * s + width].copy_from_slice(&pivot_row);
            self.basis[p] = e;
            self.pivots += 1;
        }
        Hull::Unknown
    }

    /// The answer at an optimal tableau.
    fn finish(&self) -> Hull {
        let (r, s) = (self.r, self.stride);
        let rhs = r + self.ge;
        let obj = &self.t[r * s..(r + 1) * s];
        let value = -obj[rhs];
        if value <= 1e-7 {
            let mut weights = vec![0.0; self.n];
            for (k, &b) in self.basis.iter().enumerate() {
                if b > rhs {
                    weights[self.cols[b - rhs - 1]] = self.t[k * s + rhs].max(0.0);
                }
            }
            return Hull::Meets(weights);
        }
        // The dual prices: an artificial's reduced cost is one minus its row's price.
        let y: Vec<f64> = (0..r).map(|k| 1.0 - obj[k]).collect();
        if y[0] <= 0.0 {
            return Hull::Unknown;
        }
        Hull::Separated(
            (0..r - 1)
                .map(|k| {
                    let v = y[k + 1] * self.scale[k] / y[0];
                    if k >= self.eq {
                        v.max(0.0)
                    } else {
                        v
                    }
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn value(rows: &[f64], n: usize, lambda: &[f64], v: usize) -> f64 {
        lambda
            .iter()
            .enumerate()
            .map(|(k, l)| l * rows[k * n + v])
            .sum()
    }

    #[test]
    fn a_point_on_each_side_meets_and_a_shifted_cloud_does_not() {
        // Points -1 and 2 on a line: 2/3, 1/3 of them is 0.
        assert!(matches!(separate(&[-1.0, 2.0], 2, 1, 0), Hull::Meets(_)));
        // Points 1 and 2: every combination is positive.
        match separate(&[1.0, 2.0], 2, 1, 0) {
            Hull::Separated(l) => assert!(l[0] < 0.0),
            other => panic!("{other:?}"),
        }
        // An inequality: (x = 0, y >= 0) is met by (0, -1) and (0, 1) only through y = 1.
        assert!(matches!(
            separate(&[0.0, 0.0, -1.0, 1.0], 2, 1, 1),
            Hull::Meets(_)
        ));
        match separate(&[0.0, 0.0, -1.0, -2.0], 2, 1, 1) {
            Hull::Separated(l) => assert!(l[1] >= 0.0),
            other => panic!("{other:?}"),
        }
    }

    /// Pseudo-random numbers from a linear congruential generator (high bits).
    fn draws(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        }
    }

    /// Whether multipliers `l` (those of the ge rows non-negative) are well below zero at
    /// every point.
    fn separates(rows: &[f64], n: usize, eq: usize, l: &[f64]) -> bool {
        l[eq..].iter().all(|&v| v >= 0.0) && (0..n).all(|v| value(rows, n, l, v) < -0.5)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Either multipliers that are below zero at every point, with the inequalities' ones
        /// non-negative, or convex weights whose combination is in the cone: checked directly,
        /// and the two answers exclude each other, so a wrong one cannot pass.
        #[test]
        fn the_answer_carries_its_own_proof(
            eq in 0usize..6,
            ge in 0usize..6,
            // Beyond about twice the rows, the points come in by column generation.
            n in 1usize..400,
            seed in any::<u64>(),
            shift in -3i32..3,
        ) {
            prop_assume!(eq + ge > 0);
            let mut draw = draws(seed);
            // Small integers, often repeated, so degenerate cases come up.
            let rows: Vec<f64> = (0..(eq + ge) * n)
                .map(|_| (draw() % 7) as f64 - 3.0 + shift as f64)
                .collect();
            match separate(&rows, n, eq, ge) {
                Hull::Separated(l) => prop_assert!(separates(&rows, n, eq, &l)),
                Hull::Meets(wts) => {
                    let sum: f64 = wts.iter().sum();
                    prop_assert!((sum - 1.0).abs() < 1e-6);
                    prop_assert!(wts.iter().all(|&x| x >= 0.0));
                    for k in 0..eq + ge {
                        let c: f64 = (0..n).map(|v| wts[v] * rows[k * n + v]).sum();
                        if k < eq {
                            prop_assert!(c.abs() < 1e-6, "row {k}: {c}");
                        } else {
                            prop_assert!(c > -1e-6, "row {k}: {c}");
                        }
                    }
                }
                Hull::Unknown => prop_assert!(false, "gave up"),
            }
        }

        /// Points built to lie where hidden multipliers are at most -1 (the first row solved
        /// for): the hull misses the cone, so the answer must be multipliers that separate
        /// every point, however many, and never `Meets` or `Unknown`.
        #[test]
        fn hidden_separations_are_found(
            eq in 1usize..8,
            ge in 0usize..8,
            n in 1usize..600,
            seed in any::<u64>(),
        ) {
            let mut draw = draws(seed);
            let mut next = move || (draw() % 1000) as f64 / 100.0 - 5.0;
            let m = eq + ge;
            // The first (eq) multiplier away from zero; the ge ones non-negative.
            let hidden: Vec<f64> = (0..m)
                .map(|k| match k {
                    0 => 1.0 + next().abs(),
                    k if k >= eq => next().abs(),
                    _ => next(),
                })
                .collect();
            let mut rows: Vec<f64> = (0..m * n).map(|_| next()).collect();
            for v in 0..n {
                let rest: f64 = (1..m).map(|k| hidden[k] * rows[k * n + v]).sum();
                rows[v] = (-1.0 - next().abs() - rest) / hidden[0];
            }
            match separate(&rows, n, eq, ge) {
                Hull::Separated(l) => prop_assert!(separates(&rows, n, eq, &l)),
                other => prop_assert!(false, "{other:?}"),
            }
        }
    }
}
