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

use super::polygon::{contains, edges, hull, hull_of_grid, lowest, Point, Screen};
use super::stage::Grid;

/// The points whose hull is the next round's set, from the set `w` (a polygon on the grid);
/// empty when no profile can be played.
///
/// The generated points are exact fractions; those that a hull in floating point shows to lie
/// deep inside cannot be extreme, and only the others are replaced by the corners of their
/// grid squares; of those corners, the ones deep inside that hull are left out too (they lie
/// inside the exact points' hull, so they are never vertices of the corners' hull). Each
/// point's square is found from its floating-point value when that is clearly away from the
/// grid lines, else exactly. This keeps the exact hull to a few points a vertex.
pub fn step(grid: &Grid, w: &[Point<i128>]) -> Vec<Point<i128>> {
    let found = continuations(grid, w);
    let rough = Screen::of(hull(found.iter().map(|c| c.float).collect()));
    let mut out = Vec::new();
    for c in found.iter().filter(|c| !rough.deep_inside(c.float, DEEP)) {
        let exact = || generated(grid, &grid.payoffs[c.profile], c.exact);
        let xs = square_sides(c.float.0, || {
            let (x, _, d) = exact();
            (x, d)
        });
        let ys = square_sides(c.float.1, || {
            let (_, y, d) = exact();
            (y, d)
        });
        for gx in xs.into_iter().flatten() {
            for gy in ys.into_iter().flatten() {
                if !rough.deep_inside((small(gx), small(gy)), DEEP) {
                    out.push((gx, gy));
                }
            }
        }
    }
    out
}

/// How far the floating-point generated points may lie from the exact ones, in grid steps, at
/// most: coordinates below 2^46 and a few roundings of relative size 2^-53 each make it about
/// 0.01; this is ten times that.
const FLOAT_ERROR: f64 = 0.1;

/// How far inside the rough hull, in grid steps, a point must lie to be left out: past the
/// floating-point error of the hull's vertices (then the point lies inside the exact points'
/// hull) with room to spare.
const DEEP: f64 = 1.0;

/// The grid coordinates next to a generated coordinate whose floating-point value is `f`
/// (grid units): from `f` when it lies clearly between two grid lines, else from the exact
/// fraction `n / d` that `exact` computes.
fn square_sides(f: f64, exact: impl FnOnce() -> (i128, i128)) -> [Option<i128>; 2] {
    let low = f.floor();
    if f - low > FLOAT_ERROR && f - low < 1.0 - FLOAT_ERROR {
        // Through a machine word: a float to a 128-bit integer is a slow library call.
        let low = low as i64 as i128;
        [Some(low), Some(low + 1)]
    } else {
        let (n, d) = exact();
        around(n, d)
    }
}

/// A continuation a profile can use, and the point it generates.
struct Continuation {
    /// The profile.
    profile: usize,
    /// The continuation `(x / den, y / den)`, exactly: `(x, y, den)`.
    exact: (i128, i128, i128),
    /// The generated point `(1 − δ) u + δ w`, in floating point (grid units).
    float: Point<f64>,
}

/// Every continuation of every profile whose generated point may be extreme. Which ones
/// exist is decided exactly; their points are computed in floating point only here, from
/// machine-word coordinates (the exact ones are computed for the few points kept).
fn continuations(grid: &Grid, w: &[Point<i128>]) -> Vec<Continuation> {
    let Some(threat) = lowest(w) else {
        return Vec::new();
    };
    let delta = grid.p as f64 / grid.q as f64;
    let mut out = Vec::new();
    for (profile, (u, margin)) in grid.payoffs.iter().zip(&grid.margins).enumerate() {
        let corner = (threat.0 + margin.0, threat.1 + margin.1);
        let base = ((1.0 - delta) * small(u.0), (1.0 - delta) * small(u.1));
        let mut push = |exact: (i128, i128, i128), wf: Point<f64>| {
            let float = (base.0 + delta * wf.0, base.1 + delta * wf.1);
            out.push(Continuation {
                profile,
                exact,
                float,
            });
        };
        for v in w {
            if v.0 >= corner.0 && v.1 >= corner.1 {
                push((v.0, v.1, 1), (small(v.0), small(v.1)));
            }
        }
        for (a, b) in edges(w) {
            for side in 0..2 {
                if let Some((exact, wf)) = crossing(a, b, &corner, side) {
                    push(exact, wf);
                }
            }
        }
        if w.len() >= 3 && contains(w, &corner) {
            push((corner.0, corner.1, 1), (small(corner.0), small(corner.1)));
        }
    }
    out
}

/// A grid coordinate (below 2^47) in floating point, through a machine word.
fn small(x: i128) -> f64 {
    x as i64 as f64
}

/// The next round's set: the hull of [`step`]'s points.
pub fn round(grid: &Grid, w: &[Point<i128>]) -> Vec<Point<i128>> {
    hull_of_grid(step(grid, w))
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
/// in the quadrant above `corner`: `(x, y, den)` for the point `(x / den, y / den)`, and the
/// point in floating point.
fn crossing(
    a: &Point<i128>,
    b: &Point<i128>,
    corner: &Point<i128>,
    side: usize,
) -> Option<((i128, i128, i128), Point<f64>)> {
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
    let t = small(s0) / small(s0 - s1);
    let (ao, bo) = (small(coordinate(a, other)), small(coordinate(b, other)));
    let float_along = ao + t * (bo - ao);
    Some(if side == 0 {
        ((level * den, along, den), (small(level), float_along))
    } else {
        ((along, level * den, den), (float_along, small(level)))
    })
}

/// `(1 − δ) u + δ w` for `w = (x, y) / den`, as `(x', y', d)` for `(x' / d, y' / d)`.
fn generated(grid: &Grid, u: &Point<i128>, (x, y, den): (i128, i128, i128)) -> (i128, i128, i128) {
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
