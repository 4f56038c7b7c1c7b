//! One equilibrium of a two-player tree by Lemke's algorithm on the sequence form (Koller,
//! Megiddo and von Stengel, "Efficient computation of equilibria for extensive two-person
//! games", GEB 1996): exact, at the size of the tree.
//!
//! The equilibrium conditions are the linear complementarity problem `w = q + M z ≥ 0`,
//! `z ≥ 0`, `zᵀw = 0` with `z = (x, y, p⁺, p⁻, q⁺, q⁻)`: each sequence of a player is unplayed
//! or a best response (`x ⊥ Eᵀp − A y`, `y ⊥ Fᵀq − Bᵀx`), and the plans satisfy `E x = e`,
//! `F y = f` (two inequalities each, complementary to the two halves of the free values `p`,
//! `q`). With every payoff made negative by a shift, which changes no equilibrium, Lemke's
//! method from the artificial variable `z₀` with a positive covering vector `d` (all ones, or
//! others to reach other equilibria) ends in a solution: the pivots follow the complementary path until `z₀` leaves. Ties in the ratio
//! test, frequent since `q` is mostly zero, are broken lexicographically by the columns of the
//! starting basis, which makes every step unique and the path finite. Pivots are
//! fraction-free, in `i128` until it would overflow, then in big integers; the equilibrium is
//! checked exactly on the tree.

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::exact::ring::{with_fallback, Overflow, Ring};
use crate::exact::tableau::Tableau;
use crate::exact::Q;
use crate::extensive::seqform::SequenceForm;
use crate::extensive::Tree;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// The sequence form's complementarity problem `w = q + M z` of a two-player tree, `z` being
/// `(x, y, p⁺, p⁻, q⁺, q⁻)`.
pub(crate) struct Lcp {
    pub m: Vec<Vec<BigInt>>,
    pub q: Vec<BigInt>,
    /// Each player's sequences (`x` at 0, `y` at `n1`).
    pub n1: usize,
    pub n2: usize,
    /// The problem's size.
    pub size: usize,
}

/// The complementarity problem of `tree` (two players, perfect recall), its tableau's memory
/// checked first.
pub(crate) fn lcp(tree: &Tree, limits: &Limits) -> Result<Lcp> {
    if tree.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "Lemke's algorithm on the sequence form is for two-player trees; this one has {} \
             players",
            tree.players.len()
        )));
    }
    let form = SequenceForm::new(tree)?;
    let (n1, n2) = (form.players[0].count, form.players[1].count);
    let (k1, k2) = (
        form.players[0].infosets.len() + 1,
        form.players[1].infosets.len() + 1,
    );
    let size = n1 + n2 + 2 * k1 + 2 * k2;
    crate::core::budget::check_memory(
        &format!("Lemke's tableau on the sequence form ({size} x {size})"),
        (size as u64).saturating_mul(2 * size as u64 + 2) * 24,
        limits.max_memory,
    )?;
    // Payoffs shifted below zero, chance-weighted between sequences, scaled to integers.
    let negative = |p: usize| -> Vec<Vec<BigInt>> {
        let top = form
            .leaves
            .iter()
            .map(|l| l.payoffs[p].clone())
            .max()
            .unwrap_or_else(Q::zero);
        let shift = top + Q::one();
        let mut m = vec![vec![Q::zero(); n2]; n1];
        for l in &form.leaves {
            m[l.seqs[0]][l.seqs[1]] += &l.chance * (&l.payoffs[p] - &shift);
        }
        let scale = m
            .iter()
            .flatten()
            .fold(BigInt::one(), |s, x| s.lcm(x.denom()));
        m.iter()
            .map(|r| {
                r.iter()
                    .map(|x| (x * Q::from_integer(scale.clone())).to_integer())
                    .collect()
            })
            .collect()
    };
    let (a, b) = (negative(0), negative(1));
    // E and F: row 0 is x_∅ = 1; row 1 + h is Σ x_{σa} − x_{parent} = 0.
    let constraints = |p: usize| -> Vec<Vec<(usize, i64)>> {
        let s = &form.players[p];
        let mut rows = vec![vec![(0, 1)]];
        for (k, &h) in s.infosets.iter().enumerate() {
            let mut row = vec![(s.parent[k], -1)];
            row.extend((0..tree.infosets[h].actions.len()).map(|a| (s.first[k] + a, 1)));
            rows.push(row);
        }
        rows
    };
    let (e, f) = (constraints(0), constraints(1));
    // Column offsets of z's parts.
    let (ox, oy, op, oq) = (0, n1, n1 + n2, n1 + n2 + 2 * k1);
    let mut m = vec![vec![BigInt::zero(); size]; size];
    let mut q = vec![BigInt::zero(); size];
    for s1 in 0..n1 {
        for s2 in 0..n2 {
            // w_x = −A y + Eᵀ(p⁺ − p⁻); w_y = −Bᵀ x + Fᵀ(q⁺ − q⁻).
            m[ox + s1][oy + s2] = -a[s1][s2].clone();
            m[oy + s2][ox + s1] = -b[s1][s2].clone();
        }
    }
    // Each plan's constraints, in the rows of its player's sequences (against p⁺ and p⁻) and
    // in their own rows: w_{p⁺} = e − E x, w_{p⁻} = −e + E x (and alike for F, q).
    let mut constrain = |rows: &[Vec<(usize, i64)>], oz: usize, ov: usize, k: usize| {
        for (r, row) in rows.iter().enumerate() {
            for &(s, c) in row {
                m[oz + s][ov + r] += c;
                m[oz + s][ov + k + r] -= c;
                m[ov + r][oz + s] -= c;
                m[ov + k + r][oz + s] += c;
            }
        }
    };
    constrain(&e, ox, op, k1);
    constrain(&f, oy, oq, k2);
    q[op] = BigInt::one();
    q[op + k1] = -BigInt::one();
    q[oq] = BigInt::one();
    q[oq + k2] = -BigInt::one();
    Ok(Lcp { m, q, n1, n2, size })
}

/// The end of Lemke's path.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The two players' realisation plans.
    pub plans: [Vec<Q>; 2],
    /// Pivots made.
    pub pivots: usize,
    /// The LCP's size.
    pub size: usize,
    /// The steps counted against the work budget, this run's and those `spent` before it.
    pub work: u64,
}

/// One equilibrium of the two-player tree `tree` (perfect recall needed), with the covering
/// vector of ones.
pub fn solve(tree: &Tree, limits: &Limits) -> Result<Solution> {
    solve_covering(tree, 0, limits, 0)
}

/// One equilibrium with the covering vector numbered `k`: 0 is all ones; any other is drawn
/// from 1..=16 in each entry by a generator seeded with `k`. Different vectors start the path
/// in different directions and may end at different equilibria.
pub fn solve_covering(tree: &Tree, k: u64, limits: &Limits, spent: u64) -> Result<Solution> {
    let Lcp { m, q, n1, n2, size } = lcp(tree, limits)?;
    let (ox, oy) = (0, n1);
    crate::core::progress::phase("Lemke's algorithm on the sequence form: pivots", 0);
    let cover: Vec<i64> = if k == 0 {
        vec![1; size]
    } else {
        let mut rng = XorShiftRng::seed_from_u64(k);
        (0..size)
            .map(|_| 1 + (rng.next_u64() % 16) as i64)
            .collect()
    };
    // Setting up the tableau costs one step an entry; runs with many covering vectors add up.
    let spent = spent.saturating_add((size as u64).saturating_mul(size as u64));
    let end = with_fallback(
        || path::<i128>(&m, &q, &cover, &[], limits, spent),
        || path::<BigInt>(&m, &q, &cover, &[], limits, spent),
    )?;
    let (z, pivots) = (end.values, end.pivots);
    let x: Vec<Q> = z[ox..ox + n1].to_vec();
    let y: Vec<Q> = z[oy..oy + n2].to_vec();
    Ok(Solution {
        plans: [x, y],
        pivots,
        size,
        work: spent.saturating_add((pivots as u64).saturating_mul(2 * (size as u64).pow(2))),
    })
}

/// Where the path ends, in numbers ([`Solution`] is made of them).
pub(crate) struct End {
    /// `z` at the end (with a perturbation: its value at ε = 0).
    pub values: Vec<Q>,
    /// With a perturbation: `series[j][i]` is the coefficient of `ε^(j+1)` in `z_i` (zero for
    /// the nonbasic).
    pub series: Vec<Vec<Q>>,
    /// Pivots made.
    pub pivots: usize,
}

/// Lemke's complementary path for `w = q + M z` with covering vector `cover`, the right-hand
/// side perturbed symbolically to `q + Σ ε^(j+1) perturb[j]` (ties in the ratio test are
/// broken by the perturbation's columns first, then by the slacks': the path of the
/// perturbed problem for every small enough `ε > 0`).
pub(crate) fn path<T: Ring>(
    m: &[Vec<BigInt>],
    q: &[BigInt],
    cover: &[i64],
    perturb: &[Vec<BigInt>],
    limits: &Limits,
    spent: u64,
) -> std::result::Result<Result<End>, Overflow> {
    let n = q.len();
    let k = perturb.len();
    // Columns: z (0..n), z₀ (n), the perturbation's columns (n + 1 + j: never entering, they
    // change with each pivot as the right-hand side does, so that row i's value is
    // rhs_i + Σ ε^(j+1) T[i][n + 1 + j]), then the slacks w (n + 1 + k + i), basic at the start.
    let mut rows = Vec::with_capacity(n);
    for (i, (row, &d)) in m.iter().zip(cover).enumerate() {
        let mut r: Vec<T> = Vec::with_capacity(n + 1 + k);
        for x in row {
            r.push(T::from_big(&-x).ok_or(Overflow)?);
        }
        r.push(T::small(-d));
        for c in perturb {
            r.push(T::from_big(&c[i]).ok_or(Overflow)?);
        }
        rows.push(r);
    }
    let rhs: Vec<T> = q
        .iter()
        .map(|x| T::from_big(x).ok_or(Overflow))
        .collect::<std::result::Result<_, _>>()?;
    let mut t = Tableau::new(rows, rhs);
    let ties: Vec<usize> = (n + 1..2 * n + 1 + k).collect();
    let off = n + 1 + k;
    let complement = |v: usize| if v < n { off + v } else { v - off };
    // z₀ enters where q is most negative (lexicographically, for ties).
    let col = t.rhs();
    let r = first_row(&t, cover, &ties)?;
    if !t.t[r][col].is_neg() {
        // q ≥ 0: z = 0 solves it (not for a sequence form, whose q has −1s).
        return Ok(Ok(End {
            values: vec![Q::zero(); n],
            series: vec![vec![Q::zero(); n]; k],
            pivots: 0,
        }));
    }
    let mut leaving = t.basis[r];
    t.pivot(r, n)?;
    t.normalise()?;
    let mut pivots = 1usize;
    loop {
        let entering = complement(leaving);
        let Some(r) = t.lex_min_ratio_row(entering, &ties)? else {
            return Ok(Err(Error::Invalid(
                "internal inconsistency: Lemke's path on the sequence form ended in a ray".into(),
            )));
        };
        leaving = t.basis[r];
        t.pivot(r, entering)?;
        t.normalise()?;
        pivots += 1;
        if pivots % 64 == 0 {
            if let Err(e) = crate::core::progress::tick(pivots as u64) {
                return Ok(Err(e));
            }
        }
        // Each pivot updates the whole tableau.
        let work = (pivots as u64)
            .saturating_mul((2 * n * n) as u64)
            .saturating_add(spent);
        if let Err(e) = crate::core::budget::check_work(
            "Lemke's path on the sequence form",
            work,
            limits.max_work,
        ) {
            return Ok(Err(e));
        }
        if leaving == n {
            break;
        }
    }
    let den = t.d.to_big();
    let at = |col: usize| -> Vec<Q> {
        let mut v = vec![Q::zero(); n];
        for (i, &b) in t.basis.iter().enumerate() {
            if b < n {
                v[b] = Q::new(t.t[i][col].to_big(), den.clone());
            }
        }
        v
    };
    Ok(Ok(End {
        values: at(t.rhs()),
        series: (0..k).map(|j| at(n + 1 + j)).collect(),
        pivots,
    }))
}

/// The row where `z₀` enters: where `q_i/d_i` is most negative, ties broken by the columns
/// `ties` in turn (the perturbation's, then the slacks'), each divided by the cover alike.
fn first_row<T: Ring>(
    t: &Tableau<T>,
    cover: &[i64],
    ties: &[usize],
) -> std::result::Result<usize, Overflow> {
    let n = t.rows();
    let col = t.rhs();
    let mut r = 0;
    for i in 1..n {
        // Row i beats row r when q_i/d_i < q_r/d_r; ties by the tie columns in turn.
        let better = match T::cmp_products(
            &t.t[i][col],
            &T::small(cover[r]),
            &t.t[r][col],
            &T::small(cover[i]),
        )? {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                let mut order = std::cmp::Ordering::Equal;
                for &c in ties {
                    order = T::cmp_products(
                        &t.t[i][c],
                        &T::small(cover[r]),
                        &t.t[r][c],
                        &T::small(cover[i]),
                    )?;
                    if order != std::cmp::Ordering::Equal {
                        break;
                    }
                }
                order == std::cmp::Ordering::Less
            }
        };
        if better {
            r = i;
        }
    }
    Ok(r)
}
