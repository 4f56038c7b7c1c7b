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

use super::game::NormalForm;
use super::logit::{scaled_payoffs, solve, tangent, values};
use super::simpdiv::project;
use crate::error::{Error, Result};
use crate::progress;

/// Limits of the path.
#[derive(Debug, Clone)]
pub struct Options {
    /// Steps at most, on each path (0: 1 000 plus 200 for every strategy; a path that takes
    /// more is cycling at a degenerate point, and the next bonus is tried).
    pub max_steps: u64,
    /// The seed of the bonus vector `b`.
    pub seed: u64,
    /// Work at most over all the paths, counted as payoff terms and linear-system entries
    /// (each corrector iteration: players² × profiles, plus strategies³).
    pub max_work: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_steps: 0,
            seed: 1,
            max_work: crate::budget::DEFAULT_MAX_WORK,
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

    /// Where the point `z` lies beyond its piece: the (player, strategy) whose condition fails
    /// most, with the margin (negative): a probability below zero, or a strategy off the
    /// support whose `z` passed the shift.
    fn worst(&self, z: &[f64], support: &Support) -> Option<(usize, usize, f64)> {
        let (sigma, shifts) = self.retract_on(z, support);
        let mut o = 0;
        let mut worst: Option<(usize, usize, f64)> = None;
        for (i, &k) in self.shape.iter().enumerate() {
            for a in 0..k {
                let q = if support[i][a] {
                    sigma[i][a]
                } else {
                    shifts[i] - z[o + a]
                };
                if q < 0.0 && worst.is_none_or(|w| q < w.2) {
                    worst = Some((i, a, q));
                }
            }
            o += k;
        }
        worst
    }

    /// The margin of one condition at `z` (see [`Curve::worst`]).
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

/// Follows the curve from large λ to λ = 0. A bonus whose path meets a degenerate point (a
/// corner where two supports change at once, a singular Jacobian) is replaced by the next of
/// a few others, each a path of its own; the error of the last is returned when all fail.
pub fn equilibrium(game: &NormalForm, opts: &Options) -> Result<End> {
    let mut last = None;
    let mut spent = 0u64;
    for k in 0..TRIES {
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
fn follow(game: &NormalForm, seed: u64, opts: &Options, spent: &mut u64) -> Result<End> {
    let shape = game.shape();
    let bonus = bonus(&shape, seed);
    let curve = Curve {
        game,
        scaled: scaled_payoffs(game),
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
        let per_step =
            14 * (game.profiles() as u64 * (shape.len() as u64).pow(2) + (n as u64).pow(3));
        *spent = spent.saturating_add(per_step);
        if *spent > opts.max_work {
            return Err(Error::Budget {
                what: "the global Newton method".into(),
                resource: crate::budget::Resource::Work,
                needed: *spent,
                limit: opts.max_work,
            });
        }
        let Some(mut t) = tangent(&curve.system(&y, &support, false).1, &prev) else {
            return Err(degenerate("turned singular"));
        };
        if let Some((i, a)) = entered.take() {
            // Past a kink the curve may turn by more than a right angle, so the last
            // direction does not orient it: it goes on into the new piece, where the condition
            // of the strategy that changed sides holds.
            let probe: Vec<f64> = y.iter().zip(&t).map(|(p, d)| p + 1e-6 * d).collect();
            if curve.margin(&probe[..n], &support, i, a) < curve.margin(&y[..n], &support, i, a) {
                t.iter_mut().for_each(|v| *v = -*v);
            }
        }
        let Some(mut x) = step(&curve, &support, &y, &t, &mut h) else {
            return Err(degenerate("corrector failed to converge"));
        };
        // A step past the edge of its piece is shortened to end on the edge (where the
        // support changes): regula falsi on the length, for the condition that failed.
        if let Some((i, a, q)) = curve.worst(&x[..n], &support) {
            let (mut lo, mut q_lo) = (0.0, curve.margin(&y[..n], &support, i, a));
            let (mut hi, mut q_hi) = (h, q);
            let mut edge = None;
            for _ in 0..60 {
                let len = if q_lo > q_hi {
                    lo + (hi - lo) * q_lo / (q_lo - q_hi)
                } else {
                    (lo + hi) / 2.0
                };
                let Some(z) = land(&curve, &support, &y, &t, len) else {
                    // No landing there (the piece turns or turns singular beyond the edge):
                    // the edge is nearer.
                    hi = len;
                    continue;
                };
                let qz = curve.margin(&z[..n], &support, i, a);
                if qz.abs() < 1e-10 || hi - lo < 1e-13 {
                    edge = Some(z);
                    break;
                }
                if qz > 0.0 {
                    (lo, q_lo) = (len, qz);
                } else {
                    (hi, q_hi) = (len, qz);
                }
            }
            let Some(z) = edge else {
                return Err(degenerate("could not find the edge of a piece"));
            };
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
        if lx <= 0.0 {
            // The crossing of λ = 0, between the last two points, made exact by Newton's
            // method at λ = 0.
            let f = ly / (ly - lx);
            let mut z: Vec<f64> = y.iter().zip(&x).map(|(a, b)| a + f * (b - a)).collect();
            z[n] = 0.0;
            for _ in 0..30 {
                let (hv, jz) = curve.system(&z, &support, true);
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
            let profile = curve.retract(&z[..n]);
            // The path's pieces were joined by local rules; an end that is not an equilibrium
            // (to rounding) means a kink was taken wrongly. So does an end outside the strategy
            // space: there the payoffs' multilinear formula can show no gain from deviating
            // while the profile is no mixed strategy at all.
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
            let v = values(game, &curve.scaled, &profile);
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
            return Ok(End {
                profile,
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
/// `support`, halving `*h` until the corrector lands where it was predicted and the curve
/// keeps its direction.
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
        if x.iter().all(|v| v.is_finite()) && moved <= 0.5 * *h && turn >= 0.9 {
            return Some(x);
        }
        *h /= 2.0;
    }
    None
}
