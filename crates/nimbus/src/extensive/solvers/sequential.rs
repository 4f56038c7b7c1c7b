//! Whether a behaviour profile of a two-player tree is part of a sequential equilibrium
//! (Kreps and Wilson 1982): whether some beliefs, the limit of those that completely mixed
//! profiles converging to it give by Bayes' rule (*consistent* beliefs), make every player's
//! choice at every information set a best reply to them and to the play that follows.
//!
//! In a two-player tree with perfect recall a player's own moves lead alike to all nodes of
//! each of their information sets, so the beliefs of one player depend on the trembles of the
//! other alone (and on chance): on the leading terms, as the trembles vanish, of the other's
//! realisation plan. A completely mixed plan converging to the profile can be taken as a
//! polynomial `ρ₀ + ε ρ₁ + ε² ρ₂ + …` (`ρ₀` the profile's plan): every coefficient obeys the
//! plan's equations (the sums at each information set, zero on the right from `ρ₁` on), each
//! sequence's first nonzero coefficient is positive, and at an information set first
//! reached at level `k` the actions keep the profile's proportions at that level (the
//! behaviour converges to the profile's). The beliefs at an information set of the other
//! player are the shares of its nodes at the first level that reaches any of them.
//!
//! The levels are found one LP at a time, each reaching as many new sequences as it can
//! (what one level can reach is a cone closed under addition, so a widest choice exists and
//! one LP finds it), while every information set it reaches for the first time gets beliefs
//! under which its moves are best replies. Reaching more never hurts later levels (a reached
//! sequence's later coefficients are free, a reached set's constraints are done), so if any
//! consistent, sequentially rational assessment exists this greedy order finds one, and if it
//! stalls there is none: a polynomial decision, where for three or more players the question
//! is NP-hard (Gatti, Gilli and Panozzo, "Further results on verification problems in
//! extensive-form games", who also give a polynomial test for two). Best replies are checked
//! move by move against the profile's continuation, which suffices for consistent beliefs
//! (Hendon, Jacobsen and Sloth 1996, the one-shot-deviation principle).

use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::{Error, Result};
use crate::exact::simplex::maximize;
use crate::exact::{over_common_denominator, Q};
use crate::extensive::seqform::SequenceForm;
use crate::extensive::Tree;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;

/// Whether a profile is part of a sequential equilibrium.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// It is, with these consistent beliefs: for each information set of the tree, the
    /// probability of each of its nodes (chance's sets: empty).
    Sequential {
        /// The beliefs, by the tree's information sets.
        beliefs: Vec<Vec<Q>>,
        /// Trembles that give them: for each action a profile never plays at a player's
        /// set, `(r, c)` for a probability of about `c·εʳ` (the actions it plays keep their
        /// probabilities, less what the trembles take); `None` for the others.
        trembles: Vec<Vec<Option<(usize, Q)>>>,
    },
    /// It is not: at this information set of the tree (the first one found) no consistent
    /// beliefs make the profile's moves best replies.
    NotSequential {
        /// The information set, an index into the tree's.
        infoset: usize,
    },
}

/// A linear form in one player's sequence weights: (sequence, coefficient).
type Form = Vec<(usize, Q)>;

/// What makes one information set's moves best replies, as forms in the weights of its
/// nodes' sequences of the other player: `equal` must vanish, `above` must be at least zero.
#[derive(Debug, Default)]
struct Optimality {
    equal: Vec<Form>,
    above: Vec<Form>,
}

impl Optimality {
    fn holds(&self, weight: &[Q]) -> bool {
        let at = |f: &Form| f.iter().map(|(s, c)| c * &weight[*s]).sum::<Q>();
        self.equal.iter().all(|f| at(f).is_zero())
            && self.above.iter().all(|f| !at(f).is_negative())
    }
}

/// Decides whether `behaviour` (every information set's action probabilities, chance's as
/// the tree has them) is part of a sequential equilibrium of the two-player tree `tree`.
/// Each LP is checked against `limits` before it runs.
pub fn decide(tree: &Tree, behaviour: &[Vec<Q>], limits: &Limits) -> Result<Verdict> {
    if tree.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "sequential equilibria are decided for two-player trees; this one has {} players",
            tree.players.len()
        )));
    }
    let form = SequenceForm::new(tree)?;
    let values = tree.node_values(behaviour);
    let chance = tree.chance_reach();
    let last = tree.last_own_moves();
    let mut beliefs: Vec<Vec<Q>> = vec![Vec::new(); tree.infosets.len()];
    let mut trembles: Vec<Vec<Option<(usize, Q)>>> = tree
        .infosets
        .iter()
        .map(|h| vec![None; h.actions.len()])
        .collect();
    for believer in 0..2 {
        let side = Side {
            tree,
            form: &form,
            values: &values,
            chance: &chance,
            last: &last,
            behaviour,
            believer,
        };
        if let Some(infoset) = side.decide(limits, &mut beliefs, &mut trembles)? {
            return Ok(Verdict::NotSequential { infoset });
        }
    }
    Ok(Verdict::Sequential { beliefs, trembles })
}

/// One player's beliefs, which the other player's trembles decide.
struct Side<'a> {
    tree: &'a Tree,
    form: &'a SequenceForm,
    /// Each node's continuation payoffs under the profile.
    values: &'a [Vec<Q>],
    /// Each node's probability from chance alone.
    chance: &'a [Q],
    /// Each node's last own move of each player.
    last: &'a [Vec<Option<(usize, usize)>>],
    behaviour: &'a [Vec<Q>],
    believer: usize,
}

/// One of the believer's sets as the levels see it.
struct Believed {
    /// The set, an index into the tree's.
    set: usize,
    /// Its nodes' sequences of the trembler.
    seqs: Vec<usize>,
    /// Its nodes' probabilities from chance.
    odds: Vec<Q>,
    /// What makes its moves best replies.
    rule: Optimality,
}

impl Side<'_> {
    /// The believer's sets, each with its nodes' sequences of the trembler, their chance and
    /// the rows that make its moves best replies.
    fn believed_sets(&self) -> Vec<Believed> {
        let Side {
            tree,
            form,
            values,
            chance,
            last,
            behaviour,
            believer,
        } = *self;
        let trembler = 1 - believer;
        let seq_of = |v: usize| match last[v][trembler] {
            None => 0,
            Some((g, a)) => form.players[trembler].first[form.local[g]] + a,
        };
        form.players[believer]
            .infosets
            .iter()
            .map(|&h| {
                let nodes = &tree.infosets[h].nodes;
                let seqs: Vec<usize> = nodes.iter().map(|&v| seq_of(v)).collect();
                let odds: Vec<Q> = nodes.iter().map(|&v| chance[v].clone()).collect();
                let rule = optimality(tree, values, behaviour, h, believer, |i| {
                    (!odds[i].is_zero()).then(|| (seqs[i], odds[i].clone()))
                });
                Believed {
                    set: h,
                    seqs,
                    odds,
                    rule,
                }
            })
            .collect()
    }

    /// Finds the believer's consistent beliefs level by level, writing them and the other
    /// player's trembles that give them; `Some(set)` when no such beliefs make the moves at
    /// `set` best replies.
    fn decide(
        &self,
        limits: &Limits,
        beliefs: &mut [Vec<Q>],
        trembles: &mut [Vec<Option<(usize, Q)>>],
    ) -> Result<Option<usize>> {
        let Side {
            tree,
            form,
            values,
            behaviour,
            believer,
            ..
        } = *self;
        let trembler = 1 - believer;
        let plan = form.plan(tree, trembler, behaviour);
        let sets = self.believed_sets();
        let count = form.players[trembler].count;
        let mut reached: Vec<bool> = plan.iter().map(Signed::is_positive).collect();
        // Each sequence's leading term once reached: (level, coefficient).
        let mut lead: Vec<(usize, Q)> = plan.iter().map(|x| (0, x.clone())).collect();
        let mut depth = 0;
        let mut open: Vec<usize> = Vec::new();
        // Level 0: the sets the profile reaches, with Bayes' beliefs.
        for (i, b) in sets.iter().enumerate() {
            if b.odds.iter().all(Zero::is_zero) {
                // Chance never leads here, trembles or not: any beliefs are consistent.
                match free_beliefs(tree, values, behaviour, b.set, believer, limits)? {
                    Some(mu) => beliefs[b.set] = mu,
                    None => return Ok(Some(b.set)),
                }
                continue;
            }
            match shares(&b.seqs, &b.odds, &plan) {
                Some(mu) => {
                    if !b.rule.holds(&plan) {
                        return Ok(Some(b.set));
                    }
                    beliefs[b.set] = mu;
                }
                None => open.push(i),
            }
        }
        // Levels 1, 2, …: each reaches every sequence it can.
        while reached.iter().any(|r| !r) {
            // A level is an LP: Ctrl-C is heeded between them.
            crate::core::progress::check()?;
            let level = self.widest_level(&reached, &sets, &open, limits)?;
            let new: Vec<usize> = (0..count)
                .filter(|&s| !reached[s] && level[s].is_positive())
                .collect();
            if new.is_empty() {
                // Some set still waiting has moves no reachable beliefs justify.
                let stuck = open
                    .iter()
                    .map(|&i| &sets[i])
                    .find(|b| !b.rule.equal.is_empty() || !b.rule.above.is_empty())
                    .or_else(|| open.first().map(|&i| &sets[i]))
                    .map(|b| b.set);
                return match stuck {
                    Some(infoset) => Ok(Some(infoset)),
                    None => Err(Error::Invalid(
                        "internal inconsistency: the trembles stalled with no information set \
                         in their way"
                            .into(),
                    )),
                };
            }
            depth += 1;
            for s in new {
                reached[s] = true;
                lead[s] = (depth, level[s].clone());
            }
            open.retain(|&i| {
                let b = &sets[i];
                match shares(&b.seqs, &b.odds, &level) {
                    Some(mu) => {
                        beliefs[b.set] = mu;
                        false
                    }
                    None => true,
                }
            });
        }
        if let Some(&i) = open.first() {
            return Err(Error::Invalid(format!(
                "internal inconsistency: every sequence is reached and information set {} is not",
                tree.infosets[sets[i].set].number
            )));
        }
        let s = &form.players[trembler];
        for (k, &g) in s.infosets.iter().enumerate() {
            let (p, first) = (s.parent[k], s.first[k]);
            for (a, t) in trembles[g].iter_mut().enumerate() {
                if behaviour[g][a].is_zero() {
                    let (up, below) = (&lead[p], &lead[first + a]);
                    *t = Some((below.0 - up.0, &below.1 / &up.1));
                }
            }
        }
        Ok(None)
    }

    /// One level's coefficients: as many of the sequences not yet reached made positive as can
    /// be, keeping the plan's equations, the profile's proportions where a set is first reached,
    /// and best replies at every set of the believer first reached here.
    fn widest_level(
        &self,
        reached: &[bool],
        sets: &[Believed],
        open: &[usize],
        limits: &Limits,
    ) -> Result<Vec<Q>> {
        let (tree, behaviour) = (self.tree, self.behaviour);
        let s = &self.form.players[1 - self.believer];
        let mut equal: Vec<Form> = vec![vec![(0, Q::one())]];
        for (k, &g) in s.infosets.iter().enumerate() {
            let (p, first) = (s.parent[k], s.first[k]);
            let actions = tree.infosets[g].actions.len();
            if reached[p] {
                let mut f: Form = (0..actions).map(|a| (first + a, Q::one())).collect();
                f.push((p, -Q::one()));
                equal.push(f);
            } else {
                for (a, share) in behaviour[g].iter().enumerate() {
                    let mut f: Form = vec![(first + a, Q::one())];
                    if !share.is_zero() {
                        f.push((p, -share));
                    }
                    equal.push(f);
                }
            }
        }
        let mut above: Vec<Form> = Vec::new();
        for &i in open {
            let rule = &sets[i].rule;
            equal.extend(rule.equal.iter().cloned());
            above.extend(rule.above.iter().cloned());
        }
        let cone = Cone {
            free: reached.to_vec(),
            equal,
            above,
            targets: (0..s.count).filter(|&x| !reached[x]).collect(),
        };
        // The empty sequence's coefficient is pinned to zero by the first equation, and it is
        // reached: free.
        cone.widest(limits)
    }
}

/// The shares of a set's nodes under the sequence weights `weight`, or `None` when they weigh
/// nothing.
fn shares(seqs: &[usize], odds: &[Q], weight: &[Q]) -> Option<Vec<Q>> {
    let w: Vec<Q> = seqs
        .iter()
        .zip(odds)
        .map(|(&s, c)| c * &weight[s])
        .collect();
    let total: Q = w.iter().sum();
    (!total.is_zero()).then(|| w.iter().map(|x| x / &total).collect())
}

/// The conditions for the moves at the believer's set `h` to be best replies, in the weights
/// `node(i)` gives its `i`-th node (`None`: a node that weighs nothing): each action played
/// worth as much as the first one played, which is worth at least every other action. Values
/// are the continuation under the profile.
fn optimality(
    tree: &Tree,
    values: &[Vec<Q>],
    behaviour: &[Vec<Q>],
    h: usize,
    player: usize,
    node: impl Fn(usize) -> Option<(usize, Q)>,
) -> Optimality {
    let set = &tree.infosets[h];
    let played: Vec<usize> = (0..set.actions.len())
        .filter(|&a| behaviour[h][a].is_positive())
        .collect();
    let Some(&first) = played.first() else {
        return Optimality::default();
    };
    let form = |a: usize, b: usize| -> Form {
        let mut sum: BTreeMap<usize, Q> = BTreeMap::new();
        for (i, &v) in set.nodes.iter().enumerate() {
            let Some((s, c)) = node(i) else { continue };
            let kids = &tree.nodes[v].children;
            let d = &values[kids[a]][player] - &values[kids[b]][player];
            *sum.entry(s).or_insert_with(Q::zero) += c * d;
        }
        sum.into_iter().filter(|(_, c)| !c.is_zero()).collect()
    };
    let mut out = Optimality::default();
    for (a, p) in behaviour[h].iter().enumerate() {
        if a == first {
            continue;
        }
        let f = if p.is_positive() {
            form(a, first)
        } else {
            form(first, a)
        };
        if f.is_empty() {
            continue;
        }
        if p.is_positive() {
            out.equal.push(f);
        } else {
            out.above.push(f);
        }
    }
    out
}

/// Beliefs for a set chance never reaches (any are consistent) that make its moves best
/// replies, or `None` when there are none.
fn free_beliefs(
    tree: &Tree,
    values: &[Vec<Q>],
    behaviour: &[Vec<Q>],
    h: usize,
    player: usize,
    limits: &Limits,
) -> Result<Option<Vec<Q>>> {
    let n = tree.infosets[h].nodes.len();
    let rule = optimality(tree, values, behaviour, h, player, |i| Some((i, Q::one())));
    let cone = Cone {
        free: vec![false; n],
        equal: rule.equal,
        above: rule.above,
        targets: (0..n).collect(),
    };
    let w = cone.widest(limits)?;
    let total: Q = w.iter().sum();
    Ok((!total.is_zero()).then(|| w.iter().map(|x| x / &total).collect()))
}

/// The cone `{v : equal·v = 0, above·v ≥ 0, v_i ≥ 0 unless free}` and the coordinates whose
/// common support is wanted.
struct Cone {
    free: Vec<bool>,
    equal: Vec<Form>,
    above: Vec<Form>,
    targets: Vec<usize>,
}

impl Cone {
    /// A point of the cone positive on as many targets as any point is (the cone is closed
    /// under addition, so one point is positive on all that can be): the LP maximises
    /// `Σ z` over `z_t ≤ v_t`, `z_t ≤ 1`, which reaches the number of such targets.
    fn widest(&self, limits: &Limits) -> Result<Vec<Q>> {
        let n = self.free.len();
        // Columns: v⁺ (or v) for each coordinate, v⁻ for the free ones, z for each target.
        let mut minus = vec![usize::MAX; n];
        let mut cols = n;
        for (m, &free) in minus.iter_mut().zip(&self.free) {
            if free {
                *m = cols;
                cols += 1;
            }
        }
        let z0 = cols;
        cols += self.targets.len();
        let rows = 2 * self.equal.len() + self.above.len() + 2 * self.targets.len();
        let cells = (rows as u64 + 1).saturating_mul(cols as u64 + 1);
        check_memory(
            "the LP of the sequential-equilibrium check",
            cells.saturating_mul(96),
            limits.max_memory,
        )?;
        check_work(
            "the LP of the sequential-equilibrium check",
            cells.saturating_mul(rows.min(cols) as u64 + 1),
            limits.max_work,
        )?;
        let line = |f: &Form, sign: i32| -> Vec<BigInt> {
            let mut r = vec![Q::zero(); cols];
            for (i, c) in f {
                let c = if sign > 0 { c.clone() } else { -c };
                r[*i] += &c;
                if minus[*i] != usize::MAX {
                    r[minus[*i]] -= &c;
                }
            }
            over_common_denominator(r.iter()).0
        };
        let mut a: Vec<Vec<BigInt>> = Vec::with_capacity(rows);
        let mut b: Vec<BigInt> = Vec::with_capacity(rows);
        for f in &self.equal {
            a.push(line(f, 1));
            a.push(line(f, -1));
            b.extend([BigInt::zero(), BigInt::zero()]);
        }
        for f in &self.above {
            a.push(line(f, -1));
            b.push(BigInt::zero());
        }
        for (j, &t) in self.targets.iter().enumerate() {
            let mut below = line(&vec![(t, -Q::one())], 1);
            below[z0 + j] = BigInt::one();
            let mut cap = vec![BigInt::zero(); cols];
            cap[z0 + j] = BigInt::one();
            a.extend([below, cap]);
            b.extend([BigInt::zero(), BigInt::one()]);
        }
        let mut c = vec![BigInt::zero(); cols];
        for v in c.iter_mut().skip(z0) {
            *v = BigInt::one();
        }
        let lp = maximize(&a, &b, &c)?;
        Ok((0..n)
            .map(|i| {
                let v = lp.primal[i].clone();
                if minus[i] == usize::MAX {
                    v
                } else {
                    v - &lp.primal[minus[i]]
                }
            })
            .collect())
    }
}
