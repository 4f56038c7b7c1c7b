//! The tracing procedure against an independent method and published theorems.
//!
//! - Against the global Newton method's smooth path in floating point with the prior's
//!   payoffs as its bonus (Balthasar 2010: for two players it is the same path as van den
//!   Elzen and Talman's pivoting), on random generic games and priors: the same equilibrium.
//! - From a completely mixed prior the equilibrium reached is perfect (von Stengel, van den
//!   Elzen and Talman 2002), decided by the independent LP of `perfect.rs`.
//! - Harsanyi and Selten: in a 2 × 2 game with two strict equilibria, the procedure from the
//!   bicentric prior selects the risk-dominant one (the larger product of deviation losses).
//! - Relabelling strategies or players relabels the answer.
//! - Three players: the end is an equilibrium; a third player with a dominant strategy who
//!   affects nobody changes nothing (the n-player route, the global Newton path settled
//!   exactly, selects what the two-player pivoting selects).

use nimbus::api::nash::{parse_select, solve, Method, Request};
use nimbus::api::Limits;
use nimbus::exact::Q;
use nimbus::strategic::bimatrix::Bimatrix;
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::solvers::{gnm, perfect, risk_dominance, tracing};
use num_traits::ToPrimitive;
use proptest::prelude::*;

fn q(x: i64) -> Q {
    Q::from_integer(x.into())
}

fn to_q(a: &[Vec<i64>]) -> Vec<Vec<Q>> {
    a.iter()
        .map(|r| r.iter().map(|&v| q(v)).collect())
        .collect()
}

fn game(a: &[Vec<i64>], b: &[Vec<i64>]) -> NormalForm {
    NormalForm::bimatrix(&to_q(a), &to_q(b)).unwrap()
}

/// A probability vector from positive weights.
fn normalised(w: &[i64]) -> Vec<Q> {
    let total: i64 = w.iter().sum();
    w.iter().map(|&x| Q::new(x.into(), total.into())).collect()
}

fn cases() -> u32 {
    if std::env::var_os("NIMBUS_FULL_TESTS").is_some() {
        1000
    } else {
        100
    }
}

/// Both payoff matrices and the weights of both players' priors.
type Instance = (Vec<Vec<i64>>, Vec<Vec<i64>>, Vec<i64>, Vec<i64>);

/// Two matrices of one shape, entries in `entries`, and a completely mixed prior.
fn instance(
    most: usize,
    entries: std::ops::RangeInclusive<i64>,
) -> impl Strategy<Value = Instance> {
    (2..=most, 2..=most).prop_flat_map(move |(m, n)| {
        let mat = prop::collection::vec(prop::collection::vec(entries.clone(), n), m);
        (
            mat.clone(),
            mat,
            prop::collection::vec(1..=20i64, m),
            prop::collection::vec(1..=20i64, n),
        )
    })
}

fn trace(a: &[Vec<i64>], b: &[Vec<i64>], p: &[Q], r: &[Q]) -> tracing::Traced {
    let g = Bimatrix::new(&game(a, b)).unwrap();
    tracing::trace(&g, p, r, &Limits::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The exact pivoting and the smooth floating-point path end at the same equilibrium on
    /// generic games (payoffs from a wide range, so that ties are rare).
    #[test]
    fn pivoting_and_the_global_newton_path_agree(
        (a, b, wp, wq) in instance(4, -1000..=1000)
    ) {
        let (p, r) = (normalised(&wp), normalised(&wq));
        let exact = trace(&a, &b, &p, &r).equilibrium;
        let g = game(&a, &b);
        let floats = |v: &[Q]| v.iter().map(|x| x.to_f64().unwrap()).collect::<Vec<_>>();
        let opts = gnm::Options {
            prior: Some(vec![floats(&p), floats(&r)]),
            ..gnm::Options::default()
        };
        // The smooth path can fail numerically near a degenerate point; then there is nothing
        // to compare (it rarely does on these games).
        if let Ok(end) = gnm::equilibrium(&g, &opts) {
            for (e, f) in exact.profile.iter().zip(&end.profile) {
                for (x, y) in e.iter().zip(f) {
                    prop_assert!(
                        (x.to_f64().unwrap() - y).abs() < 1e-6,
                        "pivoting ends at {:?}, the smooth path at {:?}",
                        exact.profile,
                        end.profile
                    );
                }
            }
        }
    }

    /// From a completely mixed prior the end is a perfect equilibrium, even in degenerate
    /// games (small payoffs, many ties).
    #[test]
    fn a_completely_mixed_prior_leads_to_a_perfect_equilibrium(
        (a, b, wp, wq) in instance(4, -3..=3)
    ) {
        let (p, r) = (normalised(&wp), normalised(&wq));
        let e = trace(&a, &b, &p, &r).equilibrium;
        let g = game(&a, &b);
        let limits = Limits::default();
        let bt: Vec<Vec<Q>> = (0..b[0].len())
            .map(|j| (0..b.len()).map(|i| q(b[i][j])).collect())
            .collect();
        prop_assert!(perfect::best_reply_to_completely_mixed(&g.matrix(0), &e.profile[0], &limits).unwrap());
        prop_assert!(perfect::best_reply_to_completely_mixed(&bt, &e.profile[1], &limits).unwrap());
    }

    /// Relabelling the strategies (reversing both players' orders) and the players
    /// (transposing) relabels the selected equilibrium, on generic games.
    #[test]
    fn relabelling_relabels_the_selection((a, b, wp, wq) in instance(4, -1000..=1000)) {
        let (p, r) = (normalised(&wp), normalised(&wq));
        let e = trace(&a, &b, &p, &r).equilibrium.profile;
        let rev = |m: &[Vec<i64>]| -> Vec<Vec<i64>> {
            m.iter().rev().map(|row| row.iter().rev().cloned().collect()).collect()
        };
        let rq = |v: &[Q]| v.iter().rev().cloned().collect::<Vec<_>>();
        let reversed = trace(&rev(&a), &rev(&b), &rq(&p), &rq(&r)).equilibrium.profile;
        prop_assert_eq!(&reversed[0], &rq(&e[0]));
        prop_assert_eq!(&reversed[1], &rq(&e[1]));
        let tr = |m: &[Vec<i64>]| -> Vec<Vec<i64>> {
            (0..m[0].len()).map(|j| m.iter().map(|row| row[j]).collect()).collect()
        };
        let swapped = trace(&tr(&b), &tr(&a), &r, &p).equilibrium.profile;
        prop_assert_eq!(&swapped[0], &e[1]);
        prop_assert_eq!(&swapped[1], &e[0]);
    }

    /// Harsanyi and Selten's theorem on 2 × 2 games: from the bicentric prior (each player
    /// plays their best reply to a belief drawn uniformly) the procedure selects the
    /// risk-dominant strict equilibrium.
    #[test]
    fn the_bicentric_prior_selects_the_risk_dominant_equilibrium(
        u1 in 1..50i64, u2 in 1..50i64, v1 in 1..50i64, v2 in 1..50i64,
        a01 in -20..20i64, a10 in -20..20i64, b01 in -20..20i64, b10 in -20..20i64,
    ) {
        prop_assume!(u1 * v1 != u2 * v2);
        // (Top, Left) and (Bottom, Right) strict, with deviation losses u1, v1 and u2, v2.
        let a = vec![vec![a10 + u1, a01], vec![a10, a01 + u2]];
        let b = vec![vec![b01 + v1, b01], vec![b10, b10 + v2]];
        let p = vec![Q::new(u1.into(), (u1 + u2).into()), Q::new(u2.into(), (u1 + u2).into())];
        let r = vec![Q::new(v1.into(), (v1 + v2).into()), Q::new(v2.into(), (v1 + v2).into())];
        let e = trace(&a, &b, &p, &r).equilibrium.profile;
        let first = u1 * v1 > u2 * v2;
        prop_assert_eq!(e[0][0] == q(1), first);
        prop_assert_eq!(e[1][0] == q(1), first);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Risk dominance through the api on 2 × 2 games with two strict equilibria: the one with
    /// the larger product of deviation losses is selected (Harsanyi and Selten), both are
    /// listed when the products are equal; the bicentric prior is the hand-computed one.
    #[test]
    fn risk_dominance_is_the_larger_product_of_deviation_losses(
        u1 in 1..30i64, u2 in 1..30i64, v1 in 1..30i64, v2 in 1..30i64,
        a01 in -20..20i64, a10 in -20..20i64, b01 in -20..20i64, b10 in -20..20i64,
    ) {
        let a = vec![vec![a10 + u1, a01], vec![a10, a01 + u2]];
        let b = vec![vec![b01 + v1, b01], vec![b10, b10 + v2]];
        let g = game(&a, &b);
        let prior = risk_dominance::bicentric(&Bimatrix::new(&g).unwrap(), [0, 0], [1, 1]);
        prop_assert_eq!(&prior[0], &normalised(&[u1, u2]));
        prop_assert_eq!(&prior[1], &normalised(&[v1, v2]));
        let (method, prior) = parse_select("risk-dominance").unwrap();
        let req = Request { method, prior, ..Request::default() };
        let r = solve(&g, &req, &Limits::default()).unwrap();
        let top_left = |e: &nimbus::api::nash::Equilibrium| e.profile[0][0] == q(1) && e.profile[1][0] == q(1);
        match (u1 * v1).cmp(&(u2 * v2)) {
            std::cmp::Ordering::Greater => {
                prop_assert_eq!(r.equilibria.len(), 1);
                prop_assert!(top_left(&r.equilibria[0]));
            }
            std::cmp::Ordering::Less => {
                prop_assert_eq!(r.equilibria.len(), 1);
                prop_assert!(!top_left(&r.equilibria[0]));
            }
            std::cmp::Ordering::Equal => prop_assert_eq!(r.equilibria.len(), 2),
        }
    }

    /// The bicentric prior against a slower way to the same measure: each player's best reply
    /// at 20 000 evenly spread beliefs, counted (equal to within the grid's step times the
    /// strategies, ties split as the prior splits them).
    #[test]
    fn the_bicentric_prior_is_the_measure_of_best_replies(
        (a, b, _, _) in instance(4, -9..=9),
        picks in prop::collection::vec(0usize..16, 4),
    ) {
        let g = game(&a, &b);
        let (m, n) = (a.len(), a[0].len());
        let e = [picks[0] % m, picks[1] % n];
        let f = [picks[2] % m, picks[3] % n];
        let prior = risk_dominance::bicentric(&Bimatrix::new(&g).unwrap(), e, f);
        let steps = 20_000;
        let counted = |mine: usize, value: &dyn Fn(usize, f64) -> f64| -> Vec<f64> {
            let mut share = vec![0.0; mine];
            for k in 0..steps {
                let z = (k as f64 + 0.5) / steps as f64;
                let values: Vec<f64> = (0..mine).map(|s| value(s, z)).collect();
                let top = values.iter().cloned().fold(f64::MIN, f64::max);
                let best: Vec<usize> = (0..mine).filter(|&s| values[s] >= top - 1e-12).collect();
                for s in &best {
                    share[*s] += 1.0 / (best.len() * steps) as f64;
                }
            }
            share
        };
        let rows = counted(m, &|s, z| z * a[s][e[1]] as f64 + (1.0 - z) * a[s][f[1]] as f64);
        let columns = counted(n, &|t, z| z * b[e[0]][t] as f64 + (1.0 - z) * b[f[0]][t] as f64);
        for (exact, counted) in prior[0].iter().zip(&rows).chain(prior[1].iter().zip(&columns)) {
            prop_assert!((exact.to_f64().unwrap() - counted).abs() < 1e-3, "{exact} {counted}");
        }
    }
}

/// Risk dominance among three strict equilibria: the diagonal game 4, 3, 2 — each pair's
/// bicentric prior favours the larger diagonal payoff, and (1, 1) dominates both others. On a
/// tree, with a prior, or with three players it is refused with a reason.
#[test]
fn risk_dominance_ranks_three_equilibria_and_is_refused_where_it_does_not_apply() {
    let d = vec![vec![4, 0, 0], vec![0, 3, 0], vec![0, 0, 2]];
    let (method, prior) = parse_select("risk-dominance").unwrap();
    let req = Request {
        method,
        prior,
        ..Request::default()
    };
    let r = solve(&game(&d, &d), &req, &Limits::default()).unwrap();
    assert_eq!(r.method, Method::RiskDominance);
    assert_eq!(r.equilibria.len(), 1);
    assert_eq!(r.equilibria[0].profile[0], vec![q(1), q(0), q(0)]);
    assert_eq!(r.notes.len(), 3);
    assert!(
        r.notes[0].contains("(1, 1) risk-dominates (2, 2)"),
        "{:?}",
        r.notes
    );
    assert!(r.notes[0].contains("4/7 3/7 0"), "{:?}", r.notes);
    let refused = parse_select("risk-dominance:1/2,1/2,1/2,1/2")
        .unwrap_err()
        .to_string();
    assert!(refused.contains("takes no prior"), "{refused}");
    let tree = nimbus::api::tree::choose("auto", Some("risk-dominance"))
        .unwrap_err()
        .to_string();
    assert!(tree.contains("strategic form"), "{tree}");
    // The budget holds over every pair together, and is named as given.
    let small = Limits {
        max_work: 40,
        ..Limits::default()
    };
    let e = solve(&game(&d, &d), &req, &small).unwrap_err().to_string();
    assert!(e.contains("risk dominance's tracing paths (3 pairs"), "{e}");
    assert!(e.contains("limit of 40"), "{e}");
    // One pure equilibrium: nothing to compare, and it is the answer.
    let pd = solve(
        &game(&[vec![3, 0], vec![5, 1]], &[vec![3, 5], vec![0, 1]]),
        &req,
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(pd.equilibria.len(), 1);
    assert!(pd.notes[0].contains("1 pure equilibrium"), "{:?}", pd.notes);
}

/// A prior whose best replies are a strict equilibrium selects it, in a game with two other
/// equilibria (one mixed): the path does not move.
#[test]
fn best_replies_to_the_prior_that_are_a_strict_equilibrium_stay() {
    let a = vec![vec![4, 0, 0], vec![0, 3, 0], vec![0, 0, 2]];
    for (prior, k) in [
        ("tracing", 0),
        ("tracing:0,1/2,1/2,0,1/2,1/2", 1),
        ("tracing:0.1,0.2,0.7,0.1,0.2,0.7", 2),
    ] {
        let (method, prior) = parse_select(prior).unwrap();
        let req = Request {
            method,
            prior,
            ..Request::default()
        };
        let r = solve(&game(&a, &a), &req, &Limits::default()).unwrap();
        assert_eq!(r.method, Method::Tracing);
        assert_eq!(r.equilibria.len(), 1);
        let t = r.tracing.unwrap();
        assert_eq!(t.start, vec![k, k]);
        let mut pure = vec![q(0); 3];
        pure[k] = q(1);
        assert_eq!(r.equilibria[0].profile, vec![pure.clone(), pure]);
    }
}

/// Three players: random games end at an equilibrium (checked exactly by the API), and a
/// coordination game keeps the strict equilibrium of best replies to the prior.
#[test]
fn three_players_end_at_an_equilibrium() {
    // A fixed xorshift sequence: the same twenty games every run.
    let mut state = 46u64;
    let mut draw = |lo: i64, hi: i64| -> i64 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        lo + (state % (hi - lo + 1) as u64) as i64
    };
    let mut ended = 0;
    for _ in 0..20 {
        let shape = [2, 2, 2];
        let payoffs: Vec<Vec<Q>> = (0..8)
            .map(|_| (0..3).map(|_| q(draw(-50, 50))).collect::<Vec<_>>())
            .collect();
        let g = NormalForm::new(
            String::new(),
            vec!["A".into(), "B".into(), "C".into()],
            shape
                .iter()
                .map(|&k| (1..=k).map(|s| s.to_string()).collect())
                .collect(),
            payoffs,
        )
        .unwrap();
        let weights: Vec<i64> = (0..6).map(|_| draw(1, 9)).collect();
        let prior: Vec<Q> = weights.chunks(2).flat_map(normalised).collect();
        let req = Request {
            method: Method::Tracing,
            prior: Some(prior),
            ..Request::default()
        };
        if let Ok(r) = solve(&g, &req, &Limits::default()) {
            assert!(r.equilibria.len() + r.enumeration.map_or(0, |e| e.certified.len()) >= 1);
            ended += 1;
        }
    }
    assert!(ended >= 18, "only {ended} of 20 paths ended");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases() / 4))]

    /// The n-player route (the global Newton path with the prior's payoffs as bonus, settled
    /// exactly) against the exact two-player pivoting: a two-player game with a third player
    /// added who has a strictly dominant strategy and does not affect the others selects the
    /// same equilibrium for the first two.
    #[test]
    fn three_players_with_a_bystander_select_as_two((a, b, wp, wq) in instance(3, -1000..=1000)) {
        let (p, r) = (normalised(&wp), normalised(&wq));
        let two = trace(&a, &b, &p, &r).equilibrium.profile;
        let (m, n) = (a.len(), a[0].len());
        // Profiles first player fastest: (i, j, k) at i + m (j + n k).
        let mut payoffs = Vec::with_capacity(2 * m * n);
        for k in 0..2 {
            for j in 0..n {
                for i in 0..m {
                    payoffs.push(vec![q(a[i][j]), q(b[i][j]), q(i64::from(k == 0))]);
                }
            }
        }
        let names = |c: usize| (1..=c).map(|s| s.to_string()).collect::<Vec<_>>();
        let g = NormalForm::new(
            String::new(),
            vec!["1".into(), "2".into(), "3".into()],
            vec![names(m), names(n), names(2)],
            payoffs,
        )
        .unwrap();
        let mut prior: Vec<Q> = p.clone();
        prior.extend(r.iter().cloned());
        prior.extend([Q::new(1.into(), 3.into()), Q::new(2.into(), 3.into())]);
        let req = Request {
            method: Method::Tracing,
            prior: Some(prior),
            ..Request::default()
        };
        // The smooth path can fail numerically near a degenerate point: nothing to compare.
        if let Ok(three) = solve(&g, &req, &Limits::default()) {
            prop_assert_eq!(three.equilibria.len(), 1);
            let e = &three.equilibria[0].profile;
            prop_assert_eq!(&e[0], &two[0]);
            prop_assert_eq!(&e[1], &two[1]);
            prop_assert_eq!(&e[2], &vec![q(1), q(0)]);
        }
    }
}
