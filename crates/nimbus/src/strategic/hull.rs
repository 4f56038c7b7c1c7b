//! Whether the convex hull of some points meets the cone `{p : p_eq = 0, p_ge >= 0}`, and if
//! not, a linear function that separates them: a dense first-phase simplex method in `f64`.
//!
//! The enumeration of n-player equilibria uses it to discard boxes: a multilinear function's
//! value anywhere in a box is a convex combination of its values at the box's vertices, so a
//! box whose vertex values cannot be combined into a solution holds none. The answer here
//! is found in floating point and only ever used as a guess: the caller checks the separating
//! function at every vertex with a rigorous bound on the rounding before it discards anything.
//!
//! The problem has few rows (one per equation or inequality) and many columns (one per
//! vertex, up to a few thousand), so the tableau is kept row by row and every pivot is a few
//! long, vectorisable row updates.

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
pub fn separate(rows: &[f64], n: usize, eq: usize, ge: usize) -> Hull {
    let m = eq + ge;
    debug_assert_eq!(rows.len(), m * n);
    if n == 0 {
        return Hull::Unknown;
    }
    // Rows: the weights' sum, then the eq and ge rows, each scaled to entries of at most 1.
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
    // Columns: the points, a surplus for each ge row, an artificial for each row, the
    // right-hand side.
    let arts = n + ge;
    let w = arts + r + 1;
    let rhs = w - 1;
    let mut t = vec![0.0f64; (r + 1) * w];
    t[..n].fill(1.0);
    t[rhs] = 1.0;
    for k in 0..m {
        let row = &mut t[(k + 1) * w..(k + 2) * w];
        for (dst, src) in row[..n].iter_mut().zip(&rows[k * n..(k + 1) * n]) {
            *dst = src * scale[k];
        }
        if k >= eq {
            row[n + (k - eq)] = -1.0;
        }
    }
    for k in 0..r {
        t[k * w + arts + k] = 1.0;
    }
    // The objective row: reduced costs of "minimise the artificials' sum", and minus its value.
    let (body, obj) = t.split_at_mut(r * w);
    for k in 0..r {
        for (o, v) in obj[..arts].iter_mut().zip(&body[k * w..k * w + arts]) {
            *o -= v;
        }
    }
    obj[rhs] = -1.0;
    let mut basis: Vec<usize> = (arts..arts + r).collect();
    let limit = 8 * r + 64;
    let mut pivot_row = vec![0.0f64; w];
    for _ in 0..limit {
        let obj = &t[r * w..];
        // Dantzig's rule over the points and surpluses (an artificial that left stays out).
        let (e, _) = obj[..arts]
            .iter()
            .enumerate()
            .fold(
                (usize::MAX, -EPS),
                |b, (j, &d)| if d < b.1 { (j, d) } else { b },
            );
        if e == usize::MAX {
            return finish(&t, r, w, n, eq, ge, &scale, &basis);
        }
        let mut leave: Option<(usize, f64)> = None;
        for k in 0..r {
            let a = t[k * w + e];
            if a > EPS {
                let ratio = t[k * w + rhs] / a;
                if leave.is_none_or(|(_, best)| ratio < best) {
                    leave = Some((k, ratio));
                }
            }
        }
        let Some((p, _)) = leave else {
            // Cannot happen (the objective is bounded below by zero) unless the data is not
            // finite.
            return Hull::Unknown;
        };
        let a = t[p * w + e];
        for (dst, v) in pivot_row.iter_mut().zip(&t[p * w..(p + 1) * w]) {
            *dst = v / a;
        }
        for k in 0..=r {
            if k == p {
                continue;
            }
            let f = t[k * w + e];
            if f != 0.0 {
                for (dst, v) in t[k * w..(k + 1) * w].iter_mut().zip(&pivot_row) {
                    *dst -= f * v;
                }
            }
        }
        t[p * w..(p + 1) * w].copy_from_slice(&pivot_row);
        basis[p] = e;
    }
    Hull::Unknown
}

/// The answer at an optimal tableau of the first phase.
#[allow(clippy::too_many_arguments)]
fn finish(
    t: &[f64],
    r: usize,
    w: usize,
    n: usize,
    eq: usize,
    ge: usize,
    scale: &[f64],
    basis: &[usize],
) -> Hull {
    let obj = &t[r * w..];
    let arts = n + ge;
    let value = -obj[w - 1];
    if value <= 1e-7 {
        let mut weights = vec![0.0; n];
        for (k, &b) in basis.iter().enumerate() {
            if b < n {
                weights[b] = t[k * w + w - 1].max(0.0);
            }
        }
        return Hull::Meets(weights);
    }
    // The dual prices: an artificial's reduced cost is one minus its row's price.
    let y: Vec<f64> = (0..r).map(|k| 1.0 - obj[arts + k]).collect();
    if y[0] <= 0.0 {
        return Hull::Unknown;
    }
    Hull::Separated(
        (0..eq + ge)
            .map(|k| {
                let v = y[k + 1] * scale[k] / y[0];
                if k >= eq {
                    v.max(0.0)
                } else {
                    v
                }
            })
            .collect(),
    )
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// Either multipliers that are below zero at every point, with the inequalities' ones
        /// non-negative, or convex weights whose combination is in the cone: checked directly,
        /// and the two answers exclude each other, so a wrong one cannot pass.
        #[test]
        fn the_answer_carries_its_own_proof(
            eq in 0usize..4,
            ge in 0usize..4,
            n in 1usize..40,
            seed in any::<u64>(),
            shift in -3i32..3,
        ) {
            prop_assume!(eq + ge > 0);
            let mut s = seed;
            let rows: Vec<f64> = (0..(eq + ge) * n)
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    // Small integers, often repeated, so degenerate cases come up.
                    ((s >> 33) % 7) as f64 - 3.0 + shift as f64
                })
                .collect();
            match separate(&rows, n, eq, ge) {
                Hull::Separated(l) => {
                    prop_assert!(l[eq..].iter().all(|&v| v >= 0.0));
                    for v in 0..n {
                        prop_assert!(value(&rows, n, &l, v) < -0.5, "point {v}");
                    }
                }
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
    }
}
