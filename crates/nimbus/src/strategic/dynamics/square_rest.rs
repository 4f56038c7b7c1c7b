//! The rest points of the two-population replicator equation of a 2 × 2 game, exactly, with
//! their stability.
//!
//! With `x` the row population's share of its first strategy and `y` the column's, the
//! equation is `x' = x(1 − x) D_r(y)`, `y' = y(1 − y) D_c(x)`, where `D_r(y)` is how much more
//! the row's first strategy earns than its second against `y` (linear in `y`), and `D_c(x)`
//! likewise for the column. So the four corners rest; a side rests as a whole where the other
//! population is indifferent there (a continuum); and an interior point rests where both are
//! indifferent. At a corner the linearisation is diagonal, its eigenvalues `±D_r(y)` and
//! `±D_c(x)` (the gains of the strategy not played, with their signs): stable when both are
//! negative (a strict equilibrium). Inside, the Jacobian has a zero diagonal, so its
//! eigenvalues are `±√(x(1−x)y(1−y) D_r' D_c')`: a saddle (unstable) when the product is
//! positive, a centre (closed orbits; not decided by the linearisation) when negative.

use super::rest_points::Stability;
use crate::exact::Q;
use num_traits::{One, Signed, Zero};

/// A rest point in the unit square.
#[derive(Debug, Clone)]
pub struct SquareRest {
    /// The row population's share of its first strategy.
    pub x: Q,
    /// The column population's share of its first strategy.
    pub y: Q,
    /// The two populations' average payoffs there.
    pub payoffs: [Q; 2],
    /// Whether neither population's other strategy earns more (a Nash equilibrium).
    pub nash: bool,
    /// The linearisation's verdict.
    pub stability: Stability,
}

/// A side of the square resting as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The row population plays only its first (`true`) or second strategy, and the column
    /// population is indifferent there.
    Row(bool),
    /// The column population plays only its first (`true`) or second strategy, and the row
    /// population is indifferent there.
    Column(bool),
    /// One population is indifferent whatever the other does: the whole square rests in its
    /// direction (no point is isolated).
    Everywhere,
}

fn verdict(gains: &[Q]) -> Stability {
    if gains.iter().any(Signed::is_positive) {
        Stability::Unstable
    } else if gains.iter().all(Signed::is_negative) {
        Stability::Stable
    } else {
        Stability::Undecided
    }
}

/// The isolated rest points (corners first, then the interior one) and the sides that rest
/// as a whole, of the bimatrix game `(a, b)` (2 × 2).
pub fn square_rest_points(a: &[Vec<Q>], b: &[Vec<Q>]) -> (Vec<SquareRest>, Vec<Side>) {
    let one = Q::one();
    // D_r(y) = dr1 y + dr0 (1 − y); D_c(x) = dc1 x + dc0 (1 − x).
    let (dr1, dr0) = (&a[0][0] - &a[1][0], &a[0][1] - &a[1][1]);
    let (dc1, dc0) = (&b[0][0] - &b[0][1], &b[1][0] - &b[1][1]);
    let d_r = |y: &Q| &dr1 * y + &dr0 * (&one - y);
    let d_c = |x: &Q| &dc1 * x + &dc0 * (&one - x);
    let pay = |x: &Q, y: &Q| -> [Q; 2] {
        let p = [x.clone(), &one - x];
        let q = [y.clone(), &one - y];
        let mut out = [Q::zero(), Q::zero()];
        for i in 0..2 {
            for j in 0..2 {
                out[0] += &p[i] * &q[j] * &a[i][j];
                out[1] += &p[i] * &q[j] * &b[i][j];
            }
        }
        out
    };
    let mut sides = Vec::new();
    if (dr1.is_zero() && dr0.is_zero()) || (dc1.is_zero() && dc0.is_zero()) {
        sides.push(Side::Everywhere);
        return (Vec::new(), sides);
    }
    for first in [true, false] {
        let v = if first { one.clone() } else { Q::zero() };
        if d_c(&v).is_zero() {
            sides.push(Side::Row(first));
        }
        if d_r(&v).is_zero() {
            sides.push(Side::Column(first));
        }
    }
    let on_side = |x: &Q, y: &Q| {
        sides.iter().any(|s| match s {
            Side::Row(f) => *x == if *f { one.clone() } else { Q::zero() },
            Side::Column(f) => *y == if *f { one.clone() } else { Q::zero() },
            Side::Everywhere => true,
        })
    };
    let mut found = Vec::new();
    for (x, y) in [(1, 1), (1, 0), (0, 1), (0, 0)] {
        let (x, y) = (Q::from_integer(x.into()), Q::from_integer(y.into()));
        if on_side(&x, &y) {
            continue;
        }
        // The gain of the strategy not played, for each population.
        let gr = if x.is_one() { -d_r(&y) } else { d_r(&y) };
        let gc = if y.is_one() { -d_c(&x) } else { d_c(&x) };
        found.push(SquareRest {
            payoffs: pay(&x, &y),
            nash: !gr.is_positive() && !gc.is_positive(),
            stability: verdict(&[gr, gc]),
            x,
            y,
        });
    }
    // Inside: D_r(y) = 0 and D_c(x) = 0, both strictly between 0 and 1.
    let (sr, sc) = (&dr1 - &dr0, &dc1 - &dc0);
    if !sr.is_zero() && !sc.is_zero() {
        let y = -&dr0 / &sr;
        let x = -&dc0 / &sc;
        let inside = |v: &Q| v.is_positive() && *v < one;
        if inside(&x) && inside(&y) {
            let product = &sr * &sc;
            found.push(SquareRest {
                payoffs: pay(&x, &y),
                nash: true,
                stability: if product.is_positive() {
                    Stability::Unstable
                } else {
                    Stability::Undecided
                },
                x,
                y,
            });
        }
    }
    (found, sides)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: &[[i64; 2]; 2]) -> Vec<Vec<Q>> {
        rows.iter()
            .map(|r| r.iter().map(|&v| Q::from_integer(v.into())).collect())
            .collect()
    }

    /// Matching pennies: four unstable corners and a centre at (1/2, 1/2).
    #[test]
    fn matching_pennies_has_a_centre() {
        let a = m(&[[1, -1], [-1, 1]]);
        let b = m(&[[-1, 1], [1, -1]]);
        let (r, sides) = square_rest_points(&a, &b);
        assert!(sides.is_empty());
        assert_eq!(r.len(), 5);
        assert!(r[..4]
            .iter()
            .all(|p| p.stability == Stability::Unstable && !p.nash));
        let half = Q::new(1.into(), 2.into());
        assert_eq!((r[4].x.clone(), r[4].y.clone()), (half.clone(), half));
        assert_eq!(r[4].stability, Stability::Undecided);
    }

    /// A coordination game: the two strict equilibria stable, the mixed one a saddle.
    #[test]
    fn coordination_has_two_stable_corners_and_a_saddle() {
        let a = m(&[[2, 0], [0, 1]]);
        let (r, _) = square_rest_points(&a, &a);
        let stable: Vec<_> = r
            .iter()
            .filter(|p| p.stability == Stability::Stable)
            .map(|p| (p.x.clone(), p.y.clone()))
            .collect();
        let one = Q::one();
        assert_eq!(stable, vec![(one.clone(), one), (Q::zero(), Q::zero())]);
        let third = Q::new(1.into(), 3.into());
        let inner = r.last().unwrap();
        assert_eq!((inner.x.clone(), inner.y.clone()), (third.clone(), third));
        assert_eq!(inner.stability, Stability::Unstable);
        assert!(inner.nash);
    }

    /// A column player indifferent against the row's first strategy: that side rests whole.
    #[test]
    fn an_indifferent_side_is_a_continuum() {
        let a = m(&[[1, 0], [0, 1]]);
        let b = m(&[[3, 3], [1, 0]]);
        let (r, sides) = square_rest_points(&a, &b);
        assert_eq!(sides, vec![Side::Row(true)]);
        assert!(r.iter().all(|p| !p.x.is_one()));
    }
}
