//! Simplicial subdivision: one equilibrium of a game with any number of players, by a
//! piecewise-linear path through a triangulation of the strategy space, restarted on ever
//! finer grids (Merrill's restart algorithm, the simplicial method Gambit's `simpdiv` belongs
//! to; van der Laan, Talman and van der Heyden's variant differs in how it enters the space).
//!
//! The equilibria are the fixed points of the map `F` that moves each player's mixed strategy
//! along its strategies' payoffs and projects it back onto the simplex (the variational
//! inequality's map; Nash's map would do too, but it pulls an unused strategy to zero only as
//! fast as the square of its probability, and the paths on fine grids became long). Each player's mixed strategy is
//! written in cumulative coordinates, `c_k = m (x_1 + … + x_k)` for all but the last strategy,
//! so that the strategy space becomes the set of chains `0 ≤ c_1 ≤ … ≤ c_n ≤ m` and the grid
//! of mesh `1/m` the integer points; Freudenthal's triangulation of the integer lattice
//! triangulates it. A point of the lattice outside that set is first moved onto it (negative
//! probabilities cut to zero, the rest renormalised), which makes `F` a map of the whole space
//! into the strategy space and keeps the path bounded without any boundary rules.
//!
//! Every lattice point gets one of `D + 1` labels (`D` the dimension) from the vector
//! `g(c) = F(c) − c`: 0 when no coordinate of `g` is positive, otherwise the coordinate where
//! `g` is largest. A simplex that carries all the labels has `g` crossing zero in every
//! coordinate, so `|g|` is at most the grid's mesh times a Lipschitz constant anywhere in it:
//! an approximate fixed point. Such a simplex is found by following doors in the slab
//! `R^D × [0, 1]`, triangulated by Freudenthal's triangulation too, whose bottom layer is
//! labelled by `w − c` for a start `w`: that labelling has exactly one completely labelled
//! simplex (the one below `w`), which is where the path starts; the top layer carries `F`'s
//! labels and the path ends at a completely labelled simplex there. The end's best point then
//! starts the next path on a grid twice as fine, until the largest gain from deviating is below
//! the tolerance.
//!
//! The end is a floating-point profile; the caller settles it exactly on its support (as the
//! logit method does).

use crate::core::error::{Error, Result};
use crate::core::progress;
use crate::strategic::game::NormalForm;

/// Limits of the search.
#[derive(Debug, Clone)]
pub struct Options {
    /// Stop refining once the largest gain from deviating (payoffs scaled to [0, 1]) is this
    /// small.
    pub tolerance: f64,
    /// The finest grid: mesh `1 / max_mesh`.
    pub max_mesh: u64,
    /// Work at most, over all the paths, counted as payoff terms evaluated (each pivot labels
    /// one point: players × profiles terms).
    pub max_work: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerance: 1e-10,
            max_mesh: 1 << 40,
            max_work: crate::core::budget::DEFAULT_MAX_WORK,
        }
    }
}

/// Where the search ended.
#[derive(Debug, Clone)]
pub struct End {
    /// The best profile found: each player's probabilities.
    pub profile: Vec<Vec<f64>>,
    /// Its largest gain from deviating, payoffs scaled to [0, 1] (computed in doubles).
    pub regret: f64,
    /// The grid of the last path: mesh `1 / mesh`.
    pub mesh: u64,
    /// Pivots made over all the paths.
    pub steps: u64,
    /// Paths followed (one per grid).
    pub paths: u32,
}

/// The game in doubles, with its payoffs scaled to [0, 1].
struct Field {
    scaled: Vec<Vec<f64>>,
    shape: Vec<usize>,
    /// The work of labelling one point.
    cost: u64,
}

impl Field {
    /// Each strategy's payoff to its player against the others' mixtures.
    fn values(&self, x: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let n = self.shape.len();
        let mut value: Vec<Vec<f64>> = self.shape.iter().map(|&m| vec![0.0; m]).collect();
        let mut p = vec![0usize; n];
        for (k, pay) in self.scaled.iter().enumerate() {
            if k > 0 {
                // The next profile, first player fastest.
                for (i, s) in p.iter_mut().enumerate() {
                    *s += 1;
                    if *s < self.shape[i] {
                        break;
                    }
                    *s = 0;
                }
            }
            for i in 0..n {
                let mut w = pay[i];
                for j in (0..n).filter(|&j| j != i) {
                    w *= x[j][p[j]];
                }
                value[i][p[i]] += w;
            }
        }
        value
    }

    /// The largest gain any player has from deviating to a pure strategy.
    fn regret(&self, x: &[Vec<f64>]) -> f64 {
        let v = self.values(x);
        v.iter()
            .zip(x)
            .map(|(v, x)| {
                let u: f64 = v.iter().zip(x).map(|(a, b)| a * b).sum();
                v.iter().cloned().fold(f64::NEG_INFINITY, f64::max) - u
            })
            .fold(0.0, f64::max)
    }

    /// The projection map: each player's mixed strategy moved along its strategies' payoffs
    /// and projected back onto its simplex (the nearest point). Its fixed points are the
    /// equilibria, and unlike Nash's map it pulls an unused strategy's probability to zero in
    /// proportion to the probability (not to its square), so that approximate fixed points
    /// are near equilibria and the paths on fine grids stay short.
    fn fixed_map(&self, x: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let v = self.values(x);
        v.iter()
            .zip(x)
            .map(|(v, x)| {
                let y: Vec<f64> = x.iter().zip(v).map(|(p, a)| p + a).collect();
                project(&y)
            })
            .collect()
    }

    /// The profile at a point of cumulative coordinates on the grid of mesh `1/m`, moved onto
    /// the strategy space when it lies outside (negative probabilities cut to zero).
    fn profile(&self, c: &[f64], m: u64) -> Vec<Vec<f64>> {
        let mut o = 0;
        self.shape
            .iter()
            .map(|&k| {
                let mut prev = 0.0;
                let mut x: Vec<f64> = (0..k)
                    .map(|a| {
                        let next = if a + 1 < k { c[o + a] } else { m as f64 };
                        let p = (next - prev).max(0.0);
                        prev = next;
                        p
                    })
                    .collect();
                o += k - 1;
                // The differences sum to m, so one of them is positive.
                let total: f64 = x.iter().sum();
                x.iter_mut().for_each(|p| *p /= total);
                x
            })
            .collect()
    }

    /// A profile's cumulative coordinates on the grid of mesh `1/m`.
    fn cumulative(&self, x: &[Vec<f64>], m: u64) -> Vec<f64> {
        x.iter()
            .flat_map(|p| {
                let mut sum = 0.0;
                p[..p.len() - 1]
                    .iter()
                    .map(move |q| {
                        sum += q;
                        sum * m as f64
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The label of lattice point `c` on the top layer: from `F(c) − c`.
    fn label(&self, c: &[i64], m: u64) -> usize {
        let x = self.profile(&c.iter().map(|&v| v as f64).collect::<Vec<_>>(), m);
        let f = self.cumulative(&self.fixed_map(&x), m);
        label_of(f.iter().zip(c).map(|(f, &c)| f - c as f64))
    }
}

/// The point of the unit simplex nearest to `y` (Euclidean projection: subtract the one
/// threshold that leaves the positive parts summing to one).
pub(crate) fn project(y: &[f64]) -> Vec<f64> {
    let mut u = y.to_vec();
    u.sort_by(|a, b| b.total_cmp(a));
    let (mut sum, mut tau) = (0.0, 0.0);
    for (k, &top) in u.iter().enumerate() {
        sum += top;
        let t = (sum - 1.0) / (k + 1) as f64;
        if top - t > 0.0 {
            tau = t;
        }
    }
    y.iter().map(|a| (a - tau).max(0.0)).collect()
}

/// The label of a vector: 0 when no coordinate is positive, else one more than the first
/// coordinate where it is largest.
fn label_of(g: impl Iterator<Item = f64>) -> usize {
    let mut best = (0.0, 0);
    for (i, v) in g.enumerate() {
        if v > best.0 {
            best = (v, i + 1);
        }
    }
    best.1
}

/// One path, on the grid of mesh `1/m`, from the lattice point `w`: the vertices of the
/// completely labelled simplex it ends in, and the pivots it took (`done` pivots were taken
/// before it, of the `budget` allowed).
fn path(
    field: &Field,
    w: &[i64],
    m: u64,
    done: u64,
    (budget, max_work): (u64, u64),
) -> Result<(Vec<Vec<i64>>, u64)> {
    let d = w.len();
    // The slab's coordinates: the D lattice coordinates, then the layer (0 bottom, 1 top).
    // A simplex is Freudenthal's: vertex 0 is `y`, vertex k + 1 is vertex k plus the unit
    // vector of coordinate `perm[k]`.
    let mut y: Vec<i64> = w.iter().map(|v| v - 1).collect();
    y.push(0);
    let mut perm: Vec<usize> = (0..=d).collect();
    let label = |v: &[i64]| -> usize {
        if v[d] == 0 {
            label_of(w.iter().zip(v).map(|(a, b)| (a - b) as f64))
        } else {
            field.label(&v[..d], m)
        }
    };
    let vertex = |y: &[i64], perm: &[usize], k: usize| -> Vec<i64> {
        let mut v = y.to_vec();
        for &i in &perm[..k] {
            v[i] += 1;
        }
        v
    };
    // The bottom facet below `w` carries labels 1, 2, …, D, 0; the last vertex is `w` on top.
    let mut labels: Vec<usize> = (0..=d + 1).map(|k| label(&vertex(&y, &perm, k))).collect();
    let mut new = d + 1;
    let mut steps = 0u64;
    loop {
        let l = labels[new];
        let Some(k) = (0..=d + 1).find(|&k| k != new && labels[k] == l) else {
            return Err(Error::Invalid(
                "internal inconsistency: simplicial subdivision lost its path".into(),
            ));
        };
        // The layer changes after position `p` of the permutation: vertices 0..=p are on the
        // bottom, the others on top.
        let p = perm
            .iter()
            .position(|&i| i == d)
            .expect("the layer is a coordinate");
        if p == 0 && k == 0 {
            // The door out is the top facet: completely labelled by F's labels.
            return Ok((
                (1..=d + 1)
                    .map(|j| vertex(&y, &perm, j)[..d].to_vec())
                    .collect(),
                steps,
            ));
        }
        steps += 1;
        if done + steps > budget {
            return Err(Error::Budget {
                what: "simplicial subdivision".into(),
                resource: crate::core::error::Resource::Work,
                needed: (done + steps).saturating_mul(field.cost),
                // The limit the user set, not the pivots it allows times their cost.
                limit: max_work,
            });
        }
        if steps % 1024 == 0 {
            progress::tick(done + steps)?;
        }
        if k == 0 {
            y[perm[0]] += 1;
            perm.rotate_left(1);
            labels.rotate_left(1);
            new = d + 1;
        } else if k == d + 1 {
            if p == d {
                return Err(Error::Invalid(
                    "internal inconsistency: simplicial subdivision came back to its start".into(),
                ));
            }
            y[perm[d]] -= 1;
            perm.rotate_right(1);
            labels.rotate_right(1);
            new = 0;
        } else {
            perm.swap(k - 1, k);
            new = k;
        }
        labels[new] = label(&vertex(&y, &perm, new));
    }
}

/// The search, one path at a time: each [`Search::follow_path`] follows one path on a grid twice as
/// fine as the last, from where the last one ended.
pub struct Search {
    field: Field,
    opts: Options,
    /// The pivots the work budget allows.
    budget: u64,
    /// The work budget itself, as the user set it.
    max_work: u64,
    /// The mesh of the next path.
    m: u64,
    /// Where the next path starts: the centre of the last one's end, which is where the fixed
    /// point is known to be near, whatever point had the smallest regret.
    start: Vec<Vec<f64>>,
    steps: u64,
    paths: u32,
}

impl Search {
    /// A search from the uniform profile on the grid of mesh 1/4.
    pub fn new(game: &NormalForm, opts: &Options) -> Search {
        progress::phase("simplicial subdivision pivots", 0);
        let shape = game.shape();
        let field = Field {
            scaled: crate::strategic::solvers::logit::scaled_payoffs(game),
            cost: (game.profiles() * shape.len()).max(1) as u64,
            shape,
        };
        Search {
            budget: opts.max_work / field.cost,
            max_work: opts.max_work,
            start: field
                .shape
                .iter()
                .map(|&k| vec![1.0 / k as f64; k])
                .collect(),
            field,
            opts: opts.clone(),
            m: 4,
            steps: 0,
            paths: 0,
        }
    }

    /// Follows the next path; its end's best point (a vertex of the completely labelled
    /// simplex, or its centre, whichever has the smallest regret), or `None` once the grid is
    /// as fine as `opts.max_mesh` allows.
    pub fn follow_path(&mut self) -> Result<Option<End>> {
        if self.m > self.opts.max_mesh {
            return Ok(None);
        }
        let (field, m) = (&self.field, self.m);
        let w: Vec<i64> = field
            .cumulative(&self.start, m)
            .iter()
            .map(|c| c.round().clamp(0.0, m as f64) as i64)
            .collect();
        let (end, taken) = path(field, &w, m, self.steps, (self.budget, self.max_work))?;
        self.steps += taken;
        self.paths += 1;
        let centre: Vec<f64> = (0..w.len())
            .map(|i| end.iter().map(|v| v[i] as f64).sum::<f64>() / end.len() as f64)
            .collect();
        self.start = field.profile(&centre, m);
        let (regret, profile) = end
            .iter()
            .map(|v| field.profile(&v.iter().map(|&c| c as f64).collect::<Vec<_>>(), m))
            .chain(std::iter::once(self.start.clone()))
            .map(|x| (field.regret(&x), x))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .expect("a simplex has vertices");
        self.m = m.saturating_mul(2);
        Ok(Some(End {
            profile,
            regret,
            mesh: m,
            steps: self.steps,
            paths: self.paths,
        }))
    }
}

/// The supports an equilibrium next to `profile` may have, most likely first: the strategies
/// played with more than a cut of probability (cuts from 10^-6 to 10^-2), and the strategies
/// within `δ` of a best reply (`δ` a few times the profile's regret), which catches the
/// strategies a coarse grid cannot give their small probability.
pub fn supports_near(game: &NormalForm, profile: &[Vec<f64>]) -> Vec<Vec<Vec<usize>>> {
    let field = Field {
        scaled: crate::strategic::solvers::logit::scaled_payoffs(game),
        cost: 0,
        shape: game.shape(),
    };
    let values = field.values(profile);
    let regret = field.regret(profile);
    let mut out: Vec<Vec<Vec<usize>>> = Vec::new();
    let by_reply = |delta: f64| -> Vec<Vec<usize>> {
        values
            .iter()
            .map(|v| {
                let top = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                (0..v.len()).filter(|&a| v[a] >= top - delta).collect()
            })
            .collect()
    };
    let cuts = [1e-6, 1e-4, 1e-3, 1e-2]
        .map(|cut| crate::strategic::solvers::logit::support_of(profile, cut));
    let replies = [2.0 * regret, 10.0 * regret, 1e-3].map(by_reply);
    for s in cuts.into_iter().chain(replies) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// One equilibrium, approximately: paths on finer and finer grids from the uniform profile
/// until the largest gain from deviating is at most `opts.tolerance` (the best point found
/// when the grid reaches `opts.max_mesh` first).
pub fn solve(game: &NormalForm, opts: &Options) -> Result<End> {
    let mut search = Search::new(game, opts);
    let mut best: Option<End> = None;
    while let Some(end) = search.follow_path()? {
        let (regret, mesh) = (end.regret, end.mesh);
        if best.as_ref().is_none_or(|b| regret < b.regret) {
            best = Some(end);
        }
        if let Some(b) = best.as_mut() {
            b.mesh = mesh;
            b.steps = search.steps;
            b.paths = search.paths;
        }
        if regret <= opts.tolerance {
            break;
        }
    }
    Ok(best.expect("the first grid is within max_mesh"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The projection lands on the simplex, and is the nearest point there: the
        /// coordinates it keeps were all lowered by one threshold, the ones it cut to zero lay
        /// at or below it.
        #[test]
        fn projection_is_the_nearest_point(y in proptest::collection::vec(-3.0f64..3.0, 1..8)) {
            let p = project(&y);
            prop_assert!(p.iter().all(|&x| x >= 0.0));
            prop_assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let kept: Vec<f64> = (0..y.len()).filter(|&i| p[i] > 0.0).map(|i| y[i] - p[i]).collect();
            let tau = kept[0];
            prop_assert!(kept.iter().all(|t| (t - tau).abs() < 1e-12));
            prop_assert!((0..y.len()).filter(|&i| p[i] == 0.0).all(|i| y[i] <= tau + 1e-12));
        }
    }

    #[test]
    fn labels_name_the_largest_positive_coordinate() {
        assert_eq!(label_of([-1.0, 0.0, -2.0].into_iter()), 0);
        assert_eq!(label_of([0.5, 2.0, 2.0].into_iter()), 2);
        assert_eq!(label_of([3.0, 2.0].into_iter()), 1);
    }
}
