//! Fewer vertices for an outer set, without giving up that it contains the true one.
//!
//! Rounding each generated point outwards to the corners of its grid square leaves clusters
//! of vertices a grid step apart at each true vertex and nearly flat vertices along the
//! edges; a round's work grows with the vertices, and they would otherwise stay for good.
//! Two neighbouring vertices `b, c` (between `a` and `d`) are replaced by one grid point `g`
//! beyond them when both lie in the triangle `a g d`: the new polygon then contains the old
//! one, so it still contains every equilibrium payoff. The test is exact (grid integers);
//! floating point only proposes `g` (near where the lines `a b` and `d c` meet) and keeps
//! the enlargement within a grid step of the old polygon, so that the iteration's fixed point
//! moves by about that over `1 − δ`, as much as the rounding itself moves it.

use super::polygon::{cross, hull_of_grid, Point};

/// How far outside the old polygon a merged vertex may lie, in grid steps.
const ALLOWANCE: f64 = 1.0;

/// `polygon` (a convex polygon on the grid, counter-clockwise) with pairs of neighbouring
/// vertices merged while a merge stays within a grid step of it; the result contains `polygon`.
pub fn coarsened(polygon: Vec<Point<i128>>) -> Vec<Point<i128>> {
    let mut p = polygon;
    let mut k = 0;
    // Each merge removes a vertex; a whole pass without one ends the search.
    let mut since_merge = 0;
    while p.len() >= 4 && since_merge < p.len() {
        let n = p.len();
        let (a, b, c, d) = (p[k % n], p[(k + 1) % n], p[(k + 2) % n], p[(k + 3) % n]);
        match merged(a, b, c, d) {
            Some(g) => {
                let (i, j) = ((k + 1) % n, (k + 2) % n);
                p[i] = g;
                p.remove(j);
                since_merge = 0;
                // Look again from the pair ending in the new vertex.
                let at = if j > i { i } else { i - 1 };
                k = (at + 2 * (n - 1) - 2) % (n - 1);
            }
            None => {
                since_merge += 1;
                k = (k + 1) % n;
            }
        }
    }
    hull_of_grid(p)
}

/// A grid point `g` near where the lines `a b` and `d c` meet, beyond `b c`, with `b` and `c`
/// in the triangle `a g d` (checked exactly) and `g` within the allowance of the chain: of
/// those, the one nearest the chain (the first such when tied).
fn merged(a: Point<i128>, b: Point<i128>, c: Point<i128>, d: Point<i128>) -> Option<Point<i128>> {
    // In floating point relative to `b` (differences of grid coordinates are exact there; a
    // machine word on the way, as a 128-bit integer to a float is a slow library call).
    let f = |p: Point<i128>| ((p.0 - b.0) as i64 as f64, (p.1 - b.1) as i64 as f64);
    let (fa, fc, fd) = (f(a), f(c), f(d));
    let u = (-fa.0, -fa.1); // along a → b
    let v = (fc.0 - fd.0, fc.1 - fd.1); // along d → c
    let det = u.0 * v.1 - u.1 * v.0;
    if det.abs() < 1e-300 {
        return None;
    }
    // b + s u = c + t v.
    let s = (fc.0 * v.1 - fc.1 * v.0) / det;
    let t = (fc.0 * u.1 - fc.1 * u.0) / det;
    if !(s >= 0.0 && t >= 0.0) {
        return None;
    }
    let meet = (s * u.0, s * u.1);
    let chain = Chain::to(fc);
    // The grid points tried lie within two steps of the meeting point.
    let reach = ALLOWANCE + 3.0;
    if !(meet.0.abs() < 1e15 && meet.1.abs() < 1e15) || chain.outside(meet) > reach * reach {
        return None;
    }
    let base = (meet.0.floor(), meet.1.floor());
    // The candidates within the allowance, nearest the chain first (a stable sort keeps the
    // order they are listed in among equals); the exact test runs until one passes.
    let mut near: Vec<(f64, Point<i128>)> = Vec::with_capacity(16);
    for dx in -1..=2 {
        for dy in -1..=2 {
            let q = (base.0 + dx as f64, base.1 + dy as f64);
            let out = chain.outside(q);
            if out <= ALLOWANCE * ALLOWANCE {
                near.push((out, (b.0 + q.0 as i64 as i128, b.1 + q.1 as i64 as i128)));
            }
        }
    }
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    near.into_iter()
        .map(|(_, g)| g)
        .find(|&g| holds(a, g, d, b) && holds(a, g, d, c))
}

/// The segment from the origin (`b`) to `c`, in floating point, ready to measure how far
/// points lie from it.
struct Chain {
    c: (f64, f64),
    /// One over the square of its length (zero for a point).
    inverse: f64,
}

impl Chain {
    fn to(c: (f64, f64)) -> Chain {
        let length = c.0 * c.0 + c.1 * c.1;
        Chain {
            c,
            inverse: if length > 0.0 { 1.0 / length } else { 0.0 },
        }
    }

    /// The square of how far the point `q` lies from the segment: near the chain, the
    /// distance to the old polygon.
    fn outside(&self, q: (f64, f64)) -> f64 {
        let c = self.c;
        let t = ((q.0 * c.0 + q.1 * c.1) * self.inverse).clamp(0.0, 1.0);
        let (x, y) = (q.0 - t * c.0, q.1 - t * c.1);
        x * x + y * y
    }
}

/// Whether `p` lies in the triangle `a g d` (counter-clockwise), boundary included: exact.
fn holds(a: Point<i128>, g: Point<i128>, d: Point<i128>, p: Point<i128>) -> bool {
    turn(&a, &g, &p) >= 0 && turn(&g, &d, &p) >= 0 && turn(&d, &a, &p) >= 0
}

/// [`cross`], exactly, by one widening multiplication a term where the differences fit a
/// machine word (grid coordinates always do), else in 128 bits.
fn turn(o: &Point<i128>, a: &Point<i128>, b: &Point<i128>) -> i128 {
    let terms = [a.0 - o.0, b.1 - o.1, a.1 - o.1, b.0 - o.0];
    if terms.iter().all(|&t| i64::try_from(t).is_ok()) {
        let w = terms.map(|t| t as i64 as i128);
        w[0] * w[1] - w[2] * w[3]
    } else {
        cross(o, a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategic::repeated::polygon::contains;

    #[test]
    fn a_cluster_becomes_one_vertex_and_the_polygon_only_grows() {
        // A square whose top-right corner is cut by two vertices a step apart.
        let square = vec![(0, 0), (100, 0), (100, 99), (99, 100), (0, 100)];
        let c = coarsened(square.clone());
        assert_eq!(c, vec![(0, 0), (100, 0), (100, 100), (0, 100)]);
        for v in &square {
            assert!(contains(&c, v));
        }
    }

    /// The grid points of a random convex polygon rounded outwards, as the outer iteration
    /// leaves them: each vertex of a polygon with fractional vertices replaced by the corners
    /// of its grid square.
    fn rounded_polygon(seed: u64) -> Vec<Point<i128>> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut points = Vec::new();
        let n = 3 + next() % 8;
        for k in 0..n {
            // Around a circle of radius a million grid steps, at quarter-step resolution.
            let angle =
                (k as f64 + (next() % 1000) as f64 / 1000.0) / n as f64 * std::f64::consts::TAU;
            let (x, y) = (4e6 * angle.cos(), 4e6 * angle.sin());
            let (x, y) = (x as i128, y as i128);
            for (dx, dy) in [(0, 0), (4, 0), (0, 4), (4, 4)] {
                points.push(((x + dx).div_euclid(4), (y + dy).div_euclid(4)));
            }
        }
        crate::strategic::repeated::polygon::hull(points)
    }

    #[test]
    fn merged_polygons_contain_the_old_ones_and_stay_near() {
        use crate::strategic::repeated::polygon::hausdorff;
        let mut merged_some = 0;
        for seed in 0..500 {
            let p = rounded_polygon(seed);
            let c = coarsened(p.clone());
            for v in &p {
                assert!(contains(&c, v), "seed {seed}: {v:?} left out");
            }
            let removed = p.len() - c.len();
            merged_some += usize::from(removed > 0);
            let f = |q: &[Point<i128>]| {
                q.iter()
                    .map(|&(x, y)| (x as f64, y as f64))
                    .collect::<Vec<_>>()
            };
            let d = hausdorff(&f(&p), &f(&c));
            assert!(
                d <= ALLOWANCE * removed as f64 + 1e-6,
                "seed {seed}: moved {d}"
            );
        }
        assert!(merged_some > 400, "{merged_some}");
    }

    #[test]
    fn a_real_corner_cut_is_kept() {
        // Cut by ten steps: merging would move the set by seven.
        let cut = vec![(0, 0), (100, 0), (100, 90), (90, 100), (0, 100)];
        assert_eq!(coarsened(cut.clone()), cut);
    }
}
