//! Extensive-form games: game trees with chance, information sets and exact payoffs.
//!
//! - [`Tree`]: the tree, its information sets and outcomes, with the checks every solver relies on
//!   ([`Tree::check`], [`Tree::perfect_recall`]);
//! - Gambit's `.efg` format is read and written in [`crate::formats::efg`];
//! - [`seqform`]: sequences, realisation plans, expected payoffs, best responses and the
//!   exploitability of a behaviour profile, all exact;
//! - [`reduced`]: the reduced normal form, so every strategic-form solver applies to a tree;
//! - [`solvers::agent`]: pure equilibria of the agent form (any number of players);
//! - [`solvers::backward`]: backward induction on trees of perfect information (every pure subgame-
//!   perfect equilibrium);
//! - [`solvers::lp`]: the sequence-form linear program of a two-player zero-sum tree (Koller,
//!   Megiddo and von Stengel 1994);
//! - [`solvers::lemke`]: one equilibrium of a two-player tree by Lemke's algorithm on the sequence
//!   form (Koller, Megiddo and von Stengel 1996);
//! - [`solvers::seqenum`]: every extreme equilibrium of a two-player tree, by vertex enumeration of
//!   the sequence-form polyhedra;
//! - [`solvers::cfr`]: CFR+ and discounted CFR for large trees, with exact exploitability reports;
//! - [`draw`]: a tree as an SVG picture, with a profile's probabilities on its edges;
//! - [`games`]: built-in trees (Kuhn poker, Leduc hold'em).
//!
//! ```
//! use nimbus::extensive::games;
//! use nimbus::extensive::solvers::lp;
//!
//! // Kuhn poker is worth -1/18 to the first player.
//! let tree = games::kuhn();
//! let solution = lp::solve(&tree, &nimbus::core::budget::Limits::default())?;
//! assert_eq!(nimbus::exact::show(&solution.value), "-1/18");
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod draw;
pub mod games;
pub mod reduced;
pub mod seqform;
pub mod solvers;

use crate::core::error::{Error, Result};
use crate::exact::{show, Q};
use num_traits::{One, Signed, Zero};

/// Who moves at an information set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mover {
    /// Chance, with fixed probabilities.
    Chance,
    /// A player, by 0-based index.
    Player(usize),
}

/// An information set: nodes the mover cannot tell apart, with the same actions.
#[derive(Debug, Clone, PartialEq)]
pub struct Infoset {
    /// Who moves.
    pub mover: Mover,
    /// Its number in the file (per player, from 1; chance sets have their own numbers).
    pub number: usize,
    /// Its label (often empty).
    pub name: String,
    /// The actions' labels.
    pub actions: Vec<String>,
    /// For chance: each action's probability (empty for players).
    pub probs: Vec<Q>,
    /// Its nodes, in prefix order.
    pub nodes: Vec<usize>,
}

/// An outcome: payoffs added to every play that passes the node it is attached to.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Its number in the file (from 1).
    pub number: usize,
    /// Its label.
    pub name: String,
    /// One payoff per player.
    pub payoffs: Vec<Q>,
}

/// A node of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Its label (often empty).
    pub name: String,
    /// Its information set (an index into [`Tree::infosets`]); `None` at a terminal node.
    pub infoset: Option<usize>,
    /// Its children, one per action of its information set, in action order.
    pub children: Vec<usize>,
    /// Its parent and the action leading here; `None` at the root.
    pub parent: Option<(usize, usize)>,
    /// Its outcome (an index into [`Tree::outcomes`]).
    pub outcome: Option<usize>,
}

/// A finite game tree; node 0 is the root, and every node comes after its parent (files are
/// read in prefix order).
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// The title.
    pub title: String,
    /// The comment under the header.
    pub comment: String,
    /// The players' names.
    pub players: Vec<String>,
    /// The nodes, each after its parent.
    pub nodes: Vec<Node>,
    /// The information sets, in the order their first nodes come.
    pub infosets: Vec<Infoset>,
    /// The outcomes.
    pub outcomes: Vec<Outcome>,
}

impl Tree {
    /// The checks every solver relies on: chance probabilities are nonnegative and sum to 1,
    /// every information set has actions and one mover, payoff vectors have one entry per
    /// player. (Perfect recall is checked by [`Tree::perfect_recall`], by the solvers that
    /// need it.)
    pub fn check(&self) -> Result<()> {
        if self.players.is_empty() {
            return Err(Error::Invalid("the game has no players".into()));
        }
        for h in &self.infosets {
            if h.actions.is_empty() {
                return Err(Error::Invalid(format!(
                    "{} has no actions",
                    self.infoset_label(h)
                )));
            }
            if let Mover::Player(p) = h.mover {
                if p >= self.players.len() {
                    return Err(Error::Invalid(format!(
                        "{} belongs to player {}, but the game has {} players",
                        self.infoset_label(h),
                        p + 1,
                        self.players.len()
                    )));
                }
            } else {
                if h.probs.len() != h.actions.len() {
                    return Err(Error::Invalid(format!(
                        "{} has {} actions but {} probabilities",
                        self.infoset_label(h),
                        h.actions.len(),
                        h.probs.len()
                    )));
                }
                if h.probs.iter().any(Signed::is_negative) {
                    return Err(Error::Invalid(format!(
                        "{} has a negative probability",
                        self.infoset_label(h)
                    )));
                }
                let sum: Q = h.probs.iter().sum();
                if !sum.is_one() {
                    return Err(Error::Invalid(format!(
                        "the probabilities of {} sum to {}, not 1",
                        self.infoset_label(h),
                        show(&sum)
                    )));
                }
            }
            for &v in &h.nodes {
                if self.nodes[v].children.len() != h.actions.len() {
                    return Err(Error::Invalid(format!(
                        "node {} of {} has {} children for {} actions",
                        v + 1,
                        self.infoset_label(h),
                        self.nodes[v].children.len(),
                        h.actions.len()
                    )));
                }
            }
        }
        if let Some(o) = self
            .outcomes
            .iter()
            .find(|o| o.payoffs.len() != self.players.len())
        {
            return Err(Error::Invalid(format!(
                "outcome {} has {} payoffs for {} players",
                o.number,
                o.payoffs.len(),
                self.players.len()
            )));
        }
        Ok(())
    }

    /// How an information set is named in messages: its mover, number and label.
    pub fn infoset_label(&self, h: &Infoset) -> String {
        let who = match h.mover {
            Mover::Chance => "chance".to_string(),
            Mover::Player(p) => format!(
                "player {} ({})",
                p + 1,
                self.players.get(p).map_or("?", String::as_str)
            ),
        };
        if h.name.is_empty() {
            format!("information set {} of {who}", h.number)
        } else {
            format!("information set {} \"{}\" of {who}", h.number, h.name)
        }
    }

    /// Whether every information set of a player has a single node (chance sets may have
    /// several: they reveal nothing).
    pub fn perfect_information(&self) -> bool {
        self.infosets
            .iter()
            .all(|h| h.mover == Mover::Chance || h.nodes.len() == 1)
    }

    /// The terminal nodes, in prefix order.
    pub fn leaves(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.nodes.len()).filter(|&v| self.nodes[v].infoset.is_none())
    }

    /// The payoffs each node's subtree is worth under a behaviour profile (one distribution
    /// per information set, chance's included): the expected payoffs at the end of a play
    /// that has reached the node (outcomes above it included). Indexed by node.
    pub fn node_values(&self, behaviour: &[Vec<Q>]) -> Vec<Vec<Q>> {
        let mut value = self.path_payoffs();
        // Children come after their parents: a backward pass has them done.
        for v in (0..self.nodes.len()).rev() {
            let Some(h) = self.nodes[v].infoset else {
                continue;
            };
            let mut sum = vec![Q::zero(); self.players.len()];
            for (a, &c) in self.nodes[v].children.iter().enumerate() {
                let p = &behaviour[h][a];
                if !p.is_zero() {
                    for (s, x) in sum.iter_mut().zip(&value[c]) {
                        *s += p * x;
                    }
                }
            }
            value[v] = sum;
        }
        value
    }

    /// The payoffs at the end of every play: the outcomes along its path, added. Indexed by
    /// node; inner nodes hold the sum down to them.
    pub fn path_payoffs(&self) -> Vec<Vec<Q>> {
        let n = self.players.len();
        let mut out: Vec<Vec<Q>> = Vec::with_capacity(self.nodes.len());
        for (v, node) in self.nodes.iter().enumerate() {
            // Prefix order: the parent's sum is known before its children.
            let mut sum = match node.parent {
                Some((p, _)) => out[p].clone(),
                None => vec![Q::zero(); n],
            };
            if let Some(o) = node.outcome {
                for (s, x) in sum.iter_mut().zip(&self.outcomes[o].payoffs) {
                    *s += x;
                }
            }
            debug_assert_eq!(out.len(), v);
            out.push(sum);
        }
        out
    }

    /// The probability chance alone gives each node.
    pub fn chance_reach(&self) -> Vec<Q> {
        let mut out: Vec<Q> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            out.push(match node.parent {
                None => Q::one(),
                Some((p, a)) => {
                    let h = &self.infosets[self.nodes[p].infoset.expect("a parent has a set")];
                    if h.mover == Mover::Chance {
                        &out[p] * &h.probs[a]
                    } else {
                        out[p].clone()
                    }
                }
            });
        }
        out
    }

    /// Checks perfect recall: every player remembers what they knew and did, so all nodes of
    /// an information set follow the same last own move (which rules out absent-mindedness
    /// too). The error names the player and the information set that break it.
    pub fn perfect_recall(&self) -> Result<()> {
        let last = self.last_own_moves();
        for h in &self.infosets {
            let Mover::Player(p) = h.mover else { continue };
            let first = last[h.nodes[0]][p];
            if let Some(&v) = h.nodes.iter().find(|&&v| last[v][p] != first) {
                let what = |m: Option<(usize, usize)>| match m {
                    None => "no earlier move".to_string(),
                    Some((g, a)) => format!(
                        "action \"{}\" at {}",
                        self.infosets[g].actions[a],
                        self.infoset_label(&self.infosets[g])
                    ),
                };
                return Err(Error::Invalid(format!(
                    "the game does not have perfect recall: at {}, node {} follows {} but \
                     node {} follows {}",
                    self.infoset_label(h),
                    h.nodes[0] + 1,
                    what(first),
                    v + 1,
                    what(last[v][p])
                )));
            }
        }
        Ok(())
    }

    /// For each node and player: the player's last move (information set, action) on the
    /// path to the node.
    pub(crate) fn last_own_moves(&self) -> Vec<Vec<Option<(usize, usize)>>> {
        let n = self.players.len();
        let mut out: Vec<Vec<Option<(usize, usize)>>> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            out.push(match node.parent {
                None => vec![None; n],
                Some((p, a)) => {
                    let mut m = out[p].clone();
                    let g = self.nodes[p].infoset.expect("a parent has a set");
                    if let Mover::Player(i) = self.infosets[g].mover {
                        m[i] = Some((g, a));
                    }
                    m
                }
            });
        }
        out
    }

    /// Whether the payoffs of every play add up to the same number (a constant-sum game,
    /// which solves as zero-sum); `None` for other games, otherwise the constant.
    pub fn constant_sum(&self) -> Option<Q> {
        let pay = self.path_payoffs();
        let mut sums = self.leaves().map(|v| pay[v].iter().sum::<Q>());
        let first = sums.next()?;
        sums.all(|s| s == first).then_some(first)
    }

    /// The subgame rooted at `root` as a tree of its own, with each node of `cut` (roots of
    /// subgames inside it) made a leaf worth the payoffs given (the value of that subgame, its
    /// own outcome included); the outcomes above `root` are left out. Also returns, for each
    /// information set of the new tree, the one of this tree it stands for. `root` must root
    /// a subgame (see [`Tree::subgame_roots`]).
    pub fn truncated(&self, root: usize, cut: &[(usize, Vec<Q>)]) -> Result<(Tree, Vec<usize>)> {
        let players: Vec<&str> = self.players.iter().map(String::as_str).collect();
        let mut b = Builder::new(&self.title, &players);
        let mut set_of = vec![usize::MAX; self.infosets.len()];
        let mut old_of = Vec::new();
        // Depth first in prefix order: children pushed last action first.
        let mut stack = vec![(root, None)];
        while let Some((v, parent)) = stack.pop() {
            let node = &self.nodes[v];
            if let Some((_, value)) = cut.iter().find(|(c, _)| *c == v) {
                b.node(parent, None, Some(value.clone()));
                continue;
            }
            let outcome = node.outcome.map(|o| self.outcomes[o].payoffs.clone());
            let set = node.infoset.map(|h| {
                if set_of[h] == usize::MAX {
                    let old = &self.infosets[h];
                    let actions: Vec<&str> = old.actions.iter().map(String::as_str).collect();
                    set_of[h] = b.infoset(old.mover, &old.name, &actions, old.probs.clone());
                    old_of.push(h);
                }
                set_of[h]
            });
            let w = b.node(parent, set, outcome);
            for (a, &c) in node.children.iter().enumerate().rev() {
                stack.push((c, Some((w, a))));
            }
        }
        Ok((b.finish()?, old_of))
    }

    /// The nodes that root a subgame: non-terminal nodes whose subtree cuts no player's
    /// information set (every set meeting the subtree lies inside it). The root is one.
    pub fn subgame_roots(&self) -> Vec<usize> {
        let n = self.nodes.len();
        // Pre-order numbers: the subtree of `v` is the interval [first[v], first[v] + size[v]).
        let mut first = vec![0usize; n];
        let mut stack = if n > 0 { vec![0usize] } else { Vec::new() };
        let mut next = 0;
        while let Some(v) = stack.pop() {
            first[v] = next;
            next += 1;
            stack.extend(self.nodes[v].children.iter().rev());
        }
        let mut size = vec![1usize; n];
        for v in (1..n).rev() {
            if let Some((p, _)) = self.nodes[v].parent {
                size[p] += size[v];
            }
        }
        // Each player's set spans its least to its greatest pre-order number; a subtree holds
        // the whole set exactly when it holds that span. A subtree roots a subgame when it
        // holds the span of every set that meets it: the least and greatest over its nodes,
        // gathered from the leaves up (children come after their parents), in linear time
        // where a walk up from each member of each set was quadratic on long paths.
        let mut span = vec![(usize::MAX, 0usize); self.infosets.len()];
        for (h, set) in self.infosets.iter().enumerate() {
            if set.mover == Mover::Chance {
                continue;
            }
            for &v in &set.nodes {
                span[h] = (span[h].0.min(first[v]), span[h].1.max(first[v]));
            }
        }
        let (mut lo, mut hi) = (vec![usize::MAX; n], vec![0usize; n]);
        for v in (0..n).rev() {
            if let Some(h) = self.nodes[v].infoset {
                lo[v] = lo[v].min(span[h].0);
                hi[v] = hi[v].max(span[h].1);
            }
            if let Some((p, _)) = self.nodes[v].parent {
                lo[p] = lo[p].min(lo[v]);
                hi[p] = hi[p].max(hi[v]);
            }
        }
        (0..n)
            .filter(|&v| {
                self.nodes[v].infoset.is_some() && lo[v] >= first[v] && hi[v] < first[v] + size[v]
            })
            .collect()
    }

    /// The information sets of player `p`, in order.
    pub fn infosets_of(&self, p: usize) -> Vec<usize> {
        (0..self.infosets.len())
            .filter(|&h| self.infosets[h].mover == Mover::Player(p))
            .collect()
    }
}

/// A builder that grows a tree from the root down, for the built-in games and for tests.
#[derive(Debug, Default)]
pub struct Builder {
    tree: Option<Tree>,
}

impl Builder {
    /// An empty tree with these players.
    pub fn new(title: &str, players: &[&str]) -> Self {
        Builder {
            tree: Some(Tree {
                title: title.into(),
                comment: String::new(),
                players: players.iter().map(|s| s.to_string()).collect(),
                nodes: Vec::new(),
                infosets: Vec::new(),
                outcomes: Vec::new(),
            }),
        }
    }

    fn tree(&mut self) -> &mut Tree {
        self.tree.as_mut().expect("the builder is in use")
    }

    /// Adds an information set and returns its index.
    pub fn infoset(&mut self, mover: Mover, name: &str, actions: &[&str], probs: Vec<Q>) -> usize {
        let t = self.tree();
        let number = t.infosets.iter().filter(|h| h.mover == mover).count() + 1;
        t.infosets.push(Infoset {
            mover,
            number,
            name: name.into(),
            actions: actions.iter().map(|s| s.to_string()).collect(),
            probs,
            nodes: Vec::new(),
        });
        t.infosets.len() - 1
    }

    /// Adds a node under `parent`'s action `action`, in
    /// information set `infoset` (`None`: terminal), and returns its index.
    pub fn node(
        &mut self,
        parent: Option<(usize, usize)>,
        infoset: Option<usize>,
        payoffs: Option<Vec<Q>>,
    ) -> usize {
        let t = self.tree();
        let v = t.nodes.len();
        let outcome = payoffs.map(|payoffs| {
            t.outcomes.push(Outcome {
                number: t.outcomes.len() + 1,
                name: String::new(),
                payoffs,
            });
            t.outcomes.len() - 1
        });
        t.nodes.push(Node {
            name: String::new(),
            infoset,
            children: Vec::new(),
            parent,
            outcome,
        });
        if let Some(h) = infoset {
            t.infosets[h].nodes.push(v);
        }
        if let Some((p, a)) = parent {
            debug_assert_eq!(
                t.nodes[p].children.len(),
                a,
                "children come in action order"
            );
            t.nodes[p].children.push(v);
        }
        v
    }

    /// The finished tree, checked.
    pub fn finish(mut self) -> Result<Tree> {
        let t = self.tree.take().expect("the builder is in use");
        t.check()?;
        Ok(t)
    }
}
