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

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::exact::Q;
use crate::extensive::seqform::SequenceForm;
use crate::extensive::{Mover, Tree};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use rayon::prelude::*;

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
    /// Trees with at least this many nodes share each pass among the cores; smaller ones
    /// run on one (splitting a small tree costs more than it saves). A split tree's results
    /// are the same on any number of cores, but differ in rounding from an unsplit run's.
    pub parallel_from: usize,
    /// A file to keep the run's state in: resumed from when it exists (the same tree and
    /// variant; `iterations` counts from the run's start), written at every report, every
    /// minute, at the end and when the run is interrupted.
    pub checkpoint: Option<CheckpointFile>,
    /// External-sampling Monte Carlo CFR (Lanctot et al. 2009): each iteration walks, for
    /// each player, one sampled action at every chance and opponent node and every action at
    /// the player's own, instead of the whole tree.
    pub sampling: bool,
    /// The seed of the sampling (each iteration's generator derives from it and the
    /// iteration's number, so a resumed run samples as an unbroken one).
    pub seed: u64,
}

/// The most exact exploitability reports a run makes: each is a best response over the whole
/// tree, and a million is more than a run can use.
pub const MOST_REPORTS: usize = 1_000_000;

/// Where a run keeps its checkpoint, and which game it is of.
#[derive(Debug, Clone)]
pub struct CheckpointFile {
    /// The checkpoint's file.
    pub path: std::path::PathBuf,
    /// A fingerprint of the game (the caller's: the API takes the CRC-32 of the tree's `.efg`
    /// text). A checkpoint of another fingerprint is refused, not resumed.
    pub game: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::Plus,
            iterations: 1000,
            target: None,
            reports: 10,
            parallel_from: PARALLEL_NODES,
            checkpoint: None,
            sampling: false,
            seed: 0,
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
    /// Every node's children, one list after another (node `v`'s at
    /// `kids[kid_at[v]..kid_at[v + 1]]`): the backward pass reads them for every node, and
    /// from one array they come a third faster than through the nodes' own lists.
    kids: Vec<usize>,
    kid_at: Vec<usize>,
}

impl Flat {
    /// Node `v`'s children.
    #[inline(always)]
    fn children(&self, v: usize) -> &[usize] {
        &self.kids[self.kid_at[v]..self.kid_at[v + 1]]
    }
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
    let mut kid_at = Vec::with_capacity(tree.nodes.len() + 1);
    let mut kids = Vec::with_capacity(tree.nodes.len());
    for node in &tree.nodes {
        kid_at.push(kids.len());
        kids.extend_from_slice(&node.children);
    }
    kid_at.push(kids.len());
    Flat {
        kids,
        kid_at,
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
        regret_matching(&regret[s..s + k], &mut out[s..s + k]);
    }
}

/// One set's strategy from its regrets: in proportion to the positive ones, uniform when
/// none is positive.
fn regret_matching(regret: &[f64], out: &mut [f64]) {
    let total: f64 = regret.iter().map(|r| r.max(0.0)).sum();
    let k = regret.len() as f64;
    for (o, r) in out.iter_mut().zip(regret) {
        *o = if total > 0.0 {
            r.max(0.0) / total
        } else {
            1.0 / k
        };
    }
}

/// Runs CFR on `tree` (perfect recall needed; any number of players, though only two-player
/// zero-sum trees are guaranteed to converge to an equilibrium).
// Kept as one function: the iteration loop: regrets, sums, the curve, the checkpoint and the report
// points are state every iteration updates; the passes over the tree are functions of their own.
pub fn run(tree: &Tree, options: &Options, limits: &Limits) -> Result<Run> {
    let form = SequenceForm::new(tree)?;
    let n = tree.players.len();
    // A pass visits every node twice; a sampled walk, typically far fewer (counted here as
    // the per-action arrays it floors or discounts, twice).
    let per_pass = if options.sampling {
        2 * tree.infosets.iter().map(|h| h.actions.len()).sum::<usize>()
    } else {
        2 * tree.nodes.len()
    };
    let work = (per_pass as u64)
        .saturating_mul(n as u64)
        .saturating_mul(options.iterations);
    crate::core::budget::check_work(
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
    let fingerprint = options.checkpoint.as_ref().map_or(0, |c| c.game);
    let variant = format!(
        "{:?}{}",
        options.variant,
        if options.sampling {
            " external sampling"
        } else {
            ""
        }
    );
    let mut sampled = Sampled::new(tree, &flat);
    if let Some(path) = options.checkpoint.as_ref().map(|c| &c.path) {
        // Each double takes at most 25 characters in JSON, a report's point twice that.
        let most = 32 * (2 * slots as u64 + 2 * options.reports as u64 + 2) + (1 << 16);
        if let Some(c) = Checkpoint::load(path, most)? {
            if c.fingerprint != fingerprint
                || c.variant != variant
                || c.regret.len() != slots
                || c.sum.len() != slots
            {
                return Err(Error::Invalid(format!(
                    "{}: a checkpoint of another tree or CFR variant ({}); remove it to start \
                     afresh",
                    path.display(),
                    c.variant
                )));
            }
            (regret, sum, curve, seconds, done) =
                (c.regret, c.sum, c.curve, c.seconds, c.iterations);
        }
    }
    let save = |regret: &[f64], sum: &[f64], curve: &[(u64, f64)], seconds: f64, done: u64| {
        options
            .checkpoint
            .as_ref()
            .map(|c| &c.path)
            .map_or(Ok(()), |path| {
                Checkpoint {
                    format: CHECKPOINT_FORMAT,
                    fingerprint,
                    variant: variant.clone(),
                    iterations: done,
                    regret: regret.to_vec(),
                    sum: sum.to_vec(),
                    curve: curve.to_vec(),
                    seconds,
                }
                .save(path)
            })
    };
    let mut saved = std::time::Instant::now();
    let mut last: Option<(Vec<Vec<Q>>, Q, Vec<Q>)> = None;
    crate::core::progress::phase("CFR iterations", options.iterations);
    let mut clock = std::time::Instant::now();
    let parts = split(tree, options.parallel_from);
    let mut deltas: Vec<(Vec<f64>, Vec<f64>)> = parts
        .iter()
        .map(|_| (vec![0.0; slots], vec![0.0; slots]))
        .collect();
    let top: Vec<usize> = {
        let mut inside = vec![false; nodes];
        for &(a, b) in &parts {
            inside[a..b].iter_mut().for_each(|m| *m = true);
        }
        (0..nodes).filter(|&v| !inside[v]).collect()
    };
    for t in done + 1..=options.iterations {
        for i in 0..n {
            if options.sampling {
                let mut rng = XorShiftRng::seed_from_u64(
                    options.seed ^ (t * n as u64 + i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                );
                let weight = match options.variant {
                    Variant::Plus => t as f64,
                    Variant::Discounted => 1.0,
                };
                sampled.pass(&flat, i, weight, &mut rng, &mut regret, &mut sum);
            } else {
                current(&flat, tree, &regret, &mut sigma);
                let pass = Pass {
                    flat: &flat,
                    sigma: &sigma,
                    player: i,
                    weight: match options.variant {
                        Variant::Plus => t as f64,
                        Variant::Discounted => 1.0,
                    },
                };
                // The nodes above the parts forward; each part (a whole subtree) forward and
                // backward on a core of its own, with its own regret and average sums; the nodes
                // above backward; then the parts' sums added in.
                if parts.is_empty() {
                    pass.whole(&mut own, &mut others, &mut value, &mut regret, &mut sum);
                } else {
                    for &v in &top {
                        (own[v], others[v]) = pass.reach(v, 0, &own, &others);
                    }
                    let roots: Vec<(f64, f64)> = parts
                        .iter()
                        .map(|&(a, _)| pass.reach(a, 0, &own, &others))
                        .collect();
                    let work: Vec<_> = chunks_of(&mut own, &parts)
                        .into_iter()
                        .zip(chunks_of(&mut others, &parts))
                        .zip(chunks_of(&mut value, &parts))
                        .zip(deltas.iter_mut())
                        .zip(parts.iter().zip(roots))
                        .collect();
                    work.into_par_iter()
                        .for_each(|((((o, e), x), (r, m)), (&(a, _), root))| {
                            r.iter_mut().for_each(|z| *z = 0.0);
                            m.iter_mut().for_each(|z| *z = 0.0);
                            pass.subtree(a, root, o, e, x, r, m);
                        });
                    for &v in top.iter().rev() {
                        pass.backward(v, 0, &own, &others, &mut value, &mut regret, &mut sum);
                    }
                    for (r, m) in &deltas {
                        for (x, d) in regret.iter_mut().zip(r) {
                            *x += d;
                        }
                        for (x, d) in sum.iter_mut().zip(m) {
                            *x += d;
                        }
                    }
                }
            }
            // Discounting and flooring, at the player's sets (CFR+'s floor only where a
            // sampled walk changed regrets).
            if options.sampling && options.variant == Variant::Plus {
                sampled.floor(tree, &flat, i, &mut regret);
                continue;
            }
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
            if let Err(e) = crate::core::progress::tick(t) {
                seconds += clock.elapsed().as_secs_f64();
                save(&regret, &sum, &curve, seconds, done)?;
                return Err(e);
            }
            if options.checkpoint.is_some() && saved.elapsed().as_secs() >= 60 {
                save(
                    &regret,
                    &sum,
                    &curve,
                    seconds + clock.elapsed().as_secs_f64(),
                    done,
                )?;
                saved = std::time::Instant::now();
            }
        }
        if reports.binary_search(&t).is_ok() {
            seconds += clock.elapsed().as_secs_f64();
            let (avg, gain, pay) = exact_report(tree, &form, &flat, &sum)?;
            let e = num_traits::ToPrimitive::to_f64(&gain).unwrap_or(f64::INFINITY);
            curve.push((t, e));
            last = Some((avg, gain, pay));
            // The progress line shows how far from an equilibrium the run has got.
            crate::core::progress::phase(
                &format!("CFR iterations (exploitability {e:.3e})"),
                options.iterations,
            );
            crate::core::progress::tick(t)?;
            save(&regret, &sum, &curve, seconds, done)?;
            saved = std::time::Instant::now();
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
            if curve.last().is_none_or(|c| c.0 != done) {
                curve.push((
                    done,
                    num_traits::ToPrimitive::to_f64(&gain).unwrap_or(f64::INFINITY),
                ));
            }
            save(&regret, &sum, &curve, seconds, done)?;
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

/// One player's half of an iteration, at the current strategy `sigma`.
struct Pass<'a> {
    flat: &'a Flat,
    sigma: &'a [f64],
    player: usize,
    /// The weight of this iteration in the average strategy.
    weight: f64,
}

impl Pass<'_> {
    /// The reach probabilities of node `v` (the player's own moves; everyone else's and
    /// chance's) from its parent's, in arrays indexed by node.
    /// The arrays start at node `base`, which holds `v`'s parent.
    #[inline(always)]
    fn reach(&self, v: usize, base: usize, own: &[f64], others: &[f64]) -> (f64, f64) {
        let (p, a) = self.flat.parent[v];
        if p == usize::MAX {
            return (1.0, 1.0);
        }
        let h = self.flat.set[p];
        let x = self.sigma[self.flat.slot[h] + a];
        let (o, e) = (own[p - base], others[p - base]);
        if self.flat.mover[h] == self.player {
            (o * x, e)
        } else {
            (o, e * x)
        }
    }

    /// Node `v`'s value to the player under the current strategy and, at the player's
    /// nodes, its counterfactual regrets and average-strategy sums, from its children's
    /// values. The arrays start at node `base`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn backward(
        &self,
        v: usize,
        base: usize,
        own: &[f64],
        others: &[f64],
        value: &mut [f64],
        regret: &mut [f64],
        sum: &mut [f64],
    ) {
        let h = self.flat.set[v];
        if h == usize::MAX {
            value[v - base] = self.flat.payoff[v][self.player];
            return;
        }
        let s = self.flat.slot[h];
        let kids = self.flat.children(v);
        let mut x = 0.0;
        for (a, &c) in kids.iter().enumerate() {
            x += self.sigma[s + a] * value[c - base];
        }
        value[v - base] = x;
        if self.flat.mover[h] == self.player {
            let cf = others[v - base];
            for (a, &c) in kids.iter().enumerate() {
                regret[s + a] += cf * (value[c - base] - x);
                sum[s + a] += self.weight * own[v - base] * self.sigma[s + a];
            }
        }
    }

    /// Both passes over the whole tree, on one core. A function of its own: inlined into
    /// the long loop of [`run`], its loops ran at half the speed (registers spilled).
    #[inline(never)]
    fn whole(
        &self,
        own: &mut [f64],
        others: &mut [f64],
        value: &mut [f64],
        regret: &mut [f64],
        sum: &mut [f64],
    ) {
        for v in 0..own.len() {
            (own[v], others[v]) = self.reach(v, 0, own, others);
        }
        for v in (0..own.len()).rev() {
            self.backward(v, 0, own, others, value, regret, sum);
        }
    }

    /// Both passes over the whole subtree of nodes `base..base + own.len()`, whose root has
    /// the reach probabilities `root`; the arrays hold that range only.
    #[allow(clippy::too_many_arguments)]
    fn subtree(
        &self,
        base: usize,
        root: (f64, f64),
        own: &mut [f64],
        others: &mut [f64],
        value: &mut [f64],
        regret: &mut [f64],
        sum: &mut [f64],
    ) {
        (own[0], others[0]) = root;
        for j in 1..own.len() {
            (own[j], others[j]) = self.reach(base + j, base, own, others);
        }
        for j in (0..own.len()).rev() {
            self.backward(base + j, base, own, others, value, regret, sum);
        }
    }
}

/// External sampling's buffers, kept across iterations.
struct Sampled {
    /// The nodes walked, in prefix order.
    walked: Vec<usize>,
    /// The action sampled at each walked chance or opponent node.
    chosen: Vec<usize>,
    /// Each walked node's value to the player.
    value: Vec<f64>,
    /// The current strategy at the sets met in this walk (by slot), and the walk that
    /// computed each set's.
    sigma: Vec<f64>,
    stamp: Vec<u64>,
    walk: u64,
}

impl Sampled {
    fn new(tree: &Tree, flat: &Flat) -> Self {
        Sampled {
            walked: Vec::new(),
            chosen: vec![0; tree.nodes.len()],
            value: vec![0.0; tree.nodes.len()],
            sigma: vec![0.0; flat.chance.len()],
            stamp: vec![0; tree.infosets.len()],
            walk: 0,
        }
    }

    /// One walk for player `i`: forward, sampling chance and the others by the current
    /// strategy (adding it, weighted, to the others' average sums where met) and taking
    /// every action of the player's; backward, each node's sampled value and, at the
    /// player's nodes, each action's regret (its value less the node's: the sampling stands
    /// for the others' reach).
    #[allow(clippy::too_many_arguments)]
    fn pass(
        &mut self,
        flat: &Flat,
        i: usize,
        weight: f64,
        rng: &mut XorShiftRng,
        regret: &mut [f64],
        sum: &mut [f64],
    ) {
        self.walk += 1;
        self.walked.clear();
        let mut stack = vec![0usize];
        while let Some(v) = stack.pop() {
            self.walked.push(v);
            let h = flat.set[v];
            if h == usize::MAX {
                continue;
            }
            let (s, kids) = (flat.slot[h], flat.children(v));
            let k = kids.len();
            if flat.mover[h] == usize::MAX {
                self.sigma[s..s + k].copy_from_slice(&flat.chance[s..s + k]);
            } else if self.stamp[h] != self.walk {
                self.stamp[h] = self.walk;
                regret_matching(&regret[s..s + k], &mut self.sigma[s..s + k]);
            }
            if flat.mover[h] == i {
                stack.extend(kids.iter().rev());
                continue;
            }
            if flat.mover[h] != usize::MAX {
                for a in 0..k {
                    sum[s + a] += weight * self.sigma[s + a];
                }
            }
            // An action by its probability: the last one takes what rounding leaves.
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let mut acc = 0.0;
            let mut a = k - 1;
            for (b, p) in self.sigma[s..s + k].iter().enumerate() {
                acc += p;
                if u < acc {
                    a = b;
                    break;
                }
            }
            self.chosen[v] = a;
            stack.push(kids[a]);
        }
        for &v in self.walked.iter().rev() {
            let h = flat.set[v];
            if h == usize::MAX {
                self.value[v] = flat.payoff[v][i];
                continue;
            }
            let kids = flat.children(v);
            if flat.mover[h] != i {
                self.value[v] = self.value[kids[self.chosen[v]]];
                continue;
            }
            let s = flat.slot[h];
            let x: f64 = kids
                .iter()
                .enumerate()
                .map(|(a, &c)| self.sigma[s + a] * self.value[c])
                .sum();
            self.value[v] = x;
            for (a, &c) in kids.iter().enumerate() {
                regret[s + a] += self.value[c] - x;
            }
        }
    }
}

impl Sampled {
    /// Floors at zero the regrets of player `i`'s sets met in the last walk.
    fn floor(&self, tree: &Tree, flat: &Flat, i: usize, regret: &mut [f64]) {
        for &v in &self.walked {
            let h = flat.set[v];
            if h != usize::MAX && flat.mover[h] == i {
                let (s, k) = (flat.slot[h], tree.nodes[v].children.len());
                for r in &mut regret[s..s + k] {
                    *r = r.max(0.0);
                }
            }
        }
    }
}

/// Disjoint subtrees that together hold most of the tree, for the cores to share: each a
/// range of nodes (a subtree is contiguous in prefix order) of at most a 32nd of the tree.
/// None for trees under `from` nodes, where splitting costs more than it saves. The split
/// does not depend on the number of cores, so neither do the results: the parts' sums are
/// added in the same order however many threads run them.
fn split(tree: &Tree, from: usize) -> Vec<(usize, usize)> {
    let n = tree.nodes.len();
    if n < from.max(2) {
        return Vec::new();
    }
    let mut size = vec![1usize; n];
    for v in (1..n).rev() {
        if let Some((p, _)) = tree.nodes[v].parent {
            size[p] += size[v];
        }
    }
    let target = n / 32;
    let mut parts = Vec::new();
    let mut stack = vec![0];
    while let Some(v) = stack.pop() {
        if size[v] <= target {
            // Tiny subtrees stay with the nodes above: a task each would cost more.
            if size[v] * 16 >= target {
                parts.push((v, v + size[v]));
            }
        } else {
            stack.extend(tree.nodes[v].children.iter().copied());
        }
    }
    parts.sort_unstable();
    parts
}

/// Trees with fewer nodes run on one core by default.
pub const PARALLEL_NODES: usize = 4096;

/// The disjoint pieces `ranges` (sorted) of `data`.
fn chunks_of<'a>(mut data: &'a mut [f64], ranges: &[(usize, usize)]) -> Vec<&'a mut [f64]> {
    let mut out = Vec::with_capacity(ranges.len());
    let mut at = 0;
    for &(a, b) in ranges {
        let rest = std::mem::take(&mut data).split_at_mut(a - at).1;
        let (chunk, rest) = rest.split_at_mut(b - a);
        out.push(chunk);
        data = rest;
        at = b;
    }
    out
}

/// A CFR run's state on disk (JSON: doubles written so that they read back exactly).
#[derive(serde::Serialize, serde::Deserialize)]
struct Checkpoint {
    format: u32,
    /// CRC-32 of the tree written as .efg.
    fingerprint: u32,
    variant: String,
    iterations: u64,
    regret: Vec<f64>,
    sum: Vec<f64>,
    curve: Vec<(u64, f64)>,
    seconds: f64,
}

/// The checkpoint format's version: 2 is sealed with a checksum over every byte.
const CHECKPOINT_FORMAT: u32 = 2;

impl Checkpoint {
    /// The checkpoint at `path`, `None` when there is none; refused when it does not verify
    /// or is larger than `max_bytes` (more than a checkpoint of the tree can hold).
    fn load(path: &std::path::Path, max_bytes: u64) -> Result<Option<Checkpoint>> {
        crate::core::input::may_read(&path.display().to_string())?;
        let Some(bytes) = crate::core::sealed::read(path, max_bytes)? else {
            return Ok(None);
        };
        let not_one = |why: String| {
            Error::Invalid(format!(
                "{}: not a CFR checkpoint of this version ({why}); remove it to start afresh",
                path.display()
            ))
        };
        let c: Checkpoint = serde_json::from_slice(&bytes).map_err(|e| not_one(e.to_string()))?;
        if c.format != CHECKPOINT_FORMAT {
            return Err(not_one(format!("format {}", c.format)));
        }
        Ok(Some(c))
    }

    /// Writes beside the file and renames, so that a stop mid-write leaves the last one.
    fn save(&self, path: &std::path::Path) -> Result<()> {
        crate::core::input::may_read(&path.display().to_string())?;
        let text = serde_json::to_vec(self).map_err(|e| Error::Invalid(e.to_string()))?;
        crate::core::sealed::write(path, text)
    }
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
    crate::core::progress::check()?;
    Ok((avg, gains.iter().sum(), pay))
}
