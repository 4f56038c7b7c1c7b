//! The reduced normal form of a tree: a player's reduced pure strategy chooses an action only
//! at the information sets its own earlier choices do not rule out, so strategies that differ
//! only where they can never matter are one. Every strategic-form solver then applies to the
//! tree, and a mixed strategy maps back to a behaviour strategy (Kuhn's theorem).

use super::seqform::SequenceForm;
use super::Tree;
use crate::core::budget::Limits;
use crate::core::error::Result;
use crate::exact::Q;
use crate::strategic::game::NormalForm;
use num_traits::Zero;

/// A tree's reduced normal form with the map back.
#[derive(Debug, Clone)]
pub struct Reduced {
    /// The strategic-form game; a strategy is named by its action (from 1) at each of the
    /// player's information sets, `*` where it does not choose (Gambit's labels).
    pub game: NormalForm,
    /// For each player and reduced strategy: the sequences it plays (a 0/1 realisation plan,
    /// as the indices of its sequences).
    pub strategies: Vec<Vec<Vec<usize>>>,
    /// The sequence form it was built from.
    pub form: SequenceForm,
}

/// How many reduced strategies player `p` has: at each sequence, the product over the sets it
/// leads to of the sum over their actions (saturating at `u128::MAX`).
pub fn count_strategies(form: &SequenceForm, tree: &Tree, p: usize) -> u128 {
    let s = &form.players[p];
    let mut below = vec![1u128; s.count];
    for k in (0..s.infosets.len()).rev() {
        let m = tree.infosets[s.infosets[k]].actions.len();
        let sum = (0..m).fold(0u128, |acc, a| acc.saturating_add(below[s.first[k] + a]));
        below[s.parent[k]] = below[s.parent[k]].saturating_mul(sum);
    }
    below[0]
}

/// Player `p`'s reduced strategies, each as the sorted list of its sequences.
fn strategies_of(form: &SequenceForm, tree: &Tree, p: usize) -> Vec<Vec<usize>> {
    let s = &form.players[p];
    let k = s.infosets.len();
    // An odometer over the sets in order, where a set not reached by the choices before it
    // (its parent sequence not played) is skipped.
    let mut choice = vec![0usize; k];
    let mut out = Vec::new();
    loop {
        let mut played = vec![false; s.count];
        played[0] = true;
        let mut reached = vec![false; k];
        for i in 0..k {
            if played[s.parent[i]] {
                reached[i] = true;
                played[s.first[i] + choice[i]] = true;
            }
        }
        out.push((0..s.count).filter(|&q| played[q]).collect());
        // Advance the last reached set that can still move; reset the reached ones after it.
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if !reached[i] {
                continue;
            }
            if choice[i] + 1 < tree.infosets[s.infosets[i]].actions.len() {
                choice[i] += 1;
                for c in choice.iter_mut().skip(i + 1) {
                    *c = 0;
                }
                break;
            }
        }
    }
}

/// The reduced normal form of `tree` (perfect recall needed), within the limits: the pure
/// profiles count as positions, a pass over the leaves for each as work.
pub fn reduce(tree: &Tree, limits: &Limits) -> Result<Reduced> {
    let form = SequenceForm::new(tree)?;
    let n = tree.players.len();
    let counts: Vec<u128> = (0..n).map(|p| count_strategies(&form, tree, p)).collect();
    let profiles = counts.iter().fold(1u128, |a, &c| a.saturating_mul(c));
    let clip = |x: u128| u64::try_from(x).unwrap_or(u64::MAX);
    // Each profile holds a payoff per player (a rational: 64 bytes with its allocation) and
    // costs a pass over the leaves.
    limits.admit(
        &format!(
            "the reduced normal form ({} pure profiles)",
            counts
                .iter()
                .map(u128::to_string)
                .collect::<Vec<_>>()
                .join(" x ")
        ),
        clip(profiles),
        64 * n as u64,
        clip(profiles.saturating_mul(form.leaves.len() as u128 + 1)),
    )?;
    let strategies: Vec<Vec<Vec<usize>>> = (0..n).map(|p| strategies_of(&form, tree, p)).collect();
    let names: Vec<Vec<String>> = (0..n)
        .map(|p| {
            let s = &form.players[p];
            let wide = s
                .infosets
                .iter()
                .any(|&h| tree.infosets[h].actions.len() > 9);
            strategies[p]
                .iter()
                .map(|seqs| {
                    let label: Vec<String> = (0..s.infosets.len())
                        .map(|k| {
                            let m = tree.infosets[s.infosets[k]].actions.len();
                            (0..m)
                                .find(|a| seqs.binary_search(&(s.first[k] + a)).is_ok())
                                .map_or("*".into(), |a| (a + 1).to_string())
                        })
                        .collect();
                    if label.is_empty() {
                        "*".to_string()
                    } else {
                        label.join(if wide { "." } else { "" })
                    }
                })
                .collect()
        })
        .collect();
    // Leaves by the profile of sequences they need: a leaf pays out in a profile when every
    // player's strategy plays its sequence.
    let shape: Vec<usize> = strategies.iter().map(Vec::len).collect();
    let total: usize = shape.iter().product();
    let plays: Vec<Vec<Vec<bool>>> = (0..n)
        .map(|p| {
            strategies[p]
                .iter()
                .map(|seqs| {
                    let mut b = vec![false; form.players[p].count];
                    for &q in seqs {
                        b[q] = true;
                    }
                    b
                })
                .collect()
        })
        .collect();
    let mut payoffs = Vec::with_capacity(total);
    let mut profile = vec![0usize; n];
    crate::core::progress::phase("reduced normal form", total as u64);
    for k in 0..total {
        let mut pay = vec![Q::zero(); n];
        for leaf in &form.leaves {
            if (0..n).all(|p| plays[p][profile[p]][leaf.seqs[p]]) {
                for (x, u) in pay.iter_mut().zip(&leaf.payoffs) {
                    *x += &leaf.chance * u;
                }
            }
        }
        payoffs.push(pay);
        // The first player's strategy fastest, as NormalForm stores profiles.
        for p in 0..n {
            profile[p] += 1;
            if profile[p] < shape[p] {
                break;
            }
            profile[p] = 0;
        }
        crate::core::progress::tick(k as u64 + 1)?;
    }
    let game = NormalForm::new(tree.title.clone(), tree.players.clone(), names, payoffs)?;
    Ok(Reduced {
        game,
        strategies,
        form,
    })
}

impl Reduced {
    /// The behaviour profile of a mixed profile of the reduced normal form (Kuhn's theorem):
    /// at each set, each action's share of the probability of the strategies that reach the
    /// set; where none reaches it, the first action.
    pub fn behaviour(&self, tree: &Tree, mixed: &[Vec<Q>]) -> Vec<Vec<Q>> {
        let mut behaviour: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
        for (p, mix) in mixed.iter().enumerate() {
            let mut plan = vec![Q::zero(); self.form.players[p].count];
            for (s, prob) in mix.iter().enumerate() {
                if prob.is_zero() {
                    continue;
                }
                for &q in &self.strategies[p][s] {
                    plan[q] += prob;
                }
            }
            self.form.behaviour_of(tree, p, &plan, &mut behaviour);
        }
        behaviour
    }

    /// A mixed strategy of player `p` over the reduced strategies whose realisation plan is
    /// `plan` (Kuhn's theorem the other way): repeatedly the reduced strategy that follows the
    /// remaining plan's positive sequences, weighted by their least remaining probability. Each
    /// step clears a sequence and leaves a plan of smaller mass, so it ends within as many
    /// steps as there are sequences.
    pub fn mixed_of_plan(&self, tree: &Tree, p: usize, plan: &[Q]) -> Vec<Q> {
        let s = &self.form.players[p];
        let mut rest = plan.to_vec();
        let mut mixed = vec![Q::zero(); self.strategies[p].len()];
        while rest[0] > Q::zero() {
            let mut played = vec![false; s.count];
            played[0] = true;
            for k in 0..s.infosets.len() {
                if played[s.parent[k]] {
                    let m = tree.infosets[s.infosets[k]].actions.len();
                    // A plan's mass goes on below every sequence that has some.
                    let a = (0..m)
                        .find(|&a| rest[s.first[k] + a] > Q::zero())
                        .unwrap_or(0);
                    played[s.first[k] + a] = true;
                }
            }
            let seqs: Vec<usize> = (0..s.count).filter(|&q| played[q]).collect();
            let w = seqs
                .iter()
                .map(|&q| rest[q].clone())
                .min()
                .unwrap_or_else(Q::zero);
            if w <= Q::zero() {
                break;
            }
            for &q in &seqs {
                rest[q] -= &w;
            }
            if let Some(k) = self.strategies[p].iter().position(|st| *st == seqs) {
                mixed[k] += w;
            }
        }
        mixed
    }
}
