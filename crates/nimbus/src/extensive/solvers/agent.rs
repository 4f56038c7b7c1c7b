//! Pure equilibria of a tree's agent form (Selten 1975): each information set is an agent of
//! its player with that player's payoff, so a pure behaviour profile is an agent-form
//! equilibrium when no single set's action can be changed to the player's gain. Every pure
//! Nash equilibrium is one; with three or more players these are what Gambit's
//! `enumpure_agent_solve` lists.
//!
//! Every pure profile is tried, in odometer order, each with one exact evaluation of the tree
//! per alternative action; the work is counted before it starts.

use crate::core::budget::Limits;
use crate::core::error::Result;
use crate::exact::Q;
use crate::extensive::{Mover, Tree};
use num_traits::{One, Zero};

/// Every pure agent-form equilibrium of `tree`, as behaviour profiles (one distribution per
/// information set of the tree, chance's included).
pub fn pure_equilibria(tree: &Tree, limits: &Limits) -> Result<Vec<Vec<Vec<Q>>>> {
    tree.check()?;
    let sets: Vec<usize> = (0..tree.infosets.len())
        .filter(|&h| tree.infosets[h].mover != Mover::Chance)
        .collect();
    let sizes: Vec<usize> = sets
        .iter()
        .map(|&h| tree.infosets[h].actions.len())
        .collect();
    let profiles = sizes
        .iter()
        .try_fold(1u64, |p, &k| p.checked_mul(k as u64))
        .unwrap_or(u64::MAX);
    let tries = 1 + sizes.iter().map(|&k| k as u64 - 1).sum::<u64>();
    crate::core::budget::check_work(
        &format!(
            "the pure agent-form profiles ({} of them, {} evaluations of {} nodes each)",
            crate::core::show::show_count(profiles),
            tries,
            tree.nodes.len()
        ),
        profiles
            .saturating_mul(tries)
            .saturating_mul(tree.nodes.len() as u64),
        limits.max_work,
    )?;
    let pure = |h: usize, a: usize| -> Vec<Q> {
        (0..tree.infosets[h].actions.len())
            .map(|b| if a == b { Q::one() } else { Q::zero() })
            .collect()
    };
    let mut choice = vec![0usize; sets.len()];
    let mut profile: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
    for &h in &sets {
        profile[h] = pure(h, 0);
    }
    let mut out = Vec::new();
    let mut done = 0u64;
    loop {
        let base = tree.node_values(&profile)[0].clone();
        let stable = sets.iter().enumerate().all(|(i, &h)| {
            let Mover::Player(p) = tree.infosets[h].mover else {
                unreachable!("players' sets only")
            };
            (0..sizes[i]).filter(|&a| a != choice[i]).all(|a| {
                let mut other = profile.clone();
                other[h] = pure(h, a);
                tree.node_values(&other)[0][p] <= base[p]
            })
        });
        if stable {
            out.push(profile.clone());
        }
        done += 1;
        if done % 256 == 0 {
            crate::core::progress::tick(done)?;
        }
        // The next profile.
        let mut i = 0;
        loop {
            if i == sets.len() {
                return Ok(out);
            }
            choice[i] += 1;
            if choice[i] < sizes[i] {
                profile[sets[i]] = pure(sets[i], choice[i]);
                break;
            }
            choice[i] = 0;
            profile[sets[i]] = pure(sets[i], 0);
            i += 1;
        }
    }
}
