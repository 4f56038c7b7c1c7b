//! The polynomial system of a support profile: the indifference equations and the sums to one,
//! multilinear in the players' probabilities, with their coefficients in any scalar.

use super::*;

/// One multilinear polynomial: `coef` is a tensor over the support profiles of `others`
/// (the first of them fastest).
#[derive(Debug, Clone)]
pub(super) struct Poly {
    pub(super) others: Vec<usize>,
    pub(super) dims: Vec<usize>,
}

/// The system of one support profile.
pub(super) struct System {
    pub(super) support: Vec<Vec<usize>>,
    pub(super) off: Vec<usize>,
    pub(super) d: usize,
    /// The coordinates that are unknowns: every probability but each player's first, which
    /// is one minus the others.
    pub(super) free: Vec<usize>,
    /// The position in `free` of each coordinate.
    pub(super) col: Vec<Option<usize>>,
    /// The indifferences, as many as `free`.
    pub(super) polys: Vec<Poly>,
    /// The strategies outside the supports: each one's payoff minus the support's first.
    pub(super) ineq_polys: Vec<Poly>,
    /// For each player with indifferences (their polynomials, `polys[first..first + count]`),
    /// `(first, count, player)`: the player's corners at each vertex are `vertex_map[player]`
    /// (empty beyond [`VERTEX_UNKNOWNS`]).
    pub(super) corner_of: Vec<(usize, usize, usize)>,
    /// For each player, the corner of its polynomials' variables (the others' unknowns) at
    /// each vertex of the box of unknowns (empty beyond [`VERTEX_UNKNOWNS`]).
    pub(super) vertex_map: Vec<Vec<u16>>,
}

/// The coefficients of a system's polynomials in one kind of number.
pub(super) struct Coefs<S> {
    pub(super) eq: Vec<Vec<S>>,
    pub(super) ineq: Vec<Vec<S>>,
}

impl<S: Scalar> Coefs<S> {
    pub(super) fn of(q: &Coefs<Q>) -> Self {
        let conv = |v: &Vec<Vec<Q>>| v.iter().map(|t| t.iter().map(S::of).collect()).collect();
        Coefs {
            eq: conv(&q.eq),
            ineq: conv(&q.ineq),
        }
    }
}

/// A tensor over the others' supports rewritten for probability vectors that sum to one:
/// along each axis, entry `t >= 1` becomes its difference with entry 0, so that
/// `sum_t c_t x_t = c_0 + sum_{t>=1} (c_t - c_0) x_t` uses each probability once (interval
/// evaluation then overestimates far less) and the first probability not at all.
pub(super) fn on_simplex(coef: Vec<BigInt>, dims: &[usize]) -> Vec<Q> {
    // Integers until here: differences of rationals would each be reduced by a gcd.
    simplex_integers(coef, dims)
        .into_iter()
        .map(Q::from_integer)
        .collect()
}

/// [`on_simplex`] of integers, left as integers.
pub(super) fn simplex_integers(mut coef: Vec<BigInt>, dims: &[usize]) -> Vec<BigInt> {
    let mut stride = 1;
    for &k in dims {
        for idx in 0..coef.len() {
            let t = (idx / stride) % k;
            if t > 0 {
                let base = coef[idx - t * stride].clone();
                coef[idx] -= base;
            }
        }
        stride *= k;
    }
    coef
}

/// A tensor written by [`on_simplex`] evaluated at one probability vector for each axis (the
/// first entry of each vector is not used), or with the axis `fixed.0` differentiated along
/// its entry `fixed.1 >= 1`.
pub(super) fn contract<S: Scalar>(
    coef: &[S],
    dims: &[usize],
    xs: &[&[S]],
    fixed: Option<(usize, usize)>,
) -> S {
    contract_in(coef, dims, xs, fixed, &mut Vec::new())
}

/// [`contract`] in the buffer `cur` (its contents are replaced), so that a caller contracting
/// many times (a Jacobian) allocates once.
pub(super) fn contract_in<S: Scalar>(
    coef: &[S],
    dims: &[usize],
    xs: &[&[S]],
    fixed: Option<(usize, usize)>,
    cur: &mut Vec<S>,
) -> S {
    // In place: entry `r` of an axis's result is written after its block `r k ..` is read,
    // and later blocks start beyond it.
    cur.clear();
    cur.extend_from_slice(coef);
    for (a, &k) in dims.iter().enumerate() {
        let len = cur.len() / k;
        for r in 0..len {
            let block = &cur[r * k..(r + 1) * k];
            let value = match fixed {
                Some((fa, t)) if fa == a => block[t].clone(),
                _ => {
                    let mut acc = block[0].clone();
                    for (b, x) in block[1..].iter().zip(&xs[a][1..]) {
                        acc = acc.add(&b.mul(x));
                    }
                    acc
                }
            };
            cur[r] = value;
        }
        cur.truncate(len);
    }
    cur.pop().unwrap_or_else(S::nil)
}
