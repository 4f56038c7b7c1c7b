//! Nash equilibria: vertex enumeration, support enumeration, Lemke–Howson, pure equilibria,
//! the 2 × 2 indifference method and dominance, each checked against the definition and
//! against the others on random games, and on the textbook games.

use nimbus::exact::{parse_q, Q};
use nimbus::formats::nfg;
use nimbus::strategic::bimatrix::{Bimatrix, Equilibrium};
use nimbus::strategic::game::{verify, NormalForm};
use nimbus::strategic::solvers::pure::{eliminate, pure_equilibria, Dominator};
use nimbus::strategic::solvers::{lemke, support, two_by_two, vertex};
use num_traits::{One, Zero};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::path::PathBuf;

const LIMIT: u64 = 1_000_000;

fn q(s: &str) -> Q {
    parse_q(s).unwrap()
}

fn game(a: &[Vec<i64>], b: &[Vec<i64>]) -> NormalForm {
    let conv = |m: &[Vec<i64>]| -> Vec<Vec<Q>> {
        m.iter()
            .map(|r| r.iter().map(|&x| Q::from_integer(x.into())).collect())
            .collect()
    };
    NormalForm::bimatrix(&conv(a), &conv(b)).unwrap()
}

fn parse(text: &str) -> Vec<Vec<i64>> {
    text.split(';')
        .map(|r| r.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect()
}

fn profiles(eqs: &[Equilibrium]) -> BTreeSet<Vec<Vec<Q>>> {
    eqs.iter().map(|e| e.profile.clone()).collect()
}

fn all_verify(g: &NormalForm, eqs: &[Equilibrium]) {
    for e in eqs {
        let v = verify(g, &e.profile).unwrap();
        assert!(v.is_equilibrium, "{:?}", e.profile);
        assert_eq!(v.payoffs, e.payoffs);
    }
}

fn vertex_eqs(g: &NormalForm) -> vertex::Enumeration {
    let e = vertex::enumerate(&Bimatrix::new(g).unwrap(), LIMIT, u64::MAX).unwrap();
    // Each equilibrium's pair names its own two strategies, and distinct indices distinct
    // strategies.
    for (k, &(r, c)) in e.pairs.iter().enumerate() {
        assert_eq!(
            e.equilibria[e.row_strategies[r]].profile[0],
            e.equilibria[k].profile[0]
        );
        assert_eq!(
            e.equilibria[e.col_strategies[c]].profile[1],
            e.equilibria[k].profile[1]
        );
    }
    let distinct = |list: &[usize], side: usize| {
        list.iter()
            .map(|&k| e.equilibria[k].profile[side].clone())
            .collect::<BTreeSet<_>>()
            .len()
    };
    assert_eq!(distinct(&e.row_strategies, 0), e.row_strategies.len());
    assert_eq!(distinct(&e.col_strategies, 1), e.col_strategies.len());
    e
}

fn pure_profile(shape: &[usize], p: &[usize]) -> Vec<Vec<Q>> {
    p.iter()
        .zip(shape)
        .map(|(&s, &n)| {
            (0..n)
                .map(|i| if i == s { Q::one() } else { Q::zero() })
                .collect()
        })
        .collect()
}

#[test]
fn prisoners_dilemma_has_only_defect_defect() {
    let g = game(&parse("3 0; 5 1"), &parse("3 5; 0 1"));
    let e = vertex_eqs(&g);
    assert_eq!(
        profiles(&e.equilibria),
        BTreeSet::from([pure_profile(&[2, 2], &[1, 1])])
    );
    assert_eq!(pure_equilibria(&g), vec![vec![1, 1]]);
    // Defect strictly dominates cooperate for both.
    let r = eliminate(&g, false, false).unwrap();
    assert_eq!(r.kept, vec![vec![1], vec![1]]);
    assert_eq!(r.steps.len(), 2);
}

#[test]
fn matching_pennies_and_rock_paper_scissors_are_uniform() {
    for (a, n) in [("1 -1; -1 1", 2), ("0 -1 1; 1 0 -1; -1 1 0", 3)] {
        let a = parse(a);
        let b: Vec<Vec<i64>> = a.iter().map(|r| r.iter().map(|x| -x).collect()).collect();
        let g = game(&a, &b);
        let uniform = vec![vec![Q::new(1.into(), (n as i64).into()); n]; 2];
        let e = vertex_eqs(&g);
        assert_eq!(profiles(&e.equilibria), BTreeSet::from([uniform.clone()]));
        assert!(e.equilibria[0].payoffs.iter().all(Zero::is_zero));
        let s = support::enumerate(&Bimatrix::new(&g).unwrap()).unwrap();
        assert_eq!(profiles(&s.equilibria), BTreeSet::from([uniform.clone()]));
        let lh = lemke::from_every_label(&Bimatrix::new(&g).unwrap()).unwrap();
        assert_eq!(lh.len(), 1);
        assert_eq!(lh[0].equilibrium.profile, uniform);
    }
}

#[test]
fn battle_of_the_sexes_two_pure_one_mixed() {
    let g = game(&parse("2 0; 0 1"), &parse("1 0; 0 2"));
    let want = BTreeSet::from([
        pure_profile(&[2, 2], &[0, 0]),
        pure_profile(&[2, 2], &[1, 1]),
        vec![vec![q("2/3"), q("1/3")], vec![q("1/3"), q("2/3")]],
    ]);
    let s = two_by_two::solve(&g).unwrap();
    assert_eq!(profiles(&s.equilibria), want);
    assert!(s.pieces.iter().all(|p| p.is_point()));
    assert_eq!(s.row_indifferent_at, Some(q("1/3")));
    assert_eq!(s.col_indifferent_at, Some(q("2/3")));
    assert_eq!(profiles(&vertex_eqs(&g).equilibria), want);
    let svg = two_by_two::plot(&g, &s);
    assert!(svg.starts_with("<svg") && svg.matches("<circle").count() == 3);
}

#[test]
fn a_continuum_of_equilibria_is_one_component() {
    // Row 1 dominates; the column player is indifferent: p = 1, q anywhere in [0, 1].
    let g = game(&parse("1 1; 0 0"), &parse("1 1; 1 1"));
    let s = two_by_two::solve(&g).unwrap();
    assert_eq!(s.pieces.len(), 1);
    assert_eq!(s.pieces[0].p, (Q::one(), Q::one()));
    assert_eq!(s.pieces[0].q, (Q::zero(), Q::one()));
    let e = vertex_eqs(&g);
    assert_eq!(profiles(&e.equilibria), profiles(&s.equilibria));
    assert_eq!(e.equilibria.len(), 2);
    assert_eq!(e.components.len(), 1);
    assert_eq!(e.components[0].cliques, vec![(vec![0], vec![0, 1])]);
    // Support enumeration sees the degeneracy and finds the same two ends, one component.
    let sup = support::enumerate(&Bimatrix::new(&g).unwrap()).unwrap();
    assert!(sup.degenerate);
    assert_eq!(profiles(&sup.equilibria), profiles(&e.equilibria));
    assert_eq!(sup.components, e.components);
}

#[test]
fn von_stengels_degenerate_game() {
    // von Stengel (2002)'s degenerate example: against the top row both columns are best
    // replies, and the top row is a best reply to a segment of column strategies.
    let g = game(&parse("3 3; 2 5; 0 6"), &parse("3 3; 2 6; 3 1"));
    let e = vertex_eqs(&g);
    all_verify(&g, &e.equilibria);
    assert!(e
        .components
        .iter()
        .any(|c| c.cliques.iter().any(|(r, c)| r.len() + c.len() > 2)));
    for run in lemke::from_every_label(&Bimatrix::new(&g).unwrap()).unwrap() {
        assert!(e.equilibria.contains(&run.equilibrium));
    }
}

#[test]
fn mixed_dominance_removes_what_pure_dominance_cannot() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/nfg/mixdom.nfg");
    let g = nfg::parse(&std::fs::read_to_string(&path).unwrap(), "mixdom.nfg").unwrap();
    let pure_only = eliminate(&g, false, false).unwrap();
    let mixed = eliminate(&g, true, false).unwrap();
    assert!(mixed.steps.len() > pure_only.steps.len());
    assert!(mixed
        .steps
        .iter()
        .any(|s| matches!(s.by, Dominator::Mixed(_))));
    // Strict elimination keeps every equilibrium.
    let before = vertex_eqs(&g);
    let after = vertex_eqs(&mixed.game);
    assert_eq!(before.equilibria.len(), after.equilibria.len());
}

#[test]
fn every_shared_game_has_verified_equilibria() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/nfg");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("nfg") {
            continue;
        }
        let g = nfg::parse(&std::fs::read_to_string(&path).unwrap(), "f").unwrap();
        let pure: Vec<Equilibrium> = pure_equilibria(&g)
            .iter()
            .map(|p| Equilibrium {
                profile: pure_profile(&g.shape(), p),
                payoffs: g.payoffs_at(g.index(p)).to_vec(),
            })
            .collect();
        all_verify(&g, &pure);
        if g.players.len() == 2 {
            let e = vertex_eqs(&g);
            assert!(
                !e.equilibria.is_empty(),
                "{}: Nash's theorem",
                path.display()
            );
            all_verify(&g, &e.equilibria);
            // Pure equilibria are extreme, so vertex enumeration lists them all.
            let pure_set = profiles(&pure);
            assert!(
                pure_set.is_subset(&profiles(&e.equilibria)),
                "{}",
                path.display()
            );
            let lh = lemke::lemke_howson(&Bimatrix::new(&g).unwrap(), 0).unwrap();
            assert!(e.equilibria.contains(&lh.equilibrium), "{}", path.display());
        }
    }
}

fn bimatrix(range: i64) -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<Vec<i64>>)> {
    (1usize..6, 1usize..6).prop_flat_map(move |(m, n)| {
        let mat = prop::collection::vec(prop::collection::vec(-range..range, n), m);
        (mat.clone(), mat)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Wide payoff ranges make random games nondegenerate: then support enumeration, vertex
    /// enumeration and the union of Lemke–Howson runs find one and the same set.
    #[test]
    fn methods_agree_on_random_games((a, b) in bimatrix(1000)) {
        let g = game(&a, &b);
        let bm = Bimatrix::new(&g).unwrap();
        let e = vertex::enumerate(&bm, LIMIT, u64::MAX).unwrap();
        let s = support::enumerate(&bm).unwrap();
        all_verify(&g, &e.equilibria);
        all_verify(&g, &s.equilibria);
        // The float-guided path ends where exact pivoting ends.
        for k in 0..bm.m + bm.n {
            prop_assert_eq!(
                lemke::lemke_howson(&bm, k).unwrap().equilibrium,
                lemke::lemke_howson_by_pivoting(&bm, k).unwrap().equilibrium
            );
        }
        let lh = lemke::from_every_label(&bm).unwrap();
        let lh_eqs: Vec<Equilibrium> = lh.into_iter().map(|r| r.equilibrium).collect();
        all_verify(&g, &lh_eqs);
        prop_assert_eq!(profiles(&e.equilibria), profiles(&s.equilibria));
        prop_assert!(profiles(&lh_eqs).is_subset(&profiles(&e.equilibria)));
        // A nondegenerate game has an odd number of equilibria.
        if !s.degenerate {
            prop_assert_eq!(e.equilibria.len() % 2, 1);
        }
    }

    /// Small payoff ranges make degenerate games common: every answer still verifies, the
    /// pure equilibria are exactly the pure extreme equilibria, every Lemke–Howson end is an
    /// extreme equilibrium, and support and vertex enumeration agree.
    #[test]
    fn degenerate_games_are_handled((a, b) in bimatrix(3)) {
        let g = game(&a, &b);
        let bm = Bimatrix::new(&g).unwrap();
        let e = vertex::enumerate(&bm, LIMIT, u64::MAX).unwrap();
        all_verify(&g, &e.equilibria);
        let shape = g.shape();
        let pure: BTreeSet<Vec<Vec<Q>>> = pure_equilibria(&g).iter().map(|p| pure_profile(&shape, p)).collect();
        let extreme_pure: BTreeSet<Vec<Vec<Q>>> = profiles(&e.equilibria)
            .into_iter()
            .filter(|p| p.iter().all(|s| s.iter().all(|x| x.is_zero() || x.is_one())))
            .collect();
        prop_assert_eq!(pure, extreme_pure);
        for run in lemke::from_every_label(&bm).unwrap() {
            prop_assert!(e.equilibria.contains(&run.equilibrium));
        }
        let s = support::enumerate(&bm).unwrap();
        all_verify(&g, &s.equilibria);
        // Both methods list exactly the extreme equilibria, degenerate or not, and group them
        // into the same number of components.
        prop_assert_eq!(profiles(&e.equilibria), profiles(&s.equilibria));
        prop_assert_eq!(e.components.len(), s.components.len());
        // Every extreme equilibrium's pair is in exactly one component.
        let mut seen = 0;
        for c in &e.components {
            seen += e.pairs.iter().filter(|(r, _)| c.rows.contains(r)).count();
        }
        prop_assert_eq!(seen, e.pairs.len());
    }

    /// 2 × 2 games: the indifference method's corner equilibria are the extreme equilibria.
    #[test]
    fn two_by_two_matches_vertex_enumeration(v in prop::collection::vec(-2i64..3, 8)) {
        let a = vec![vec![v[0], v[1]], vec![v[2], v[3]]];
        let b = vec![vec![v[4], v[5]], vec![v[6], v[7]]];
        let g = game(&a, &b);
        let s = two_by_two::solve(&g).unwrap();
        all_verify(&g, &s.equilibria);
        prop_assert_eq!(profiles(&s.equilibria), profiles(&vertex_eqs(&g).equilibria));
    }
}

/// Games up to 8 × 8, with payoffs from a small range (many ties: degenerate) or a wide one.
fn bimatrix_up_to_8() -> impl Strategy<Value = (Vec<Vec<i64>>, Vec<Vec<i64>>)> {
    (
        1usize..=8,
        1usize..=8,
        prop_oneof![Just(2i64), Just(3), Just(1000)],
    )
        .prop_flat_map(|(m, n, range)| {
            let mat = prop::collection::vec(prop::collection::vec(-range..range, n), m);
            (mat.clone(), mat)
        })
}

/// A vertex as its labels and its coordinates divided by their gcd (they are non-negative
/// and known up to a positive factor).
fn vertex_set(vs: &[vertex::Vertex]) -> BTreeSet<(u128, Vec<num_bigint::BigInt>)> {
    use num_integer::Integer;
    vs.iter()
        .map(|v| {
            let g = v
                .point
                .iter()
                .fold(num_bigint::BigInt::zero(), |g, x| g.gcd(x));
            let point = if g.is_zero() {
                v.point.clone()
            } else {
                v.point.iter().map(|x| x / &g).collect()
            };
            (v.labels, point)
        })
        .collect()
}

/// Both polytopes of the game: reverse search meets the vertices and the number of feasible
/// bases the remembering graph search meets, each vertex once.
fn same_vertices_both_ways(a: &[Vec<i64>], b: &[Vec<i64>]) -> Result<(), TestCaseError> {
    let bm = Bimatrix::new(&game(a, b)).unwrap();
    for mat in [bm.a.clone(), bm.b_transposed()] {
        let (rs, r_bases) = vertex::polytope_vertices(&mat, LIMIT).unwrap();
        let (gs, g_bases) = vertex::polytope_vertices_by_graph_search(&mat, LIMIT).unwrap();
        prop_assert_eq!(r_bases, g_bases);
        let set = vertex_set(&rs);
        prop_assert_eq!(set.len(), rs.len());
        prop_assert_eq!(set, vertex_set(&gs));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Reverse search, which keeps no record of the bases it has seen, meets exactly the
    /// vertices and the number of feasible bases that a search remembering every basis meets,
    /// and reports each vertex once, degenerate ones included.
    #[test]
    fn reverse_search_meets_every_vertex_once((a, b) in bimatrix_up_to_8()) {
        same_vertices_both_ways(&a, &b)?;
    }

    /// The enumeration's equilibria are the equilibria of every completely labelled pair of
    /// vertices found by the remembering search, each pair tested (the method before the
    /// lookup join).
    #[test]
    fn enumeration_equals_every_completely_labelled_pair((a, b) in bimatrix_up_to_8()) {
        let bm = Bimatrix::new(&game(&a, &b)).unwrap();
        let (m, n) = (bm.m, bm.n);
        let (pv, _) = vertex::polytope_vertices_by_graph_search(&bm.b_transposed(), LIMIT).unwrap();
        let (qv, _) = vertex::polytope_vertices_by_graph_search(&bm.a, LIMIT).unwrap();
        let full = (1u128 << (m + n)) - 1;
        let mut want = BTreeSet::new();
        for p in &pv[1..] {
            for q in &qv[1..] {
                let ql = (q.labels & ((1u128 << n) - 1)) << m | q.labels >> n;
                if p.labels | ql == full {
                    let eq = bm.equilibrium(&p.point, &q.point).unwrap();
                    want.insert(eq.profile);
                }
            }
        }
        // The polytope chosen, and each alone, whole or split into jobs of a few bases (so
        // that the frames handed between cores are exercised on small games): the matching
        // of one vertex at a time (with the face searches for degenerate vertices) must give
        // the same set.
        let mut runs = vec![
            vertex::enumerate(&bm, LIMIT, u64::MAX).unwrap(),
            vertex::enumerate_from(&bm, LIMIT, u64::MAX, vertex::Polytopes::Both, 2).unwrap(),
        ];
        for sides in [vertex::Polytopes::First, vertex::Polytopes::Second] {
            let whole = vertex::enumerate_from(&bm, LIMIT, u64::MAX, sides, u64::MAX).unwrap();
            for job in [1, 3, 40] {
                let split = vertex::enumerate_from(&bm, LIMIT, u64::MAX, sides, job).unwrap();
                // Every basis visited once: the jobs' subtrees are disjoint and cover the tree.
                prop_assert_eq!(split.bases, whole.bases);
                prop_assert_eq!(split.vertices, whole.vertices);
                runs.push(split);
            }
            runs.push(whole);
        }
        for got in runs {
            prop_assert_eq!(got.equilibria.len(), want.len());
            prop_assert_eq!(profiles(&got.equilibria), want.clone());
        }
    }
}

#[test]
fn von_stengels_six_by_six_game_has_75_equilibria() {
    // von Stengel (1999), "New maximal numbers of equilibria in bimatrix games": 75.
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/nfg/stengel.nfg"),
    )
    .unwrap();
    let g = nfg::parse(&text, "stengel.nfg").unwrap();
    let e = vertex_eqs(&g);
    assert_eq!(e.equilibria.len(), 75);
    all_verify(&g, &e.equilibria);
    let lh = lemke::enumerate(&Bimatrix::new(&g).unwrap(), u64::MAX).unwrap();
    assert_eq!(lh.len() % 2, 1);
    assert!(profiles(&lh).is_subset(&profiles(&e.equilibria)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Lemke–Howson enumeration returns only extreme equilibria, at least every one a path
    /// from the artificial equilibrium reaches, and on nondegenerate games an odd number.
    #[test]
    fn lemke_howson_enumeration_reaches_extreme_equilibria((a, b) in bimatrix_up_to_8()) {
        let g = game(&a, &b);
        let bm = Bimatrix::new(&g).unwrap();
        let all = profiles(&vertex::enumerate(&bm, LIMIT, u64::MAX).unwrap().equilibria);
        let lh = lemke::enumerate(&bm, u64::MAX).unwrap();
        all_verify(&g, &lh);
        let reached = profiles(&lh);
        prop_assert_eq!(reached.len(), lh.len());
        prop_assert!(reached.is_subset(&all));
        for run in lemke::from_every_label(&bm).unwrap() {
            prop_assert!(reached.contains(&run.equilibrium.profile));
        }
        let nondegenerate = support::enumerate_within(&bm, u64::MAX).map(|s| !s.degenerate);
        if nondegenerate.unwrap_or(false) {
            prop_assert_eq!(lh.len() % 2, 1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Payoffs of eighteen digits overflow machine integers within a few pivots, so the
    /// reverse search goes on in big integers from where it stopped: it must still meet
    /// every vertex once.
    #[test]
    fn reverse_search_goes_on_in_big_integers(
        (a, b) in (2usize..=6, 2usize..=6).prop_flat_map(|(m, n)| {
            let mat = prop::collection::vec(
                prop::collection::vec(0i64..1_000_000_000_000_000_000, n), m);
            (mat.clone(), mat)
        })
    ) {
        same_vertices_both_ways(&a, &b)?;
    }
}
