//! Every equilibrium of n-player games by support enumeration with certified solutions:
//! published games, games built around a chosen equilibrium, and vertex enumeration for two
//! players; every exact equilibrium verified exactly, every certified box checked by an
//! independent floating-point regret.

use nimbus::exact::Q;
use nimbus::formats::nfg;
use nimbus::strategic::bimatrix::Bimatrix;
use nimbus::strategic::game::{verify, NormalForm};
use nimbus::strategic::solvers::enumpoly::{enumerate, Options, Report};
use nimbus::strategic::solvers::vertex;
use num_traits::{Signed, ToPrimitive, Zero};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn data(name: &str) -> NormalForm {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/nfg")
        .join(name);
    nfg::parse(&std::fs::read_to_string(&path).unwrap(), name).unwrap()
}

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// The largest gain from a pure deviation at a profile of doubles, by direct summation over
/// every pure profile: an independent check of the certified boxes.
/// Also each player's payoff, by the same summation.
fn float_regret_and_payoffs(g: &NormalForm, profile: &[Vec<f64>]) -> (f64, Vec<f64>) {
    let n = profile.len();
    let shape = g.shape();
    let mut worst: f64 = 0.0;
    let mut payoffs = Vec::with_capacity(n);
    for i in 0..n {
        let mut values = vec![0.0; shape[i]];
        for k in 0..g.profiles() {
            let p = g.profile(k);
            let w: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| profile[j][p[j]])
                .product();
            values[p[i]] += w * g.payoffs_at(k)[i].to_f64().unwrap();
        }
        let expected: f64 = values.iter().zip(&profile[i]).map(|(v, x)| v * x).sum();
        let best = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        worst = worst.max(best - expected);
        payoffs.push(expected);
    }
    (worst, payoffs)
}

/// Every exact equilibrium verified exactly; every certified box narrow, its bound small, and
/// its centre an equilibrium by the independent float check.
fn check(g: &NormalForm, r: &Report) {
    for e in &r.exact {
        assert!(verify(g, e).unwrap().is_equilibrium, "{e:?}");
    }
    for c in &r.certified {
        let mid: Vec<Vec<f64>> = c
            .lower
            .iter()
            .zip(&c.upper)
            .map(|(l, h)| {
                l.iter()
                    .zip(h)
                    .map(|(a, b)| ((a + b) / q(2)).to_f64().unwrap())
                    .collect()
            })
            .collect();
        let (regret, payoffs) = float_regret_and_payoffs(g, &mid);
        assert!(regret < 1e-9, "{mid:?}");
        // Payoff intervals: narrow, holding the payoff, and written in few digits (rounded
        // outward to a grid near the digits asked for).
        for ((l, h), v) in c.payoffs_lower.iter().zip(&c.payoffs_upper).zip(&payoffs) {
            assert!(l <= h && h - l < Q::new(1.into(), 1_000_000_000_000i64.into()));
            let (l, h) = (l.to_f64().unwrap(), h.to_f64().unwrap());
            assert!(l - 1e-9 <= *v && *v <= h + 1e-9, "{l} {v} {h}");
        }
        for p in c.payoffs_lower.iter().chain(&c.payoffs_upper) {
            assert!(p.denom().bits() < 160, "{p}");
        }
        assert!(c.regret_bound < Q::new(1.into(), 1_000_000_000.into()));
        for (l, h) in c.lower.iter().flatten().zip(c.upper.iter().flatten()) {
            assert!(l <= h && h - l < Q::new(1.into(), 1_000_000_000_000i64.into()));
        }
    }
}

#[test]
fn mckelvey_mclennan_2x2x2_has_nine_two_totally_mixed() {
    let g = data("2x2x2.nfg");
    let r = enumerate(&g, &Options::default()).unwrap();
    check(&g, &r);
    assert_eq!(r.exact.len(), 9);
    assert!(r.certified.is_empty() && r.unresolved.is_empty() && r.stopped.is_none());
    let mixed = r
        .exact
        .iter()
        .filter(|e| e.iter().flatten().all(Signed::is_positive))
        .count();
    assert_eq!(mixed, 2);
    // The same list, in the same order, every run.
    let again = enumerate(&g, &Options::default()).unwrap();
    assert_eq!(r.exact, again.exact);
}

#[test]
fn gambit_3x3x3_has_five_one_irrational() {
    let g = data("3x3x3.nfg");
    let r = enumerate(&g, &Options::default()).unwrap();
    check(&g, &r);
    assert_eq!(r.exact.len(), 4);
    assert_eq!(r.certified.len(), 1);
    assert!(r.unresolved.is_empty());
    let pure = r
        .exact
        .iter()
        .filter(|e| e.iter().flatten().all(|x| x.is_zero() || *x == q(1)))
        .count();
    assert_eq!(pure, 2);
    // Narrower boxes when asked for more digits.
    let fine = enumerate(
        &g,
        &Options {
            digits: 40,
            ..Options::default()
        },
    )
    .unwrap();
    let c = &fine.certified[0];
    for (l, h) in c.lower.iter().flatten().zip(c.upper.iter().flatten()) {
        assert!(h - l < Q::new(1.into(), num_traits::pow(num_bigint::BigInt::from(10), 40)));
    }
    assert!(c.lower[0][0] <= fine.certified[0].upper[0][0]);
}

#[test]
fn a_three_by_three_coordination_game_has_seven() {
    let g = data("coord3.nfg");
    let r = enumerate(&g, &Options::default()).unwrap();
    check(&g, &r);
    assert_eq!(r.exact.len() + r.certified.len(), 7);
}

#[test]
fn stops_say_what_they_covered() {
    let g = data("3x3x3.nfg");
    let all = enumerate(&g, &Options::default()).unwrap();
    let some = enumerate(
        &g,
        &Options {
            max_supports: Some(40),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(some.examined, 40);
    assert!(some
        .stopped
        .as_deref()
        .unwrap()
        .contains("support profiles was reached"));
    assert!(some.exact.iter().all(|e| all.exact.contains(e)));
    let with_work = |max_work| {
        let r = enumerate(
            &g,
            &Options {
                max_work,
                ..Options::default()
            },
        )
        .unwrap();
        assert!(r.stopped.as_deref().unwrap().contains("work budget"));
        r.examined
    };
    assert!(with_work(1000) < all.examined);
    // Profiles settled without a box (pruned, or solved by linear algebra: every pure one
    // here) count too, so a budget smaller than one profile's table stops before the first.
    assert_eq!(with_work(1), 0);
}

/// A game with `sigma` among its equilibria: random payoffs, each of player i's strategies
/// shifted by a constant (which changes nobody else's payoff) so that the support's strategies
/// all pay the same against `sigma` and the others pay less.
fn game_around(shape: &[usize], raw: &[i64], sigma: &[Vec<Q>], gaps: &[i64]) -> NormalForm {
    let n = shape.len();
    let count: usize = shape.iter().product();
    let mut payoffs: Vec<Vec<Q>> = (0..count)
        .map(|k| (0..n).map(|i| q(raw[(k * n + i) % raw.len()])).collect())
        .collect();
    let names = |m: usize| (0..m).map(|t| t.to_string()).collect::<Vec<_>>();
    let base = NormalForm::new(
        String::new(),
        (0..n).map(|i| format!("P{i}")).collect(),
        shape.iter().map(|&m| names(m)).collect(),
        payoffs.clone(),
    )
    .unwrap();
    for i in 0..n {
        // What each strategy of player i pays against the others' sigma.
        let mut value = vec![Q::zero(); shape[i]];
        for k in 0..count {
            let p = base.profile(k);
            let mut w = Q::from_integer(1.into());
            for j in (0..n).filter(|&j| j != i) {
                w *= &sigma[j][p[j]];
            }
            value[p[i]] += w * &base.payoffs_at(k)[i];
        }
        let top = value.iter().max().unwrap().clone();
        for (k, row) in payoffs.iter_mut().enumerate() {
            let s = base.profile(k)[i];
            let gap = if sigma[i][s].is_zero() {
                q(gaps[(i + s) % gaps.len()])
            } else {
                Q::zero()
            };
            row[i] += &top - &value[s] - gap;
        }
    }
    NormalForm::new(
        String::new(),
        base.players.clone(),
        base.strategies.clone(),
        payoffs,
    )
    .unwrap()
}

fn planted() -> impl Strategy<Value = (Vec<usize>, Vec<i64>, Vec<Vec<Q>>, Vec<i64>)> {
    prop_oneof![
        Just(vec![2, 2, 2]),
        Just(vec![3, 2, 2]),
        Just(vec![3, 3, 2]),
        Just(vec![2, 2, 2, 2]),
        Just(vec![2, 2, 2, 2, 2]),
    ]
    .prop_flat_map(|shape| {
        let count: usize = shape.iter().product::<usize>() * shape.len();
        let sigma = shape
            .iter()
            .map(|&m| {
                // Weights 0..4 (at least one positive): the probabilities are weight / total.
                proptest::collection::vec(0i64..4, m).prop_map(|mut w| {
                    if w.iter().all(|&x| x == 0) {
                        w[0] = 1;
                    }
                    let total: i64 = w.iter().sum();
                    w.iter().map(|&x| Q::new(x.into(), total.into())).collect()
                })
            })
            .collect::<Vec<_>>();
        (
            Just(shape),
            proptest::collection::vec(-20i64..20, count),
            sigma,
            proptest::collection::vec(1i64..5, 4),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A game built around a chosen equilibrium: the enumeration finds it, exactly, among
    /// equilibria that all verify.
    #[test]
    fn finds_a_planted_equilibrium((shape, raw, sigma, gaps) in planted()) {
        let g = game_around(&shape, &raw, &sigma, &gaps);
        prop_assert!(verify(&g, &sigma).unwrap().is_equilibrium);
        let r = enumerate(&g, &Options::default()).unwrap();
        check(&g, &r);
        prop_assert!(r.stopped.is_none());
        let found = r.exact.contains(&sigma)
            || r.unresolved.iter().any(|u| {
                u.lower.iter().flatten().zip(sigma.iter().flatten()).all(|(l, s)| l <= s)
                    && u.upper.iter().flatten().zip(sigma.iter().flatten()).all(|(h, s)| s <= h)
            });
        prop_assert!(found, "{sigma:?} not among {:?}", r.exact);
    }
}

fn bimatrix(max: i64) -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<Vec<i64>>)> {
    (1usize..5, 1usize..5).prop_flat_map(move |(m, n)| {
        let mat = proptest::collection::vec(proptest::collection::vec(0..max, n), m);
        (mat.clone(), mat)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// For two players the equations are linear and vertex enumeration knows every
    /// equilibrium: on nondegenerate games (wide payoff ranges) the two lists agree.
    #[test]
    fn two_players_agree_with_vertex_enumeration((a, b) in bimatrix(1000)) {
        let conv = |m: &[Vec<i64>]| -> Vec<Vec<Q>> {
            m.iter().map(|r| r.iter().map(|&x| q(x)).collect()).collect()
        };
        let g = NormalForm::bimatrix(&conv(&a), &conv(&b)).unwrap();
        let v = vertex::enumerate(&Bimatrix::new(&g).unwrap(), 1_000_000, u64::MAX).unwrap();
        prop_assume!(v.components.iter().all(|c| c.rows.len() == 1 && c.cols.len() == 1));
        let r = enumerate(&g, &Options::default()).unwrap();
        check(&g, &r);
        prop_assert!(r.certified.is_empty() && r.unresolved.is_empty());
        let ours: BTreeSet<Vec<Vec<Q>>> = r.exact.into_iter().collect();
        let theirs: BTreeSet<Vec<Vec<Q>>> = v.equilibria.into_iter().map(|e| e.profile).collect();
        prop_assert_eq!(ours, theirs);
    }
}

/// The subdivision of a large support profile is shared among the cores in rounds, in an
/// order that depends on how many there are; the report must not. A seeded 4×4×4 game (the
/// benchmark's generator: payoffs 0..99 from a linear congruential sequence) on one, two and
/// three threads (the benchmark's 4×4×4 #0).
#[test]
fn the_answer_does_not_depend_on_the_number_of_threads() {
    let shape = [4usize, 4, 4];
    let mut s: u64 = 0;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        q(((s >> 33) % 100) as i64)
    };
    let payoffs: Vec<Vec<Q>> = (0..64).map(|_| (0..3).map(|_| next()).collect()).collect();
    let names = |m: usize| (0..m).map(|t| t.to_string()).collect::<Vec<_>>();
    let g = NormalForm::new(
        "seeded".into(),
        (0..3).map(|i| format!("P{i}")).collect(),
        shape.iter().map(|&m| names(m)).collect(),
        payoffs,
    )
    .unwrap();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| enumerate(&g, &Options::default()).unwrap());
        check(&g, &r);
        format!(
            "{:?} {:?} {:?} {}",
            r.exact, r.certified, r.unresolved, r.boxes
        )
    };
    let one = run(1);
    assert!(one.len() > 100, "{one}");
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}
