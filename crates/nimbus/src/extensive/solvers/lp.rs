//! Two-player zero-sum trees by the sequence-form linear program (Koller, Megiddo and von
//! Stengel 1994): the value and both players' optimal behaviour strategies, exactly, from
//! one LP whose size is that of the tree (not of its normal form).
//!
//! The first player maximises `f·q` over realisation plans `x` (`E x = e`, `x ≥ 0`) and free
//! `q` with `Fᵀq ≤ Aᵀx`, where `A` holds the first player's payoffs weighted by chance
//! between the two players' sequences; the second player's plan is the dual solution. Nimbus's
//! exact simplex wants `max c·y`, `M y ≤ b` with `b ≥ 0` and `y ≥ 0`, and this LP is put in
//! that form without loss: once every payoff is made positive by a shift (which moves the
//! value by the same amount), a *sub*-plan (`E x ≤ e`: probability may be dropped on the way)
//! never does better than a plan above it, and the best-response values `q` are nonnegative.
//! The plans read off the optimum may be sub-plans; scaled up in proportion at each
//! information set they are plans and stay optimal. The strategies returned are checked
//! exactly: neither player gains by deviating (their exploitability is zero).

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::exact::simplex::maximize;
use crate::exact::{show, Q};
use crate::extensive::seqform::SequenceForm;
use crate::extensive::Tree;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};

/// The solution of a zero-sum tree.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The value for the first player.
    pub value: Q,
    /// Both players' optimal behaviour strategies: for each information set of the tree, the
    /// probabilities of its actions (chance sets hold chance's).
    pub behaviour: Vec<Vec<Q>>,
    /// The LP's size: constraints and variables.
    pub size: (usize, usize),
    /// Simplex pivots made.
    pub pivots: usize,
}

/// Solves the two-player constant-sum tree `tree` (perfect recall needed).
pub fn solve(tree: &Tree, limits: &Limits) -> Result<Solution> {
    if tree.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "the sequence-form LP solves two-player zero-sum trees; this one has {} players",
            tree.players.len()
        )));
    }
    let Some(total) = tree.constant_sum() else {
        return Err(Error::Invalid(
            "the sequence-form LP solves zero-sum trees (the payoffs of every play add up to \
             the same number); this one is not"
                .into(),
        ));
    };
    let form = SequenceForm::new(tree)?;
    let (p1, p2) = (&form.players[0], &form.players[1]);
    let (n1, n2) = (p1.count, p2.count);
    let h2 = p2.infosets.len();
    let rows = n2 + 1 + p1.infosets.len();
    let cols = n1 + 1 + h2;
    // The float guide's tableau and the exact one's, at a few words an entry.
    limits.admit(
        "the sequence-form LP",
        0,
        0,
        (rows as u64).saturating_mul((rows + cols) as u64),
    )?;
    crate::core::budget::check_memory(
        &format!("the sequence-form LP ({rows} constraints, {cols} variables)"),
        crate::strategic::solvers::zerosum::tableau_bytes(rows, cols, 40),
        limits.max_memory,
    )?;
    let min = form
        .leaves
        .iter()
        .map(|l| &l.payoffs[0])
        .min()
        .cloned()
        .unwrap_or_else(Q::zero);
    let shift = Q::one() - min;
    // A[σ][τ], sparse, then scaled to integers by the common denominator.
    let mut entries: std::collections::HashMap<(usize, usize), Q> = Default::default();
    for leaf in &form.leaves {
        *entries
            .entry((leaf.seqs[0], leaf.seqs[1]))
            .or_insert_with(Q::zero) += &leaf.chance * (&leaf.payoffs[0] + &shift);
    }
    let mut scale = BigInt::one();
    for q in entries.values() {
        scale = scale.lcm(q.denom());
    }
    let mut a = vec![vec![BigInt::zero(); cols]; rows];
    // Rows 0..n2: one per sequence τ of the second player, (Fᵀq)_τ − (Aᵀx)_τ ≤ 0.
    for (&(s, t), q) in &entries {
        a[t][s] = -(q.numer() * (&scale / q.denom()));
    }
    a[0][n1] = BigInt::one();
    for k in 0..h2 {
        a[p2.parent[k]][n1 + 1 + k] -= 1;
        let m = tree.infosets[p2.infosets[k]].actions.len();
        for r in &mut a[p2.first[k]..p2.first[k] + m] {
            r[n1 + 1 + k] += 1;
        }
    }
    // Rows n2..: the first player's sub-plan, x_∅ ≤ 1 and Σ_a x_{σa} ≤ x_σ at each set.
    a[n2][0] = BigInt::one();
    for k in 0..p1.infosets.len() {
        let row = &mut a[n2 + 1 + k];
        row[p1.parent[k]] -= 1;
        let m = tree.infosets[p1.infosets[k]].actions.len();
        for x in &mut row[p1.first[k]..p1.first[k] + m] {
            *x += 1;
        }
    }
    let mut b = vec![BigInt::zero(); rows];
    b[n2] = BigInt::one();
    let mut c = vec![BigInt::zero(); cols];
    c[n1] = BigInt::one();
    crate::core::progress::phase("sequence-form LP", 0);
    let lp = maximize(&a, &b, &c)?;
    let value = &lp.value / Q::from_integer(scale) - &shift;
    let behaviour = form.profile_of(tree, [&lp.primal[..n1], &lp.dual[..n2]]);
    // The promise: the strategies are checked against the tree, not trusted from the LP.
    let pay = form.payoffs(tree, &behaviour);
    let gains = form.gains(tree, &behaviour);
    if pay[0] != value || pay[0].clone() + &pay[1] != total || gains.iter().any(|g| !g.is_zero()) {
        return Err(Error::Invalid(format!(
            "internal inconsistency: the sequence-form LP's strategies pay {} against a value \
             of {}, with gains from deviation {} and {}",
            show(&pay[0]),
            show(&value),
            show(&gains[0]),
            show(&gains[1])
        )));
    }
    Ok(Solution {
        value,
        behaviour,
        size: (rows, cols),
        pivots: lp.pivots,
    })
}
