//! Convex polygons in the payoff plane, over any exact ordered ring: machine integers for the
//! grid the outer iteration runs on, fractions for the exact check of an inner set.
//!
//! A polygon is its vertices counter-clockwise, without repeats; one or two vertices stand for
//! a point or a segment (the set of equilibrium payoffs can be either). Floating point works
//! too, for quick screens whose answers are only ever guesses.

use num_traits::Zero;
use std::ops::{Mul, Sub};

/// The numbers a polygon's coordinates can be: ordered, closed under `-` and `*` (exact, or
/// floating point for a guess).
pub trait Coordinate: Clone + PartialOrd + Zero + Sub<Output = Self> + Mul<Output = Self> {}

impl<T: Clone + PartialOrd + Zero + Sub<Output = T> + Mul<Output = T>> Coordinate for T {}

/// A point `(x, y)`: the first player's payoff, then the second's.
pub type Point<T> = (T, T);

/// Twice the signed area of the triangle `o, a, b`: positive when `b` is left of `o → a`.
pub fn cross<T: Coordinate>(o: &Point<T>, a: &Point<T>, b: &Point<T>) -> T {
    (a.0.clone() - o.0.clone()) * (b.1.clone() - o.1.clone())
        - (a.1.clone() - o.1.clone()) * (b.0.clone() - o.0.clone())
}

/// The convex hull of `points`, counter-clockwise from the lowest-leftmost vertex (Andrew's
/// monotone chain), with collinear points dropped.
pub fn hull<T: Coordinate>(mut points: Vec<Point<T>>) -> Vec<Point<T>> {
    points.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    points.dedup();
    if points.len() < 3 {
        return points;
    }
    let mut out: Vec<Point<T>> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = out.len();
        let mut add = |q: &Point<T>| {
            while out.len() >= start + 2
                && cross(&out[out.len() - 2], &out[out.len() - 1], q) <= T::zero()
            {
                out.pop();
            }
            out.push(q.clone());
        };
        if pass == 0 {
            points.iter().for_each(&mut add);
        } else {
            points.iter().rev().for_each(&mut add);
        }
        out.pop();
    }
    if out.len() == 2 && out[0] == out[1] {
        out.pop();
    }
    out
}

/// [`hull`] of grid points: the same polygon, quicker. Grid coordinates lie far below 2^62,
/// so their differences fit a machine word and each cross product is one widening
/// multiplication a term (the generic one multiplies full 128-bit numbers); sorting machine
/// words is quicker too. Points beyond that range take the generic way.
pub fn hull_of_grid(points: Vec<Point<i128>>) -> Vec<Point<i128>> {
    const RANGE: i128 = 1 << 61;
    if points
        .iter()
        .any(|p| !(-RANGE..RANGE).contains(&p.0) || !(-RANGE..RANGE).contains(&p.1))
    {
        return hull(points);
    }
    let mut words: Vec<(i64, i64)> = points.iter().map(|p| (p.0 as i64, p.1 as i64)).collect();
    words.sort_unstable();
    words.dedup();
    let widen = |p: &(i64, i64)| (p.0 as i128, p.1 as i128);
    if words.len() < 3 {
        return words.iter().map(widen).collect();
    }
    // Differences below 2^62 in magnitude: their products fit an i128 exactly.
    let turn = |o: (i64, i64), a: (i64, i64), b: (i64, i64)| {
        ((a.0 - o.0) as i128) * ((b.1 - o.1) as i128)
            - ((a.1 - o.1) as i128) * ((b.0 - o.0) as i128)
    };
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(words.len() + 1);
    for pass in 0..2 {
        let start = out.len();
        let mut add = |q: (i64, i64)| {
            while out.len() >= start + 2 && turn(out[out.len() - 2], out[out.len() - 1], q) <= 0 {
                out.pop();
            }
            out.push(q);
        };
        if pass == 0 {
            words.iter().for_each(|&q| add(q));
        } else {
            words.iter().rev().for_each(|&q| add(q));
        }
        out.pop();
    }
    if out.len() == 2 && out[0] == out[1] {
        out.pop();
    }
    out.iter().map(widen).collect()
}

/// [`hull`] of points in big fractions, its comparisons made unreduced (the gcds of big
/// fractions would cost most of its time).
pub fn hull_of_fractions(points: Vec<Point<crate::exact::Q>>) -> Vec<Point<crate::exact::Q>> {
    use crate::exact::unreduced::Unreduced;
    hull(
        points
            .iter()
            .map(|(x, y)| (Unreduced::of(x), Unreduced::of(y)))
            .collect(),
    )
    .iter()
    .map(|(x, y)| (x.to_q(), y.to_q()))
    .collect()
}

/// Whether `p` lies in the polygon (its boundary included).
pub fn contains<T: Coordinate>(polygon: &[Point<T>], p: &Point<T>) -> bool {
    match polygon.len() {
        0 => false,
        1 => polygon[0] == *p,
        2 => on_segment(&polygon[0], &polygon[1], p),
        n => (0..n).all(|k| cross(&polygon[k], &polygon[(k + 1) % n], p) >= T::zero()),
    }
}

/// Whether `p` lies on the segment `a b`.
fn on_segment<T: Coordinate>(a: &Point<T>, b: &Point<T>, p: &Point<T>) -> bool {
    let between = |x: &T, u: &T, v: &T| (u <= x && x <= v) || (v <= x && x <= u);
    cross(a, b, p).is_zero() && between(&p.0, &a.0, &b.0) && between(&p.1, &a.1, &b.1)
}

/// The polygon's edges `(from, to)`, counter-clockwise; a segment's two ways.
pub fn edges<T: Coordinate>(polygon: &[Point<T>]) -> impl Iterator<Item = (&Point<T>, &Point<T>)> {
    let n = polygon.len();
    let count = if n >= 2 { n } else { 0 };
    (0..count).map(move |k| (&polygon[k], &polygon[(k + 1) % n]))
}

/// Each coordinate's least value over the polygon's vertices (`None` when empty).
pub fn lowest<T: Coordinate>(polygon: &[Point<T>]) -> Option<Point<T>> {
    let least = |a: T, b: T| if b < a { b } else { a };
    let first = polygon.first()?.clone();
    Some(polygon.iter().skip(1).fold(first, |m, p| {
        (least(m.0, p.0.clone()), least(m.1, p.1.clone()))
    }))
}

/// A polygon of fractions in floating point (for screens, distances and pictures).
pub fn in_floats(polygon: &[Point<crate::exact::Q>]) -> Vec<Point<f64>> {
    use crate::exact::to_f64;
    polygon
        .iter()
        .map(|(x, y)| (to_f64(x), to_f64(y)))
        .collect()
}

/// The distance from `p` to a convex polygon, in floating point.
pub fn distance_to(polygon: &[(f64, f64)], p: (f64, f64)) -> f64 {
    let n = polygon.len();
    if n == 0 {
        return f64::INFINITY;
    }
    let square = |x: f64, y: f64| x * x + y * y;
    if n == 1 {
        return square(p.0 - polygon[0].0, p.1 - polygon[0].1).sqrt();
    }
    let mut inside = n >= 3;
    let mut best = f64::INFINITY;
    for k in 0..n {
        let (a, b) = (polygon[k], polygon[(k + 1) % n]);
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        if dx * (p.1 - a.1) - dy * (p.0 - a.0) < 0.0 {
            inside = false;
        }
        let length = square(dx, dy);
        let t = if length > 0.0 {
            (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length).clamp(0.0, 1.0)
        } else {
            0.0
        };
        best = best.min(square(p.0 - a.0 - t * dx, p.1 - a.1 - t * dy));
    }
    if inside {
        0.0
    } else {
        best.sqrt()
    }
}

/// The Hausdorff distance between two convex polygons, in floating point: the farthest any
/// vertex of one is from the other (a convex set's farthest point from a convex set is one of
/// its vertices).
pub fn hausdorff(a: &[(f64, f64)], b: &[(f64, f64)]) -> f64 {
    let one = |p: &[(f64, f64)], q: &[(f64, f64)]| {
        p.iter().map(|&v| distance_to(q, v)).fold(0.0, f64::max)
    };
    one(a, b).max(one(b, a))
}

/// A convex polygon in floating point, ready to tell which points lie deep inside it: the
/// screens that leave out, before an exact hull, the points that cannot be its vertices.
pub struct Screen {
    /// Each edge: its start, the edge, and the square of its length (a square root a point
    /// would be a noticeable cost).
    edges: Vec<(Point<f64>, Point<f64>, f64)>,
}

impl Screen {
    /// The screen of a convex polygon, counter-clockwise (one of fewer than three vertices
    /// holds nothing deep inside).
    pub fn of(polygon: Vec<Point<f64>>) -> Screen {
        let n = polygon.len();
        let edges = if n >= 3 {
            (0..n)
                .map(|k| {
                    let (a, b) = (polygon[k], polygon[(k + 1) % n]);
                    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                    (a, (dx, dy), dx * dx + dy * dy)
                })
                .collect()
        } else {
            Vec::new()
        };
        Screen { edges }
    }

    /// Whether `p` lies inside, farther than `margin` from every edge's line (false for NaN).
    pub fn deep_inside(&self, p: Point<f64>, margin: f64) -> bool {
        !self.edges.is_empty()
            && self.edges.iter().all(|&(a, (dx, dy), length)| {
                let c = dx * (p.1 - a.1) - dy * (p.0 - a.0);
                c > 0.0 && c * c > margin * margin * length
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_drops_inner_and_collinear_points() {
        let h = hull(vec![(0i128, 0), (2, 0), (1, 0), (2, 2), (0, 2), (1, 1)]);
        assert_eq!(h, vec![(0, 0), (2, 0), (2, 2), (0, 2)]);
        assert!(contains(&h, &(1, 2)));
        assert!(!contains(&h, &(3, 1)));
        let segment = hull(vec![(0i128, 0), (1, 1), (2, 2)]);
        assert_eq!(segment, vec![(0, 0), (2, 2)]);
        assert!(contains(&segment, &(1, 1)));
        assert!(!contains(&segment, &(3, 3)));
        assert_eq!(hull(vec![(1i128, 1), (1, 1)]), vec![(1, 1)]);
    }

    #[test]
    fn the_grid_hull_is_the_generic_one() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..2000 {
            // Small ranges make ties, repeats and collinear points common; wide ones reach
            // the machine word's edge (and past it, where the generic hull takes over).
            let range: i128 = [4, 40, 1 << 46, 1 << 61, 1 << 70][round % 5];
            let n = (next() % 12) as usize;
            let points: Vec<Point<i128>> = (0..n)
                .map(|_| {
                    let c = |r: u64| (r as i128).rem_euclid(2 * range) - range;
                    (c(next()), c(next()))
                })
                .collect();
            assert_eq!(
                hull_of_grid(points.clone()),
                hull(points.clone()),
                "{points:?}"
            );
        }
    }

    #[test]
    fn distances_between_squares() {
        let a = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        let b = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)];
        assert_eq!(distance_to(&a, (0.5, 0.5)), 0.0);
        assert_eq!(hausdorff(&a, &b), 1.0);
        assert_eq!(hausdorff(&a, &a), 0.0);
    }
}
