//! The sequence form of a tree with perfect recall (Koller, Megiddo and von Stengel; Romanovskii;
//! von Stengel 1996): a player's *sequence* is the empty one or an information set of theirs
//! with one of its actions; a *realisation plan* gives each sequence the probability that the
//! player's own moves follow it. Expected payoffs are linear in each player's plan, which is
//! what makes best responses, exploitability and the linear programs of trees cheap.

use super::{Mover, Tree};
use crate::core::error::{Error, Result};
use crate::exact::Q;
use num_traits::{One, Zero};

/// One player's sequences.
#[derive(Debug, Clone)]
pub struct Sequences {
    /// The player's information sets (indices into [`Tree::infosets`]), each after the one
    /// whose sequence leads to it.
    pub infosets: Vec<usize>,
    /// For each of those: the sequence leading to it (0: the empty sequence).
    pub parent: Vec<usize>,
    /// For each of those: the index of its first action's sequence (its actions' sequences
    /// are consecutive).
    pub first: Vec<usize>,
    /// How many sequences there are, the empty one (index 0) included.
    pub count: usize,
}

/// A leaf as the sequence form sees it.
#[derive(Debug, Clone)]
pub struct Leaf {
    /// The node.
    pub node: usize,
    /// The probability chance gives it.
    pub chance: Q,
    /// Each player's sequence to it.
    pub seqs: Vec<usize>,
    /// The payoffs along its path.
    pub payoffs: Vec<Q>,
}

/// The sequence form of a tree.
#[derive(Debug, Clone)]
pub struct SequenceForm {
    /// Each player's sequences.
    pub players: Vec<Sequences>,
    /// For each information set of the tree: its index among its player's (or `usize::MAX`
    /// for chance).
    pub local: Vec<usize>,
    /// The leaves that chance reaches with positive probability.
    pub leaves: Vec<Leaf>,
}

impl SequenceForm {
    /// The sequence form of `tree`, which must have perfect recall.
    pub fn new(tree: &Tree) -> Result<Self> {
        tree.check()?;
        tree.perfect_recall()?;
        let n = tree.players.len();
        let last = tree.last_own_moves();
        let mut players: Vec<Sequences> = (0..n)
            .map(|_| Sequences {
                infosets: Vec::new(),
                parent: Vec::new(),
                first: Vec::new(),
                count: 1,
            })
            .collect();
        let mut local = vec![usize::MAX; tree.infosets.len()];
        // Information sets in the order of their first nodes: an ancestor's set comes first,
        // so a set's parent sequence is numbered before it.
        let mut order: Vec<usize> = (0..tree.infosets.len()).collect();
        order.sort_by_key(|&h| {
            tree.infosets[h]
                .nodes
                .first()
                .copied()
                .unwrap_or(usize::MAX)
        });
        for h in order {
            let Mover::Player(p) = tree.infosets[h].mover else {
                continue;
            };
            if tree.infosets[h].nodes.is_empty() {
                continue;
            }
            let parent = match last[tree.infosets[h].nodes[0]][p] {
                None => 0,
                Some((g, a)) => players[p].first[local[g]] + a,
            };
            let s = &mut players[p];
            local[h] = s.infosets.len();
            s.infosets.push(h);
            s.parent.push(parent);
            s.first.push(s.count);
            s.count += tree.infosets[h].actions.len();
        }
        let chance = tree.chance_reach();
        let pay = tree.path_payoffs();
        let leaves = tree
            .leaves()
            .filter(|&v| !chance[v].is_zero())
            .map(|v| Leaf {
                node: v,
                chance: chance[v].clone(),
                seqs: (0..n)
                    .map(|p| match last[v][p] {
                        None => 0,
                        Some((g, a)) => players[p].first[local[g]] + a,
                    })
                    .collect(),
                payoffs: pay[v].clone(),
            })
            .collect();
        Ok(SequenceForm {
            players,
            local,
            leaves,
        })
    }

    /// The realisation plan of player `p`'s behaviour strategy (`behaviour[h]`: the
    /// probabilities of the actions at information set `h` of the tree).
    pub fn plan(&self, tree: &Tree, p: usize, behaviour: &[Vec<Q>]) -> Vec<Q> {
        let s = &self.players[p];
        let mut plan = vec![Q::zero(); s.count];
        plan[0] = Q::one();
        for (k, &h) in s.infosets.iter().enumerate() {
            let reach = plan[s.parent[k]].clone();
            for a in 0..tree.infosets[h].actions.len() {
                plan[s.first[k] + a] = &reach * &behaviour[h][a];
            }
        }
        plan
    }

    /// The behaviour strategy of a realisation plan, written into `behaviour` for player
    /// `p`'s information sets. A plan may be a *sub-plan* (probability lost on the way, as
    /// the relaxed linear programs give): at each set the action probabilities are the plan's
    /// in proportion; where the plan gives a set nothing, its first action.
    pub fn behaviour_of(&self, tree: &Tree, p: usize, plan: &[Q], behaviour: &mut [Vec<Q>]) {
        let s = &self.players[p];
        for (k, &h) in s.infosets.iter().enumerate() {
            let m = tree.infosets[h].actions.len();
            let total: Q = plan[s.first[k]..s.first[k] + m].iter().sum();
            behaviour[h] = if total.is_zero() {
                (0..m)
                    .map(|a| Q::from_integer(i64::from(a == 0).into()))
                    .collect()
            } else {
                plan[s.first[k]..s.first[k] + m]
                    .iter()
                    .map(|x| x / &total)
                    .collect()
            };
        }
    }

    /// The behaviour profile of a two-player tree's realisation plans (see
    /// [`SequenceForm::behaviour_of`]), chance's sets as the tree has them.
    pub fn profile_of(&self, tree: &Tree, plans: [&[Q]; 2]) -> Vec<Vec<Q>> {
        let mut b: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
        for (p, plan) in plans.into_iter().enumerate() {
            self.behaviour_of(tree, p, plan, &mut b);
        }
        b
    }

    /// Every player's expected payoff under the behaviour profile.
    pub fn payoffs(&self, tree: &Tree, behaviour: &[Vec<Q>]) -> Vec<Q> {
        let n = tree.players.len();
        let plans: Vec<Vec<Q>> = (0..n).map(|p| self.plan(tree, p, behaviour)).collect();
        let mut out = vec![Q::zero(); n];
        for leaf in &self.leaves {
            let mut w = leaf.chance.clone();
            for (p, plan) in plans.iter().enumerate() {
                if w.is_zero() {
                    break;
                }
                w *= &plan[leaf.seqs[p]];
            }
            if w.is_zero() {
                continue;
            }
            for (o, u) in out.iter_mut().zip(&leaf.payoffs) {
                *o += &w * u;
            }
        }
        out
    }

    /// Player `p`'s best response to the others' behaviour: its value and its action at
    /// each of `p`'s information sets (as an index into the set's actions). Exact; one pass
    /// over the leaves and one over `p`'s sequences.
    pub fn best_response(&self, tree: &Tree, p: usize, behaviour: &[Vec<Q>]) -> (Q, Vec<usize>) {
        let n = tree.players.len();
        let plans: Vec<Option<Vec<Q>>> = (0..n)
            .map(|j| (j != p).then(|| self.plan(tree, j, behaviour)))
            .collect();
        let s = &self.players[p];
        let mut value = vec![Q::zero(); s.count];
        for leaf in &self.leaves {
            let mut w = leaf.chance.clone();
            for (j, plan) in plans.iter().enumerate() {
                if let Some(plan) = plan {
                    w *= &plan[leaf.seqs[j]];
                }
            }
            if !w.is_zero() {
                value[leaf.seqs[p]] += w * &leaf.payoffs[p];
            }
        }
        self.fold(tree, p, value)
    }

    /// Player `p`'s best value and choices from `value`, what each of `p`'s sequences earns
    /// against the others' plans at its own leaves: sets later in the list lie below earlier
    /// ones, so they are folded from the last.
    fn fold(&self, tree: &Tree, p: usize, mut value: Vec<Q>) -> (Q, Vec<usize>) {
        let s = &self.players[p];
        let mut choice = vec![0; s.infosets.len()];
        for k in (0..s.infosets.len()).rev() {
            let m = tree.infosets[s.infosets[k]].actions.len();
            let mut best = 0;
            for a in 1..m {
                if value[s.first[k] + a] > value[s.first[k] + best] {
                    best = a;
                }
            }
            choice[k] = best;
            let v = value[s.first[k] + best].clone();
            value[s.parent[k]] += v;
        }
        (value[0].clone(), choice)
    }

    /// Player `owner`'s expected payoffs between the two players' sequences of a two-player
    /// tree, weighted by chance: entry `[σ][τ]` for the sequence `σ` of player `rows` and `τ`
    /// of the other, so that the payoff of plans `x`, `y` is `xᵀ M y`.
    pub fn payoff_matrix(&self, owner: usize, rows: usize) -> Vec<Vec<Q>> {
        let cols = 1 - rows;
        let mut m = vec![vec![Q::zero(); self.players[cols].count]; self.players[rows].count];
        for leaf in &self.leaves {
            m[leaf.seqs[rows]][leaf.seqs[cols]] += &leaf.chance * &leaf.payoffs[owner];
        }
        m
    }

    /// How much each player gains by deviating from the profile to a best response; the
    /// profile is an equilibrium when all are zero. Their sum is the NashConv, the
    /// exploitability.
    ///
    /// Every player's plan is built once, and each leaf's weight without player `p` comes from
    /// products before and after `p`: linear in the players, where a best response of each
    /// in turn would rebuild the others' plans, quadratic (a 10 000-player tree took 40 s).
    pub fn gains(&self, tree: &Tree, behaviour: &[Vec<Q>]) -> Vec<Q> {
        let n = tree.players.len();
        let pay = self.payoffs(tree, behaviour);
        let plans: Vec<Vec<Q>> = (0..n).map(|p| self.plan(tree, p, behaviour)).collect();
        let mut values: Vec<Vec<Q>> = (0..n)
            .map(|p| vec![Q::zero(); self.players[p].count])
            .collect();
        let mut after = vec![Q::one(); n + 1];
        for leaf in &self.leaves {
            if leaf.chance.is_zero() {
                continue;
            }
            for j in (0..n).rev() {
                after[j] = &after[j + 1] * &plans[j][leaf.seqs[j]];
            }
            let mut before = leaf.chance.clone();
            for p in 0..n {
                let w = &before * &after[p + 1];
                if !w.is_zero() {
                    values[p][leaf.seqs[p]] += w * &leaf.payoffs[p];
                }
                before *= &plans[p][leaf.seqs[p]];
            }
        }
        values
            .into_iter()
            .enumerate()
            .map(|(p, v)| self.fold(tree, p, v).0 - &pay[p])
            .collect()
    }
}

/// Checks a behaviour profile's shape and that it is a probability distribution at every
/// player's information set; chance sets are filled in from the tree.
pub fn normalise_profile(tree: &Tree, mut behaviour: Vec<Vec<Q>>) -> Result<Vec<Vec<Q>>> {
    use num_traits::Signed;
    if behaviour.len() != tree.infosets.len() {
        return Err(Error::Invalid(format!(
            "the profile has {} information sets; the tree has {}",
            behaviour.len(),
            tree.infosets.len()
        )));
    }
    for (h, set) in tree.infosets.iter().enumerate() {
        if set.mover == Mover::Chance {
            behaviour[h] = set.probs.clone();
            continue;
        }
        let b = &behaviour[h];
        let sum: Q = b.iter().sum();
        if b.len() != set.actions.len() || b.iter().any(Signed::is_negative) || !sum.is_one() {
            return Err(Error::Invalid(format!(
                "the probabilities at {} are not a distribution over its {} actions",
                tree.infoset_label(set),
                set.actions.len()
            )));
        }
    }
    Ok(behaviour)
}
