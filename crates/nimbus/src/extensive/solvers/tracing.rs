//! The tracing procedure on a two-player tree, in its sequence form (von Stengel, van den
//! Elzen and Talman, "Computing normal form perfect equilibria for extensive two-person
//! games", Econometrica 2002): players start from best replies to a prior behaviour profile
//! and gradually replace it by what the other plays. From a completely mixed prior (the
//! default: every action of every information set equally likely) the equilibrium reached is
//! *normal-form perfect*. The path is [`crate::strategic::solvers::tracing::trace_plans`]'s,
//! exact, on realisation plans: a size linear in the tree, where the reduced normal form can
//! be exponential.

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::exact::Q;
use crate::extensive::seqform::SequenceForm;
use crate::extensive::{Mover, Tree};
use crate::strategic::solvers::tracing::{trace_plans, Linear, Plans};
use num_bigint::BigInt;
use num_traits::One;

/// The equilibrium the procedure selects.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The two players' realisation plans.
    pub plans: [Vec<Q>; 2],
    /// Pivots along the path.
    pub pivots: usize,
}

/// The centroid prior: at every information set of a player, each action equally likely
/// (chance's sets as the tree has them).
pub fn centroid(tree: &Tree) -> Vec<Vec<Q>> {
    tree.infosets
        .iter()
        .map(|h| match h.mover {
            Mover::Player(_) => {
                let k = h.actions.len().max(1);
                vec![Q::new(BigInt::one(), BigInt::from(k)); h.actions.len()]
            }
            _ => h.probs.clone(),
        })
        .collect()
}

/// Follows the tracing procedure on the two-player tree `tree` (perfect recall needed) from
/// the behaviour profile `prior` (every information set's action probabilities).
pub fn trace(tree: &Tree, prior: &[Vec<Q>], limits: &Limits) -> Result<Solution> {
    if tree.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "the tracing procedure on a tree is for two players; this one has {}",
            tree.players.len()
        )));
    }
    let form = SequenceForm::new(tree)?;
    let plans: [Plans; 2] = [0, 1].map(|p| {
        let s = &form.players[p];
        Plans {
            parent: s.parent.clone(),
            first: s.first.clone(),
            actions: s
                .infosets
                .iter()
                .map(|&h| tree.infosets[h].actions.len())
                .collect(),
            count: s.count,
        }
    });
    let (n1, n2) = (plans[0].count, plans[1].count);
    crate::core::budget::check_memory(
        "the tracing procedure's payoffs between sequences",
        (n1 as u64).saturating_mul(n2 as u64).saturating_mul(2 * 32),
        limits.max_memory,
    )?;
    // Each player's chance-weighted payoffs between sequences, scaled to integers (a positive
    // scale changes no best reply).
    let payoffs = |p: usize| -> Vec<Vec<BigInt>> {
        let m = form.payoff_matrix(p, 0);
        let (flat, _) = crate::exact::over_common_denominator(m.iter().flatten());
        flat.chunks(n2.max(1)).map(<[BigInt]>::to_vec).collect()
    };
    let linear = Linear {
        a: payoffs(0),
        b: payoffs(1),
        plans,
    };
    let (p, q) = (form.plan(tree, 0, prior), form.plan(tree, 1, prior));
    let end = trace_plans(&linear, &p, &q, limits)?;
    Ok(Solution {
        plans: end.plans,
        pivots: end.pivots,
    })
}
