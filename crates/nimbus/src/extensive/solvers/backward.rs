//! Backward induction on trees of perfect information: every subgame-perfect equilibrium in
//! pure strategies, counted, with one for each payoff vector they reach.
//!
//! Ties make many equilibria (the mover may take any best child, and what the others do off
//! the path matters too), often far too many to list. So each node keeps its *classes*: the
//! distinct payoff vectors of the subgame-perfect equilibria of its subtree, each with how
//! many equilibria reach it and one witness (the mover's choice and a class for every
//! child). At a player's node, an equilibrium choosing child `a` in class `c` needs every
//! other child in a class no better for the mover than `c`, so the counts are products of
//! sums and no combination is enumerated; a chance node combines its children's classes. For
//! two-player zero-sum trees there is one class, the minimax value. Nodes are visited from
//! the last to the first (children come after parents), without recursion.

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::exact::Q;
use crate::extensive::{Mover, Tree};
use num_traits::Zero;
use std::collections::HashMap;

/// One payoff vector reachable by subgame-perfect play below a node.
#[derive(Debug, Clone)]
struct Class {
    payoffs: Vec<Q>,
    count: u128,
    /// The mover's choice (personal nodes) and a class for each child.
    choice: Option<usize>,
    children: Vec<usize>,
}

/// The subgame-perfect equilibria of a tree of perfect information.
#[derive(Debug, Clone)]
pub struct Induction {
    /// How many pure subgame-perfect equilibria there are (`u128::MAX`: at least that many).
    pub count: u128,
    /// For each distinct payoff vector: the vector, how many equilibria reach it, and one of
    /// them as a behaviour profile (for each information set, probability 1 on one action).
    pub classes: Vec<(Vec<Q>, u128, Vec<Vec<Q>>)>,
}

/// Backward induction on `tree`, which must have perfect information.
// Kept as one function: one pass up the tree and one down the witnesses, over the same tables of
// payoff classes.
pub fn solve(tree: &Tree, limits: &Limits) -> Result<Induction> {
    tree.check()?;
    if let Some(h) = tree
        .infosets
        .iter()
        .find(|h| h.mover != Mover::Chance && h.nodes.len() > 1)
    {
        return Err(Error::Invalid(format!(
            "backward induction needs perfect information, but {} has {} nodes",
            tree.infoset_label(h),
            h.nodes.len()
        )));
    }
    let n = tree.players.len();
    let mut classes: Vec<Vec<Class>> = vec![Vec::new(); tree.nodes.len()];
    let mut work: u64 = 0;
    let mut stored: u64 = 0;
    crate::core::progress::phase("backward induction", tree.nodes.len() as u64);
    for v in (0..tree.nodes.len()).rev() {
        let node = &tree.nodes[v];
        let own = node
            .outcome
            .map(|o| tree.outcomes[o].payoffs.clone())
            .unwrap_or_else(|| vec![Q::zero(); n]);
        let Some(h) = node.infoset else {
            classes[v] = vec![Class {
                payoffs: own,
                count: 1,
                choice: None,
                children: Vec::new(),
            }];
            continue;
        };
        let set = &tree.infosets[h];
        let kids = &node.children;
        let mut found: Vec<Class> = Vec::new();
        let mut index: HashMap<Vec<Q>, usize> = HashMap::new();
        let mut add = |payoffs: Vec<Q>,
                       count: u128,
                       choice: Option<usize>,
                       children: Vec<usize>| match index.get(&payoffs) {
            Some(&k) => found[k].count = found[k].count.saturating_add(count),
            None => {
                index.insert(payoffs.clone(), found.len());
                found.push(Class {
                    payoffs,
                    count,
                    choice,
                    children,
                });
            }
        };
        match set.mover {
            Mover::Chance => {
                // Every combination of the children's classes.
                let combos = kids
                    .iter()
                    .fold(1u64, |a, &c| a.saturating_mul(classes[c].len() as u64));
                // Each combination sums the children's payoffs, each sum costing as its numbers
                // are long; the answer's checks (the node values, each player's gain) redo
                // these sums about three times.
                work = work.saturating_add(combos.saturating_mul(4 * size_of(kids, &classes)));
                crate::core::budget::check_work(
                    &format!(
                        "backward induction (the classes below chance node {} combine in {} \
                         ways)",
                        v + 1,
                        combos
                    ),
                    work,
                    limits.max_work,
                )?;
                let mut pick = vec![0usize; kids.len()];
                'combos: loop {
                    let mut pay = own.clone();
                    let mut count: u128 = 1;
                    for (j, &c) in kids.iter().enumerate() {
                        let cl = &classes[c][pick[j]];
                        for (x, y) in pay.iter_mut().zip(&cl.payoffs) {
                            *x += &set.probs[j] * y;
                        }
                        count = count.saturating_mul(cl.count);
                    }
                    add(pay, count, None, pick.clone());
                    for j in 0..kids.len() {
                        pick[j] += 1;
                        if pick[j] < classes[kids[j]].len() {
                            continue 'combos;
                        }
                        pick[j] = 0;
                    }
                    break;
                }
            }
            Mover::Player(i) => {
                let k = kids.len();
                // Every class of a child compared with every class of the others, each
                // comparison costing as the numbers are long.
                work = work.saturating_add(
                    (k as u64)
                        .saturating_mul(
                            kids.iter()
                                .map(|&c| classes[c].len() as u64)
                                .sum::<u64>()
                                .saturating_pow(2),
                        )
                        .saturating_mul(4 * size_of(kids, &classes)),
                );
                crate::core::budget::check_work("backward induction", work, limits.max_work)?;
                for (a, &ca) in kids.iter().enumerate() {
                    for (x, cl) in classes[ca].iter().enumerate() {
                        let bar = &cl.payoffs[i];
                        // Every other child in a class no better for the mover.
                        let mut count = cl.count;
                        let mut witness = vec![0usize; k];
                        witness[a] = x;
                        for (j, &cj) in kids.iter().enumerate() {
                            if j == a {
                                continue;
                            }
                            let mut sum: u128 = 0;
                            let mut first = None;
                            for (y, other) in classes[cj].iter().enumerate() {
                                if &other.payoffs[i] <= bar {
                                    sum = sum.saturating_add(other.count);
                                    first.get_or_insert(y);
                                }
                            }
                            count = count.saturating_mul(sum);
                            match first {
                                Some(y) => witness[j] = y,
                                None => count = 0,
                            }
                        }
                        if count > 0 {
                            let pay: Vec<Q> =
                                own.iter().zip(&cl.payoffs).map(|(p, q)| p + q).collect();
                            add(pay, count, Some(a), witness);
                        }
                    }
                }
            }
        }
        // Every node's classes stay until the witnesses are read back: count them all.
        stored = stored.saturating_add(found.len() as u64);
        limits.admit(
            "backward induction's payoff classes",
            stored,
            64 * (n as u64 + kids.len() as u64),
            0,
        )?;
        classes[v] = found;
        crate::core::progress::tick((tree.nodes.len() - v) as u64)?;
    }
    let root = &classes[0];
    let count = root
        .iter()
        .fold(0u128, |acc, cl| acc.saturating_add(cl.count));
    let mut out = Vec::new();
    for (x, cl) in root.iter().enumerate() {
        // Follow the witnesses down; nodes off the witnessed subtrees (there are none: every
        // child has a witness class) are all reached.
        let mut behaviour: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
        let mut stack = vec![(0usize, x)];
        while let Some((v, x)) = stack.pop() {
            let cl = &classes[v][x];
            if let (Some(a), Some(h)) = (cl.choice, tree.nodes[v].infoset) {
                behaviour[h] = (0..tree.infosets[h].actions.len())
                    .map(|b| Q::from_integer(i64::from(a == b).into()))
                    .collect();
            }
            for (j, &c) in tree.nodes[v].children.iter().enumerate() {
                stack.push((c, cl.children[j]));
            }
        }
        out.push((cl.payoffs.clone(), cl.count, behaviour));
    }
    Ok(Induction {
        count,
        classes: out,
    })
}

/// The arithmetic cost of the payoffs of the first class of each child in `kids`: what summing
/// or comparing them costs, as their numbers are long.
fn size_of(kids: &[usize], classes: &[Vec<Class>]) -> u64 {
    kids.iter()
        .filter_map(|&c| classes[c].first())
        .flat_map(|cl| cl.payoffs.iter())
        .map(crate::exact::arithmetic_cost)
        .fold(1u64, u64::saturating_add)
}
