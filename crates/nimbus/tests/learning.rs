//! The learning rules beyond fictitious play and the replicator equation, each against a slower
//! independent method: the Moran process's exact fixation against the whole birth–death chain
//! solved by elimination (and against simulation), best-response dynamics against the map
//! written out naively, regret matching's regret against the definition of a correlated
//! equilibrium on its own joint distribution, the two-population rest points against the field
//! and a numerical Jacobian, the logit dynamics' end against its fixed-point equation; and the
//! unit square's portrait as a picture.

use nimbus::api::dynamics::{solve as run, Ending, Mutation, Request, Rule, Stability};
use nimbus::api::Limits;
use nimbus::exact::{to_f64, Q};
use nimbus::strategic::game::NormalForm;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;
mod picture;

fn q(v: i64) -> Q {
    Q::from_integer(v.into())
}

fn game(a: &[Vec<i64>], b: &[Vec<i64>]) -> NormalForm {
    let m = |x: &[Vec<i64>]| -> Vec<Vec<Q>> {
        x.iter()
            .map(|r| r.iter().map(|&v| q(v)).collect())
            .collect()
    };
    NormalForm::bimatrix(&m(a), &m(b)).unwrap()
}

fn matrix(rows: usize, cols: usize, low: i64, high: i64) -> impl Strategy<Value = Vec<Vec<i64>>> {
    prop::collection::vec(prop::collection::vec(low..=high, cols), rows)
}

/// The probability that the first of two strategies takes over from `i` of `n`, by writing out
/// the chain individual by individual and solving `ρ_0 = 0, ρ_n = 1, ρ_i = Σ P(i → j) ρ_j` by
/// Gaussian elimination in fractions.
fn fixation_by_elimination(a: &[Vec<i64>], i0: usize, n: usize) -> Q {
    // Individuals 0..i are the first strategy, the rest the second.
    let step = |i: usize| -> (Q, Q) {
        let kind = |k: usize| usize::from(k >= i);
        let fitness: Vec<Q> = (0..n)
            .map(|k| {
                (0..n)
                    .filter(|&l| l != k)
                    .map(|l| q(a[kind(k)][kind(l)]))
                    .fold(Q::zero(), |s, v| s + v)
            })
            .collect();
        let total: Q = fitness.iter().cloned().fold(Q::zero(), |s, v| s + v);
        let birth = |k: usize| {
            if total.is_zero() {
                Q::new(1.into(), (n as i64).into())
            } else {
                &fitness[k] / &total
            }
        };
        let death = Q::new(1.into(), (n as i64).into());
        let (mut up, mut down) = (Q::zero(), Q::zero());
        for born in 0..n {
            for dies in 0..n {
                let p = birth(born) * &death;
                match (kind(born), kind(dies)) {
                    (0, 1) => up += p,
                    (1, 0) => down += p,
                    _ => {}
                }
            }
        }
        (up, down)
    };
    // Unknowns ρ_1..ρ_{n−1}; rows (T⁺ + T⁻) ρ_i − T⁺ ρ_{i+1} − T⁻ ρ_{i−1} = 0, ρ_n = 1 moved
    // to the right.
    let k = n - 1;
    let mut m = vec![vec![Q::zero(); k + 1]; k];
    for i in 1..n {
        let (up, down) = step(i);
        let r = i - 1;
        m[r][r] = &up + &down;
        if i + 1 < n {
            m[r][r + 1] = -up.clone();
        } else {
            m[r][k] = up.clone();
        }
        if i > 1 {
            m[r][r - 1] = -down;
        }
    }
    for c in 0..k {
        let p = (c..k).find(|&r| !m[r][c].is_zero()).expect("a pivot");
        m.swap(c, p);
        let pivot = m[c].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != c && !row[c].is_zero() {
                let f = &row[c] / &pivot[c];
                for (x, p) in row.iter_mut().zip(&pivot).skip(c) {
                    *x -= p * &f;
                }
            }
        }
    }
    if i0 == 0 {
        return Q::zero();
    }
    if i0 == n {
        return Q::one();
    }
    &m[i0 - 1][k] / &m[i0 - 1][i0 - 1]
}

fn moran(
    a: &[Vec<i64>],
    population: Vec<u64>,
    runs: u64,
    seed: u64,
) -> nimbus::api::dynamics::Answer {
    let g = game(a, a);
    let req = Request {
        rule: Rule::Moran,
        population: Some(population),
        runs,
        seed,
        rounds: 1_000_000,
        points: 2,
        ..Default::default()
    };
    run(&g, &req, &Limits::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The product formula against the whole chain solved by elimination.
    #[test]
    fn moran_fixation_is_the_chains(a in matrix(2, 2, 0, 4), n in 2usize..9, i in 1usize..8) {
        let i = i.min(n - 1);
        let answer = moran(&a, vec![i as u64, (n - i) as u64], 1, 0);
        let fix = answer.fixation.unwrap();
        let exact: Q = fix[0].exact.as_ref().unwrap().parse().unwrap();
        prop_assert_eq!(exact, fixation_by_elimination(&a, i, n));
    }

    /// Best-response dynamics against the map written out: each profile the simultaneous best
    /// replies to the last (kept when already best, else the first best), an equilibrium where
    /// it stops, a cycle back to where it says.
    #[test]
    fn best_response_follows_the_map(
        a in matrix(3, 3, 0, 3),
        b in matrix(3, 3, 0, 3),
        i in 0usize..3,
        j in 0usize..3,
    ) {
        let best = |vals: Vec<i64>, cur: usize| -> usize {
            let top = *vals.iter().max().unwrap();
            if vals[cur] == top { cur } else { vals.iter().position(|&v| v == top).unwrap() }
        };
        let map = |[i, j]: [usize; 2]| -> [usize; 2] {
            [
                best((0..3).map(|k| a[k][j]).collect(), i),
                best((0..3).map(|k| b[i][k]).collect(), j),
            ]
        };
        let g = game(&a, &b);
        let mut start = vec![vec![q(0); 3], vec![q(0); 3]];
        start[0][i] = q(1);
        start[1][j] = q(1);
        let req = Request {
            rule: Rule::BestResponse,
            rounds: 100,
            points: 101,
            start: Some(start),
            ..Default::default()
        };
        let answer = run(&g, &req, &Limits::default()).unwrap();
        let profile = |p: &Vec<Vec<f64>>| -> [usize; 2] {
            [p[0].iter().position(|&x| x == 1.0).unwrap(), p[1].iter().position(|&x| x == 1.0).unwrap()]
        };
        let mut here = [i, j];
        for point in &answer.points {
            prop_assert_eq!(profile(&point.profile), here);
            here = map(here);
        }
        let name = |k: usize, s: usize| g.strategies[k][s].clone();
        match answer.ending.expect("9 profiles: it ends within 100 rounds") {
            Ending::Equilibrium { round, profile: p } => {
                let at = profile(&answer.points[round as usize].profile);
                prop_assert_eq!(map(at), at);
                prop_assert_eq!(p, [name(0, at[0]), name(1, at[1])]);
            }
            Ending::Cycle { round, length, profiles } => {
                let at = profile(&answer.points[round as usize].profile);
                let mut x = at;
                for _ in 0..length { x = map(x); }
                prop_assert_eq!(x, at);
                prop_assert_ne!(map(at), at);
                prop_assert_eq!(profiles.len() as u64, length);
            }
        }
    }

    /// Regret matching's regret is the largest gain of a deviation "play k when told j" under
    /// its own joint distribution of play, computed here from that distribution.
    #[test]
    fn regret_is_the_correlated_equilibrium_gap(
        a in matrix(3, 2, -3, 5),
        b in matrix(3, 2, -3, 5),
        rounds in 1u64..300,
        seed in 0u64..1000,
    ) {
        let g = game(&a, &b);
        let req = Request {
            rule: Rule::RegretMatching,
            rounds,
            points: 2,
            seed,
            ..Default::default()
        };
        let answer = run(&g, &req, &Limits::default()).unwrap();
        let z: Vec<Vec<Q>> = answer
            .joint
            .unwrap()
            .iter()
            .map(|r| r.iter().map(|x| x.parse().unwrap()).collect())
            .collect();
        prop_assert_eq!(z.iter().flatten().fold(Q::zero(), |s, v| s + v), Q::one());
        let mut worst: Option<Q> = None;
        let mut consider = |v: Q| {
            if worst.as_ref().is_none_or(|w| v > *w) {
                worst = Some(v);
            }
        };
        for j in 0..3 {
            for k in (0..3).filter(|&k| k != j) {
                consider((0..2).map(|c| &z[j][c] * q(a[k][c] - a[j][c])).fold(Q::zero(), |s, v| s + v));
            }
        }
        for j in 0..2 {
            for k in (0..2).filter(|&k| k != j) {
                consider((0..3).map(|r| &z[r][j] * q(b[r][k] - b[r][j])).fold(Q::zero(), |s, v| s + v));
            }
        }
        let last = answer.points.last().unwrap();
        prop_assert_eq!(last.at, rounds as f64);
        let reported: Q = last.regret.as_ref().unwrap().parse().unwrap();
        prop_assert_eq!(reported, worst.unwrap());
    }

    /// The two-population rest points of a 2 × 2 game: the field vanishes there exactly, the
    /// Nash flag is the definition's, and the stability agrees with the signs of a numerical
    /// Jacobian's eigenvalues.
    #[test]
    fn square_rest_points_against_the_field(a in matrix(2, 2, -4, 4), b in matrix(2, 2, -4, 4)) {
        let g = game(&a, &b);
        let req = Request {
            rule: Rule::Replicator,
            two_populations: true,
            points: 2,
            ..Default::default()
        };
        let answer = run(&g, &req, &Limits::default()).unwrap();
        let rests = answer.rest_points.unwrap_or_default();
        let qa = |i: usize, j: usize| q(a[i][j]);
        let qb = |i: usize, j: usize| q(b[i][j]);
        let fa = |i: usize, j: usize| a[i][j] as f64;
        let fb = |i: usize, j: usize| b[i][j] as f64;
        let field = |x: f64, y: f64| -> [f64; 2] {
            let dr = (fa(0, 0) - fa(1, 0)) * y + (fa(0, 1) - fa(1, 1)) * (1.0 - y);
            let dc = (fb(0, 0) - fb(0, 1)) * x + (fb(1, 0) - fb(1, 1)) * (1.0 - x);
            [x * (1.0 - x) * dr, y * (1.0 - y) * dc]
        };
        for r in &rests {
            let x: Q = r.shares[0].parse().unwrap();
            let y: Q = r.second.as_ref().unwrap()[0].parse().unwrap();
            let one = Q::one();
            let dr = (qa(0, 0) - qa(1, 0)) * &y + (qa(0, 1) - qa(1, 1)) * (&one - &y);
            let dc = (qb(0, 0) - qb(0, 1)) * &x + (qb(1, 0) - qb(1, 1)) * (&one - &x);
            prop_assert!((&x * (&one - &x) * &dr).is_zero());
            prop_assert!((&y * (&one - &y) * &dc).is_zero());
            // Nash: neither side's other pure strategy earns more.
            let row_gain = if x.is_one() { -dr.clone() } else if x.is_zero() { dr.clone() } else { Q::zero() };
            let col_gain = if y.is_one() { -dc.clone() } else if y.is_zero() { dc.clone() } else { Q::zero() };
            prop_assert_eq!(r.nash, !row_gain.is_positive() && !col_gain.is_positive());
            // The Jacobian by central differences; its eigenvalues from trace and determinant.
            let (xf, yf, h) = (to_f64(&x), to_f64(&y), 1e-6);
            let d = |dx: f64, dy: f64| field(xf + dx, yf + dy);
            let (px, mx, py, my) = (d(h, 0.0), d(-h, 0.0), d(0.0, h), d(0.0, -h));
            let j = [
                [(px[0] - mx[0]) / (2.0 * h), (py[0] - my[0]) / (2.0 * h)],
                [(px[1] - mx[1]) / (2.0 * h), (py[1] - my[1]) / (2.0 * h)],
            ];
            let (tr, det) = (j[0][0] + j[1][1], j[0][0] * j[1][1] - j[0][1] * j[1][0]);
            let disc = tr * tr - 4.0 * det;
            let top = if disc >= 0.0 { (tr + disc.sqrt()) / 2.0 } else { tr / 2.0 };
            match r.stability {
                Stability::Stable => prop_assert!(top < -1e-6, "{top} {j:?}"),
                Stability::Unstable => prop_assert!(top > 1e-6, "{top} {j:?}"),
                Stability::Undecided => prop_assert!(top.abs() < 1e-6, "{top} {j:?}"),
            }
        }
    }
}

/// Simulated fixation agrees with the exact probability to within four standard errors (two
/// strategies, the simulation called directly), and neutral drift among three strategies fixes
/// each with its share.
#[test]
fn moran_simulation_agrees_with_the_exact_probability() {
    use nimbus::strategic::dynamics::moran::simulate;
    use rand_core::SeedableRng;
    let a = vec![vec![3, 1], vec![4, 2]];
    let exact = moran(&a, vec![3, 5], 1, 0).fixation.unwrap()[0].probability;
    let af: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(|&v| v as f64).collect())
        .collect();
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(11);
    let runs = 4000;
    let hits = (0..runs)
        .filter(|_| simulate(&af, &[3, 5], 0.0, 1_000_000, &mut rng, |_, _| {}).0 == Some(0))
        .count();
    let p = hits as f64 / runs as f64;
    let sd = (exact * (1.0 - exact) / runs as f64).sqrt();
    assert!((p - exact).abs() < 4.0 * sd, "simulated {p}, exact {exact}");
    let neutral = moran(&vec![vec![1; 3]; 3], vec![2, 3, 5], runs as u64, 5)
        .fixation
        .unwrap();
    for (f, share) in neutral.iter().zip([0.2, 0.3, 0.5]) {
        assert!(f.exact.is_none());
        let sd = (share * (1.0 - share) / runs as f64).sqrt();
        assert!((f.probability - share).abs() < 4.0 * sd, "{neutral:?}");
    }
}

/// The Moran process's mutation never lets a strategy take over, and its records count the
/// whole population.
#[test]
fn moran_with_mutation_does_not_fix() {
    let g = game(&[vec![1, 2], vec![2, 1]], &[vec![1, 2], vec![2, 1]]);
    let req = Request {
        rule: Rule::Moran,
        population: Some(vec![4, 6]),
        mutation: Some(Mutation::Rate(Q::new(1.into(), 10.into()))),
        rounds: 500,
        points: 6,
        ..Default::default()
    };
    let answer = run(&g, &req, &Limits::default()).unwrap();
    assert!(answer.fixation.is_none());
    for p in &answer.points {
        assert_eq!(p.counts.as_ref().unwrap()[0].iter().sum::<u64>(), 10);
    }
}

/// Regret matching's regret falls towards zero on games with and without pure equilibria
/// (Hart and Mas-Colell's theorem; the seeds fixed, so the run is the same every time).
#[test]
fn regret_matching_approaches_correlated_equilibria() {
    for (a, b) in [
        (vec![vec![6, 2], vec![7, 0]], vec![vec![6, 7], vec![2, 0]]),
        (
            vec![vec![1, -1], vec![-1, 1]],
            vec![vec![-1, 1], vec![1, -1]],
        ),
        (
            vec![vec![0, 1, 2], vec![2, 0, 1], vec![1, 2, 0]],
            vec![vec![0, 2, 1], vec![1, 0, 2], vec![2, 1, 0]],
        ),
    ] {
        let g = game(&a, &b);
        let req = Request {
            rule: Rule::RegretMatching,
            rounds: 50_000,
            points: 3,
            seed: 7,
            ..Default::default()
        };
        let answer = run(&g, &req, &Limits::default()).unwrap();
        let regrets: Vec<f64> = answer
            .points
            .iter()
            .map(|p| to_f64(&p.regret.as_ref().unwrap().parse::<Q>().unwrap()))
            .collect();
        assert!(*regrets.last().unwrap() < 0.05, "{regrets:?}");
    }
}

/// The logit dynamics settle where the logit reply is the population itself (a logit
/// equilibrium), and the replicator–mutator with no mutation is the replicator equation.
#[test]
fn logit_ends_at_its_fixed_point_and_mutation_zero_is_the_replicator() {
    let a = vec![vec![0, -1, 2], vec![2, 0, -1], vec![-1, 2, 0]];
    let at: Vec<Vec<i64>> = (0..3).map(|i| (0..3).map(|j| a[j][i]).collect()).collect();
    let g = game(&a, &at);
    let req = Request {
        rule: Rule::Logit,
        time: 60.0,
        points: 2,
        noise: 0.5,
        start: Some(vec![vec![
            Q::new(1.into(), 2.into()),
            Q::new(1.into(), 4.into()),
            Q::new(1.into(), 4.into()),
        ]]),
        ..Default::default()
    };
    let answer = run(&g, &req, &Limits::default()).unwrap();
    let x = &answer.points.last().unwrap().profile[0];
    let pay: Vec<f64> = (0..3)
        .map(|i| (0..3).map(|j| a[i][j] as f64 * x[j]).sum())
        .collect();
    let top = pay.iter().cloned().fold(f64::MIN, f64::max);
    let e: Vec<f64> = pay.iter().map(|p| ((p - top) / 0.5).exp()).collect();
    let s: f64 = e.iter().sum();
    for k in 0..3 {
        assert!((x[k] - e[k] / s).abs() < 1e-6, "{x:?}");
    }
    let replicator = |mutation| {
        let req = Request {
            rule: Rule::Replicator,
            time: 5.0,
            points: 3,
            mutation,
            rest_points: false,
            start: req.start.clone(),
            ..Default::default()
        };
        run(&g, &req, &Limits::default()).unwrap().points
    };
    let plain = replicator(None);
    let zero = replicator(Some(Mutation::Rate(Q::zero())));
    for (p, z) in plain.iter().zip(&zero) {
        for (u, v) in p.profile[0].iter().zip(&z.profile[0]) {
            assert!((u - v).abs() < 1e-12);
        }
    }
    // With mutation every strategy keeps a share: no rest point on the boundary.
    let mutated = replicator(Some(Mutation::Rate(Q::new(1.into(), 5.into()))));
    assert!(mutated.last().unwrap().profile[0].iter().all(|&s| s > 0.01));
}

/// The unit square's portrait as a picture: the stable corners filled black, the unstable
/// ones open (white), the mixed saddle open, the run in blue at its start.
#[test]
fn square_portrait_as_a_picture() {
    use nimbus::strategic::dynamics::square::place;
    // Battle of the sexes: (1, 1) and (0, 0) stable, the other corners and (2/3, 1/3) not.
    let g = game(&[vec![2, 0], vec![0, 1]], &[vec![1, 0], vec![0, 2]]);
    let req = Request {
        rule: Rule::Replicator,
        two_populations: true,
        plot: true,
        points: 2,
        start: Some(vec![
            vec![Q::new(3.into(), 10.into()), Q::new(7.into(), 10.into())],
            vec![Q::new(1.into(), 2.into()), Q::new(1.into(), 2.into())],
        ]),
        ..Default::default()
    };
    let answer = run(&g, &req, &Limits::default()).unwrap();
    let pix = picture::render(answer.plot.as_ref().unwrap());
    let colour = |x: f64, y: f64| {
        let (px, py) = place(x, y);
        let c = pix.pixel(px.round() as u32, py.round() as u32).unwrap();
        [c.red(), c.green(), c.blue()]
    };
    let close = |c: [u8; 3], want: [u8; 3]| {
        c.iter()
            .zip(want)
            .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 40)
    };
    assert!(close(colour(1.0, 1.0), [0, 0, 0]));
    assert!(close(colour(0.0, 0.0), [0, 0, 0]));
    assert!(close(colour(1.0, 0.0), [255, 255, 255]));
    assert!(close(colour(0.0, 1.0), [255, 255, 255]));
    assert!(close(colour(2.0 / 3.0, 1.0 / 3.0), [255, 255, 255]));
    assert!(close(colour(0.3, 0.5), [0x1f, 0x77, 0xb4]));
    // Matching pennies: the centre grey (a centre: closed orbits).
    let g = game(&[vec![1, -1], vec![-1, 1]], &[vec![-1, 1], vec![1, -1]]);
    let answer = run(&g, &req, &Limits::default()).unwrap();
    let pix2 = picture::render(answer.plot.as_ref().unwrap());
    let (px, py) = place(0.5, 0.5);
    let c = pix2.pixel(px.round() as u32, py.round() as u32).unwrap();
    assert!(close([c.red(), c.green(), c.blue()], [0x90, 0x90, 0x90]));
}

/// Where the average payoff is negative the simplex repels numerical error (the sum's error
/// grows as e^t); the field as written keeps the sum an exact invariant, so the shares still
/// sum to 1 at time 100 (nashpy's odeint reaches 0.02 on this game), and records between steps
/// (the dense output) agree with the records the steps land on.
#[test]
fn the_replicator_stays_on_the_simplex() {
    let a = vec![vec![-1, 5, 5], vec![-1, -5, -3], vec![-2, 2, 5]];
    let at: Vec<Vec<i64>> = (0..3).map(|i| (0..3).map(|j| a[j][i]).collect()).collect();
    let g = game(&a, &at);
    let start = Some(vec![vec![
        Q::new(1.into(), 2.into()),
        Q::new(3.into(), 10.into()),
        Q::new(1.into(), 5.into()),
    ]]);
    let records = |points| {
        let req = Request {
            rule: Rule::Replicator,
            time: 100.0,
            points,
            start: start.clone(),
            rest_points: false,
            ..Default::default()
        };
        run(&g, &req, &Limits::default()).unwrap().points
    };
    let many = records(1001);
    for p in &many {
        let sum: f64 = p.profile[0].iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{}: {sum}", p.at);
        assert!(p.profile[0].iter().all(|&x| x >= 0.0), "{:?}", p.profile);
    }
    let few = records(11);
    for (k, p) in few.iter().enumerate() {
        let q = &many[k * 100];
        assert_eq!(p.at, q.at);
        for (u, v) in p.profile[0].iter().zip(&q.profile[0]) {
            assert!((u - v).abs() < 1e-6, "{}: {u} {v}", p.at);
        }
    }
}

/// Aumann's chicken drawn in the payoff plane, tested as a picture: the correlated equilibria's
/// payoffs (blue) reach (5, 5), above the Nash equilibria's hull; (1.5, 1.5) is feasible only
/// (grey); (6.5, 6.5) is not feasible (white); a Nash equilibrium's payoffs (7, 2) are red.
#[test]
fn correlated_payoffs_as_a_picture() {
    use nimbus::api::correlated::{solve, Request};
    use nimbus::strategic::solvers::correlated_picture::Scale;
    let g = game(&[vec![6, 2], vec![7, 0]], &[vec![6, 7], vec![2, 0]]);
    let req = Request {
        plot: true,
        ..Default::default()
    };
    let answer = solve(&g, &req, &Limits::default()).unwrap();
    assert!(answer.vertices.is_none());
    let pix = picture::render(answer.plot.as_ref().unwrap());
    // The picture's scale comes from the outcomes alone.
    let outcomes = [(6.0, 6.0), (2.0, 7.0), (7.0, 2.0), (0.0, 0.0)];
    let scale = Scale::of(&outcomes);
    let colour = |p: (f64, f64)| {
        let (x, y) = scale.place(p);
        let c = pix.pixel(x.round() as u32, y.round() as u32).unwrap();
        [c.red(), c.green(), c.blue()]
    };
    let close = |c: [u8; 3], want: [u8; 3]| {
        c.iter()
            .zip(want)
            .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 30)
    };
    assert!(
        close(colour((5.0, 5.0)), [0x9e, 0xca, 0xe1]),
        "{:?}",
        colour((5.0, 5.0))
    );
    assert!(close(colour((1.5, 1.5)), [0xe6, 0xe6, 0xe6]));
    assert!(close(colour((6.5, 6.5)), [255, 255, 255]));
    assert!(close(colour((7.0, 2.0)), [0xd6, 0x27, 0x28]));
}

/// On the complete graph the offspring replaces one of the others, and the chain's ratio of
/// down to up is the well-mixed one, so the simulated fixation on the graph agrees with the
/// exact well-mixed probability (Lieberman, Hauert and Nowak's isothermal theorem).
#[test]
fn moran_on_the_complete_graph_is_the_well_mixed_process() {
    let a = vec![vec![3, 1], vec![4, 2]];
    let exact = moran(&a, vec![2, 4], 1, 0).fixation.unwrap()[0].probability;
    let edges: Vec<(usize, usize)> = (0..6)
        .flat_map(|i| (i + 1..6).map(move |j| (i, j)))
        .collect();
    let g = game(&a, &a);
    let runs = 4000;
    let req = Request {
        rule: Rule::Moran,
        population: Some(vec![2, 4]),
        graph: Some(edges),
        runs,
        seed: 21,
        rounds: 1_000_000,
        points: 2,
        ..Default::default()
    };
    let fix = run(&g, &req, &Limits::default()).unwrap().fixation.unwrap();
    assert!(fix[0].exact.is_none());
    let sd = (exact * (1.0 - exact) / runs as f64).sqrt();
    assert!(
        (fix[0].probability - exact).abs() < 4.0 * sd,
        "{} {exact}",
        fix[0].probability
    );
    // A graph that is not connected is refused.
    let req = Request {
        graph: Some(vec![(0, 1), (2, 3), (4, 5)]),
        ..req
    };
    let e = run(&g, &req, &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("not connected"), "{e}");
}

/// Which runs a front-end may make where it is, without a worker thread: a continuous rule on a
/// small game over a short time; not a discrete rule, a long time, large payoffs or many
/// records.
#[test]
fn brief_runs() {
    use nimbus::api::dynamics::is_brief;
    let small = game(&[vec![0, 2], vec![1, 0]], &[vec![0, 1], vec![2, 0]]);
    let replicator = Request {
        rule: Rule::Replicator,
        time: 100.0,
        points: 1000,
        ..Request::default()
    };
    assert!(is_brief(&small, &replicator));
    assert!(is_brief(
        &small,
        &Request {
            rule: Rule::Logit,
            ..replicator.clone()
        }
    ));
    assert!(!is_brief(
        &small,
        &Request {
            rule: Rule::FictitiousPlay,
            ..replicator.clone()
        }
    ));
    assert!(!is_brief(
        &small,
        &Request {
            time: 1e6,
            ..replicator.clone()
        }
    ));
    assert!(!is_brief(
        &small,
        &Request {
            points: 100_000,
            ..replicator.clone()
        }
    ));
    let large = game(&[vec![0, 1000], vec![1, 0]], &[vec![0, 1], vec![2, 0]]);
    assert!(!is_brief(&large, &replicator));
    let times = Request {
        times: Some(vec![0.0, 1.0, 5e5]),
        ..replicator.clone()
    };
    assert!(!is_brief(&small, &times));
}
