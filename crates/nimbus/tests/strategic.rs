//! Strategic-form games: .nfg files (Gambit's collection) read and written back, matrix input,
//! and matrix games solved by the exact simplex, checked against the definition of the value.

use nimbus::exact::simplex::{maximize, maximize_by_pivoting};
use nimbus::exact::{parse_q, Q};
use nimbus::formats::matrix::parse_matrix;
use nimbus::formats::nfg;
use nimbus::strategic::game::{confirms, expected_payoffs, verify, NormalForm};
use nimbus::strategic::solvers::zerosum::{solve, solve_float};
use num_bigint::BigInt;
use num_traits::{One, Zero};
use proptest::prelude::*;
use std::path::PathBuf;

fn q(s: &str) -> Q {
    parse_q(s).unwrap()
}

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/nfg")
}

#[test]
fn every_shared_nfg_file_parses_and_round_trips() {
    let mut seen = 0;
    for entry in std::fs::read_dir(data()).expect("data/nfg is in the repository") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("nfg") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let game = nfg::parse(&text, &path.display().to_string())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let again = nfg::parse(&nfg::write(&game), "written").unwrap();
        assert_eq!(again, game, "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 15, "only {seen} files");
}

#[test]
fn both_forms_of_the_coordination_game_agree() {
    let read = |f: &str| {
        let p = data().join(f);
        nfg::parse(&std::fs::read_to_string(&p).unwrap(), f).unwrap()
    };
    let (a, b) = (
        read("coordination_4x4_outcome.nfg"),
        read("coordination_4x4_payoff.nfg"),
    );
    for k in 0..16 {
        assert_eq!(a.payoffs_at(k), b.payoffs_at(k), "profile {k}");
    }
    // Decimals are exact: 7.6 is 38/5.
    let e07 = read("e07.nfg");
    assert_eq!(e07.payoff(&[0, 0], 0), &q("38/5"));
    let pd = read("pd.nfg");
    assert_eq!(pd.payoff(&[1, 0], 0), &q("10"));
    assert_eq!(pd.payoff(&[1, 0], 1), &q("0"));
}

#[test]
fn nfg_errors_name_the_place() {
    let err = |t: &str| nfg::parse(t, "g.nfg").expect_err("an error").to_string();
    assert!(err("NFG 1 R \"t\" { \"A\" \"B\" } { 2 2 }\n1 2 3").contains("g.nfg, line 2, column 6: the payoff list has 3 numbers, but 4 profiles of 2 players need 8"));
    assert!(
        err("NFG 1 R \"t\" { \"A\" } { 2 }\n1 x").contains("line 2, column 3: 'x' is not a number")
    );
    assert!(err("NFG 1 R \"t\" { \"A\" \"B\" { 2 2 }\n")
        .contains("line 1, column 23: expected a player's name in quotes, found '{'"));
    assert!(err("NFG 1 R \"t\" { \"A\" \"B\" } { 2 0 }").contains("a player has no strategies"));
    assert!(err("NFG 1 R \"t\" { \"A\" } { { } }").contains("player 1 (A) has no strategies"));
    assert!(err("NFG 1 R \"t\" { \"A\" \"B\" } { 100000 100000 }").contains("pure profiles"));
    assert!(err("NFG 1 R \"t\" { \"A\" } { 1 }\n1 2").contains("unexpected '2'"));
    assert!(
        err("NFG 1 R \"t\" { \"A\" } { { \"a\" } } { { \"o\" 1 } } 2")
            .contains("there is no outcome 2")
    );
    assert!(err("GAME").contains("starts with 'NFG 1 R'"));
}

#[test]
fn matrices_parse_with_places_in_errors() {
    let m = parse_matrix("3 0; 5 1", "--row").unwrap();
    assert_eq!(m, vec![vec![q("3"), q("0")], vec![q("5"), q("1")]]);
    let m = parse_matrix("1/2, -0.25\n# note\n2,3\n", "a.csv").unwrap();
    assert_eq!(m[0][1], q("-1/4"));
    let err = |t: &str| parse_matrix(t, "m").expect_err("an error").to_string();
    assert!(err("1 2; 3").contains("row 2 has 1 entries, but row 1 has 2"));
    assert!(err("1 z").contains("m, line 1, column 3: 'z' is not a number"));
    assert!(err(" ; ").contains("empty"));
}

#[test]
fn known_matrix_games() {
    let rps = parse_matrix("0 -1 1; 1 0 -1; -1 1 0", "rps").unwrap();
    let s = solve(&rps).unwrap();
    assert_eq!(s.value, Q::zero());
    assert!(s.row_strategy.iter().all(|x| *x == q("1/3")));
    assert!(s.col_strategy.iter().all(|x| *x == q("1/3")));
    assert!(s.saddle_points.is_empty());
    let pennies = parse_matrix("1 -1; -1 1", "mp").unwrap();
    let s = solve(&pennies).unwrap();
    assert_eq!(
        (s.value.clone(), s.row_strategy.clone()),
        (Q::zero(), vec![q("1/2"), q("1/2")])
    );
    // A saddle point: value 2 at row 2, column 1; maximin = minimax.
    let s = solve(&parse_matrix("1 4; 2 3", "s").unwrap()).unwrap();
    assert_eq!(s.saddle_points, vec![(1, 0)]);
    assert_eq!(
        (s.maximin.clone(), s.minimax.clone(), s.value.clone()),
        (q("2"), q("2"), q("2"))
    );
}

fn small_matrix() -> impl Strategy<Value = Vec<Vec<i64>>> {
    (1usize..6, 1usize..6)
        .prop_flat_map(|(m, n)| prop::collection::vec(prop::collection::vec(-9i64..10, n), m))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The value by its definition: a row strategy that guarantees at least v against every
    /// column and a column strategy that holds every row to at most v prove v is the value.
    #[test]
    fn lp_value_is_the_minimax_value(raw in small_matrix(), denom in 1i64..4) {
        let a: Vec<Vec<Q>> = raw.iter().map(|r| r.iter().map(|&x| Q::new(x.into(), denom.into())).collect()).collect();
        let s = solve(&a).unwrap();
        let (m, n) = (a.len(), a[0].len());
        let worst_for_row = (0..n).map(|j| (0..m).map(|i| &s.row_strategy[i] * &a[i][j]).sum::<Q>()).min().unwrap();
        let best_for_row = (0..m).map(|i| (0..n).map(|j| &s.col_strategy[j] * &a[i][j]).sum::<Q>()).max().unwrap();
        prop_assert_eq!(&worst_for_row, &s.value);
        prop_assert_eq!(&best_for_row, &s.value);
        prop_assert_eq!(s.row_strategy.iter().sum::<Q>(), Q::one());
        prop_assert!(s.maximin <= s.value && s.value <= s.minimax);
        prop_assert_eq!(s.saddle_points.is_empty(), s.maximin != s.minimax);
        // The profile is a Nash equilibrium of the game (A, -A).
        let b: Vec<Vec<Q>> = a.iter().map(|r| r.iter().map(|x| -x).collect()).collect();
        let game = NormalForm::bimatrix(&a, &b).unwrap();
        let v = verify(&game, &[s.row_strategy.clone(), s.col_strategy.clone()]).unwrap();
        prop_assert!(v.is_equilibrium);
    }

    /// 2 x 2 games without a saddle point: v = (ad − bc) / (a + d − b − c).
    #[test]
    fn two_by_two_closed_form(a in -9i64..10, b in -9i64..10, c in -9i64..10, d in -9i64..10) {
        let m = vec![vec![Q::from_integer(a.into()), Q::from_integer(b.into())], vec![Q::from_integer(c.into()), Q::from_integer(d.into())]];
        let s = solve(&m).unwrap();
        if s.saddle_points.is_empty() {
            let v = Q::new((a * d - b * c).into(), (a + d - b - c).into());
            prop_assert_eq!(s.value, v);
        }
    }

    /// The float-guided exact LP and the exact simplex method alone agree, degenerate right-hand
    /// sides (zeros, ties) included, and the optimum is certified by its dual.
    #[test]
    fn guided_and_pivoting_simplex_agree(
        raw in small_matrix(),
        b in prop::collection::vec(0i64..3, 5),
        c in prop::collection::vec(-2i64..5, 5),
    ) {
        let (m, n) = (raw.len(), raw[0].len());
        // Non-negative A with every column having a positive entry keeps the LP bounded.
        let a: Vec<Vec<BigInt>> = raw.iter().map(|r| r.iter().map(|&x| BigInt::from(x.abs() + 1)).collect()).collect();
        let b: Vec<BigInt> = b[..m].iter().map(|&x| x.into()).collect();
        let c: Vec<BigInt> = c[..n].iter().map(|&x| x.into()).collect();
        let guided = maximize(&a, &b, &c).unwrap();
        let pivoting = maximize_by_pivoting(&a, &b, &c).unwrap();
        prop_assert_eq!(&guided.value, &pivoting.value);
        for s in [&guided, &pivoting] {
            let qa = |i: usize, j: usize| Q::from_integer(a[i][j].clone());
            for (i, bi) in b.iter().enumerate() {
                let lhs: Q = (0..n).map(|j| qa(i, j) * &s.primal[j]).sum();
                prop_assert!(lhs <= Q::from_integer(bi.clone()));
            }
            for (j, cj) in c.iter().enumerate() {
                let lhs: Q = (0..m).map(|i| qa(i, j) * &s.dual[i]).sum();
                prop_assert!(lhs >= Q::from_integer(cj.clone()));
            }
            let dual_value: Q = (0..m).map(|i| Q::from_integer(b[i].clone()) * &s.dual[i]).sum();
            prop_assert_eq!(&dual_value, &s.value);
        }
    }

    /// The floating-point path lands within rounding of the exact value, with a tiny gap.
    #[test]
    fn float_value_matches_exact(raw in small_matrix()) {
        let a: Vec<Vec<Q>> = raw.iter().map(|r| r.iter().map(|&x| Q::from_integer(x.into())).collect()).collect();
        let af: Vec<Vec<f64>> = raw.iter().map(|r| r.iter().map(|&x| x as f64).collect()).collect();
        let exact = nimbus::exact::to_f64(&solve(&a).unwrap().value);
        let f = solve_float(&af).unwrap();
        prop_assert!((f.value - exact).abs() < 1e-9, "{} vs {}", f.value, exact);
        prop_assert!(f.duality_gap.abs() < 1e-9);
        prop_assert!(f.row_guarantee <= exact + 1e-9 && exact <= f.col_guarantee + 1e-9);
    }
}

/// Games of 1 to 3 players with rational payoffs, and a rational mixed profile of each.
fn game_and_profile() -> impl Strategy<Value = (NormalForm, Vec<Vec<Q>>)> {
    prop::collection::vec(1usize..4, 1..4)
        .prop_flat_map(|shape| {
            let players = shape.len();
            let profiles: usize = shape.iter().product();
            let q = (-20i64..20, 1i64..7).prop_map(|(a, b)| Q::new(a.into(), b.into()));
            let payoffs = prop::collection::vec(prop::collection::vec(q, players), profiles);
            let weights: Vec<_> = shape
                .iter()
                .map(|&k| prop::collection::vec(0i64..5, k))
                .collect();
            (Just(shape), payoffs, weights)
        })
        .prop_filter_map("a player with no weight", |(shape, payoffs, weights)| {
            let profile: Vec<Vec<Q>> = weights
                .iter()
                .map(|w| {
                    let total: i64 = w.iter().sum();
                    (total > 0).then(|| w.iter().map(|&x| Q::new(x.into(), total.into())).collect())
                })
                .collect::<Option<_>>()?;
            let names = |k: usize| (0..k).map(|i| i.to_string()).collect::<Vec<_>>();
            let game = NormalForm::new(
                String::new(),
                names(shape.len()),
                shape.iter().map(|&k| names(k)).collect(),
                payoffs,
            )
            .ok()?;
            Some((game, profile))
        })
}

/// Each player's value of each pure strategy against `profile`, summed plainly in rationals.
fn plain_values(g: &NormalForm, profile: &[Vec<Q>]) -> Vec<Vec<Q>> {
    let n = g.players.len();
    let mut want: Vec<Vec<Q>> = g
        .strategies
        .iter()
        .map(|s| vec![Q::zero(); s.len()])
        .collect();
    let count: usize = g.shape().iter().product();
    for k in 0..count {
        let p = g.profile(k);
        for i in 0..n {
            let mut w = Q::one();
            for (j, &s) in p.iter().enumerate() {
                if j != i {
                    w *= &profile[j][s];
                }
            }
            want[i][p[i]] += w * &g.payoffs_at(k)[i];
        }
    }
    want
}

/// A rational, small or past 128 bits.
fn any_q() -> impl Strategy<Value = Q> {
    let big = |e: u32| BigInt::from(10).pow(e);
    (-1000i64..1000, 1i64..50, 0u32..3).prop_map(move |(a, b, size)| {
        let e = [0, 20, 45][size as usize];
        Q::new(
            BigInt::from(a) * big(e) + a.signum(),
            BigInt::from(b) * big(e) + 1,
        )
    })
}

proptest! {
    /// The values of pure strategies, summed over common denominators, equal the plain sum of
    /// rational products.
    #[test]
    fn pure_values_equal_the_plain_rational_sum((g, profile) in game_and_profile()) {
        prop_assert_eq!(g.pure_values(&profile), plain_values(&g, &profile));
    }

    /// The exact check (machine integers for these payoffs) agrees with the definition in
    /// rationals: each payoff, each best reply (the first of the best), the largest gain; and a
    /// profile whose probabilities do not sum to one is still refused with the reason.
    #[test]
    fn the_exact_check_follows_the_definition((g, profile) in game_and_profile()) {
        let want = plain_values(&g, &profile);
        let v = verify(&g, &profile).unwrap();
        let mut gain = Q::zero();
        for i in 0..g.players.len() {
            let pay: Q = want[i].iter().zip(&profile[i]).map(|(a, b)| a * b).sum();
            prop_assert_eq!(&v.payoffs[i], &pay);
            let best = want[i].iter().max().unwrap();
            let s = want[i].iter().position(|x| x == best).unwrap();
            prop_assert_eq!(&v.best_replies[i], &(s, best.clone()));
            gain = gain.max(best - pay);
        }
        prop_assert_eq!(v.is_equilibrium, gain.is_zero());
        prop_assert_eq!(v.max_gain, gain);
        // Confirming a solver's answer: the same verdict, and wrong payoffs refused.
        prop_assert_eq!(confirms(&g, &profile, &v.payoffs).unwrap(), v.is_equilibrium);
        prop_assert_eq!(expected_payoffs(&g, &profile).unwrap(), v.payoffs.clone());
        let mut wrong = v.payoffs.clone();
        wrong[0] += Q::new(1.into(), 3.into());
        prop_assert!(!confirms(&g, &profile, &wrong).unwrap());
        let mut off = profile.clone();
        off[0][0] += Q::new(1.into(), 7.into());
        let e = verify(&g, &off).unwrap_err().to_string();
        prop_assert!(e.contains("sum to 1"), "{}", e);
    }

    /// The same with payoffs too large for machine integers (the `BigInt` path), and the exact
    /// check agrees with the plain sums.
    #[test]
    fn pure_values_with_huge_payoffs((g, profile) in game_and_profile(), factor in any_q()) {
        let payoffs: Vec<Vec<Q>> = (0..g.profiles())
            .map(|k| g.payoffs_at(k).iter().map(|u| u * &factor).collect())
            .collect();
        let g = NormalForm::new(String::new(), g.players.clone(), g.strategies.clone(), payoffs)
            .unwrap();
        let want = plain_values(&g, &profile);
        prop_assert_eq!(g.pure_values(&profile), want.clone());
        let v = verify(&g, &profile).unwrap();
        let best_gain = (0..g.players.len())
            .map(|i| want[i].iter().max().unwrap() - &v.payoffs[i])
            .max()
            .unwrap();
        prop_assert_eq!(&v.max_gain, &best_gain);
        prop_assert_eq!(confirms(&g, &profile, &v.payoffs).unwrap(), best_gain.is_zero());
        prop_assert_eq!(expected_payoffs(&g, &profile).unwrap(), v.payoffs);
    }

    /// The machine-integer shortcuts for fractions agree with `Ratio`'s own operations.
    #[test]
    fn fraction_shortcuts_agree(a in any_q(), b in any_q(), v in prop::collection::vec(any_q(), 0..6)) {
        use nimbus::exact::{cmp_q, over_common_denominator, ratio, show};
        prop_assert_eq!(cmp_q(&a, &b), a.cmp(&b));
        let plain = if a.is_integer() {
            a.numer().to_string()
        } else {
            format!("{}/{}", a.numer(), a.denom())
        };
        prop_assert_eq!(show(&a), plain);
        let r = ratio(a.numer(), b.denom());
        prop_assert_eq!(&r, &Q::new(a.numer().clone(), b.denom().clone()));
        // `Ratio`'s equality holds for unreduced fractions too; the parts must be reduced.
        prop_assert!(num_integer::Integer::gcd(r.numer(), r.denom()).is_one());
        prop_assert!(r.denom() > &BigInt::zero());
        let (nums, d) = over_common_denominator(&v);
        prop_assert!(d > BigInt::zero());
        for (q, n) in v.iter().zip(&nums) {
            prop_assert_eq!(Q::new(n.clone(), d.clone()), q.clone());
        }
        prop_assert!(v.iter().all(|q| (&d % q.denom()).is_zero()));
    }
}
