//! Games with cycles (loopy games): win, loss or draw, remoteness, and sums.
//!
//! - **Retrograde analysis** (as for endgame tables: Smith, Fraenkel and Yesha): start from the terminal positions
//!   (losses at remoteness 0) and work backwards in order of remoteness. A position with an
//!   option already known lost is won, one more than that option's remoteness (the first found
//!   is the quickest, since positions are settled in increasing remoteness); a position all of
//!   whose options are known won is lost, one more than the largest. Whatever is never settled
//!   is a draw: either player can avoid losing for ever.
//! - **The generalised Sprague–Grundy function** γ (Smith 1966; Fraenkel and Yesha 1986) gives
//!   each position a finite value or `∞(K)`, `K` the finite values of its options. For a sum,
//!   finite values xor; `∞(K)` plus `b` is `∞(K xor b)`; two infinities give `∞(∅)`. A sum is
//!   P iff its γ is 0, N iff γ is finite and non-zero or `∞(K)` with 0 in `K`, and a draw
//!   otherwise. γ is computed by the labelling algorithm: for `i = 0, 1, …`, a position takes
//!   label `i` when no option has label `i` and every option that is unlabelled or `∞` has an
//!   option labelled `i`; then every unlabelled position without an option labelled `i` is `∞`.
//!   Counters keep each level to O(V + E).

use super::analysis::{move_in_sum, Analysis, AnalyzeOptions, ComponentReport};
use super::component::{Component, Explored};
use super::explicit::{explore, ExplicitGame, ProductGame};
use super::Outcome;
use crate::core::budget::Limits;
use crate::core::error::Result;
use serde::Serialize;
use std::collections::{BTreeSet, VecDeque};
use std::fmt;

/// The outcome of a position in a game that may have cycles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Wld {
    /// The player to move wins.
    Win,
    /// The player to move loses.
    Loss,
    /// Neither player can force a win.
    Draw,
}

/// Retrograde analysis of a whole graph.
#[derive(Debug, Clone)]
pub struct Retrograde {
    /// The outcome of each position.
    pub outcome: Vec<Wld>,
    /// Moves left under optimal play (winner hurries, loser delays); 0 for draws.
    pub remoteness: Vec<u64>,
}

impl ExplicitGame {
    /// The graph with every edge reversed.
    pub fn reversed(&self) -> ExplicitGame {
        let n = self.len();
        let mut indeg = vec![0u32; n + 1];
        for v in 0..n as u32 {
            for &w in self.options(v) {
                indeg[w as usize + 1] += 1;
            }
        }
        for i in 0..n {
            indeg[i + 1] += indeg[i];
        }
        let offsets = indeg.clone();
        let mut fill = indeg;
        let mut succ = vec![0u32; offsets[n] as usize];
        for v in 0..n as u32 {
            for &w in self.options(v) {
                succ[fill[w as usize] as usize] = v;
                fill[w as usize] += 1;
            }
        }
        ExplicitGame::from_csr(offsets, succ)
    }
}

/// Win, loss or draw, with remoteness, for every position of `g`.
pub fn retrograde(g: &ExplicitGame) -> Retrograde {
    let n = g.len();
    let rev = g.reversed();
    let mut outcome = vec![Wld::Draw; n];
    let mut remoteness = vec![0u64; n];
    let mut decided = vec![false; n];
    // Options not yet known to be wins, per position.
    let mut open: Vec<u32> = (0..n as u32).map(|v| g.options(v).len() as u32).collect();
    let mut queue = VecDeque::new();
    for v in 0..n {
        if open[v] == 0 {
            outcome[v] = Wld::Loss;
            decided[v] = true;
            queue.push_back(v as u32);
        }
    }
    while let Some(v) = queue.pop_front() {
        let r = remoteness[v as usize] + 1;
        let lost = outcome[v as usize] == Wld::Loss;
        for &u in rev.options(v) {
            let u = u as usize;
            if decided[u] {
                continue;
            }
            if lost {
                outcome[u] = Wld::Win;
                remoteness[u] = r;
                decided[u] = true;
                queue.push_back(u as u32);
            } else {
                // Parallel edges are counted once per edge, as they were in `open`.
                open[u] -= 1;
                if open[u] == 0 {
                    outcome[u] = Wld::Loss;
                    remoteness[u] = r;
                    decided[u] = true;
                    queue.push_back(u as u32);
                }
            }
        }
    }
    Retrograde {
        outcome,
        remoteness,
    }
}

/// A generalised Sprague–Grundy value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Gamma {
    /// A finite value: the position behaves like a Nim heap of this size.
    Finite(u64),
    /// `∞(K)`: `K` is the set of finite values among the options.
    Infinite(BTreeSet<u64>),
}

impl fmt::Display for Gamma {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Gamma::Finite(g) => write!(f, "{g}"),
            Gamma::Infinite(k) => {
                let items: Vec<String> = k.iter().map(u64::to_string).collect();
                write!(f, "∞{{{}}}", items.join(","))
            }
        }
    }
}

impl Serialize for Gamma {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl Gamma {
    /// The outcome of a position (or sum) with this value.
    pub fn outcome(&self) -> Wld {
        match self {
            Gamma::Finite(0) => Wld::Loss,
            Gamma::Finite(_) => Wld::Win,
            Gamma::Infinite(k) if k.contains(&0) => Wld::Win,
            Gamma::Infinite(_) => Wld::Draw,
        }
    }

    /// The value of a disjunctive sum (Smith's rule).
    pub fn sum(values: &[Gamma]) -> Gamma {
        let mut x = 0;
        let mut inf: Option<&BTreeSet<u64>> = None;
        for v in values {
            match v {
                Gamma::Finite(g) => x ^= g,
                Gamma::Infinite(k) => {
                    if inf.is_some() {
                        return Gamma::Infinite(BTreeSet::new());
                    }
                    inf = Some(k);
                }
            }
        }
        match inf {
            None => Gamma::Finite(x),
            Some(k) => Gamma::Infinite(k.iter().map(|v| v ^ x).collect()),
        }
    }
}

/// γ of every position of `g`.
pub fn gamma_values(g: &ExplicitGame) -> Vec<Gamma> {
    const NONE: u64 = u64::MAX;
    const INF: u64 = u64::MAX - 1;
    let n = g.len();
    let rev = g.reversed();
    let mut label = vec![NONE; n];
    let mut left = n;
    let mut level = 0u64;
    // Per level: whether a position has an option labelled `level`, and for an unlabelled
    // position how many of its options are unlabelled or ∞ and still lack such an option.
    let mut has = vec![false; n];
    let mut bad = vec![0u32; n];
    let mut work: Vec<u32> = Vec::new();
    while left > 0 {
        has.iter_mut().for_each(|h| *h = false);
        for u in 0..n {
            if label[u] == NONE {
                bad[u] = g
                    .options(u as u32)
                    .iter()
                    .filter(|&&w| matches!(label[w as usize], NONE | INF))
                    .count() as u32;
                if bad[u] == 0 {
                    work.push(u as u32);
                }
            }
        }
        while let Some(x) = work.pop() {
            let xu = x as usize;
            if label[xu] != NONE || has[xu] || bad[xu] != 0 {
                continue;
            }
            label[xu] = level;
            left -= 1;
            // x no longer counts as an unlabelled option of its predecessors...
            for &p in rev.options(x) {
                let pu = p as usize;
                if label[pu] == NONE && !has[xu] {
                    bad[pu] -= 1;
                    if bad[pu] == 0 {
                        work.push(p);
                    }
                }
            }
            // ...and its predecessors now have an option labelled `level`.
            for &p in rev.options(x) {
                let pu = p as usize;
                if has[pu] {
                    continue;
                }
                has[pu] = true;
                if matches!(label[pu], NONE | INF) {
                    for &q in rev.options(p) {
                        let qu = q as usize;
                        if label[qu] == NONE {
                            bad[qu] -= 1;
                            if bad[qu] == 0 {
                                work.push(q);
                            }
                        }
                    }
                }
            }
        }
        for u in 0..n {
            if label[u] == NONE && !has[u] {
                label[u] = INF;
                left -= 1;
            }
        }
        level += 1;
    }
    (0..n)
        .map(|u| match label[u] {
            INF => Gamma::Infinite(
                g.options(u as u32)
                    .iter()
                    .map(|&w| label[w as usize])
                    .filter(|&l| l < INF)
                    .collect(),
            ),
            l => Gamma::Finite(l),
        })
        .collect()
}

/// Largest sum searched only to find its remoteness.
const REMOTENESS_LIMIT: u64 = 2_000_000;

impl From<Wld> for Outcome {
    fn from(w: Wld) -> Outcome {
        match w {
            Wld::Win => Outcome::N,
            Wld::Loss => Outcome::P,
            Wld::Draw => Outcome::D,
        }
    }
}

/// One atom of a loopy sum: its explored graph and what the analyses found there.
struct LoopyAtom {
    expr: String,
    parent: usize,
    explored: Explored,
    gamma: Vec<Gamma>,
    retro: Retrograde,
}

/// Analyses a sum in which some component has cycles: the outcome (N, P or D), γ of each atom
/// and of the sum, the winning moves (or, from a draw, the moves that keep it), and the
/// remoteness when the sum is small enough to search. `cycle` says where a cycle was seen; it
/// is reported as the first note.
pub fn analyze_loopy(
    components: &[Box<dyn Component>],
    opts: &AnalyzeOptions,
    cycle: &str,
) -> Result<Analysis> {
    let limits = opts.limits;
    let mut atoms = Vec::new();
    for (parent, c) in components.iter().enumerate() {
        for a in c.atoms() {
            let explored = a.explore_named(limits)?;
            let gamma = gamma_values(&explored.graph);
            let retro = retrograde(&explored.graph);
            atoms.push(LoopyAtom {
                expr: a.expression(),
                parent,
                explored,
                gamma,
                retro,
            });
        }
    }
    let here: Vec<Gamma> = atoms.iter().map(|a| a.gamma[0].clone()).collect();
    let parents: Vec<usize> = atoms.iter().map(|a| a.parent).collect();
    let names: Vec<String> = atoms.iter().map(|a| a.expr.clone()).collect();
    let total = Gamma::sum(&here);
    let outcome = total.outcome();
    let mut winning = Vec::new();
    let mut drawing = Vec::new();
    let mut winning_total = 0;
    if outcome != Wld::Loss {
        for (i, a) in atoms.iter().enumerate() {
            for (m, target) in &a.explored.start_moves {
                let mut after = here.clone();
                after[i] = a.gamma[*target as usize].clone();
                let result = Gamma::sum(&after).outcome();
                let keep = match outcome {
                    Wld::Win => result == Wld::Loss,
                    _ => result == Wld::Draw,
                };
                if !keep {
                    continue;
                }
                let list = if outcome == Wld::Win {
                    &mut winning
                } else {
                    &mut drawing
                };
                if outcome == Wld::Win {
                    winning_total += 1;
                }
                if list.len() < opts.max_moves {
                    list.push(move_in_sum(&parents, &names, components, i, m.clone()));
                }
            }
        }
    }
    let remoteness = if outcome == Wld::Draw {
        None
    } else if atoms.len() == 1 {
        Some(atoms[0].retro.remoteness[0])
    } else {
        sum_remoteness(&atoms, limits)
    };
    let mut notes = vec![
        cycle.to_string(),
        format!(
            "outcomes by the generalised Sprague-Grundy function, as the game can go on for ever \
             (γ of the sum: {total})"
        ),
    ];
    if remoteness.is_none() && outcome != Wld::Draw {
        notes.push(format!(
            "remoteness of the sum not computed: it needs a search of more than {REMOTENESS_LIMIT} positions"
        ));
    }
    let components = atoms
        .iter()
        .map(|a| ComponentReport {
            game: a.expr.clone(),
            grundy: match &a.gamma[0] {
                Gamma::Finite(g) => Some(*g),
                Gamma::Infinite(_) => None,
            },
            remoteness: (a.retro.outcome[0] != Wld::Draw).then(|| a.retro.remoteness[0]),
            gamma: Some(a.gamma[0].to_string()),
        })
        .collect();
    Ok(Analysis {
        outcome: outcome.into(),
        grundy: match &total {
            Gamma::Finite(g) => Some(*g),
            Gamma::Infinite(_) => None,
        },
        components,
        winning_moves_total: winning_total,
        winning_moves: winning,
        winning_moves_complete: true,
        remoteness,
        notes,
        gamma: Some(total.to_string()),
        drawing_moves: drawing,
    })
}

/// The remoteness of a sum of atoms, by retrograde analysis of their product, when small.
fn sum_remoteness(atoms: &[LoopyAtom], limits: Limits) -> Option<u64> {
    let size = atoms
        .iter()
        .fold(1u64, |a, x| a.saturating_mul(x.explored.graph.len() as u64));
    let cap = limits.max_states.min(REMOTENESS_LIMIT);
    if size > cap {
        return None;
    }
    let parts: Vec<ExplicitGame> = atoms.iter().map(|a| a.explored.graph.clone()).collect();
    let product = explore(
        &ProductGame { parts: &parts },
        &vec![0; parts.len()],
        Limits {
            max_states: cap,
            ..limits
        },
        "the sum",
    )
    .ok()?;
    Some(retrograde(&product).remoteness[0])
}
