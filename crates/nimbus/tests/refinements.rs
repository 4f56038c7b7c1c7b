//! Which equilibrium: correlated equilibria and perfect equilibria against slower independent
//! methods and published results. The LP's optimum against the best vertex of the polytope
//! found by trying every basis (small games), every correlated equilibrium checked against the
//! definition directly, Nash equilibria (which are correlated) never better, coarse ones never
//! worse, and Aumann's chicken; perfection (decided as "a best reply to a completely mixed
//! strategy") against weak dominance by a mixture (decided by trying every basis), and Selten's
//! example; evolutionary stability against the definition on a grid of invaders, each invader
//! the library names checked by the definition, the pure ESS against the strict equilibria and
//! the pure mutants, a published case where a mixture of mutants invades, and
//! hawk–dove and rock–paper–scissors; the vertices of the correlated equilibria against every
//! basis tried, each extreme Nash equilibrium among them (Gomez Canovas, Hansen and Jaumard),
//! and chicken's five; every Nash equilibrium on the boundary of the correlated equilibria
//! (Nau, Gomez Canovas and Hansen).

use nimbus::api::correlated::{solve, Request, Target};
use nimbus::api::Limits;
use nimbus::exact::Q;
use nimbus::strategic::game::NormalForm;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

fn q(x: i64) -> Q {
    Q::from_integer(x.into())
}

fn game(a: &[Vec<i64>], b: &[Vec<i64>]) -> NormalForm {
    let m = |x: &[Vec<i64>]| -> Vec<Vec<Q>> {
        x.iter()
            .map(|r| r.iter().map(|&v| q(v)).collect())
            .collect()
    };
    NormalForm::bimatrix(&m(a), &m(b)).unwrap()
}

/// The distribution of an answer over the profiles (row, column), read back from its names.
fn distribution(g: &NormalForm, a: &nimbus::api::correlated::Answer) -> Vec<Vec<Q>> {
    let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
    let mut p = vec![vec![Q::zero(); n]; m];
    for cell in &a.distribution {
        let i = g.strategies[0]
            .iter()
            .position(|s| *s == cell.profile[0])
            .unwrap();
        let j = g.strategies[1]
            .iter()
            .position(|s| *s == cell.profile[1])
            .unwrap();
        p[i][j] = nimbus::api::parse_number(&cell.probability).unwrap();
    }
    p
}

/// The definition, directly: no player told a strategy gains by another (coarse: no player
/// gains by committing to one), probabilities non-negative and summing to 1.
fn is_equilibrium(g: &NormalForm, p: &[Vec<Q>], coarse: bool) -> bool {
    let (m, n) = (p.len(), p[0].len());
    let u = |i: usize, j: usize, k: usize| g.payoff(&[i, j], k).clone();
    let total: Q = p.iter().flatten().sum();
    if total != Q::one() || p.iter().flatten().any(Signed::is_negative) {
        return false;
    }
    if coarse {
        let now: [Q; 2] = [0, 1].map(|k| {
            (0..m)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| &p[i][j] * u(i, j, k))
                .sum()
        });
        let rows = (0..m).all(|b| {
            (0..m)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| &p[i][j] * u(b, j, 0))
                .sum::<Q>()
                <= now[0]
        });
        let cols = (0..n).all(|b| {
            (0..m)
                .flat_map(|i| (0..n).map(move |j| (i, j)))
                .map(|(i, j)| &p[i][j] * u(i, b, 1))
                .sum::<Q>()
                <= now[1]
        });
        return rows && cols;
    }
    let rows = (0..m).all(|a| {
        (0..m).all(|b| {
            (0..n)
                .map(|j| &p[a][j] * (u(b, j, 0) - u(a, j, 0)))
                .sum::<Q>()
                <= Q::zero()
        })
    });
    let cols = (0..n).all(|a| {
        (0..n).all(|b| {
            (0..m)
                .map(|i| &p[i][a] * (u(i, b, 1) - u(i, a, 1)))
                .sum::<Q>()
                <= Q::zero()
        })
    });
    rows && cols
}

/// Solves the square system `a x = b` by Gaussian elimination on fractions; `None` when
/// singular.
fn solve_square(mut a: Vec<Vec<Q>>, mut b: Vec<Q>) -> Option<Vec<Q>> {
    let n = b.len();
    for c in 0..n {
        let r = (c..n).find(|&r| !a[r][c].is_zero())?;
        a.swap(c, r);
        b.swap(c, r);
        let pivot = a[c].clone();
        for r in 0..n {
            if r != c && !a[r][c].is_zero() {
                let f = &a[r][c] / &pivot[c];
                for (x, p) in a[r].iter_mut().zip(&pivot).skip(c) {
                    *x -= &f * p;
                }
                let d = &f * &b[c];
                b[r] -= d;
            }
        }
    }
    Some((0..n).map(|i| &b[i] / &a[i][i]).collect())
}

/// Every vertex of `{p ≥ 0, Σp = 1, row · p ≤ 0 for every row}`, by trying every basis (slow,
/// and independent of the simplex method and of the double description method), sorted and
/// without repeats.
fn all_vertices(rows: &[Vec<Q>], vars: usize) -> Vec<Vec<Q>> {
    let mut all: Vec<Vec<Q>> = rows.to_vec();
    for v in 0..vars {
        let mut r = vec![Q::zero(); vars];
        r[v] = -Q::one();
        all.push(r);
    }
    let mut found: Vec<Vec<Q>> = Vec::new();
    let mut pick: Vec<usize> = (0..vars - 1).collect();
    fn next(pick: &mut [usize], total: usize) -> bool {
        let k = pick.len();
        for i in (0..k).rev() {
            if pick[i] < total - (k - i) {
                pick[i] += 1;
                for j in i + 1..k {
                    pick[j] = pick[j - 1] + 1;
                }
                return true;
            }
        }
        false
    }
    loop {
        let mut a: Vec<Vec<Q>> = pick.iter().map(|&r| all[r].clone()).collect();
        a.push(vec![Q::one(); vars]);
        let mut b = vec![Q::zero(); vars - 1];
        b.push(Q::one());
        if let Some(x) = solve_square(a, b) {
            let feasible = all
                .iter()
                .all(|r| r.iter().zip(&x).map(|(c, v)| c * v).sum::<Q>() <= Q::zero());
            if feasible {
                found.push(x);
            }
        }
        if vars == 1 || !next(&mut pick, all.len()) {
            break;
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The largest `objective · p` over `{p ≥ 0, Σp = 1, row · p ≤ 0 for every row}`: its best
/// vertex; `None` when the set is empty.
fn best_vertex(rows: &[Vec<Q>], objective: &[Q]) -> Option<Q> {
    all_vertices(rows, objective.len())
        .iter()
        .map(|x| objective.iter().zip(x).map(|(c, v)| c * v).sum::<Q>())
        .max()
}

/// The incentive constraints of a two-player game over `p[i·n + j]`, written out again here:
/// correlated (told `a`, `b` does not pay) or coarse (committing to `b` does not pay).
fn ce_rows(g: &NormalForm, coarse: bool) -> Vec<Vec<Q>> {
    let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
    let vars = m * n;
    let at = |i: usize, j: usize| i * n + j;
    let mut rows: Vec<Vec<Q>> = Vec::new();
    for b in 0..m {
        if coarse {
            let mut r = vec![Q::zero(); vars];
            for i in 0..m {
                for j in 0..n {
                    r[at(i, j)] = g.payoff(&[b, j], 0) - g.payoff(&[i, j], 0);
                }
            }
            rows.push(r);
            continue;
        }
        for a in (0..m).filter(|&a| a != b) {
            let mut r = vec![Q::zero(); vars];
            for j in 0..n {
                r[at(a, j)] = g.payoff(&[b, j], 0) - g.payoff(&[a, j], 0);
            }
            rows.push(r);
        }
    }
    for b in 0..n {
        if coarse {
            let mut r = vec![Q::zero(); vars];
            for i in 0..m {
                for j in 0..n {
                    r[at(i, j)] = g.payoff(&[i, b], 1) - g.payoff(&[i, j], 1);
                }
            }
            rows.push(r);
            continue;
        }
        for a in (0..n).filter(|&a| a != b) {
            let mut r = vec![Q::zero(); vars];
            for i in 0..m {
                r[at(i, a)] = g.payoff(&[i, b], 1) - g.payoff(&[i, a], 1);
            }
            rows.push(r);
        }
    }
    rows
}

/// The largest welfare of a correlated equilibrium of a two-player game, as the best vertex of
/// the polytope of the incentive constraints.
fn best_welfare(g: &NormalForm) -> Q {
    let n = g.strategies[1].len();
    let rows = ce_rows(g, false);
    let vars = g.strategies[0].len() * n;
    let welfare: Vec<Q> = (0..vars)
        .map(|v| g.payoff(&[v / n, v % n], 0) + g.payoff(&[v / n, v % n], 1))
        .collect();
    best_vertex(&rows, &welfare).expect("every game has a correlated equilibrium")
}

/// Whether the mixed strategy `x` of the player with payoffs `a` (rows their strategies) is
/// weakly dominated by a mixture: some `x'` doing at least as well against every strategy of
/// the other player and better against one (the best vertex of `{x' : x'A ≥ xA}` for the
/// total gain).
fn weakly_dominated(a: &[Vec<Q>], x: &[Q]) -> bool {
    let (m, n) = (a.len(), a[0].len());
    let against: Vec<Q> = (0..n)
        .map(|j| (0..m).map(|i| &x[i] * &a[i][j]).sum())
        .collect();
    // With Σx' = 1, (xA)_j − (x'A)_j ≤ 0 is Σ_i x'_i ((xA)_j − a_ij) ≤ 0.
    let rows: Vec<Vec<Q>> = (0..n)
        .map(|j| (0..m).map(|i| &against[j] - &a[i][j]).collect())
        .collect();
    let gain: Vec<Q> = (0..m)
        .map(|i| (0..n).map(|j| &a[i][j] - &against[j]).sum())
        .collect();
    best_vertex(&rows, &gain).expect("x itself is feasible") > Q::zero()
}

/// Two random payoff matrices of one shape, up to `max_rows` × `max_cols`.
fn matrices(
    max_rows: usize,
    max_cols: usize,
) -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<Vec<i64>>)> {
    matrices_in(max_rows, max_cols, -6..=6)
}

/// As [`matrices`], with entries in `entries`.
fn matrices_in(
    max_rows: usize,
    max_cols: usize,
    entries: std::ops::RangeInclusive<i64>,
) -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<Vec<i64>>)> {
    (1..=max_rows, 1..=max_cols).prop_flat_map(move |(m, n)| {
        let mat = prop::collection::vec(prop::collection::vec(entries.clone(), n), m);
        (mat.clone(), mat)
    })
}

fn cases() -> u32 {
    if std::env::var_os("NIMBUS_FULL_TESTS").is_some() {
        1000
    } else {
        120
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The best welfare is the best vertex's, the equilibrium meets the definition, no Nash
    /// equilibrium does better and the best coarse one does no worse.
    #[test]
    fn the_best_correlated_equilibrium_is_the_best_vertex((a, b) in matrices(2, 3)) {
        let g = game(&a, &b);
        let limits = Limits::default();
        let ce = solve(&g, &Request::default(), &limits).unwrap();
        let value = nimbus::api::parse_number(&ce.value).unwrap();
        prop_assert_eq!(&value, &best_welfare(&g));
        prop_assert!(is_equilibrium(&g, &distribution(&g, &ce), false));
        let nash = nimbus::api::nash::solve(&g, &Default::default(), &limits).unwrap();
        for e in &nash.equilibria {
            prop_assert!(&e.payoffs[0] + &e.payoffs[1] <= value.clone());
        }
        let coarse = solve(&g, &Request { coarse: true, ..Default::default() }, &limits).unwrap();
        prop_assert!(is_equilibrium(&g, &distribution(&g, &coarse), true));
        prop_assert!(nimbus::api::parse_number(&coarse.value).unwrap() >= value);
    }

    /// A player's best correlated equilibrium is no worse for them than the best for welfare,
    /// and is one.
    #[test]
    fn a_players_best_is_an_equilibrium((a, b) in matrices(3, 3), k in 1usize..=2) {
        let g = game(&a, &b);
        let limits = Limits::default();
        let mine = solve(&g, &Request { maximize: Target::Player(k), coarse: false, vertices: false, plot: false }, &limits).unwrap();
        let all = solve(&g, &Request::default(), &limits).unwrap();
        prop_assert!(is_equilibrium(&g, &distribution(&g, &mine), false));
        let p = |x: &str| nimbus::api::parse_number(x).unwrap();
        prop_assert!(p(&mine.payoffs[k - 1]) >= p(&all.payoffs[k - 1]));
        prop_assert_eq!(p(&mine.value), p(&mine.payoffs[k - 1]));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Nau, Gomez Canovas and Hansen ("On the geometry of Nash equilibria and correlated
    /// equilibria", 2004): every Nash equilibrium, as a distribution over the profiles, is a
    /// correlated equilibrium on the boundary of their polytope — some constraint that is not
    /// zero everywhere (a probability, or an incentive constraint of a player who is not
    /// indifferent) holds with equality — unless every player is indifferent everywhere.
    #[test]
    fn nash_equilibria_lie_on_the_boundary((a, b) in matrices(3, 3)) {
        let g = game(&a, &b);
        let (m, n) = (a.len(), a[0].len());
        let rows: Vec<Vec<Q>> = ce_rows(&g, false)
            .into_iter()
            .filter(|r| r.iter().any(|v| !v.is_zero()))
            .collect();
        let nash = nimbus::api::nash::solve(&g, &Default::default(), &Limits::default()).unwrap();
        for e in &nash.equilibria {
            let p: Vec<Q> = (0..m * n)
                .map(|k| &e.profile[0][k / n] * &e.profile[1][k % n])
                .collect();
            let at = |r: &Vec<Q>| -> Q { r.iter().zip(&p).map(|(u, v)| u * v).sum() };
            prop_assert!(rows.iter().all(|r| !at(r).is_positive()), "not correlated: {:?}", e.profile);
            let tight = p.iter().any(Zero::is_zero) || rows.iter().any(|r| at(r).is_zero());
            let trivial = rows.is_empty();
            prop_assert!(tight || trivial, "inside the polytope: {:?} of {:?} {:?}", e.profile, a, b);
        }
    }
}

/// Perfect equilibria of two-player games: an equilibrium is marked perfect exactly when
/// neither player's strategy is weakly dominated by a mixture (van Damme's theorem; decided
/// here by a different program: the library asks for a completely mixed strategy to which it
/// is a best reply).
fn perfect_agrees_with_undominated(a: &[Vec<i64>], b: &[Vec<i64>]) -> Result<(), TestCaseError> {
    let g = game(a, b);
    let req = nimbus::api::nash::Request {
        refine: vec![nimbus::api::nash::Refinement::Perfect],
        ..Default::default()
    };
    let answer = nimbus::api::nash::solve(&g, &req, &Limits::default()).unwrap();
    let marks = answer.perfect.clone().expect("asked for");
    prop_assert_eq!(marks.len(), answer.equilibria.len());
    let am = g.matrix(0);
    let bm = g.matrix(1);
    let bt: Vec<Vec<Q>> = (0..bm[0].len())
        .map(|j| bm.iter().map(|r| r[j].clone()).collect())
        .collect();
    for (e, perfect) in answer.equilibria.iter().zip(marks) {
        let undominated =
            !weakly_dominated(&am, &e.profile[0]) && !weakly_dominated(&bt, &e.profile[1]);
        prop_assert_eq!(perfect, undominated, "{:?}", e.profile);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Small payoffs make ties, and so weakly dominated strategies, common.
    #[test]
    fn perfect_equilibria_are_the_undominated_ones((a, b) in matrices_in(3, 3, 0..=2)) {
        perfect_agrees_with_undominated(&a, &b)?;
    }
}

/// Selten's example (1975): in `[[1, 0], [0, 0]]` for both players, both pure profiles on the
/// diagonal are equilibria, and only (1, 1) survives trembles.
#[test]
fn seltens_example() {
    let g = game(&[vec![1, 0], vec![0, 0]], &[vec![1, 0], vec![0, 0]]);
    let req = nimbus::api::nash::Request {
        refine: vec![nimbus::api::nash::Refinement::Perfect],
        ..Default::default()
    };
    let a = nimbus::api::nash::solve(&g, &req, &Limits::default()).unwrap();
    let marked: Vec<(Vec<Vec<Q>>, bool)> = a
        .equilibria
        .iter()
        .map(|e| e.profile.clone())
        .zip(a.perfect.unwrap())
        .collect();
    assert_eq!(marked.len(), 2);
    for (profile, perfect) in marked {
        assert_eq!(perfect, profile[0][0] == Q::one(), "{profile:?}");
    }
    // Three players: refused with the reason.
    let three = nimbus::api::game::strategic(
        nimbus::api::game::Source::Nfg {
            text: "NFG 1 R \"\" { \"1\" \"2\" \"3\" } { 2 2 2 }\n\n1 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
            label: "test",
        },
        nimbus::api::game::StrategyNames::default(),
    )
    .unwrap()
    .0;
    let e = nimbus::api::nash::solve(&three, &req, &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("two-player games"), "{e}");
    assert!(
        nimbus::api::nash::Refinement::parse_list("perfect,persistent")
            .unwrap_err()
            .to_string()
            .contains("unknown refinement 'persistent'")
    );
}

/// Aumann's chicken (1974, as Nau, Gomez Canovas and Hansen give it): the correlated
/// equilibrium of the largest total payoff, 21/2, puts 1/2 on (C, C) and 1/4 on each of the
/// others but (D, D); the Nash equilibria's totals are 9 (pure) and 28/3 (mixed).
#[test]
fn aumanns_chicken() {
    let g = game(&[vec![6, 2], vec![7, 0]], &[vec![6, 7], vec![2, 0]]);
    let ce = solve(&g, &Request::default(), &Limits::default()).unwrap();
    assert_eq!(ce.value, "21/2");
    assert_eq!(
        distribution(&g, &ce),
        vec![
            vec![Q::new(1.into(), 2.into()), Q::new(1.into(), 4.into())],
            vec![Q::new(1.into(), 4.into()), Q::zero()]
        ]
    );
    let nash = nimbus::api::nash::solve(&g, &Default::default(), &Limits::default()).unwrap();
    let best = nash
        .equilibria
        .iter()
        .map(|e| &e.payoffs[0] + &e.payoffs[1])
        .max()
        .unwrap();
    assert_eq!(best, Q::new(28.into(), 3.into()));
}

/// Bad objectives and games too large for the budget are refused with the place named.
#[test]
fn bad_objectives_and_large_games_are_refused() {
    let g = game(&[vec![6, 2], vec![7, 0]], &[vec![6, 7], vec![2, 0]]);
    for (text, says) in [
        ("player:0", "from 1"),
        ("players", "not an objective"),
        ("weights:1,x", "'x'"),
    ] {
        let e = Target::parse(text).unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
    let three = solve(
        &g,
        &Request {
            maximize: Target::Player(3),
            coarse: false,
            vertices: false,
            plot: false,
        },
        &Limits::default(),
    );
    assert!(three.unwrap_err().to_string().contains("player 3"));
    let weights = Target::Weights(vec![q(1)]);
    let e = solve(
        &g,
        &Request {
            maximize: weights,
            coarse: false,
            vertices: false,
            plot: false,
        },
        &Limits::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("1 weights"), "{e}");
    let big: Vec<Vec<i64>> = (0..40)
        .map(|i| (0..40).map(|j| (i * j) % 7).collect())
        .collect();
    let small = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    let e = solve(&game(&big, &big), &Request::default(), &small).unwrap_err();
    assert_eq!(e.kind(), "memory_limit", "{e}");
}

/// `xᵀ A y`.
fn bilinear(a: &[Vec<Q>], x: &[Q], y: &[Q]) -> Q {
    (0..x.len())
        .flat_map(|i| (0..y.len()).map(move |j| (i, j)))
        .map(|(i, j)| &x[i] * &a[i][j] * &y[j])
        .sum()
}

/// Every mixed strategy over `n` strategies whose probabilities are multiples of `1/d`.
fn grid(n: usize, d: i64) -> Vec<Vec<Q>> {
    let mut out = Vec::new();
    let mut counts = vec![0i64; n];
    fn fill(k: usize, left: i64, d: i64, counts: &mut Vec<i64>, out: &mut Vec<Vec<Q>>) {
        if k + 1 == counts.len() {
            counts[k] = left;
            out.push(counts.iter().map(|&c| Q::new(c.into(), d.into())).collect());
            return;
        }
        for c in 0..=left {
            counts[k] = c;
            fill(k + 1, left - c, d, counts, out);
        }
    }
    fill(0, d, d, &mut counts, &mut out);
    out
}

/// An invader `y` of `x` by the definition: `y ≠ x`, and either `y` does better against `x`,
/// or as well against `x` and at least as well against itself as `x` does against it.
fn invades(a: &[Vec<Q>], x: &[Q], y: &[Q]) -> bool {
    let (yx, xx) = (bilinear(a, y, x), bilinear(a, x, x));
    y != x && (yx > xx || (yx == xx && bilinear(a, y, y) >= bilinear(a, x, y)))
}

/// The ESS marks of a random symmetric game: each (x, x) marked stable has no invader on a
/// grid of strategies; each marked unstable has the invader the library names, checked by the
/// definition; no asymmetric equilibrium is marked; every strict pure equilibrium is listed
/// and marked, and every pure strategy marked resists each pure mutant (`a_ii > a_ji`, or
/// equal and `a_ij > a_jj`, for every `j`).
fn ess_agrees_with_the_definition(a: &[Vec<i64>]) -> Result<(bool, bool), TestCaseError> {
    let at: Vec<Vec<i64>> = (0..a.len())
        .map(|j| a.iter().map(|r| r[j]).collect())
        .collect();
    let g = game(a, &at);
    let req = nimbus::api::nash::Request {
        refine: vec![nimbus::api::nash::Refinement::Ess],
        ..Default::default()
    };
    let limits = Limits::default();
    let answer = nimbus::api::nash::solve(&g, &req, &limits).unwrap();
    let marks = answer.ess.clone().expect("asked for");
    prop_assert_eq!(marks.len(), answer.equilibria.len());
    let am = g.matrix(0);
    let n = a.len();
    let points = grid(n, 12);
    let (mut stable, mut unstable) = (false, false);
    for (e, ess) in answer.equilibria.iter().zip(&marks) {
        let x = &e.profile[0];
        if e.profile[0] != e.profile[1] {
            prop_assert!(!ess);
            continue;
        }
        let named = nimbus::strategic::solvers::ess::invader(&am, x, &limits).unwrap();
        prop_assert_eq!(*ess, named.is_none());
        match named {
            Some(y) => {
                unstable = true;
                prop_assert!(invades(&am, x, &y), "{:?} does not invade {:?}", y, x);
            }
            None => {
                stable = true;
                for y in &points {
                    prop_assert!(!invades(&am, x, y), "{:?} invades {:?}", y, x);
                }
            }
        }
    }
    for i in 0..n {
        let pure: Vec<Q> = (0..n).map(|j| q(i64::from(i == j))).collect();
        let marked = answer
            .equilibria
            .iter()
            .zip(&marks)
            .any(|(e, &m)| m && e.profile[0] == pure && e.profile[1] == pure);
        // A strict equilibrium is an ESS.
        let strict = (0..n).filter(|&j| j != i).all(|j| a[i][i] > a[j][i]);
        if strict {
            prop_assert!(marked, "pure strategy {} is a strict equilibrium", i + 1);
        }
        // Resisting every pure mutant is necessary, not sufficient: with two alternative best
        // replies a mixture of them can invade where neither alone does.
        let pure_mutants = (0..n)
            .filter(|&j| j != i)
            .all(|j| a[i][i] > a[j][i] || (a[i][i] == a[j][i] && a[i][j] > a[j][j]));
        if marked {
            prop_assert!(
                pure_mutants,
                "pure strategy {} is marked but a pure mutant invades",
                i + 1
            );
        }
    }
    Ok((stable, unstable))
}

/// A random square matrix, 2 × 2 to `max` × `max`, entries in `entries`.
fn square(
    max: usize,
    entries: std::ops::RangeInclusive<i64>,
) -> impl Strategy<Value = Vec<Vec<i64>>> {
    (2..=max)
        .prop_flat_map(move |n| prop::collection::vec(prop::collection::vec(entries.clone(), n), n))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Small payoffs make ties, so alternative best replies off the support (the copositive
    /// part of the test) are common.
    #[test]
    fn ess_marks_agree_with_the_definition(a in square(4, -2..=2)) {
        ess_agrees_with_the_definition(&a)?;
    }
}

/// Both verdicts are reached, on the games the property test draws from.
#[test]
fn ess_test_reaches_both_verdicts() {
    let mut seen = (false, false);
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..200 {
        let a = proptest::strategy::ValueTree::current(
            &square(4, -2..=2).new_tree(&mut runner).unwrap(),
        );
        let (s, u) = ess_agrees_with_the_definition(&a).unwrap();
        seen = (seen.0 || s, seen.1 || u);
    }
    assert_eq!(seen, (true, true));
}

fn ess_of(a: &[Vec<i64>]) -> Vec<(Vec<Q>, bool)> {
    let at: Vec<Vec<i64>> = (0..a.len())
        .map(|j| a.iter().map(|r| r[j]).collect())
        .collect();
    let req = nimbus::api::nash::Request {
        refine: vec![nimbus::api::nash::Refinement::Ess],
        ..Default::default()
    };
    let answer = nimbus::api::nash::solve(&game(a, &at), &req, &Limits::default()).unwrap();
    answer
        .equilibria
        .iter()
        .zip(answer.ess.unwrap())
        .filter(|(e, _)| e.profile[0] == e.profile[1])
        .map(|(e, m)| (e.profile[0].clone(), m))
        .collect()
}

/// Hawk–dove with prize V = 2 and cost C = 4: neither pure strategy is stable, the mix with
/// V/C hawks is (Maynard Smith). Rock–paper–scissors: the centre is stable when a win is worth
/// more than a loss costs, neutral (not an ESS) when they are equal, unstable when less.
#[test]
fn hawk_dove_and_rock_paper_scissors() {
    let half = Q::new(1.into(), 2.into());
    assert_eq!(
        ess_of(&[vec![-1, 2], vec![0, 1]]),
        vec![(vec![half.clone(), half], true)]
    );
    let third = Q::new(1.into(), 3.into());
    let centre = vec![third.clone(), third.clone(), third];
    for (win, loss, stable) in [(2, 1, true), (1, 1, false), (1, 2, false)] {
        let a = vec![
            vec![0, -loss, win],
            vec![win, 0, -loss],
            vec![-loss, win, 0],
        ];
        assert_eq!(ess_of(&a), vec![(centre.clone(), stable)], "{win} {loss}");
    }
}

/// A pure strategy that resists every pure mutant but not a mixture of two (a case the
/// property test found): e4 earns 2 against itself and so do strategies 1 and 2, each alone
/// does worse against e4 than e4 does, but their even mixture earns 3/4 against itself where
/// e4 earns 1/2 against it.
#[test]
fn a_mixture_of_mutants_can_invade_where_none_alone_does() {
    let a = vec![
        vec![0, 2, 0, 2],
        vec![2, -1, 0, 2],
        vec![0, 0, 0, 0],
        vec![1, 0, 0, 2],
    ];
    let e4 = vec![q(0), q(0), q(0), q(1)];
    let marks = ess_of(&a);
    assert!(marks.contains(&(e4.clone(), false)), "{marks:?}");
    let am: Vec<Vec<Q>> = a
        .iter()
        .map(|r| r.iter().map(|&v| q(v)).collect())
        .collect();
    let half = Q::new(1.into(), 2.into());
    assert!(invades(&am, &e4, &[half.clone(), half, q(0), q(0)]));
    for j in 0..3 {
        let pure: Vec<Q> = (0..4).map(|k| q(i64::from(k == j))).collect();
        assert!(!invades(&am, &e4, &pure), "strategy {}", j + 1);
    }
}

/// ESS is refused where it is not defined, naming why.
#[test]
fn ess_needs_a_symmetric_game() {
    let req = nimbus::api::nash::Request {
        refine: vec![nimbus::api::nash::Refinement::Ess],
        ..Default::default()
    };
    let g = game(&[vec![1, 2], vec![0, 1]], &[vec![1, 2], vec![0, 1]]);
    let e = nimbus::api::nash::solve(&g, &req, &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("symmetric"), "{e}");
    let g = game(
        &[vec![1, 2, 3], vec![0, 1, 3]],
        &[vec![1, 2, 3], vec![0, 1, 3]],
    );
    let e = nimbus::api::nash::solve(&g, &req, &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("2 × 3"), "{e}");
}

/// The library's vertices, re-indexed `p[i·n + j]` (it numbers profiles with the first
/// player's strategy changing fastest), sorted.
fn library_vertices(g: &NormalForm, coarse: bool) -> Vec<Vec<Q>> {
    let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
    let found =
        nimbus::strategic::solvers::correlated_vertices::vertices(g, coarse, &Limits::default())
            .unwrap();
    let mut out: Vec<Vec<Q>> = found
        .iter()
        .map(|p| {
            (0..m * n)
                .map(|v| p[g.index(&[v / n, v % n])].clone())
                .collect()
        })
        .collect();
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The double description method finds exactly the vertices that trying every basis
    /// finds, correlated and coarse, once each; every extreme Nash equilibrium is one of them
    /// and is marked, and every vertex marked Nash is an equilibrium.
    #[test]
    fn correlated_vertices_are_every_basis_vertex((a, b) in matrices_in(2, 3, -3..=3)) {
        let g = game(&a, &b);
        let n = g.strategies[1].len();
        for coarse in [false, true] {
            let found = library_vertices(&g, coarse);
            let mut unique = found.clone();
            unique.dedup();
            prop_assert_eq!(unique.len(), found.len());
            prop_assert_eq!(&found, &all_vertices(&ce_rows(&g, coarse), g.strategies[0].len() * n));
        }
        let req = nimbus::api::correlated::Request { vertices: true, ..Default::default() };
        let answer = solve(&g, &req, &Limits::default()).unwrap();
        let listed = answer.vertices.unwrap();
        let found = library_vertices(&g, false);
        prop_assert_eq!(listed.len(), found.len());
        let nash = nimbus::api::nash::solve(&g, &Default::default(), &Limits::default()).unwrap();
        for e in &nash.equilibria {
            let product: Vec<Q> = (0..found[0].len())
                .map(|v| &e.profile[0][v / n] * &e.profile[1][v % n])
                .collect();
            prop_assert!(found.contains(&product), "{:?} is not a vertex", e.profile);
            let payoffs: Vec<String> = e.payoffs.iter().map(nimbus::exact::show).collect();
            prop_assert!(listed.iter().any(|v| v.nash && v.payoffs == payoffs));
        }
        // A vertex marked Nash: its distribution is the product of its marginals, and no
        // player gains against the other's marginal by a pure strategy.
        for v in &listed {
            let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
            let mut p = vec![vec![Q::zero(); n]; m];
            for cell in &v.distribution {
                let i = g.strategies[0].iter().position(|s| *s == cell.profile[0]).unwrap();
                let j = g.strategies[1].iter().position(|s| *s == cell.profile[1]).unwrap();
                p[i][j] = nimbus::api::parse_number(&cell.probability).unwrap();
            }
            let x: Vec<Q> = p.iter().map(|r| r.iter().sum()).collect();
            let y: Vec<Q> = (0..n).map(|j| p.iter().map(|r| &r[j]).sum()).collect();
            let product = (0..m).all(|i| (0..n).all(|j| p[i][j] == &x[i] * &y[j]));
            let u = |k: usize, xs: &[Q], ys: &[Q]| -> Q {
                (0..m).flat_map(|i| (0..n).map(move |j| (i, j)))
                    .map(|(i, j)| &xs[i] * &ys[j] * g.payoff(&[i, j], k))
                    .sum()
            };
            let unit = |len: usize, k: usize| -> Vec<Q> {
                (0..len).map(|t| q(i64::from(t == k))).collect()
            };
            let stable = product
                && (0..m).all(|i| u(0, &unit(m, i), &y) <= u(0, &x, &y))
                && (0..n).all(|j| u(1, &x, &unit(n, j)) <= u(1, &x, &y));
            prop_assert_eq!(v.nash, stable, "{:?}", v.distribution);
        }
    }
}

/// Aumann's chicken: five vertices, the three Nash equilibria and two more, the best of them
/// for welfare Aumann's 21/2.
#[test]
fn chickens_correlated_vertices() {
    let g = game(&[vec![6, 2], vec![7, 0]], &[vec![6, 7], vec![2, 0]]);
    let req = nimbus::api::correlated::Request {
        vertices: true,
        ..Default::default()
    };
    let answer = solve(&g, &req, &Limits::default()).unwrap();
    let vertices = answer.vertices.unwrap();
    let summary: Vec<(String, bool)> = vertices
        .iter()
        .map(|v| (v.payoffs.join(", "), v.nash))
        .collect();
    let expected = [
        ("21/4, 21/4", false),
        ("14/3, 14/3", true),
        ("7, 2", true),
        ("18/5, 18/5", false),
        ("2, 7", true),
    ];
    assert_eq!(
        summary,
        expected
            .iter()
            .map(|(p, n)| (p.to_string(), *n))
            .collect::<Vec<_>>()
    );
}

/// Fictitious play done again the slow way: every round, each strategy's expected payoff
/// against the other's empirical frequencies computed afresh in fractions, the first best
/// reply taken.
fn slow_fictitious_play(g: &NormalForm, start: [Vec<u64>; 2], rounds: u64) -> [Vec<u64>; 2] {
    let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
    let mut counts = start;
    for _ in 0..rounds {
        let freq = |v: &[u64]| -> Vec<Q> {
            let total: u64 = v.iter().sum();
            v.iter()
                .map(|&c| {
                    if total == 0 {
                        Q::zero()
                    } else {
                        Q::new(c.into(), total.into())
                    }
                })
                .collect()
        };
        let (x, y) = (freq(&counts[0]), freq(&counts[1]));
        let row: Vec<Q> = (0..m)
            .map(|i| (0..n).map(|j| g.payoff(&[i, j], 0) * &y[j]).sum())
            .collect();
        let col: Vec<Q> = (0..n)
            .map(|j| (0..m).map(|i| g.payoff(&[i, j], 1) * &x[i]).sum())
            .collect();
        let first_best = |v: &[Q]| {
            let best = v.iter().max().unwrap();
            v.iter().position(|u| u == best).unwrap()
        };
        let (i, j) = (first_best(&row), first_best(&col));
        counts[0][i] += 1;
        counts[1][j] += 1;
    }
    counts
}

/// A fixed-step classical Runge–Kutta run of the one-population replicator equation, with
/// steps far smaller than the adaptive method takes: slow, and independent of it.
fn slow_replicator(a: &[Vec<f64>], x0: &[f64], time: f64) -> Vec<f64> {
    let field = |x: &[f64]| -> Vec<f64> {
        let ax: Vec<f64> = a
            .iter()
            .map(|r| r.iter().zip(x).map(|(u, v)| u * v).sum())
            .collect();
        let mean: f64 = x.iter().zip(&ax).map(|(u, v)| u * v).sum();
        x.iter().zip(&ax).map(|(xi, f)| xi * (f - mean)).collect()
    };
    let steps = (time / 1e-3).round() as usize;
    let h = time / steps as f64;
    let mut x = x0.to_vec();
    let add = |x: &[f64], k: &[f64], s: f64| -> Vec<f64> {
        x.iter().zip(k).map(|(a, b)| a + s * b).collect()
    };
    for _ in 0..steps {
        let k1 = field(&x);
        let k2 = field(&add(&x, &k1, h / 2.0));
        let k3 = field(&add(&x, &k2, h / 2.0));
        let k4 = field(&add(&x, &k3, h));
        for i in 0..x.len() {
            x[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    x
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Fictitious play's counts and exact frequencies equal the slow run's, round by round
    /// at the records.
    #[test]
    fn fictitious_play_agrees_with_the_slow_run(
        (a, b) in matrices_in(4, 4, -3..=3),
        seed in 0u64..1000,
        rounds in 1u64..60,
    ) {
        use nimbus::api::dynamics::{solve as run, Request, Rule};
        let g = game(&a, &b);
        let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
        let start = [
            (0..m).map(|i| (seed >> i) % 3).collect::<Vec<u64>>(),
            (0..n).map(|j| (seed >> (j + 4)) % 3).collect::<Vec<u64>>(),
        ];
        let req = Request {
            rule: Rule::FictitiousPlay,
            rounds,
            points: 2,
            start: Some(start.iter().map(|v| v.iter().map(|&c| q(c as i64)).collect()).collect()),
            ..Default::default()
        };
        let answer = run(&g, &req, &Limits::default()).unwrap();
        let slow = slow_fictitious_play(&g, start, rounds);
        prop_assert_eq!(answer.counts.unwrap(), slow.to_vec());
        let last = answer.points.last().unwrap();
        prop_assert_eq!(last.at, rounds as f64);
        for (k, v) in slow.iter().enumerate() {
            let total: u64 = v.iter().sum();
            let exact: Vec<String> = v
                .iter()
                .map(|&c| nimbus::exact::show(&Q::new(c.into(), total.into())))
                .collect();
            prop_assert_eq!(&last.exact.as_ref().unwrap()[k], &exact);
        }
    }

    /// The replicator equation's adaptive run agrees with a fixed-step one to 1e-6, and the
    /// shares stay on the simplex (their sum within 1e-7 of 1: the flow keeps it, the
    /// integrator's error control holds the drift).
    #[test]
    fn replicator_agrees_with_fixed_steps(
        a in square(3, -4..=4),
        weights in prop::collection::vec(1u32..10, 3),
        time in 1u32..6,
    ) {
        use nimbus::api::dynamics::{solve as run, Request, Rule};
        let n = a.len();
        let at: Vec<Vec<i64>> = (0..n).map(|j| a.iter().map(|r| r[j]).collect()).collect();
        let g = game(&a, &at);
        let total: u32 = weights[..n].iter().sum();
        let start: Vec<Q> = weights[..n].iter().map(|&w| Q::new(w.into(), total.into())).collect();
        let req = Request {
            rule: Rule::Replicator,
            time: f64::from(time),
            points: 3,
            start: Some(vec![start.clone()]),
            ..Default::default()
        };
        let answer = run(&g, &req, &Limits::default()).unwrap();
        let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(|&v| v as f64).collect()).collect();
        let x0: Vec<f64> = start.iter().map(nimbus::exact::to_f64).collect();
        let slow = slow_replicator(&af, &x0, f64::from(time));
        let end = &answer.points.last().unwrap().profile[0];
        for (u, v) in end.iter().zip(&slow) {
            prop_assert!((u - v).abs() < 1e-6, "{:?} against {:?}", end, slow);
        }
        for p in &answer.points {
            prop_assert!((p.profile[0].iter().sum::<f64>() - 1.0).abs() < 1e-7);
        }
    }
}

/// The textbook cases: fictitious play on rock–paper–scissors approaches the uniform
/// equilibrium (Robinson: it converges in zero-sum games), and the replicator equation takes
/// hawk–dove to the mixed ESS with V/C hawks from either side.
#[test]
fn textbook_dynamics() {
    use nimbus::api::dynamics::{solve as run, Request, Rule};
    let rps = game(
        &[vec![0, -1, 1], vec![1, 0, -1], vec![-1, 1, 0]],
        &[vec![0, 1, -1], vec![-1, 0, 1], vec![1, -1, 0]],
    );
    let req = Request {
        rounds: 20_000,
        ..Default::default()
    };
    let answer = run(&rps, &req, &Limits::default()).unwrap();
    for v in &answer.points.last().unwrap().profile {
        for p in v {
            assert!((p - 1.0 / 3.0).abs() < 0.02, "{v:?}");
        }
    }
    let hawk_dove = game(&[vec![-1, 2], vec![0, 1]], &[vec![-1, 0], vec![2, 1]]);
    for start in [(1, 10), (9, 10)] {
        let req = Request {
            rule: Rule::Replicator,
            time: 30.0,
            start: Some(vec![vec![
                Q::new(start.0.into(), start.1.into()),
                Q::new((start.1 - start.0).into(), start.1.into()),
            ]]),
            ..Default::default()
        };
        let answer = run(&hawk_dove, &req, &Limits::default()).unwrap();
        assert_eq!(answer.players, vec!["the population".to_string()]);
        let end = &answer.points.last().unwrap().profile[0];
        assert!((end[0] - 0.5).abs() < 1e-4, "{end:?}");
    }
}

/// Bad settings are refused by name: a start of the wrong shape or not summing to 1,
/// counts that are not whole, no time, one record, three players.
#[test]
fn bad_dynamics_settings_are_refused() {
    use nimbus::api::dynamics::{solve as run, Request, Rule};
    let g = game(&[vec![-1, 2], vec![0, 1]], &[vec![-1, 0], vec![2, 1]]);
    let limits = Limits::default();
    let half = Q::new(1.into(), 2.into());
    let cases: Vec<(Request, &str)> = vec![
        (
            Request {
                start: Some(vec![vec![half.clone(), half.clone()]]),
                ..Default::default()
            },
            "the game needs 2",
        ),
        (
            Request {
                start: Some(vec![vec![half.clone(), q(1)], vec![q(1), q(0)]]),
                ..Default::default()
            },
            "whole numbers",
        ),
        (
            Request {
                rule: Rule::Replicator,
                start: Some(vec![vec![half.clone(), q(1)]]),
                ..Default::default()
            },
            "summing to 1",
        ),
        (
            Request {
                rule: Rule::Replicator,
                time: f64::NAN,
                ..Default::default()
            },
            "time",
        ),
        (
            Request {
                rule: Rule::Replicator,
                time: 0.0,
                ..Default::default()
            },
            "positive time",
        ),
        (
            Request {
                points: 1,
                ..Default::default()
            },
            "points",
        ),
        (
            Request {
                rounds: 0,
                ..Default::default()
            },
            "rounds",
        ),
    ];
    for (req, words) in cases {
        let e = run(&g, &req, &limits).unwrap_err();
        assert!(e.to_string().contains(words), "{e} lacks {words}");
    }
}

/// The replicator field of the symmetric game `a` at `x`, in floating point.
fn field(a: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    let ax: Vec<f64> = a
        .iter()
        .map(|r| r.iter().zip(x).map(|(u, v)| u * v).sum())
        .collect();
    let mean: f64 = x.iter().zip(&ax).map(|(u, v)| u * v).sum();
    x.iter().zip(&ax).map(|(xi, f)| xi * (f - mean)).collect()
}

/// The largest real part of the linearisation's eigenvalues at the rest point `x` of a game
/// with three strategies at most, found another way: the Jacobian by central differences of
/// the field, on the directions inside the support's face (1 × 1 or 2 × 2, whose eigenvalues
/// have closed forms), and the growth rate of each strategy outside it.
fn largest_real_part(a: &[Vec<f64>], x: &[f64]) -> f64 {
    let n = x.len();
    let support: Vec<usize> = (0..n).filter(|&i| x[i] > 0.0).collect();
    let ax: Vec<f64> = a
        .iter()
        .map(|r| r.iter().zip(x).map(|(u, v)| u * v).sum())
        .collect();
    let mean: f64 = x.iter().zip(&ax).map(|(u, v)| u * v).sum();
    let mut worst = f64::NEG_INFINITY;
    for j in (0..n).filter(|j| !support.contains(j)) {
        worst = worst.max(ax[j] - mean);
    }
    let dirs: Vec<Vec<f64>> = support[1..]
        .iter()
        .map(|&j| {
            let mut d = vec![0.0; n];
            d[j] = 1.0;
            d[support[0]] = -1.0;
            d
        })
        .collect();
    let h = 1e-5;
    // Column c: the derivative along direction c, in the coordinates of the directions (the
    // shares of support[1..]).
    let jac: Vec<Vec<f64>> = dirs
        .iter()
        .map(|d| {
            let plus: Vec<f64> = x.iter().zip(d).map(|(u, v)| u + h * v).collect();
            let minus: Vec<f64> = x.iter().zip(d).map(|(u, v)| u - h * v).collect();
            let (fp, fm) = (field(a, &plus), field(a, &minus));
            support[1..]
                .iter()
                .map(|&j| (fp[j] - fm[j]) / (2.0 * h))
                .collect()
        })
        .collect();
    match jac.len() {
        0 => {}
        1 => worst = worst.max(jac[0][0]),
        _ => {
            // Columns are directions: the matrix [[j00, j10], [j01, j11]].
            let tr = jac[0][0] + jac[1][1];
            let det = jac[0][0] * jac[1][1] - jac[1][0] * jac[0][1];
            let disc = tr * tr / 4.0 - det;
            let re = if disc >= 0.0 {
                tr / 2.0 + disc.sqrt()
            } else {
                tr / 2.0
            };
            worst = worst.max(re);
        }
    }
    worst
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Every rest point the library lists solves the rest-point equations exactly; the ones
    /// marked Nash are symmetric equilibria; every ESS is among them and not unstable
    /// (Hofbauer, Schuster and Sigmund: an ESS is asymptotically stable); each verdict agrees
    /// with the largest real part found by finite differences wherever that is clear of zero.
    #[test]
    fn rest_points_and_their_stability(a in square(3, -3..=3)) {
        use nimbus::api::dynamics::{solve as run, Request, Rule, Stability};
        let n = a.len();
        let at: Vec<Vec<i64>> = (0..n).map(|j| a.iter().map(|r| r[j]).collect()).collect();
        let g = game(&a, &at);
        let req = Request { rule: Rule::Replicator, points: 2, ..Default::default() };
        let answer = run(&g, &req, &Limits::default()).unwrap();
        let rests = answer.rest_points.unwrap();
        let am = g.matrix(0);
        let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(|&v| v as f64).collect()).collect();
        let p = |x: &str| nimbus::api::parse_number(x).unwrap();
        for r in &rests {
            let x: Vec<Q> = r.shares.iter().map(|s| p(s)).collect();
            prop_assert_eq!(x.iter().sum::<Q>(), Q::one());
            let ax: Vec<Q> = (0..n).map(|i| (0..n).map(|j| &am[i][j] * &x[j]).sum()).collect();
            let mean: Q = (0..n).map(|i| &x[i] * &ax[i]).sum();
            prop_assert_eq!(&mean, &p(&r.payoff));
            for i in (0..n).filter(|&i| x[i].is_positive()) {
                prop_assert_eq!(&ax[i], &mean);
            }
            prop_assert_eq!(r.nash, ax.iter().all(|v| *v <= mean));
            let xf: Vec<f64> = x.iter().map(nimbus::exact::to_f64).collect();
            let re = largest_real_part(&af, &xf);
            match r.stability {
                Stability::Stable => prop_assert!(re < 1e-6, "{:?}: {}", r.shares, re),
                Stability::Unstable => prop_assert!(re > -1e-6, "{:?}: {}", r.shares, re),
                Stability::Undecided => prop_assert!(re.abs() < 1e-6, "{:?}: {}", r.shares, re),
            }
            if re.abs() > 1e-6 {
                prop_assert_eq!(r.stability == Stability::Stable, re < 0.0, "{:?}: {}", r.shares, re);
            }
        }
        for (x, ess) in ess_of(&a) {
            if ess {
                let shares: Vec<String> = x.iter().map(nimbus::exact::show).collect();
                let found = rests.iter().find(|r| r.shares == shares);
                prop_assert!(found.is_some_and(|r| r.stability != Stability::Unstable), "{:?}", shares);
            }
        }
    }
}

/// Published cases: rock–paper–scissors' centre is a centre (closed orbits: not decided by the
/// linearisation), stable when a win is worth more than a loss, unstable when less; in a
/// coordination game both pure strategies are stable and the mix between them is not.
#[test]
fn rest_points_of_textbook_games() {
    use nimbus::api::dynamics::{solve as run, Request, Rule, Stability};
    let verdicts = |a: &[Vec<i64>]| -> Vec<(Vec<String>, Stability)> {
        let n = a.len();
        let at: Vec<Vec<i64>> = (0..n).map(|j| a.iter().map(|r| r[j]).collect()).collect();
        let req = Request {
            rule: Rule::Replicator,
            points: 2,
            ..Default::default()
        };
        run(&game(a, &at), &req, &Limits::default())
            .unwrap()
            .rest_points
            .unwrap()
            .into_iter()
            .map(|r| (r.shares, r.stability))
            .collect()
    };
    let third = || vec!["1/3".to_string(); 3];
    for (win, loss, want) in [
        (1, 1, Stability::Undecided),
        (2, 1, Stability::Stable),
        (1, 2, Stability::Unstable),
    ] {
        let a = vec![
            vec![0, -loss, win],
            vec![win, 0, -loss],
            vec![-loss, win, 0],
        ];
        let v = verdicts(&a);
        assert!(v.contains(&(third(), want)), "{win} {loss}: {v:?}");
    }
    let v = verdicts(&[vec![2, 0], vec![0, 1]]);
    let s = |x: &[&str]| x.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    assert_eq!(
        v,
        vec![
            (s(&["1", "0"]), Stability::Stable),
            (s(&["0", "1"]), Stability::Stable),
            (s(&["1/3", "2/3"]), Stability::Unstable),
        ]
    );
}

/// A game too large to search every support for rest points still runs: the rest points are
/// left out with a note naming the budget, not the run refused.
#[test]
fn rest_points_past_the_budget_are_left_out() {
    use nimbus::api::dynamics::{solve as run, Request, Rule};
    let n = 30;
    let a: Vec<Vec<i64>> = (0..n)
        .map(|i| (0..n).map(|j| ((i * 7 + j * 3) % 10) as i64).collect())
        .collect();
    let at: Vec<Vec<i64>> = (0..n).map(|j| a.iter().map(|r| r[j]).collect()).collect();
    let req = Request {
        rule: Rule::Replicator,
        points: 2,
        ..Default::default()
    };
    let answer = run(&game(&a, &at), &req, &Limits::default()).unwrap();
    assert!(answer.rest_points.is_none());
    assert!(
        answer.notes.iter().any(|n| n.contains("not listed")),
        "{:?}",
        answer.notes
    );
}
