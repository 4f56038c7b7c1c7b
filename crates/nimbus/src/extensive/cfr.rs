//! Counterfactual regret minimisation for trees too large for the exact LPs: CFR+ (Tammelin
//! 2014) and discounted CFR (Brown and Sandholm 2019), in floating point, with the
//! exploitability of the average strategy computed *exactly* (the average's probabilities are
//! dyadic rationals, so the exact best responses of [`SequenceForm`] apply to them as they are).
//!
//! One iteration updates each player in turn (alternating updates). A pass forward over the
//! nodes (every node comes after its parent) gives each node the probability that the
//! player's own moves, and the others' moves and chance, lead to it; a pass backward gives
//! each node its value to the player under the current strategy, and adds at each of the
//! player's nodes the counterfactual regret of every action. No recursion: the tree's order
//! is the schedule.

use super::seqform::SequenceForm;
use super::{Mover, Tree};
use crate::api::Limits;
use crate::error::{Error, Result};
use crate::strategic::Q;

/// The variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// CFR+: regrets floored at zero, the average weighted by the iteration number.
    #[default]
    Plus,
    /// Discounted CFR with α = 3/2, β = 0, γ = 2 (the authors' recommended setting).
    Discounted,
}

/// How far to run.
#[derive(Debug, Clone)]
pub struct Options {
    /// The variant.
    pub variant: Variant,
    /// Most iterations.
    pub iterations: u64,
    /// Stop once the average strategy's exploitability (the NashConv: the players' gains
    /// from best responses, added) is at most this; checked at the reports.
    pub target: Option<f64>,
    /// How many exact exploitability reports to make, spread evenly in log scale over the
    /// iterations (at least one, at the end).
    pub reports: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::Plus,
            iterations: 1000,
            target: None,
            reports: 10,
        }
    }
}

/// The outcome of a run.
#[derive(Debug, Clone)]
pub struct Run {
    /// Iterations made.
    pub iterations: u64,
    /// The average strategy: for each information set of the tree, its actions' probabilities
    /// (chance sets hold chance's), rounded to multiples of 2^-32 that sum to 1 exactly.
    pub average: Vec<Vec<Q>>,
    /// The average strategy's exploitability (NashConv), exactly.
    pub exploitability: Q,
    /// Each player's expected payoff under the average strategy, exactly.
    pub payoffs: Vec<Q>,
    /// (iterations, exploitability) at each report.
    pub curve: Vec<(u64, f64)>,
    /// Seconds spent iterating (the exact reports not counted).
    pub seconds: f64,
}

/// The tree in flat arrays, for the passes.
struct Flat {
    /// For each node: its parent and action (`usize::MAX` at the root).
    parent: Vec<(usize, usize)>,
    /// For each node: its information set, or `usize::MAX` at a leaf.
    set: Vec<usize>,
    /// For each information set: its mover (`usize::MAX` for chance) and its first slot in
    /// the per-action arrays.
    mover: Vec<usize>,
    slot: Vec<usize>,
    /// Chance probabilities by slot (0 for players' slots).
    chance: Vec<f64>,
    /// Leaf payoffs, by node and player.
    payoff: Vec<Vec<f64>>,
}

fn flatten(tree: &Tree) -> Flat {
    let mut slot = Vec::with_capacity(tree.infosets.len());
    let mut chance = Vec::new();
    for h in &tree.infosets {
        slot.push(chance.len());
        for a in 0..h.actions.len() {
            chance.push(match h.mover {
                Mover::Chance => num_traits::ToPrimitive::to_f64(&h.probs[a]).unwrap_or(0.0),
                Mover::Player(_) => 0.0,
            });
        }
    }
    let pay = tree.path_payoffs();
    Flat {
        parent: tree
            .nodes
            .iter()
            .map(|x| x.parent.unwrap_or((usize::MAX, 0)))
            .collect(),
        set: tree
            .nodes
            .iter()
            .map(|x| x.infoset.unwrap_or(usize::MAX))
            .collect(),
        mover: tree
            .infosets
            .iter()
            .map(|h| match h.mover {
                Mover::Chance => usize::MAX,
                Mover::Player(p) => p,
            })
            .collect(),
        slot,
        chance,
        payoff: pay
            .iter()
            .map(|v| {
                v.iter()
                    .map(|q| num_traits::ToPrimitive::to_f64(q).unwrap_or(0.0))
                    .collect()
            })
            .collect(),
    }
}

/// The current strategy at every slot: regret matching on the positive regrets (uniform when
/// none is positive); chance slots keep chance's probabilities.
fn current(flat: &Flat, tree: &Tree, regret: &[f64], out: &mut [f64]) {
    for (h, set) in tree.infosets.iter().enumerate() {
        let (s, k) = (flat.slot[h], set.actions.len());
        if flat.mover[h] == usize::MAX {
            out[s..s + k].copy_from_slice(&flat.chance[s..s + k]);
            continue;
        }
        let total: f64 = regret[s..s + k].iter().map(|r| r.max(0.0)).sum();
        for a in 0..k {
            out[s + a] = if total > 0.0 {
                regret[s + a].max(0.0) / total
            } else {
                1.0 / k as f64
            };
        }
    }
}

/// Runs CFR on `tree` (perfect recall needed; any number of players, though only two-player
/// zero-sum trees are guaranteed to converge to an equilibrium).
pub fn run(tree: &Tree, options: &Options, limits: &Limits) -> Result<Run> {
    let form = SequenceForm::new(tree)?;
    let n = tree.players.len();
    let work = (tree.nodes.len() as u64)
        .saturating_mul(2 * n as u64)
        .saturating_mul(options.iterations);
    crate::budget::check_work(
        &format!("{} CFR iterations", options.iterations),
        work,
        limits.max_work,
    )?;
    if options.iterations == 0 {
        return Err(Error::Invalid("CFR needs at least one iteration".into()));
    }
    let flat = flatten(tree);
    let slots = flat.chance.len();
    let nodes = tree.nodes.len();
    let mut regret = vec![0.0f64; slots];
    let mut sum = vec![0.0f64; slots];
    let mut sigma = vec![0.0f64; slots];
    let mut own = vec![0.0f64; nodes];
    let mut others = vec![0.0f64; nodes];
    let mut value = vec![0.0f64; nodes];
    let reports = report_points(options.iterations, options.reports.max(1));
    let mut curve = Vec::new();
    let mut seconds = 0.0;
    let mut done = 0;
    let mut last: Option<(Vec<Vec<Q>>, Q, Vec<Q>)> = None;
    crate::progress::phase("CFR iterations", options.iterations);
    let mut clock = std::time::Instant::now();
    for t in 1..=options.iterations {
        for i in 0..n {
            current(&flat, tree, &regret, &mut sigma);
            // Forward: reach probabilities, the player's own and everyone else's (chance too).
            for v in 0..nodes {
                let (p, a) = flat.parent[v];
                if p == usize::MAX {
                    own[v] = 1.0;
                    others[v] = 1.0;
                    continue;
                }
                let h = flat.set[p];
                let x = sigma[flat.slot[h] + a];
                if flat.mover[h] == i {
                    own[v] = own[p] * x;
                    others[v] = others[p];
                } else {
                    own[v] = own[p];
                    others[v] = others[p] * x;
                }
            }
            // Backward: values, regrets and the average's sums at the player's nodes.
            let weight = match options.variant {
                Variant::Plus => t as f64,
                Variant::Discounted => 1.0,
            };
            for v in (0..nodes).rev() {
                let h = flat.set[v];
                if h == usize::MAX {
                    value[v] = flat.payoff[v][i];
                    continue;
                }
                let s = flat.slot[h];
                let kids = &tree.nodes[v].children;
                let mut x = 0.0;
                for (a, &c) in kids.iter().enumerate() {
                    x += sigma[s + a] * value[c];
                }
                value[v] = x;
                if flat.mover[h] == i {
                    let cf = others[v];
                    for (a, &c) in kids.iter().enumerate() {
                        regret[s + a] += cf * (value[c] - x);
                        sum[s + a] += weight * own[v] * sigma[s + a];
                    }
                }
            }
            // Discounting and flooring, at the player's sets.
            for (h, set) in tree.infosets.iter().enumerate() {
                if flat.mover[h] != i {
                    continue;
                }
                let (s, k) = (flat.slot[h], set.actions.len());
                match options.variant {
                    Variant::Plus => {
                        for r in &mut regret[s..s + k] {
                            *r = r.max(0.0);
                        }
                    }
                    Variant::Discounted => {
                        let tf = t as f64;
                        let pos = tf.powf(1.5) / (tf.powf(1.5) + 1.0);
                        for r in &mut regret[s..s + k] {
                            *r *= if *r > 0.0 { pos } else { 0.5 };
                        }
                        let g = (tf / (tf + 1.0)).powi(2);
                        for x in &mut sum[s..s + k] {
                            *x *= g;
                        }
                    }
                }
            }
        }
        done = t;
        if t % 64 == 0 {
            crate::progress::tick(t)?;
        }
        if reports.binary_search(&t).is_ok() {
            seconds += clock.elapsed().as_secs_f64();
            let (avg, gain, pay) = exact_report(tree, &form, &flat, &sum)?;
            let e = num_traits::ToPrimitive::to_f64(&gain).unwrap_or(f64::INFINITY);
            curve.push((t, e));
            last = Some((avg, gain, pay));
            clock = std::time::Instant::now();
            if options.target.is_some_and(|target| e <= target) {
                break;
            }
        }
    }
    let (average, exploitability, payoffs) = match last {
        Some(x) if curve.last().is_some_and(|c| c.0 == done) => x,
        _ => {
            seconds += clock.elapsed().as_secs_f64();
            let (avg, gain, pay) = exact_report(tree, &form, &flat, &sum)?;
            curve.push((
                done,
                num_traits::ToPrimitive::to_f64(&gain).unwrap_or(f64::INFINITY),
            ));
            (avg, gain, pay)
        }
    };
    Ok(Run {
        iterations: done,
        average,
        exploitability,
        payoffs,
        curve,
        seconds,
    })
}

/// Iteration numbers for `count` reports spread in log scale up to `last`, always with `last`.
fn report_points(last: u64, count: usize) -> Vec<u64> {
    let mut out: Vec<u64> = (1..=count)
        .map(|k| ((last as f64).powf(k as f64 / count as f64)).round() as u64)
        .map(|x| x.clamp(1, last))
        .collect();
    out.push(last);
    out.sort_unstable();
    out.dedup();
    out
}

/// The granularity of the reported average strategy's probabilities.
const UNIT: i64 = 1 << 32;

/// The average strategy as exact rationals, its exploitability and payoffs, exactly.
fn exact_report(
    tree: &Tree,
    form: &SequenceForm,
    flat: &Flat,
    sum: &[f64],
) -> Result<(Vec<Vec<Q>>, Q, Vec<Q>)> {
    let mut avg: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
    for (h, set) in tree.infosets.iter().enumerate() {
        if flat.mover[h] == usize::MAX {
            continue;
        }
        let (s, k) = (flat.slot[h], set.actions.len());
        // The average is rounded to multiples of 2^-32 (the largest share takes up the rest,
        // so each set's probabilities add to 1 exactly): the exploitability reported is the
        // exact one of the strategy returned, and its numbers stay small; the f64 average's
        // own dyadic numbers make exact best responses thousands of times slower.
        let total: f64 = sum[s..s + k].iter().map(|x| x.max(0.0)).sum();
        let mut units: Vec<i64> = if total > 0.0 {
            sum[s..s + k]
                .iter()
                .map(|x| (x.max(0.0) / total * UNIT as f64).round() as i64)
                .collect()
        } else {
            vec![0; k]
        };
        let big = (0..k).max_by_key(|&a| units[a]).unwrap_or(0);
        if total > 0.0 {
            let rest: i64 = units
                .iter()
                .enumerate()
                .filter(|&(a, _)| a != big)
                .map(|(_, u)| u)
                .sum();
            units[big] = UNIT - rest;
        }
        avg[h] = if total > 0.0 && units[big] >= 0 {
            units
                .iter()
                .map(|&u| Q::new(u.into(), UNIT.into()))
                .collect()
        } else {
            (0..k)
                .map(|_| Q::new(1.into(), (k as i64).into()))
                .collect()
        };
    }
    let gains = form.gains(tree, &avg);
    let pay = form.payoffs(tree, &avg);
    crate::progress::check()?;
    Ok((avg, gains.iter().sum(), pay))
}
