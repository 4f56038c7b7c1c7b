//! A quasi-perfect equilibrium of a two-player tree (van Damme 1984: at every information
//! set, each player's choice is a best reply to the others' trembles and to their own future
//! trembles), by Miltersen and Sørensen's method ("Computing a quasi-perfect equilibrium of a
//! two-player game", Economic Theory 2010): Lemke's algorithm on the sequence form in which
//! every sequence's realisation weight is held at least `ε^|σ|` (`|σ|` the number of the
//! player's own moves in it), with `ε` kept symbolic.
//!
//! Writing `x = x' + l(ε)` turns the bounds into `x' ≥ 0` and the problem into the same
//! complementarity problem with its right-hand side perturbed by `Σ ε^j M l_j`; Lemke's path
//! is followed for every small enough `ε > 0` at once by breaking ties lexicographically by
//! those columns (`lemke::path`). At the end every realisation weight is a polynomial
//! in `ε`; the limit plans are an equilibrium, and the behaviour at each information set is
//! the limit of the ratios, read off the lowest power of `ε` among its actions — so the
//! answer says what a player does even where their own earlier moves never lead, as a
//! sequential equilibrium must.

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::exact::ring::with_fallback;
use crate::exact::Q;
use crate::extensive::seqform::SequenceForm;
use crate::extensive::{Mover, Tree};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::lemke::{lcp, path, Lcp};

/// The equilibrium found.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The behaviour at every information set of the tree (chance's as the tree has them).
    pub behaviour: Vec<Vec<Q>>,
    /// Pivots along the path.
    pub pivots: usize,
    /// The complementarity problem's size.
    pub size: usize,
}

/// A quasi-perfect equilibrium of the two-player tree `tree` (perfect recall needed).
pub fn solve(tree: &Tree, limits: &Limits) -> Result<Solution> {
    let Lcp { m, q, n1, n2, size } = lcp(tree, limits)?;
    let form = SequenceForm::new(tree)?;
    // Each sequence's number of its player's own moves, at its place in `z`.
    let mut length = vec![0usize; size];
    for (p, offset) in [(0, 0), (1, n1)] {
        let s = &form.players[p];
        for k in 0..s.infosets.len() {
            let below = length[offset + s.parent[k]] + 1;
            let actions = tree.infosets[s.infosets[k]].actions.len();
            for a in 0..actions {
                length[offset + s.first[k] + a] = below;
            }
        }
    }
    let deepest = length.iter().copied().max().unwrap_or(0);
    // The perturbation of the right-hand side by ε^j: M times the bound's part of degree j.
    let perturb: Vec<Vec<BigInt>> = (1..=deepest)
        .map(|j| {
            m.iter()
                .map(|row| {
                    (0..n1 + n2)
                        .filter(|&i| length[i] == j)
                        .map(|i| &row[i])
                        .sum()
                })
                .collect()
        })
        .collect();
    let cover = vec![1i64; size];
    let end = with_fallback(
        || path::<i128>(&m, &q, &cover, &perturb, limits, 0),
        || path::<BigInt>(&m, &q, &cover, &perturb, limits, 0),
    )?;
    // x_σ(ε) = x'_σ(ε) + ε^|σ|: its coefficients by power.
    let weight = |i: usize| -> Vec<Q> {
        let mut c = vec![end.values[i].clone()];
        c.extend(end.series.iter().map(|s| s[i].clone()));
        if i != 0 && i != n1 {
            c[length[i]] += Q::from_integer(1.into());
        }
        c
    };
    let mut behaviour: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
    for (p, offset) in [(0, 0), (1, n1)] {
        let s = &form.players[p];
        for (k, &h) in s.infosets.iter().enumerate() {
            let Mover::Player(_) = tree.infosets[h].mover else {
                continue;
            };
            let actions = tree.infosets[h].actions.len();
            let weights: Vec<Vec<Q>> = (0..actions)
                .map(|a| weight(offset + s.first[k] + a))
                .collect();
            behaviour[h] = limit_ratios(&weights)?;
        }
    }
    Ok(Solution {
        behaviour,
        pivots: end.pivots,
        size,
    })
}

/// The limit as `ε → 0` of the shares of polynomials in `ε` (coefficients by power), all
/// positive for small `ε`: the shares of their coefficients at the lowest power where any is
/// nonzero.
fn limit_ratios(weights: &[Vec<Q>]) -> Result<Vec<Q>> {
    let lowest = (0..weights.iter().map(Vec::len).max().unwrap_or(0))
        .find(|&e| weights.iter().any(|w| !w[e].is_zero()))
        .ok_or_else(|| {
            Error::Invalid("internal inconsistency: an information set weighs nothing".into())
        })?;
    let lead: Vec<Q> = weights.iter().map(|w| w[lowest].clone()).collect();
    if lead.iter().any(Signed::is_negative) {
        return Err(Error::Invalid(
            "internal inconsistency: a realisation weight is negative for small ε".into(),
        ));
    }
    let total: Q = lead.iter().sum();
    Ok(lead.iter().map(|x| x / &total).collect())
}
