//! The global Newton method (Govindan and Wilson 2003): one equilibrium of a game with any
//! number of players, by following the equilibria of the game with a bonus `λ b` added to
//! every pure strategy's payoff, from a λ so large that each player has a dominant strategy
//! down to λ = 0.
//!
//! Kohlberg and Mertens' structure theorem makes the graph of equilibria over the line of
//! games `G + λ b` a curve, and in their coordinates `z` (a profile plus its payoff vector) it
//! is the solution set of `H(z, λ) = z − r(z) − V(r(z)) − λ b = 0`, where `r` projects each player's
//! part of `z` onto their simplex (the nearest point) and `V` is every pure strategy's payoff
//! against a profile. `H` is piecewise smooth (its pieces are the supports of `r(z)`), so the
//! curve is followed by predictor–corrector steps as the logit path is, across the kinks where
//! a support changes; for a generic `b` (fixed pseudo-random numbers here, so that every run
//! takes the same path) it leads from the unique equilibrium at large λ to an equilibrium of
//! the game itself where it crosses λ = 0.
//!
//! The end is a floating-point profile; the caller settles it exactly on its support (as the
//! logit method does).

use crate::core::error::{Error, Result};
use crate::core::progress;
use crate::strategic::game::NormalForm;
use crate::strategic::solvers::logit::{scaled_payoffs, solve, tangent, values};
use crate::strategic::solvers::simpdiv::project;

/// Limits of the path.
#[derive(Debug, Clone)]
pub struct Options {
    /// Steps at most, on each path (0: 1 000 plus 200 for every strategy; a path that takes
    /// more is cycling at a degenerate point, and the next bonus is tried).
    pub max_steps: u64,
    /// The seed of the bonus vector `b`.
    pub seed: u64,
    /// Work at most over all the paths, counted as payoff terms and linear-system entries
    /// (each corrector iteration: players³ × profiles, plus strategies³).
    pub max_work: u64,
    /// Memory at most for one evaluation of the equations, checked before the first.
    pub max_memory: u64,
    /// When set, the bonus is each strategy's payoff against this profile (each player's
    /// probabilities), and only that one path is followed: the equilibria of `G + λ b` are
    /// those of the game `t·G + (1 − t)·(payoffs against the prior)` with `λ = (1 − t)/t`, so
    /// the path is Harsanyi and Selten's linear tracing procedure from the prior (Balthasar,
    /// "Equilibrium tracing in strategic-form games", 2010).
    pub prior: Option<Vec<Vec<f64>>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_steps: 0,
            seed: 1,
            max_work: crate::core::budget::DEFAULT_MAX_WORK,
            max_memory: crate::core::budget::default_max_memory(),
            prior: None,
        }
    }
}

/// Where the path crossed λ = 0.
#[derive(Debug, Clone)]
pub struct End {
    /// The profile there: each player's probabilities.
    pub profile: Vec<Vec<f64>>,
    /// Steps taken.
    pub steps: u64,
    /// The λ the path started at (payoffs scaled to [0, 1]).
    pub start: f64,
    /// How often λ turned from falling to rising or back along the way.
    pub turns: u32,
    /// Bonus vectors tried (the paths of the others met a degenerate point).
    pub tries: u32,
}

/// The game, its bonus and the layout of `z`.
struct Curve<'a> {
    game: &'a NormalForm,
    scaled: Vec<Vec<f64>>,
    shape: Vec<usize>,
    bonus: Vec<f64>,
}

/// Each player's support on the current piece of the curve.
type Support = Vec<Vec<bool>>;

impl Curve<'_> {
    /// `r` as it is on the piece of `support`: each player's part of `z` less the one shift that
    /// makes the support's probabilities sum to one, zero off the support. Smooth (affine), and
    /// equal to `r(z)` while every probability is non-negative and every other strategy's `z`
    /// is at most the shift; beyond, it continues the piece past its edge.
    fn retract_on(&self, z: &[f64], support: &Support) -> (Vec<Vec<f64>>, Vec<f64>) {
        let mut o = 0;
        let mut shifts = Vec::with_capacity(self.shape.len());
        let sigma = self
            .shape
            .iter()
            .zip(support)
            .map(|(&k, s)| {
                let zi = &z[o..o + k];
                let count = s.iter().filter(|&&on| on).count() as f64;
                let tau = ((0..k).filter(|&a| s[a]).map(|a| zi[a]).sum::<f64>() - 1.0) / count;
                o += k;
                shifts.push(tau);
                (0..k)
                    .map(|a| if s[a] { zi[a] - tau } else { 0.0 })
                    .collect()
            })
            .collect();
        (sigma, shifts)
    }

    /// Every condition of the piece that fails at `z`, with its margin (negative): a
    /// probability below zero, or a strategy off the support whose `z` passed the shift.
    fn failing(&self, z: &[f64], support: &Support) -> Vec<(usize, usize, f64)> {
        let (sigma, shifts) = self.retract_on(z, support);
        let mut o = 0;
        let mut failing = Vec::new();
        for (i, &k) in self.shape.iter().enumerate() {
            for a in 0..k {
                let q = if support[i][a] {
                    sigma[i][a]
                } else {
                    shifts[i] - z[o + a]
                };
                if q < 0.0 {
                    failing.push((i, a, q));
                }
            }
            o += k;
        }
        failing
    }

    /// The margin of one condition at `z` (see [`Curve::failing`]).
    fn margin(&self, z: &[f64], support: &Support, i: usize, a: usize) -> f64 {
        let (sigma, shifts) = self.retract_on(z, support);
        let o: usize = self.shape[..i].iter().sum();
        if support[i][a] {
            sigma[i][a]
        } else {
            shifts[i] - z[o + a]
        }
    }

    /// The profile `r(z)`.
    fn retract(&self, z: &[f64]) -> Vec<Vec<f64>> {
        let mut o = 0;
        self.shape
            .iter()
            .map(|&k| {
                let p = project(&z[o..o + k]);
                o += k;
                p
            })
            .collect()
    }

    /// `H` on the piece of `support` at `y = (z, λ)` and its Jacobian (one row per strategy, one column per coordinate
    /// of `z` and a last for λ); `fixed`: without λ's column.
    fn system(&self, y: &[f64], support: &Support, fixed: bool) -> (Vec<f64>, Vec<Vec<f64>>) {
        let n = self.bonus.len();
        let lambda = y[n];
        let sigma = self.retract_on(&y[..n], support).0;
        let v = values(self.game, &self.scaled, &sigma);
        let mut off = Vec::with_capacity(self.shape.len());
        let mut o = 0;
        for &k in &self.shape {
            off.push(o);
            o += k;
        }
        let mut h = vec![0.0; n];
        let width = if fixed { n } else { n + 1 };
        let mut jac = vec![vec![0.0; width]; n];
        for (i, &k) in self.shape.iter().enumerate() {
            for a in 0..k {
                let row = off[i] + a;
                h[row] = y[row] - sigma[i][a] - v.value[i][a] - lambda * self.bonus[row];
                jac[row][row] = 1.0;
                // r's own derivative: on the support, the identity less the mean.
                let own: Vec<usize> = (0..k).filter(|&c| support[i][c]).collect();
                if own.contains(&a) {
                    for &c in &own {
                        jac[row][off[i] + c] -=
                            f64::from(u8::from(c == a)) - 1.0 / own.len() as f64;
                    }
                }
                if !fixed {
                    jac[row][n] = -self.bonus[row];
                }
                // V_ia depends on the others' probabilities, which move with z only on their
                // supports: there r's derivative is the identity less the mean.
                for (j, sj) in sigma.iter().enumerate() {
                    if j == i {
                        continue;
                    }
                    let slope = &v.slope[i][a][j];
                    let on: Vec<usize> = (0..sj.len()).filter(|&c| support[j][c]).collect();
                    let mean = on.iter().map(|&c| slope[c]).sum::<f64>() / on.len() as f64;
                    for &c in &on {
                        jac[row][off[j] + c] -= slope[c] - mean;
                    }
                }
            }
        }
        (h, jac)
    }
}

/// A deterministic bonus for every strategy, in (0, 1), with the largest of each player's
/// apart from the others (so the path starts at a pure profile).
fn bonus(shape: &[usize], seed: u64) -> Vec<f64> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    shape
        .iter()
        .flat_map(|&k| (0..k).map(|_| 0.05 + 0.9 * next()).collect::<Vec<_>>())
        .collect()
}

/// Each strategy's (scaled) payoff against the prior, the first of a player's best replies
/// raised a little above the others tied with it: ties are broken toward the first strategy,
/// as a prior perturbed slightly toward it would break them.
fn against_prior(game: &NormalForm, scaled: &[Vec<f64>], prior: &[Vec<f64>]) -> Vec<f64> {
    let v = values(game, scaled, prior).value;
    let mut out = Vec::new();
    for mut row in v {
        let top = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let tied: Vec<usize> = (0..row.len()).filter(|&a| row[a] >= top - 1e-12).collect();
        if tied.len() > 1 {
            row[tied[0]] = top + 1e-6;
        }
        out.extend(row);
    }
    out
}

/// Follows the curve from large λ to λ = 0. A bonus whose path meets a degenerate point (a
/// corner where two supports change at once, a singular Jacobian) is replaced by the next of
/// a few others, each a path of its own; the error of the last is returned when all fail.
pub fn equilibrium(game: &NormalForm, opts: &Options) -> Result<End> {
    // A game one evaluation of whose equations passes a budget is refused before any.
    crate::strategic::solvers::logit::Spent::new(
        game,
        "the global Newton method",
        opts.max_work,
        opts.max_memory,
    )?;
    let mut last = None;
    let mut spent = 0u64;
    // A prior fixes the one path: no other bonus would be the same procedure.
    let tries = if opts.prior.is_some() { 1 } else { TRIES };
    for k in 0..tries {
        match follow(game, opts.seed.wrapping_add(k), opts, &mut spent) {
            Ok(mut end) => {
                end.tries = k as u32 + 1;
                return Ok(end);
            }
            Err(e @ Error::Invalid(_)) => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.expect("at least one try"))
}

/// Bonus vectors tried before giving up.
const TRIES: u64 = 8;

/// One path, for the bonus of `seed`.
// Kept as one function: one path of the global Newton method: the step length, the support, the
// edges crossed and the turns carry from step to step; the tangent, the corrector and the edge
// search are functions of their own.
fn follow(game: &NormalForm, seed: u64, opts: &Options, spent: &mut u64) -> Result<End> {
    let shape = game.shape();
    let scaled = scaled_payoffs(game);
    let bonus = match &opts.prior {
        Some(prior) => against_prior(game, &scaled, prior),
        None => bonus(&shape, seed),
    };
    let curve = Curve {
        game,
        scaled,
        shape: shape.clone(),
        bonus,
    };
    let n = curve.bonus.len();
    // λ large enough that each player's largest bonus beats every payoff difference (at most
    // 1, payoffs scaled) with room to spare: the equilibrium is that pure profile.
    let mut o = 0;
    let mut gap = f64::INFINITY;
    let mut start_profile = Vec::new();
    for &k in &shape {
        let b = &curve.bonus[o..o + k];
        let top = (0..k)
            .max_by(|&x, &y| b[x].total_cmp(&b[y]))
            .expect("a strategy");
        for (c, &v) in b.iter().enumerate() {
            if c != top {
                gap = gap.min(b[top] - v);
            }
        }
        let mut p = vec![0.0; k];
        p[top] = 1.0;
        start_profile.push(p);
        o += k;
    }
    let lambda0 = if gap.is_finite() { 3.0 / gap } else { 1.0 };
    let v0 = values(game, &curve.scaled, &start_profile);
    // z = σ + the payoffs with the bonus: r(z) = σ exactly when σ is an equilibrium.
    let mut y: Vec<f64> = start_profile
        .iter()
        .flatten()
        .zip(v0.value.iter().flatten())
        .zip(&curve.bonus)
        .map(|((p, v), b)| p + v + lambda0 * b)
        .collect();
    y.push(lambda0);
    let mut support: Support = start_profile
        .iter()
        .map(|p| p.iter().map(|&x| x > 0.0).collect())
        .collect();
    let mut prev = vec![0.0; n + 1];
    prev[n] = -1.0;
    let mut h = 0.1;
    let mut steps = 0u64;
    let mut turns = 0u32;
    let mut last_dl = -1.0;
    let mut entered: Option<(usize, usize)> = None;
    let max_steps = if opts.max_steps == 0 {
        1000 + 200 * n as u64
    } else {
        opts.max_steps
    };
    // Supports changing again and again with λ standing still: a corner the path cannot pass.
    let mut flips_here = (0u32, f64::NAN);
    // The edges crossed, each as the support entered and the point (rounded): a path that
    // crosses one twice runs round a loop (it left its branch somewhere) and would do so until
    // its step limit.
    let mut crossed: std::collections::HashSet<Vec<i64>> = std::collections::HashSet::new();
    progress::phase("global Newton path", 0);
    loop {
        steps += 1;
        if steps > max_steps {
            return Err(Error::Invalid(format!(
                "the global Newton path did not reach lambda = 0 in {max_steps} steps"
            )));
        }
        if steps % 64 == 0 {
            progress::tick(steps)?;
        }
        // A step is a tangent and a dozen corrector iterations at most, each the payoffs'
        // slopes and one dense linear system.
        let per_step = 14 * crate::strategic::solvers::logit::evaluation_work(game);
        charge(spent, per_step, opts.max_work)?;
        let Some(mut t) = tangent(&curve.system(&y, &support, false).1, &prev) else {
            return Err(degenerate("turned singular"));
        };
        let fresh = entered.take();
        if let Some((i, a)) = fresh {
            // Past a kink the curve may turn by more than a right angle, so the last
            // direction does not orient it: it goes on into the new piece, where the condition
            // of the strategy that changed sides holds.
            let probe: Vec<f64> = y.iter().zip(&t).map(|(p, d)| p + 1e-6 * d).collect();
            if curve.margin(&probe[..n], &support, i, a) < curve.margin(&y[..n], &support, i, a) {
                t.iter_mut().for_each(|v| *v = -*v);
            }
        }
        // A step whose end the edge search cannot trace back to a first edge landed on
        // another branch of the piece's curve (the landings along it jump), or turned back
        // across the edge it started on: shorter, then.
        let (mut x, edge) = loop {
            let Some(x) = step(&curve, &support, &y, &t, &mut h) else {
                return Err(degenerate("corrector failed to converge"));
            };
            match first_edge(&curve, &support, &y, &t, h, &x, fresh) {
                Some(edge) => break (x, edge),
                None if h > 1e-9 => {
                    h /= 4.0;
                    charge(spent, per_step, opts.max_work)?;
                }
                None => return Err(degenerate("could not find the edge of a piece")),
            }
        };
        // The piece the step walked: a step that ends on an edge lies wholly before it, so a
        // crossing of λ = 0 on it is on this piece, not the next.
        let walked = support.clone();
        if let Some((i, a, z)) = edge {
            x = z;
            // Across the edge: the strategy joins the support, or leaves it.
            support[i][a] = !support[i][a];
            entered = Some((i, a));
            if (x[n] - flips_here.1).abs() < 1e-9 {
                flips_here.0 += 1;
                if flips_here.0 > 4 * n as u32 {
                    return Err(degenerate("came to a corner it cannot pass"));
                }
            } else {
                flips_here = (0, x[n]);
            }
            if !support[i].iter().any(|&on| on) {
                return Err(degenerate("lost a whole support"));
            }
            let key: Vec<i64> = support
                .iter()
                .flatten()
                .map(|&on| i64::from(on))
                .chain(x.iter().map(|v| (v * 1e7).round() as i64))
                .collect();
            if !crossed.insert(key) {
                return Err(degenerate("ran round a loop"));
            }
        }
        let dl = x[n] - y[n];
        if dl * last_dl < 0.0 {
            turns += 1;
        }
        if dl != 0.0 {
            last_dl = dl;
        }
        let (ly, lx) = (y[n], x[n]);
        prev = t;
        // A λ within rounding of zero is zero: in games with ties the path may reach λ = 0 on
        // an edge, or run along λ = 0 (a continuum of equilibria), where the sign of λ is noise.
        if lx <= LAMBDA_ZERO {
            // The crossing of λ = 0 between the last two points (the nearer end where λ barely
            // moved), made exact by Newton's method at λ = 0 on the piece between them; the
            // unrefined point too, for a piece whose equilibria at λ = 0 are not isolated.
            let f = if ly - lx > LAMBDA_ZERO {
                (ly / (ly - lx)).clamp(0.0, 1.0)
            } else {
                1.0
            };
            let mut z: Vec<f64> = y.iter().zip(&x).map(|(a, b)| a + f * (b - a)).collect();
            z[n] = 0.0;
            let rough = z.clone();
            for _ in 0..30 {
                let (hv, jz) = curve.system(&z, &walked, true);
                let Some(d) = solve(jz, hv.iter().map(|v| -v).collect()) else {
                    break;
                };
                let size = d.iter().map(|v| v.abs()).fold(0.0, f64::max);
                for (v, dv) in z.iter_mut().zip(&d) {
                    *v += dv;
                }
                if size < 1e-14 {
                    break;
                }
            }
            let end = settled(&curve, &z[..n])
                .or_else(|e| settled(&curve, &rough[..n]).map_err(|_| e))?;
            return Ok(End {
                profile: end,
                steps,
                start: lambda0,
                turns,
                tries: 1,
            });
        }
        y = x;
        h = (h * 1.5).min(0.25 * (1.0 + y[n]));
    }
}

/// |λ| at most this is λ = 0 (payoffs scaled to [0, 1], bonuses below 1).
const LAMBDA_ZERO: f64 = 1e-12;

/// The profile `r(z)` at the path's end, if it is an equilibrium of the game (to rounding).
/// The path's pieces were joined by local rules; an end that is not an equilibrium means a
/// kink was taken wrongly. So does an end outside the strategy space: there the payoffs'
/// multilinear formula can show no gain from deviating while the profile is no mixed strategy
/// at all.
fn settled(curve: &Curve, z: &[f64]) -> Result<Vec<Vec<f64>>> {
    let profile = curve.retract(z);
    let off = |p: &Vec<f64>| {
        p.iter().any(|&v| !v.is_finite() || v < -1e-9)
            || (p.iter().map(|v| v.max(0.0)).sum::<f64>() - 1.0).abs() > 1e-6
    };
    if profile.iter().any(off) {
        return Err(degenerate("ended outside the strategy space"));
    }
    let profile: Vec<Vec<f64>> = profile
        .iter()
        .map(|p| {
            let total: f64 = p.iter().map(|v| v.max(0.0)).sum();
            p.iter().map(|v| v.max(0.0) / total).collect()
        })
        .collect();
    let v = values(curve.game, &curve.scaled, &profile);
    let regret = v
        .value
        .iter()
        .zip(&profile)
        .map(|(v, p)| {
            let u: f64 = v.iter().zip(p).map(|(a, b)| a * b).sum();
            v.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - u
        })
        .fold(0.0, f64::max);
    if regret > 1e-6 {
        return Err(degenerate("ended away from an equilibrium"));
    }
    Ok(profile)
}

/// Where the step from `y` along `t` to `x` (at length `h`) leaves its piece, if it does: the
/// condition that fails and the point on its edge (`Some(None)`: the step stays on its piece;
/// `None`: no first edge was found).
///
/// A step may cross several edges, and the condition that fails most at its end need not be
/// the first: taking it would change the support at a point where another condition already
/// fails, and the path would leave the curve of equilibria. So the condition whose margin,
/// interpolated along the step, reaches zero first is traced to its edge by regula falsi on
/// the length, and if another condition fails there, the search goes on over the shorter step.
///
/// `fresh`: the condition of the edge the step starts on, which holds (with margin zero) at
/// `y`. It fails at `x` only if the curve turned back within the step: its edge is then not at
/// `y`, where its margin's sign says nothing, but somewhere the step cannot bracket; `None`, so
/// that the step is taken shorter. (Taking the edge at `y` would send the path back the way it
/// came.)
#[allow(clippy::type_complexity)]
fn first_edge(
    curve: &Curve,
    support: &Support,
    y: &[f64],
    t: &[f64],
    h: f64,
    x: &[f64],
    fresh: Option<(usize, usize)>,
) -> Option<Option<(usize, usize, Vec<f64>)>> {
    let n = curve.bonus.len();
    let mut far = (h, curve.failing(&x[..n], support));
    // Each round ends strictly nearer than the last, on a condition that failed beyond it.
    for _ in 0..=x.len() {
        let at_y = |i: usize, a: usize| curve.margin(&y[..n], support, i, a);
        let Some((i, a, q, q0)) = far
            .1
            .iter()
            .map(|&(i, a, q)| (i, a, q, at_y(i, a)))
            .min_by(|u, v| crossing(u.3, u.2).total_cmp(&crossing(v.3, v.2)))
        else {
            return Some(None);
        };
        if Some((i, a)) == fresh && q0 <= EDGE {
            return None;
        }
        let (len, z) = find_edge(curve, support, y, t, (i, a), (q0, far.0, q))?;
        let others: Vec<(usize, usize, f64)> = curve
            .failing(&z[..n], support)
            .into_iter()
            .filter(|&(j, b, q)| (j, b) != (i, a) && q < -EDGE)
            .collect();
        if others.is_empty() {
            return Some(Some((i, a, z)));
        }
        if len >= far.0 {
            return None;
        }
        far = (len, others);
    }
    None
}

/// How far a condition fails at a piece's edge found by [`find_edge`] before it counts as
/// crossed too (the edge itself is found to 1e-10).
const EDGE: f64 = 1e-9;

/// Where along a step a condition with margin `q0` at its start and `q1 < 0` at its end
/// reaches zero, as a fraction of the step, interpolating linearly.
fn crossing(q0: f64, q1: f64) -> f64 {
    if q0 <= 0.0 {
        0.0
    } else {
        q0 / (q0 - q1)
    }
}

/// The point where condition `(i, a)` reaches zero along the step from `y` along `t`, and its
/// length: regula falsi on the length, between 0 (margin `q0`) and `len` (margin `q1 < 0`).
fn find_edge(
    curve: &Curve,
    support: &Support,
    y: &[f64],
    t: &[f64],
    (i, a): (usize, usize),
    (q0, len, q1): (f64, f64, f64),
) -> Option<(f64, Vec<f64>)> {
    let n = curve.bonus.len();
    let (mut lo, mut q_lo) = (0.0, q0);
    let (mut hi, mut q_hi) = (len, q1);
    for _ in 0..60 {
        let len = if q_lo > q_hi {
            lo + (hi - lo) * q_lo / (q_lo - q_hi)
        } else {
            (lo + hi) / 2.0
        };
        let Some(z) = land(curve, support, y, t, len) else {
            // No landing there (the piece turns or turns singular beyond the edge): the edge
            // is nearer.
            hi = len;
            continue;
        };
        let qz = curve.margin(&z[..n], support, i, a);
        if qz.abs() < 1e-10 {
            return Some((len, z));
        }
        if hi - lo < 1e-13 {
            // The margin jumps here: the landings on either side are on different branches.
            return (qz.abs() < EDGE).then_some((len, z));
        }
        if qz > 0.0 {
            (lo, q_lo) = (len, qz);
        } else {
            (hi, q_hi) = (len, qz);
        }
    }
    None
}

/// Adds `work` to what the paths have spent, and stops at the budget.
fn charge(spent: &mut u64, work: u64, limit: u64) -> Result<()> {
    *spent = spent.saturating_add(work);
    if *spent > limit {
        return Err(Error::Budget {
            what: "the global Newton method".into(),
            resource: crate::core::error::Resource::Work,
            needed: *spent,
            limit,
        });
    }
    Ok(())
}

fn degenerate(what: &str) -> Error {
    Error::Invalid(format!(
        "the global Newton path {what} (a degenerate game; try another method)"
    ))
}

/// The point of the piece's curve at length `len` from `y` along `t` (predicted, then corrected
/// on the hyperplane across `t`).
fn land(curve: &Curve, support: &Support, y: &[f64], t: &[f64], len: f64) -> Option<Vec<f64>> {
    let mut x: Vec<f64> = y.iter().zip(t).map(|(a, b)| a + len * b).collect();
    for _ in 0..20 {
        let (hv, jx) = curve.system(&x, support, false);
        let mut a = jx;
        a.push(t.to_vec());
        let mut b: Vec<f64> = hv.iter().map(|v| -v).collect();
        b.push(0.0);
        let d = solve(a, b)?;
        let size = d.iter().map(|v| v.abs()).fold(0.0, f64::max);
        for (v, dv) in x.iter_mut().zip(&d) {
            *v += dv;
        }
        let scale = 1.0 + x.iter().map(|v| v.abs()).fold(0.0, f64::max);
        if size < 1e-12 * scale {
            return Some(x);
        }
    }
    None
}

/// One predictor–corrector step of length about `*h` from `y` along `t` on the piece of
/// `support`, halving `*h` until the corrector lands near where it was predicted (within a
/// fifth of the step) and the curve keeps its direction (its tangent turns by less than 18°, as
/// the logit path's does): a longer step may land on another branch of the piece's curve, and
/// the path would then run on in a loop or back the way it came.
fn step(curve: &Curve, support: &Support, y: &[f64], t: &[f64], h: &mut f64) -> Option<Vec<f64>> {
    while *h > 1e-13 {
        let Some(x) = land(curve, support, y, t, *h) else {
            *h /= 2.0;
            continue;
        };
        let moved = x
            .iter()
            .zip(y)
            .zip(t)
            .map(|((a, b), c)| (a - b - *h * c).abs())
            .fold(0.0, f64::max);
        let turn = tangent(&curve.system(&x, support, false).1, t)
            .map_or(-1.0, |u| u.iter().zip(t).map(|(a, b)| a * b).sum::<f64>());
        if x.iter().all(|v| v.is_finite()) && moved <= 0.2 * *h && turn >= 0.95 {
            return Some(x);
        }
        *h /= 2.0;
    }
    None
}
