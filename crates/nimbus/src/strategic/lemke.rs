//! The Lemke–Howson algorithm: one equilibrium of a two-player game per starting label, by
//! complementary pivoting on the two best-response polytopes (von Stengel, "Computing
//! equilibria for two-person games", Handbook of Game Theory 3, 2002).
//!
//! Starting from the artificial equilibrium (the origin of both polytopes), label `k` is
//! dropped by entering its variable; the variable that leaves has a label now doubly present,
//! whose partner in the other polytope enters next, until the leaving variable carries label
//! `k`. Ties in the ratio test are broken lexicographically by the rows of the basis inverse,
//! which is the perturbation that makes every game behave as a nondegenerate one, so the path
//! cannot cycle. Pivots are exact (fraction-free integers, `i128` first).

use super::bimatrix::{Bimatrix, Equilibrium};
use super::ring::{convert, with_fallback, Overflow, Ring};
use super::tableau::Tableau;
use crate::error::{Error, Result};
use num_bigint::BigInt;

/// One run of Lemke–Howson.
#[derive(Debug, Clone)]
pub struct Run {
    /// The label dropped at the start (0-based: rows first, then columns).
    pub label: usize,
    /// The equilibrium it ends at.
    pub equilibrium: Equilibrium,
    /// Pivots made.
    pub pivots: usize,
}

/// Runs Lemke–Howson from label `label` (`0..m` a row, `m..m+n` a column).
pub fn lemke_howson(g: &Bimatrix, label: usize) -> Result<Run> {
    if label >= g.m + g.n {
        return Err(Error::Invalid(format!(
            "label {} is not a strategy: the game has {} + {} strategies",
            label + 1,
            g.m,
            g.n
        )));
    }
    let (x, y, pivots) = with_fallback(|| path::<i128>(g, label), || path::<BigInt>(g, label));
    let equilibrium = g.equilibrium(&x, &y).ok_or_else(|| {
        Error::Invalid("internal inconsistency: a Lemke–Howson path ended off equilibrium".into())
    })?;
    Ok(Run {
        label,
        equilibrium,
        pivots,
    })
}

/// Runs Lemke–Howson from every label; equal equilibria are kept once, each with the first
/// label that found it.
pub fn from_every_label(g: &Bimatrix) -> Result<Vec<Run>> {
    let mut runs: Vec<Run> = Vec::new();
    for k in 0..g.m + g.n {
        let run = lemke_howson(g, k)?;
        if !runs.iter().any(|r| r.equilibrium == run.equilibrium) {
            runs.push(run);
        }
    }
    Ok(runs)
}

type Path = (Vec<BigInt>, Vec<BigInt>, usize);

fn path<T: Ring>(g: &Bimatrix, label: usize) -> std::result::Result<Path, Overflow> {
    let (m, n) = (g.m, g.n);
    let (Some(bt), Some(a)) = (convert::<T>(&g.b_transposed()), convert::<T>(&g.a)) else {
        return Err(Overflow);
    };
    // tabs[0]: P, variables x (labels 0..m) then slacks (labels m..m+n).
    // tabs[1]: Q, variables y (labels m..m+n) then slacks (labels 0..m).
    let mut tabs = [
        Tableau::new(bt, vec![T::small(1); n]),
        Tableau::new(a, vec![T::small(1); m]),
    ];
    let label_of = |side: usize, v: usize| match side {
        0 => v,
        _ if v < n => m + v,
        _ => v - n,
    };
    let column_of = |side: usize, l: usize| match side {
        0 => l,
        _ if l >= m => l - m,
        _ => n + l,
    };
    let ties: [Vec<usize>; 2] = [(m..m + n).collect(), (n..n + m).collect()];
    let mut side = usize::from(label >= m);
    let mut entering = column_of(side, label);
    let mut pivots = 0;
    loop {
        let t = &mut tabs[side];
        let r = t
            .lex_min_ratio_row(entering, &ties[side])?
            .expect("a best-response polytope is bounded");
        let leaving = t.basis[r];
        t.pivot(r, entering)?;
        pivots += 1;
        let l = label_of(side, leaving);
        if l == label {
            break;
        }
        side = 1 - side;
        entering = column_of(side, l);
    }
    let x = tabs[0].values(m).iter().map(Ring::to_big).collect();
    let y = tabs[1].values(n).iter().map(Ring::to_big).collect();
    Ok((x, y, pivots))
}
