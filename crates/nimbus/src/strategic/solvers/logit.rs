//! The logit quantal-response path (McKelvey and Palfrey 1995; Turocy's path following): one
//! equilibrium of a game with any number of players, and the path itself.
//!
//! At precision λ each player plays each strategy with probability proportional to
//! `exp(λ · payoff)`. At λ = 0 that is the uniform profile; as λ grows the branch that starts
//! there leads (for almost every game) to a Nash equilibrium, the one "selected" by the logit
//! tracing procedure. The branch is followed in the logarithms of the probabilities, where the
//! equations are smooth: `w_ia − w_i0 = λ (u_i(a) − u_i(0))` and `Σ_a exp(w_ia) = 1`, by
//! predictor–corrector steps (the tangent of the curve, then Newton's method on the hyperplane
//! across it), with payoffs scaled to [0, 1] so that λ means the same in every game.
//!
//! The end of the path is a floating-point profile; what is returned is an equilibrium found
//! from it exactly: the support it reaches is solved as in the enumeration
//! ([`crate::strategic::solvers::enumpoly::on_support`]), and the solution nearest the path's end is the answer
//! (exact when rational, a certified box otherwise).

use crate::core::error::{Error, Result};
use crate::core::progress;
use crate::core::svg;
use crate::exact::Q;
use crate::strategic::game::NormalForm;
use num_traits::ToPrimitive;

/// Limits of one path.
#[derive(Debug, Clone)]
pub struct Options {
    /// Follow the path until λ (payoffs scaled to [0, 1]) reaches this.
    pub max_lambda: f64,
    /// Steps at most.
    pub max_steps: u64,
    /// Work at most, counted as the payoff products and the linear solve of each evaluation of the equations.
    pub max_work: u64,
    /// Memory at most for one evaluation (the slopes and the Jacobian), checked before the first.
    pub max_memory: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_lambda: 1e6,
            max_steps: 100_000,
            max_work: crate::core::budget::DEFAULT_MAX_WORK,
            max_memory: crate::core::budget::default_max_memory(),
        }
    }
}

/// The work of one evaluation of the path's equations: [`values`] forms, for every profile,
/// each player's product over the others and, for each of them, over the rest (players³ a
/// profile); the Jacobian's solve is strategies³.
pub(crate) fn evaluation_work(game: &NormalForm) -> u64 {
    let players = game.shape().len() as u64;
    let strategies = game.shape().iter().sum::<usize>() as u64 + 1;
    (game.profiles() as u64)
        .saturating_mul(players.saturating_pow(3))
        .saturating_add(strategies.saturating_pow(3))
}

/// The memory of one evaluation: the slopes (a double for each pair of strategies, in a
/// vector of their own for each strategy and player) and the Jacobian, built and then solved.
pub(crate) fn evaluation_bytes(game: &NormalForm) -> u64 {
    let players = game.shape().len() as u64;
    let strategies = game.shape().iter().sum::<usize>() as u64 + 1;
    let doubles = strategies.saturating_mul(strategies).saturating_mul(8);
    doubles
        .saturating_mul(3)
        .saturating_add(strategies.saturating_mul(players + 2).saturating_mul(24))
}

/// Work spent along a path, against its budget.
pub(crate) struct Spent {
    spent: u64,
    limit: u64,
    what: &'static str,
}

impl Spent {
    /// Nothing spent yet, of `limit`, for the method `what`; refuses at once a game one
    /// evaluation of whose equations would pass the work or memory budget.
    pub(crate) fn new(
        game: &NormalForm,
        what: &'static str,
        limit: u64,
        max_memory: u64,
    ) -> Result<Self> {
        crate::core::budget::check_memory(what, evaluation_bytes(game), max_memory)?;
        let mut spent = Spent {
            spent: 0,
            limit,
            what,
        };
        spent.charge(evaluation_work(game))?;
        spent.spent = 0;
        Ok(spent)
    }

    /// Adds `work`, and stops at the budget.
    pub(crate) fn charge(&mut self, work: u64) -> Result<()> {
        self.spent = self.spent.saturating_add(work);
        crate::core::budget::check_work(self.what, self.spent, self.limit)
    }
}

/// One point of the path.
#[derive(Debug, Clone)]
pub struct Point {
    /// The precision.
    pub lambda: f64,
    /// Each player's probabilities.
    pub profile: Vec<Vec<f64>>,
}

/// The path followed.
#[derive(Debug, Clone)]
pub struct Path {
    /// The points, from λ = 0.
    pub points: Vec<Point>,
    /// Why the path ended where it did.
    pub ended: String,
}

/// Each strategy's payoff to its player against the others' mixtures, and their derivatives
/// by every other player's probabilities: `value[i][a]`, `slope[i][a][j][b]`.
pub(crate) struct Values {
    pub(crate) value: Vec<Vec<f64>>,
    pub(crate) slope: Vec<Vec<Vec<Vec<f64>>>>,
}

pub(crate) fn values(game: &NormalForm, scaled: &[Vec<f64>], x: &[Vec<f64>]) -> Values {
    let shape = game.shape();
    let n = shape.len();
    let mut value: Vec<Vec<f64>> = shape.iter().map(|&m| vec![0.0; m]).collect();
    // The derivative of player i's payoff from strategy a by player j's probability of b.
    let mut slope_ia: Vec<Vec<Vec<Vec<f64>>>> = shape
        .iter()
        .map(|&m| {
            (0..m)
                .map(|_| shape.iter().map(|&k| vec![0.0; k]).collect())
                .collect()
        })
        .collect();
    for (k, pay) in scaled.iter().enumerate() {
        let p = game.profile(k);
        for i in 0..n {
            // The probability of the others' part of the profile.
            let mut w = 1.0;
            for j in (0..n).filter(|&j| j != i) {
                w *= x[j][p[j]];
            }
            value[i][p[i]] += w * pay[i];
            for j in (0..n).filter(|&j| j != i) {
                // The same product without player j's factor.
                let mut wj = 1.0;
                for l in (0..n).filter(|&l| l != i && l != j) {
                    wj *= x[l][p[l]];
                }
                slope_ia[i][p[i]][j][p[j]] += wj * pay[i];
            }
        }
    }
    Values {
        value,
        slope: slope_ia,
    }
}

/// The equations at `z` (the log-probabilities, then λ) and their Jacobian.
fn system(game: &NormalForm, scaled: &[Vec<f64>], z: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let shape = game.shape();
    let nv = z.len();
    let lambda = z[nv - 1];
    let mut off = Vec::with_capacity(shape.len());
    let mut o = 0;
    for &m in &shape {
        off.push(o);
        o += m;
    }
    let x: Vec<Vec<f64>> = shape
        .iter()
        .enumerate()
        .map(|(i, &m)| (0..m).map(|a| z[off[i] + a].exp()).collect())
        .collect();
    let v = values(game, scaled, &x);
    let mut h = Vec::with_capacity(nv - 1);
    let mut jac = Vec::with_capacity(nv - 1);
    for (i, &m) in shape.iter().enumerate() {
        let mut row = vec![0.0; nv];
        let mut s = -1.0;
        for a in 0..m {
            s += x[i][a];
            row[off[i] + a] = x[i][a];
        }
        h.push(s);
        jac.push(row);
        for a in 1..m {
            let mut row = vec![0.0; nv];
            let gap = v.value[i][a] - v.value[i][0];
            h.push(z[off[i] + a] - z[off[i]] - lambda * gap);
            row[off[i] + a] = 1.0;
            row[off[i]] = -1.0;
            for (j, &mj) in shape.iter().enumerate() {
                if j == i {
                    continue;
                }
                for b in 0..mj {
                    let d = v.slope[i][a][j][b] - v.slope[i][0][j][b];
                    // d/dw_jb = d/dx_jb · x_jb.
                    row[off[j] + b] = -lambda * d * x[j][b];
                }
            }
            row[nv - 1] = -gap;
            jac.push(row);
        }
    }
    (h, jac)
}

/// Solves the square system `a x = b` by Gaussian elimination with partial pivoting.
pub(crate) fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&r, &s| a[r][c].abs().total_cmp(&a[s][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        let (top, rest) = a.split_at_mut(c + 1);
        let pivot = &top[c];
        for (k, row) in rest.iter_mut().enumerate() {
            let f = row[c] / pivot[c];
            if f != 0.0 {
                for (v, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *v -= f * p;
                }
                b[c + 1 + k] -= f * b[c];
            }
        }
    }
    let mut x = vec![0.0; n];
    for c in (0..n).rev() {
        let mut s = b[c];
        for k in c + 1..n {
            s -= a[c][k] * x[k];
        }
        x[c] = s / a[c][c];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The unit tangent of the curve at `z`, oriented along `prev`.
pub(crate) fn tangent(jac: &[Vec<f64>], prev: &[f64]) -> Option<Vec<f64>> {
    let mut a: Vec<Vec<f64>> = jac.to_vec();
    a.push(prev.to_vec());
    let mut b = vec![0.0; jac.len()];
    b.push(1.0);
    let t = solve(a, b)?;
    let norm = t.iter().map(|v| v * v).sum::<f64>().sqrt();
    Some(t.iter().map(|v| v / norm).collect())
}

/// The payoffs scaled to [0, 1] (all players by one affine map), as doubles.
pub(crate) fn scaled_payoffs(game: &NormalForm) -> Vec<Vec<f64>> {
    let all: Vec<f64> = (0..game.profiles())
        .flat_map(|k| game.payoffs_at(k).iter().map(|q| q.to_f64().unwrap_or(0.0)))
        .collect();
    let lo = all.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = all.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let span = if hi > lo { hi - lo } else { 1.0 };
    (0..game.profiles())
        .map(|k| {
            game.payoffs_at(k)
                .iter()
                .map(|q| (q.to_f64().unwrap_or(0.0) - lo) / span)
                .collect()
        })
        .collect()
}

/// Follows the logit path from λ = 0 until `opts.max_lambda`.
///
/// The path from the uniform profile never returns to λ = 0 (there the solution is unique): a
/// trace that does has jumped to another branch near a turning point, so the path is followed
/// again with shorter steps (a fifth, then a twenty-fifth) before the game is called
/// degenerate. The work of every attempt counts against the one budget.
pub fn path(game: &NormalForm, opts: &Options) -> Result<Path> {
    let mut spent = Spent::new(game, "the logit path", opts.max_work, opts.max_memory)?;
    for care in [1.0, 0.2, 0.04] {
        if let Some(p) = follow(game, opts, care, &mut spent)? {
            return Ok(p);
        }
    }
    Err(Error::Invalid(
        "the logit path turned back past lambda = 0 (a degenerate game)".into(),
    ))
}

/// One trace of the path, its steps at most `care` times the usual; `None` when it turns back
/// past λ = 0.
// Kept as one function: the path tracer: the step length, the previous point and the tangent carry
// from step to step; predictor and corrector are functions of their own.
fn follow(game: &NormalForm, opts: &Options, care: f64, spent: &mut Spent) -> Result<Option<Path>> {
    let evaluation = evaluation_work(game);
    let shape = game.shape();
    let scaled = scaled_payoffs(game);
    let nv: usize = shape.iter().sum::<usize>() + 1;
    let mut z: Vec<f64> = shape
        .iter()
        .flat_map(|&m| std::iter::repeat_n((1.0 / m as f64).ln(), m))
        .collect();
    z.push(0.0);
    let profile_of = |z: &[f64]| -> Vec<Vec<f64>> {
        let mut o = 0;
        shape
            .iter()
            .map(|&m| {
                let p = (0..m).map(|a| z[o + a].exp()).collect();
                o += m;
                p
            })
            .collect()
    };
    let mut points = vec![Point {
        lambda: 0.0,
        profile: profile_of(&z),
    }];
    let mut prev: Vec<f64> = vec![0.0; nv];
    prev[nv - 1] = 1.0;
    let mut h = 0.03 * care;
    let mut next: Option<Vec<f64>> = None;
    let mut steps = 0u64;
    progress::phase("logit path", 0);
    let ended = loop {
        steps += 1;
        if steps > opts.max_steps {
            break format!("the step limit ({}) was reached", opts.max_steps);
        }
        if steps % 64 == 0 {
            progress::tick(steps)?;
        }
        spent.charge(evaluation)?;
        // The tangent at z was found when z was accepted (oriented by the step that led here).
        let Some(t) = next
            .take()
            .or_else(|| tangent(&system(game, &scaled, &z).1, &prev))
        else {
            break "the path turned singular".to_string();
        };
        // Newton's method from the predicted point, on the hyperplane across the tangent.
        let mut accepted = None;
        while h > 1e-12 {
            let mut y: Vec<f64> = z.iter().zip(&t).map(|(a, b)| a + h * b).collect();
            let mut ok = false;
            let mut last = f64::INFINITY;
            for _ in 0..8 {
                spent.charge(evaluation)?;
                let (hv, jy) = system(game, &scaled, &y);
                let mut a = jy;
                a.push(t.clone());
                let mut b: Vec<f64> = hv.iter().map(|v| -v).collect();
                b.push(0.0);
                let Some(d) = solve(a, b) else { break };
                let size = d.iter().map(|v| v.abs()).fold(0.0, f64::max);
                for (v, dv) in y.iter_mut().zip(&d) {
                    *v += dv;
                }
                if size > last * 0.5 && size > 1e-9 * (1.0 + z[nv - 1]) {
                    break;
                }
                last = size;
                // Relative: far along the path the log-probabilities are large (about -λ times
                // a payoff gap), and doubles hold them only to their own precision.
                let scale = 1.0 + y.iter().map(|v| v.abs()).fold(0.0, f64::max);
                if size < 1e-10 * scale {
                    ok = true;
                    break;
                }
            }
            // A step that lands far from where it was predicted, or where the path turns
            // sharply, may have jumped to another branch (near a turning point the path
            // comes back close to itself): shorter steps then.
            let moved = y
                .iter()
                .zip(&z)
                .zip(&t)
                .map(|((a, b), c)| (a - b - h * c).abs())
                .fold(0.0, f64::max);
            // Where λ is large the steps are long, but a branch that has turned back can pass
            // near another at small λ: no probability may move by more than 0.05 in a step,
            // so that a turning point there is not stepped over.
            let shift = y[..nv - 1]
                .iter()
                .zip(&z[..nv - 1])
                .map(|(a, b)| (a.exp() - b.exp()).abs())
                .fold(0.0, f64::max);
            if ok && y.iter().all(|v| v.is_finite()) && moved <= 0.5 * h && shift <= 0.05 * care {
                spent.charge(evaluation)?;
                let u = tangent(&system(game, &scaled, &y).1, &t);
                let turn = u
                    .as_ref()
                    .map_or(-1.0, |u| u.iter().zip(&t).map(|(a, b)| a * b).sum::<f64>());
                if turn >= 0.95 {
                    next = u;
                    accepted = Some(y);
                    break;
                }
            }
            h /= 2.0;
        }
        let Some(y) = accepted else {
            break "the corrector failed to converge".to_string();
        };
        prev = t;
        z = y;
        h = (h * 1.5).min(0.5 * care * (1.0 + z[nv - 1]));
        points.push(Point {
            lambda: z[nv - 1],
            profile: profile_of(&z),
        });
        if z[nv - 1] >= opts.max_lambda {
            break format!("lambda reached {}", opts.max_lambda);
        }
        if z[nv - 1] < -1e-9 {
            return Ok(None);
        }
    };
    Ok(Some(Path { points, ended }))
}

/// The support the end of a path reaches: the strategies played with probability above
/// `threshold`.
pub fn support_of(profile: &[Vec<f64>], threshold: f64) -> Vec<Vec<usize>> {
    profile
        .iter()
        .map(|p| {
            let top = p.iter().cloned().fold(0.0, f64::max);
            (0..p.len())
                .filter(|&a| p[a] > threshold || p[a] == top)
                .collect()
        })
        .collect()
}

/// The path as an SVG picture: for each player, each strategy's probability against
/// `λ / (1 + λ)` (so that the whole path, λ from 0 to infinity, fits).
pub fn plot(game: &NormalForm, path: &Path) -> String {
    use std::fmt::Write;
    let (w, hgt, pad) = (600.0, 360.0, 50.0);
    let colours = [
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    ];
    let mut svg = svg::begin(w + 2.0 * pad, hgt + 2.0 * pad, 13);
    let _ = writeln!(
        svg,
        r##"<rect x="{pad}" y="{pad}" width="{w}" height="{hgt}" fill="none" stroke="#999"/>"##
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">lambda / (1 + lambda)</text>"#,
        pad + w / 2.0,
        hgt + 2.0 * pad - 12.0
    );
    let mut k = 0;
    for (i, names) in game.strategies.iter().enumerate() {
        for (a, name) in names.iter().enumerate() {
            let pts: Vec<String> = path
                .points
                .iter()
                .map(|p| {
                    let x = pad + w * p.lambda / (1.0 + p.lambda);
                    let y = pad + hgt * (1.0 - p.profile[i][a]);
                    format!("{x:.2},{y:.2}")
                })
                .collect();
            let colour = colours[k % colours.len()];
            let dash = if i % 2 == 1 {
                r#" stroke-dasharray="6 3""#
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}><title>{}: {}</title></polyline>"#,
                pts.join(" "),
                svg::escape(&game.players[i]),
                svg::escape(name)
            );
            k += 1;
        }
    }
    svg::end(&mut svg);
    svg
}

/// The exact regret of a floating-point profile: each probability read as the exact rational
/// the double is, each player's renormalised to sum to one, the largest gain from a pure
/// deviation computed in exact arithmetic.
pub fn exact_regret(game: &NormalForm, profile: &[Vec<f64>]) -> Result<Q> {
    let q: Vec<Vec<Q>> = profile
        .iter()
        .map(|p| {
            let v: Vec<Q> = p
                .iter()
                .map(|&x| Q::from_float(x.max(0.0)).unwrap_or_default())
                .collect();
            let s: Q = v.iter().sum();
            if num_traits::Zero::is_zero(&s) {
                return Err(crate::core::error::Error::Invalid(
                    "a profile with a player that plays no strategy".into(),
                ));
            }
            Ok(v.into_iter().map(|x| x / &s).collect())
        })
        .collect::<Result<_>>()?;
    Ok(crate::strategic::game::verify(game, &q)?.max_gain)
}

/// An exact equilibrium next to the end of a path, by rounding: each probability on
/// `support` replaced by the simplest rational within `tolerance` of it (the last one of each
/// player's support taking what is left, so each sums to one exactly), the others zero, for
/// tolerances from 10^-2 down to 10^-9 (the simplest fractions first; where the path comes
/// to its end slowly, the end may still be 10^-3 from its limit), each candidate checked
/// exactly. For an end in a
/// continuum of equilibria, or at a singular one, where the support's equations do not
/// isolate a point, this finds the simple rational equilibria nearby. `None` when none of the
/// roundings is an equilibrium.
pub fn round_end(
    game: &NormalForm,
    end: &[Vec<f64>],
    support: &[Vec<usize>],
) -> Result<Option<Vec<Vec<Q>>>> {
    use num_traits::{One, Zero};
    for tolerance in [1e-2, 1e-3, 1e-4, 1e-5, 1e-7, 1e-9] {
        let tol = Q::from_float(tolerance).unwrap_or_else(Q::zero);
        let mut profile = Vec::with_capacity(end.len());
        for (p, s) in end.iter().zip(support) {
            let mut row = vec![Q::zero(); p.len()];
            let Some((&last, rest)) = s.split_last() else {
                return Ok(None);
            };
            let mut left = Q::one();
            for &a in rest {
                let x = Q::from_float(p[a]).unwrap_or_else(Q::zero);
                let lo = (&x - &tol).max(Q::zero());
                let hi = (&x + &tol).min(Q::one());
                let q = crate::exact::interval::simplest_between(&lo, &hi);
                left -= &q;
                row[a] = q;
            }
            row[last] = left;
            profile.push(row);
        }
        if profile.iter().flatten().any(|q| *q < Q::zero()) {
            continue;
        }
        if crate::strategic::game::verify(game, &profile)?.is_equilibrium {
            return Ok(Some(profile));
        }
    }
    Ok(None)
}
