//! One round of the outer iteration on the grid: the payoffs generated from a set `W` of
//! continuation payoffs (Abreu, Pearce and Stacchetti's operator, with public randomisation),
//! enlarged to grid points so that every round's set still holds every equilibrium payoff.
//!
//! A profile `a` can be played today when tomorrow's payoffs `w ∈ W` reward both players for
//! not deviating: `w_i ≥ threat_i + margin_i(a)`, where `threat_i` is player `i`'s lowest
//! payoff in `W` (the harshest punishment `W` offers). The payoffs it generates are
//! `(1 − δ) u(a) + δ w`; their extreme points come from the extreme points of `W ∩ {w ≥ c}`:
//! the vertices of `W` inside the quadrant, where `W`'s edges cross the quadrant's two sides,
//! and its corner when `W` holds it. Each generated point is exact (a fraction of grid
//! integers) and is replaced by the corners of the grid square that holds it; the rounded
//! margins and threats are lower than the exact ones. So the round's hull contains the exact
//! operator's, and by monotonicity every round contains the set of equilibrium payoffs.

use super::polygon::{contains, edges, hull, lowest, Point};
use super::stage::Grid;

/// The points whose hull is the next round's set, from the set `w` (a polygon on the grid);
/// empty when no profile can be played.
///
/// The generated points are exact fractions; those that a hull in floating point shows to lie
/// deep inside (farther than a few grid steps, far more than its rounding) cannot be extreme,
/// and only the others are replaced by the corners of their grid squares. This keeps the
/// exact hull to a few points a vertex.
pub fn step(grid: &Grid, w: &[Point<i128>]) -> Vec<Point<i128>> {
    let exact = generated_points(grid, w);
    let float: Vec<Point<f64>> = exact
        .iter()
        .map(|&(x, y, d)| (x as f64 / d as f64, y as f64 / d as f64))
        .collect();
    let rough = hull(float.clone());
    let edges: Vec<(Point<f64>, Point<f64>, f64)> = (0..rough.len())
        .map(|k| {
            let (a, b) = (rough[k], rough[(k + 1) % rough.len()]);
            (
                a,
                (b.0 - a.0, b.1 - a.1),
                4.0 * (b.0 - a.0).hypot(b.1 - a.1),
            )
        })
        .collect();
    let mut out = Vec::new();
    for (&(x, y, d), &p) in exact.iter().zip(&float) {
        if !deep_inside(&edges, p) {
            for gx in around(x, d).into_iter().flatten() {
                for gy in around(y, d).into_iter().flatten() {
                    out.push((gx, gy));
                }
            }
        }
    }
    out
}

/// Whether `p` lies inside a convex polygon, given as its edges (a start, the edge and a
/// margin), farther than each edge's margin from its line.
fn deep_inside(edges: &[(Point<f64>, Point<f64>, f64)], p: Point<f64>) -> bool {
    edges.len() >= 3
        && edges
            .iter()
            .all(|&(a, (dx, dy), margin)| dx * (p.1 - a.1) - dy * (p.0 - a.0) > margin)
}

/// Every point `(1 − δ) u(a) + δ w` generated from `w`, exactly: `(x, y, d)` for the point
/// `(x / d, y / d)` in grid units.
fn generated_points(grid: &Grid, w: &[Point<i128>]) -> Vec<(i128, i128, i128)> {
    let Some(threat) = lowest(w) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (u, margin) in grid.payoffs.iter().zip(&grid.margins) {
        let corner = (threat.0 + margin.0, threat.1 + margin.1);
        let mut push = |x: i128, y: i128, den: i128| out.push(generated(grid, u, (x, y), den));
        for v in w {
            if v.0 >= corner.0 && v.1 >= corner.1 {
                push(v.0, v.1, 1);
            }
        }
        for (a, b) in edges(w) {
            for side in 0..2 {
                if let Some((x, y, den)) = crossing(a, b, &corner, side) {
                    push(x, y, den);
                }
            }
        }
        if w.len() >= 3 && contains(w, &corner) {
            push(corner.0, corner.1, 1);
        }
    }
    out
}

/// The next round's set: the hull of [`step`]'s points.
pub fn round(grid: &Grid, w: &[Point<i128>]) -> Vec<Point<i128>> {
    hull(step(grid, w))
}

/// Coordinate `k` of a point.
fn coordinate(p: &Point<i128>, k: usize) -> i128 {
    if k == 0 {
        p.0
    } else {
        p.1
    }
}

/// Where the edge `a → b` strictly crosses the line `w_side = corner_side`, if the crossing is
/// in the quadrant above `corner`: `(x, y, den)` for the point `(x / den, y / den)`.
fn crossing(
    a: &Point<i128>,
    b: &Point<i128>,
    corner: &Point<i128>,
    side: usize,
) -> Option<(i128, i128, i128)> {
    let other = 1 - side;
    let level = coordinate(corner, side);
    let (s0, s1) = (coordinate(a, side) - level, coordinate(b, side) - level);
    if !((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0)) {
        return None;
    }
    let mut den = coordinate(b, side) - coordinate(a, side);
    let mut along = coordinate(a, other) * den
        + (level - coordinate(a, side)) * (coordinate(b, other) - coordinate(a, other));
    if den < 0 {
        den = -den;
        along = -along;
    }
    if along < coordinate(corner, other) * den {
        return None;
    }
    Some(if side == 0 {
        (level * den, along, den)
    } else {
        (along, level * den, den)
    })
}

/// `(1 − δ) u + δ w` for `w = (x, y) / den`, as `(x', y', d)` for `(x' / d, y' / d)`.
fn generated(grid: &Grid, u: &Point<i128>, (x, y): Point<i128>, den: i128) -> (i128, i128, i128) {
    let stay = grid.q - grid.p;
    (
        stay * u.0 * den + grid.p * x,
        stay * u.1 * den + grid.p * y,
        grid.q * den,
    )
}

/// The grid points next to `n / d` (`d > 0`): itself when it is one, else the two around it.
fn around(n: i128, d: i128) -> [Option<i128>; 2] {
    let low = n.div_euclid(d);
    if n.rem_euclid(d) == 0 {
        [Some(low), None]
    } else {
        [Some(low), Some(low + 1)]
    }
}
