//! A floating-point guide: Newton's method on Shapley's operator in doubles, to bring the
//! values close before the exact rounds prove anything.
//!
//! Each step solves the stage games at `v` in floating point, then takes the values of play
//! under both stage strategies (Pollatschek and Avi-Itzhak's step: Newton's method on
//! `T v − v`, one linear system). Newton's method need not converge from afar, so a step that
//! does not shrink the residual `|T v − v|` is replaced by value iteration's `v ← T v`, which
//! always does (by the contraction factor). Nothing here is trusted: the exact rounds that
//! follow compute their bounds from the point this returns, whatever it is, and it only saves
//! them the many rounds on long fractions that would otherwise bring them this close.

use super::game::StochasticGame;
use super::meter::Meter;
use crate::core::error::Result;
use crate::core::progress;
use crate::exact::to_f64;
use crate::strategic::solvers::zerosum::solve_float_within;

/// Steps after which the guide gives up improving (Newton's method needs a handful).
const MOST_STEPS: usize = 200;

/// A cell in doubles: its payoff, and its next states with their discounted probabilities.
type Cell = (f64, Vec<(usize, f64)>);

/// A stage game solved in doubles: its value and both players' strategies.
type Solved = (f64, Vec<f64>, Vec<f64>);

/// The game in doubles: each state's rows, columns and cells.
struct Doubles {
    states: Vec<(usize, usize, Vec<Cell>)>,
}

impl Doubles {
    fn of(game: &StochasticGame) -> Self {
        let d = to_f64(&game.discount);
        Doubles {
            states: game
                .states
                .iter()
                .map(|s| {
                    let cells = s
                        .cells
                        .iter()
                        .map(|c| {
                            let next = c.next.iter().map(|(t, p)| (*t, to_f64(p) * d)).collect();
                            (to_f64(&c.payoff), next)
                        })
                        .collect();
                    (s.rows.len(), s.columns.len(), cells)
                })
                .collect(),
        }
    }

    /// `T v` with both stage strategies of each state.
    fn apply(&self, v: &[f64], max_memory: u64) -> Result<Vec<Solved>> {
        self.states
            .iter()
            .map(|(m, n, cells)| {
                let a: Vec<Vec<f64>> = (0..*m)
                    .map(|i| {
                        (0..*n)
                            .map(|j| {
                                let (pay, next) = &cells[i * n + j];
                                pay + next.iter().map(|(t, p)| p * v[*t]).sum::<f64>()
                            })
                            .collect()
                    })
                    .collect();
                let z = solve_float_within(&a, max_memory)?;
                Ok((z.value, z.row_strategy, z.col_strategy))
            })
            .collect()
    }

    /// The values of play when both keep the given stage strategies: `(I − Q) w = r`.
    fn joint(&self, stage: &[Solved]) -> Option<Vec<f64>> {
        let k = self.states.len();
        let mut m = vec![vec![0.0; k + 1]; k];
        for (s, ((_, n, cells), (_, x, y))) in self.states.iter().zip(stage).enumerate() {
            m[s][s] += 1.0;
            for (i, xi) in x.iter().enumerate() {
                for (j, yj) in y.iter().enumerate() {
                    let w = xi * yj;
                    if w == 0.0 {
                        continue;
                    }
                    let (pay, next) = &cells[i * n + j];
                    m[s][k] += w * pay;
                    for (t, p) in next {
                        m[s][*t] -= w * p;
                    }
                }
            }
        }
        gauss(m)
    }
}

/// Gaussian elimination with partial pivoting on the augmented rows; `None` if singular or
/// not finite.
fn gauss(mut m: Vec<Vec<f64>>) -> Option<Vec<f64>> {
    let k = m.len();
    for c in 0..k {
        let p = (c..k).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        let pivot = m[c].clone();
        for row in m.iter_mut().skip(c + 1) {
            let f = row[c] / pivot[c];
            if f != 0.0 {
                for (x, y) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= f * y;
                }
            }
        }
    }
    let mut w = vec![0.0; k];
    for c in (0..k).rev() {
        let s: f64 = (c + 1..k).map(|j| m[c][j] * w[j]).sum();
        w[c] = (m[c][k] - s) / m[c][c];
    }
    w.iter().all(|x| x.is_finite()).then_some(w)
}

/// Values close to the game's, in doubles (zeros if the floats fail).
pub fn guide(game: &StochasticGame, max_memory: u64, meter: &Meter) -> Result<Vec<f64>> {
    let g = Doubles::of(game);
    let residual = |v: &[f64], t: &[Solved]| {
        v.iter()
            .zip(t)
            .map(|(a, (b, _, _))| (a - b).abs())
            .fold(0.0, f64::max)
    };
    let mut v = vec![0.0; game.states.len()];
    let Ok(mut stage) = g.apply(&v, max_memory) else {
        return Ok(v);
    };
    let mut r = residual(&v, &stage);
    progress::phase("the floating-point guide", 0);
    // A step: two float LPs a state and one dense linear system.
    let per_step: u64 = g
        .states
        .iter()
        .map(|(m, n, _)| 2 * (m * n * (m + n)) as u64 + 200)
        .sum::<u64>()
        .saturating_add((game.states.len() as u64).saturating_pow(3));
    for step in 0..MOST_STEPS {
        progress::tick(step as u64)?;
        meter.charge("the floating-point guide", per_step)?;
        if r == 0.0 {
            break;
        }
        let mut next = None;
        if let Some(w) = g.joint(&stage) {
            if let Ok(t) = g.apply(&w, max_memory) {
                let rw = residual(&w, &t);
                if rw < r {
                    next = Some((w, t, rw));
                }
            }
        }
        if next.is_none() {
            let w: Vec<f64> = stage.iter().map(|(x, _, _)| *x).collect();
            if let Ok(t) = g.apply(&w, max_memory) {
                let rw = residual(&w, &t);
                if rw < r {
                    next = Some((w, t, rw));
                }
            }
        }
        // Neither step gains: the floats are as close as they get.
        let Some((w, t, rw)) = next else { break };
        v = w;
        stage = t;
        r = rw;
    }
    Ok(v)
}
