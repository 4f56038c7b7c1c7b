//! Pure-strategy equilibria of n-player games, and iterated elimination of dominated
//! strategies.

use crate::core::error::Result;
use crate::exact::Q;
use crate::strategic::bimatrix::Equilibrium;
use crate::strategic::game::NormalForm;
use crate::strategic::solvers::zerosum;
use num_traits::Zero;

/// Every pure profile at which no player gains by deviating alone.
pub fn pure_equilibria(game: &NormalForm) -> Vec<Vec<usize>> {
    let shape = game.shape();
    let strides = game.strides();
    let mut profile = vec![0usize; shape.len()];
    let mut out = Vec::new();
    for k in 0..game.profiles() {
        let here = game.payoffs_at(k);
        let stable = (0..shape.len()).all(|i| {
            let base = k - profile[i] * strides[i];
            (0..shape[i]).all(|t| game.payoffs_at(base + t * strides[i])[i] <= here[i])
        });
        if stable {
            out.push(profile.clone());
        }
        // The next profile, first player fastest.
        for (i, p) in profile.iter_mut().enumerate() {
            *p += 1;
            if *p < shape[i] {
                break;
            }
            *p = 0;
        }
    }
    out
}

/// What dominates an eliminated strategy.
#[derive(Debug, Clone, PartialEq)]
pub enum Dominator {
    /// A pure strategy (an index into the original game's list).
    Pure(usize),
    /// A mixture of strategies (original indices, probabilities).
    Mixed(Vec<(usize, Q)>),
}

/// One elimination.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The player.
    pub player: usize,
    /// The strategy removed (an index into the original game's list).
    pub strategy: usize,
    /// What dominates it.
    pub by: Dominator,
    /// Whether the domination is weak (never worse, sometimes better) rather than strict.
    pub weak: bool,
}

/// A game after iterated elimination.
#[derive(Debug, Clone)]
pub struct Reduction {
    /// The eliminations in the order made.
    pub steps: Vec<Step>,
    /// The remaining game.
    pub game: NormalForm,
    /// For each player, the original indices of the strategies that remain.
    pub kept: Vec<Vec<usize>>,
}

impl Reduction {
    /// No elimination: the game as it is.
    pub fn none(game: &NormalForm) -> Self {
        Reduction {
            steps: Vec::new(),
            game: game.clone(),
            kept: game.shape().iter().map(|&k| (0..k).collect()).collect(),
        }
    }

    /// An equilibrium of the reduced game written over the original game's strategies
    /// (`shape`: how many each player had), the removed ones at probability 0.
    pub fn lift(&self, eq: &Equilibrium, shape: &[usize]) -> Equilibrium {
        Equilibrium {
            profile: self.spread(&eq.profile, shape, Q::zero()),
            payoffs: eq.payoffs.clone(),
        }
    }

    /// [`Reduction::lift`] of an equilibrium the caller no longer needs: without a copy when
    /// nothing was eliminated.
    pub fn lift_owned(&self, eq: Equilibrium, shape: &[usize]) -> Equilibrium {
        if self.steps.is_empty() {
            eq
        } else {
            self.lift(&eq, shape)
        }
    }

    /// Per-player values over the reduced game's strategies (probabilities, bounds) spread over
    /// the strategies of the game as given (`shape`), `zero` for those removed.
    pub fn spread<T: Clone>(&self, parts: &[Vec<T>], shape: &[usize], zero: T) -> Vec<Vec<T>> {
        parts
            .iter()
            .zip(&self.kept)
            .zip(shape)
            .map(|((p, k), &n)| {
                let mut full = vec![zero.clone(); n];
                for (x, &i) in p.iter().zip(k) {
                    full[i] = x.clone();
                }
                full
            })
            .collect()
    }
}

/// The game restricted to the strategies `kept` (original indices, per player).
pub fn restrict(game: &NormalForm, kept: &[Vec<usize>]) -> Result<NormalForm> {
    let sub_shape: Vec<usize> = kept.iter().map(Vec::len).collect();
    let count: usize = sub_shape.iter().product();
    let mut payoffs = Vec::with_capacity(count);
    let mut p = vec![0usize; kept.len()];
    for _ in 0..count {
        let orig: Vec<usize> = p.iter().zip(kept).map(|(&i, k)| k[i]).collect();
        payoffs.push(game.payoffs_at(game.index(&orig)).to_vec());
        for (i, x) in p.iter_mut().enumerate() {
            *x += 1;
            if *x < sub_shape[i] {
                break;
            }
            *x = 0;
        }
    }
    NormalForm::new(
        game.title.clone(),
        game.players.clone(),
        kept.iter()
            .zip(&game.strategies)
            .map(|(k, names)| k.iter().map(|&i| names[i].clone()).collect())
            .collect(),
        payoffs,
    )
}

/// `u[s][o]`: player `i`'s payoff from own strategy `s` against opponents' profile number `o`.
fn own_matrix(game: &NormalForm, i: usize) -> Vec<Vec<Q>> {
    let shape = game.shape();
    let stride: usize = shape[..i].iter().product();
    let others = game.profiles() / shape[i];
    let mut u = vec![vec![Q::zero(); others]; shape[i]];
    for k in 0..game.profiles() {
        let s = k / stride % shape[i];
        let o = k / (stride * shape[i]) * stride + k % stride;
        u[s][o] = game.payoffs_at(k)[i].clone();
    }
    u
}

/// Iterated elimination: strictly dominated strategies by pure ones, then (with `mixed`) by
/// mixtures, found by one exact LP each (strategy `s` is strictly dominated by a mixture iff
/// the matrix game `D[t][o] = u(t, o) − u(s, o)` over the other strategies `t` has positive
/// value; its optimal strategy is the mixture). With `weak`, weak dominance by pure strategies
/// as well (the order then matters, and equilibria may be lost: one strategy is removed at a
/// time, the first found). Strict elimination keeps every equilibrium.
pub fn eliminate(game: &NormalForm, mixed: bool, weak: bool) -> Result<Reduction> {
    let mut kept: Vec<Vec<usize>> = game.shape().iter().map(|&k| (0..k).collect()).collect();
    let mut steps = Vec::new();
    let mut current = game.clone();
    'outer: loop {
        for i in 0..kept.len() {
            if kept[i].len() < 2 {
                continue;
            }
            let u = own_matrix(&current, i);
            let n = u.len();
            for s in 0..n {
                for t in (0..n).filter(|&t| t != s) {
                    let ge = u[t].iter().zip(&u[s]).all(|(a, b)| a >= b);
                    let gt_all = u[t].iter().zip(&u[s]).all(|(a, b)| a > b);
                    let gt_some = u[t].iter().zip(&u[s]).any(|(a, b)| a > b);
                    if gt_all || (weak && ge && gt_some) {
                        steps.push(Step {
                            player: i,
                            strategy: kept[i][s],
                            by: Dominator::Pure(kept[i][t]),
                            weak: !gt_all,
                        });
                        kept[i].remove(s);
                        current = restrict(game, &kept)?;
                        continue 'outer;
                    }
                }
            }
            if !mixed || n < 3 {
                continue;
            }
            for s in 0..n {
                let others: Vec<usize> = (0..n).filter(|&t| t != s).collect();
                let d: Vec<Vec<Q>> = others
                    .iter()
                    .map(|&t| u[t].iter().zip(&u[s]).map(|(a, b)| a - b).collect())
                    .collect();
                let z = zerosum::solve(&d)?;
                if z.value > Q::zero() {
                    let mix = others
                        .iter()
                        .zip(&z.row_strategy)
                        .filter(|(_, p)| !p.is_zero())
                        .map(|(&t, p)| (kept[i][t], p.clone()))
                        .collect();
                    steps.push(Step {
                        player: i,
                        strategy: kept[i][s],
                        by: Dominator::Mixed(mix),
                        weak: false,
                    });
                    kept[i].remove(s);
                    current = restrict(game, &kept)?;
                    continue 'outer;
                }
            }
        }
        break;
    }
    Ok(Reduction {
        steps,
        game: current,
        kept,
    })
}
