//! Repeated games: the set of subgame-perfect equilibrium payoffs against QuantEcon's
//! published examples, against an independent floating-point iteration on random games, and
//! against equilibria built by hand (grim trigger).

use nimbus::exact::{parse_q, show, to_f64, Q};
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::repeated::polygon::{contains, hausdorff};
use nimbus::strategic::repeated::{inner, solve, InnerKind, Options, Solution};
use proptest::prelude::*;

fn q(s: &str) -> Q {
    parse_q(s).unwrap()
}

fn game(pairs: &[Vec<(i64, i64)>]) -> NormalForm {
    let pick = |k: usize| -> Vec<Vec<Q>> {
        pairs
            .iter()
            .map(|r| {
                r.iter()
                    .map(|p| Q::from_integer(if k == 0 { p.0 } else { p.1 }.into()))
                    .collect()
            })
            .collect()
    };
    NormalForm::bimatrix(&pick(0), &pick(1)).unwrap()
}

fn run(g: &NormalForm, delta: &str) -> Solution {
    solve(
        g,
        &Options {
            discount: q(delta),
            ..Options::default()
        },
    )
    .unwrap()
}

fn floats(v: &[(Q, Q)]) -> Vec<(f64, f64)> {
    v.iter().map(|(x, y)| (to_f64(x), to_f64(y))).collect()
}

fn prisoners() -> NormalForm {
    game(&[vec![(9, 9), (1, 10)], vec![(10, 1), (3, 3)]])
}

fn abreu_sannikov() -> NormalForm {
    game(&[
        vec![(16, 9), (3, 13), (0, 3)],
        vec![(21, 1), (10, 4), (-1, 0)],
        vec![(9, 0), (5, -4), (-5, -15)],
    ])
}

/// QuantEcon's test of the prisoner's dilemma at δ = 0.9: the vertices (3, 3), (9.75, 3),
/// (9, 9), (3, 9.75) — here exact and proven inside, with the outer bound within 1e-8.
#[test]
fn the_prisoners_dilemma_as_quantecon_publishes_it() {
    for delta in ["3/10", "1/2", "9/10", "99/100"] {
        let s = run(&prisoners(), delta);
        assert_eq!(s.inner_kind, InnerKind::Snapped, "δ = {delta}");
        let shown: Vec<String> = s
            .inner
            .as_ref()
            .unwrap()
            .iter()
            .map(|(x, y)| format!("{}, {}", show(x), show(y)))
            .collect();
        assert_eq!(shown, ["3, 3", "39/4, 3", "9, 9", "3, 39/4"], "δ = {delta}");
        assert!(s.distance < 1e-7, "δ = {delta}: {}", s.distance);
        let outer = s.outer.clone();
        assert!(s.inner.unwrap().iter().all(|v| contains(&outer, v)));
    }
}

/// Below δ = 1/7 cooperation cannot be sustained: only the stage equilibrium's payoffs.
#[test]
fn an_impatient_prisoner_only_defects() {
    let s = run(&prisoners(), "1/10");
    assert!(s.distance < 1e-8, "{}", s.distance);
    let inner = s.inner.unwrap();
    assert_eq!(inner.len(), 1);
    assert_eq!(
        (show(&inner[0].0), show(&inner[0].1)),
        ("3".into(), "3".into())
    );
}

/// QuantEcon's test of Abreu and Sannikov's example at δ = 0.3 (their vertices, to the
/// precision of `assert_allclose`'s default).
#[test]
fn abreu_and_sannikovs_example_as_quantecon_publishes_it() {
    let published = [
        (7.33770472e+00, 1.09826253e+01),
        (1.12568240e+00, 2.80000000e+00),
        (7.33770472e+00, 4.44089210e-16),
        (7.86308964e+00, 4.44089210e-16),
        (1.97917977e+01, 2.80000000e+00),
        (1.55630896e+01, 9.10000000e+00),
    ];
    let s = run(&abreu_sannikov(), "3/10");
    let outer = floats(&s.outer);
    assert!(hausdorff(&outer, &published) < 1e-6, "{outer:?}");
    // The vertices are not short fractions: a stricter game's set is proven inside, close.
    assert_eq!(s.inner_kind, InnerKind::Strict);
    assert!(s.distance < 1e-3, "{}", s.distance);
}

/// A game without a pure-action equilibrium at a low discount (QuantEcon's test): proven
/// empty.
#[test]
fn no_pure_equilibrium_is_proven() {
    let g = game(&[vec![(1, -1), (-1, 2)], vec![(-2, 2), (1, 0)]]);
    let s = run(&g, "1/20");
    assert!(s.outer.is_empty());
    assert!(s.inner.is_none());
}

#[test]
fn bad_discounts_are_refused() {
    for d in ["0", "1", "3/2", "-1/2"] {
        let e = solve(
            &prisoners(),
            &Options {
                discount: q(d),
                ..Options::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("between 0 and 1"), "{e}");
    }
    let long = Options {
        discount: q("123456789/1000000000"),
        ..Options::default()
    };
    let e = solve(&prisoners(), &long).unwrap_err();
    assert!(e.to_string().contains("denominator"), "{e}");
}

#[test]
fn the_work_budget_stops_the_rounds() {
    let e = solve(
        &abreu_sannikov(),
        &Options {
            discount: q("99/100"),
            max_work: 10_000,
            ..Options::default()
        },
    )
    .unwrap_err();
    assert!(e.to_string().contains("work"), "{e}");
}

// ---- Another implementation: the exact operator in fractions, round by round ----

/// The first `rounds` rounds of the operator applied exactly, from the feasible payoffs (the
/// fractions of `inner::generated`, unrounded), beside the grid iteration of `outer::round`,
/// with and without the merging of clusters of vertices (`coarsen`) after each round: each
/// exact round must lie inside the grid's, and within a few grid steps a round of it.
fn rounds_agree(g: &NormalForm, delta: &Q, rounds: usize) -> Result<(), String> {
    use nimbus::strategic::repeated::polygon::hull;
    use nimbus::strategic::repeated::stage::{Grid, Stage};
    use nimbus::strategic::repeated::{coarsen, outer};
    let stage = Stage::of(g).unwrap();
    let grid = Grid::of(&stage, delta).unwrap();
    let mut exact = hull(stage.payoffs.clone());
    let mut on_grid = [hull(grid.payoffs.clone()), hull(grid.payoffs.clone())];
    for k in 0..rounds {
        exact = hull(inner::generated(&stage, delta, &exact));
        // One round from the same set, exactly and on the grid: no slack from earlier rounds.
        let start: Vec<(Q, Q)> = on_grid[0].iter().map(|p| grid.exact(p)).collect();
        let image = hull(inner::generated(&stage, delta, &start));
        on_grid[0] = outer::round(&grid, &on_grid[0]);
        on_grid[1] = coarsen::coarsened(outer::round(&grid, &on_grid[1]));
        let rounded: Vec<(Q, Q)> = on_grid[0].iter().map(|p| grid.exact(p)).collect();
        if let Some(v) = image.iter().find(|v| !contains(&rounded, v)) {
            return Err(format!(
                "round {k}: {:?} outside the same round on the grid",
                (to_f64(&v.0), to_f64(&v.1))
            ));
        }
        if exact.is_empty() {
            return Ok(());
        }
        for (set, steps) in on_grid.iter().zip([8.0, 16.0]) {
            let bound: Vec<(Q, Q)> = set.iter().map(|p| grid.exact(p)).collect();
            if let Some(v) = exact.iter().find(|v| !contains(&bound, v)) {
                return Err(format!(
                    "round {k}: {:?} outside",
                    (to_f64(&v.0), to_f64(&v.1))
                ));
            }
            let d = hausdorff(&floats(&exact), &floats(&bound)) * grid.scale as f64;
            if d > steps * (k + 1) as f64 {
                return Err(format!("round {k}: {d} grid steps apart"));
            }
        }
    }
    Ok(())
}

/// Profiles sustained for ever by reverting to a pure stage equilibrium after any deviation
/// (grim trigger): their payoffs are equilibrium payoffs.
fn grim_trigger_payoffs(g: &NormalForm, delta: &Q) -> Vec<(Q, Q)> {
    let (m, n) = (g.strategies[0].len(), g.strategies[1].len());
    let u = |r: usize, c: usize, i: usize| g.payoff(&[r, c], i).clone();
    let nash: Vec<(usize, usize)> = (0..m)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .filter(|&(r, c)| {
            (0..m).all(|x| u(x, c, 0) <= u(r, c, 0)) && (0..n).all(|y| u(r, y, 1) <= u(r, c, 1))
        })
        .collect();
    let one = Q::from_integer(1.into());
    let mut out = vec![];
    for r in 0..m {
        for c in 0..n {
            let ok = nash.iter().any(|&(nr, nc)| {
                let b1 = (0..m).map(|x| u(x, c, 0)).max().unwrap();
                let b2 = (0..n).map(|y| u(r, y, 1)).max().unwrap();
                (&one - delta) * b1 + delta * u(nr, nc, 0) <= u(r, c, 0)
                    && (&one - delta) * b2 + delta * u(nr, nc, 1) <= u(r, c, 1)
            });
            if ok {
                out.push((u(r, c, 0), u(r, c, 1)));
            }
        }
    }
    out
}

fn arbitrary_game() -> impl Strategy<Value = (NormalForm, &'static str)> {
    (2usize..=3, 2usize..=3)
        .prop_flat_map(|(m, n)| {
            (
                proptest::collection::vec(proptest::collection::vec((-5i64..=9, -5i64..=9), n), m),
                prop_oneof![Just("1/4"), Just("1/2"), Just("3/4"), Just("9/10")],
            )
        })
        .prop_map(|(pairs, d)| (game(&pairs), d))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("NIMBUS_FULL").map_or(60, |_| 600)))]

    /// The grid's rounds contain the exact operator's and stay within a few grid steps of
    /// them; the inner bound is inside the outer one and passes the exact test, and when it
    /// is the snapped one it is within a millionth; grim-trigger payoffs lie in the outer
    /// bound.
    #[test]
    fn bounds_agree_with_the_exact_operator((g, delta) in arbitrary_game()) {
        let r = rounds_agree(&g, &q(delta), 6);
        prop_assert!(r.is_ok(), "{:?}", r);
        let s = run(&g, delta);
        if let Some(i) = &s.inner {
            prop_assert!(i.iter().all(|v| contains(&s.outer, v)));
            prop_assert!(inner::self_generating(&s.stage, &q(delta), i));
            if s.inner_kind == InnerKind::Snapped {
                prop_assert!(s.distance < 1e-6, "{}", s.distance);
            }
        }
        for p in grim_trigger_payoffs(&g, &q(delta)) {
            prop_assert!(contains(&s.outer, &p), "{:?} outside", (to_f64(&p.0), to_f64(&p.1)));
        }
    }
}

mod picture;

/// The folk-theorem picture of the prisoner's dilemma, looked at as pixels: blue inside the
/// equilibrium payoffs, grey in the feasible payoffs below the minmax lines, white outside the
/// feasible ones, red at the stage equilibrium.
#[test]
fn the_folk_theorem_picture_shows_the_set() {
    use nimbus::api::repeated::{solve as answer, Request};
    use nimbus::strategic::solvers::correlated_picture::Scale;
    let req = Request {
        discount: q("9/10"),
        plot: true,
        ..Request::default()
    };
    let a = answer(&prisoners(), &req, &nimbus::api::Limits::default()).unwrap();
    let pixmap = picture::render(a.plot.as_ref().unwrap());
    let scale = Scale::of(&[(9.0, 9.0), (1.0, 10.0), (10.0, 1.0), (3.0, 3.0)]);
    let at = |x: f64, y: f64| {
        let (px, py) = scale.place((x, y));
        let c = pixmap.pixel(px.round() as u32, py.round() as u32).unwrap();
        (c.red(), c.green(), c.blue())
    };
    assert_eq!(at(6.0, 6.0), (0x9e, 0xca, 0xe1), "blue inside");
    assert_eq!(
        at(2.0, 8.0),
        (0xe6, 0xe6, 0xe6),
        "grey below player 1's minmax"
    );
    assert_eq!(
        at(2.0, 2.0),
        (255, 255, 255),
        "white outside the feasible payoffs"
    );
    let red = at(3.0, 3.0);
    assert!(
        red.0 > 180 && red.1 < 90 && red.2 < 90,
        "red at the stage equilibrium: {red:?}"
    );
}

/// A vertex that is a stage payoff is given as that payoff, not as a simpler fraction near it
/// (10/81 lies within 1.2e-9 of 0.123456789).
#[test]
fn a_stage_payoff_is_preferred_to_a_simpler_fraction() {
    let a = vec![vec![q("0.123456789"), q("0")], vec![q("0"), q("1")]];
    let b = vec![vec![q("1"), q("0")], vec![q("0"), q("1")]];
    let g = NormalForm::bimatrix(&a, &b).unwrap();
    let s = run(&g, "4/5");
    assert_eq!(s.inner_kind, InnerKind::Snapped);
    let shown: Vec<String> = s
        .inner
        .unwrap()
        .iter()
        .map(|(x, y)| format!("{}, {}", show(x), show(y)))
        .collect();
    assert_eq!(shown, ["123456789/1000000000, 1", "1, 1"]);
}
