//! Correlated equilibria against a slower independent method and published results: the LP's
//! optimum against the best vertex of the polytope found by trying every basis (small games),
//! every equilibrium checked against the definition directly, Nash equilibria (which are
//! correlated) never better, coarse ones never worse, and Aumann's chicken.

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

/// The largest welfare over the polytope's vertices, each found by making some of the
/// inequalities tight and solving (every basis tried: slow, and independent of the simplex).
fn best_vertex(g: &NormalForm) -> Q {
    let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
    let vars = m * n;
    let at = |i: usize, j: usize| i * n + j;
    // Inequalities `row · p <= 0`: the incentive constraints and `-p <= 0`.
    let mut rows: Vec<Vec<Q>> = Vec::new();
    for a in 0..m {
        for b in (0..m).filter(|&b| b != a) {
            let mut r = vec![Q::zero(); vars];
            for j in 0..n {
                r[at(a, j)] = g.payoff(&[b, j], 0) - g.payoff(&[a, j], 0);
            }
            rows.push(r);
        }
    }
    for a in 0..n {
        for b in (0..n).filter(|&b| b != a) {
            let mut r = vec![Q::zero(); vars];
            for i in 0..m {
                r[at(i, a)] = g.payoff(&[i, b], 1) - g.payoff(&[i, a], 1);
            }
            rows.push(r);
        }
    }
    for v in 0..vars {
        let mut r = vec![Q::zero(); vars];
        r[v] = -Q::one();
        rows.push(r);
    }
    let welfare: Vec<Q> = (0..vars)
        .map(|v| g.payoff(&[v / n, v % n], 0) + g.payoff(&[v / n, v % n], 1))
        .collect();
    let mut best: Option<Q> = None;
    let mut pick = vec![0usize; vars - 1];
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
    for (i, x) in pick.iter_mut().enumerate() {
        *x = i;
    }
    loop {
        let mut a: Vec<Vec<Q>> = pick.iter().map(|&r| rows[r].clone()).collect();
        a.push(vec![Q::one(); vars]);
        let mut b = vec![Q::zero(); vars - 1];
        b.push(Q::one());
        if let Some(x) = solve_square(a, b) {
            let feasible = rows
                .iter()
                .all(|r| r.iter().zip(&x).map(|(c, v)| c * v).sum::<Q>() <= Q::zero());
            if feasible {
                let w: Q = welfare.iter().zip(&x).map(|(c, v)| c * v).sum();
                if best.as_ref().is_none_or(|b| w > *b) {
                    best = Some(w);
                }
            }
        }
        if !next(&mut pick, rows.len()) {
            break;
        }
    }
    best.expect("the polytope is not empty: every game has a correlated equilibrium")
}

fn matrices(
    max_rows: usize,
    max_cols: usize,
) -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<Vec<i64>>)> {
    (1..=max_rows, 1..=max_cols).prop_flat_map(|(m, n)| {
        let mat = prop::collection::vec(prop::collection::vec(-6i64..=6, n), m);
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
        prop_assert_eq!(&value, &best_vertex(&g));
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
        let mine = solve(&g, &Request { maximize: Target::Player(k), coarse: false }, &limits).unwrap();
        let all = solve(&g, &Request::default(), &limits).unwrap();
        prop_assert!(is_equilibrium(&g, &distribution(&g, &mine), false));
        let p = |x: &str| nimbus::api::parse_number(x).unwrap();
        prop_assert!(p(&mine.payoffs[k - 1]) >= p(&all.payoffs[k - 1]));
        prop_assert_eq!(p(&mine.value), p(&mine.payoffs[k - 1]));
    }
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
