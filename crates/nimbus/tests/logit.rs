//! The logit quantal-response path: it starts at the uniform profile, its end is solved to an
//! equilibrium that the full enumeration lists, and its picture shows the path.

use nimbus::api::nash::{solve, Method, Request};
use nimbus::api::Limits;
use nimbus::exact::{to_f64, Q};
use nimbus::formats::nfg;
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::solvers::enumpoly::{enumerate, Options};
use nimbus::strategic::solvers::logit::{path, plot};
use proptest::prelude::*;
mod games;
use games::{example, random_game};
mod picture;

/// The logit method's equilibrium (exact, or a certified box's lower corner) is one the
/// enumeration lists; with `strict`, it must have found one, else it may instead say that it
/// found none near the path's end.
fn logit_end_is_enumerated(g: &NormalForm) -> Result<(), TestCaseError> {
    logit_end(g, true)
}

fn logit_end(g: &NormalForm, strict: bool) -> Result<(), TestCaseError> {
    let req = Request {
        method: Method::Logit,
        ..Default::default()
    };
    let a = solve(g, &req, &Limits::default()).unwrap();
    let all = enumerate(g, &Options::default()).unwrap();
    if let Some(e) = a.equilibria.first() {
        let rounded = a
            .notes
            .iter()
            .any(|n| n.contains("rounded to simple fractions"));
        if !strict && rounded {
            // An end that its support's equations do not isolate: the equilibrium is a
            // rounding of it, exact (the front door checks every equilibrium it returns).
            prop_assert!(
                nimbus::strategic::game::verify(g, &e.profile)
                    .unwrap()
                    .is_equilibrium
            );
        } else {
            prop_assert!(all.exact.contains(&e.profile), "{:?}", e.profile);
        }
    } else {
        let c = &a.enumeration.as_ref().unwrap().certified;
        if !strict && c.is_empty() {
            prop_assert!(
                a.notes
                    .iter()
                    .any(|n| n.contains("no equilibrium with the support")),
                "{:?}",
                a.notes
            );
            return Ok(());
        }
        prop_assert_eq!(c.len(), 1, "{:?}", a.notes);
        let lo: Vec<f64> = c[0].lower.iter().flatten().map(to_f64).collect();
        let listed = all.certified.iter().any(|d| {
            d.lower
                .iter()
                .flatten()
                .map(to_f64)
                .zip(&lo)
                .all(|(x, y)| (x - y).abs() < 1e-9)
        });
        prop_assert!(listed);
    }
    Ok(())
}

#[test]
fn published_games() {
    for name in ["2x2x2.nfg", "3x3x3.nfg", "jordan.nfg", "bos.nfg", "rps.nfg"] {
        logit_end_is_enumerated(&example(name)).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_games_end_at_an_enumerated_equilibrium(
        shape in prop_oneof![Just(vec![2, 2, 2]), Just(vec![3, 3, 2]), Just(vec![3, 3, 3]), Just(vec![2, 2, 2, 2])],
        raw in proptest::collection::vec(0i64..100, 216),
    ) {
        // Some paths end next to an equilibrium that is not isolated on its support (random
        // games with small payoffs have ties); the method then rounds the end to an exact
        // equilibrium, or says it found none.
        logit_end(&random_game(&shape, &raw), false)?;
    }
}

#[test]
fn the_path_starts_uniform_and_is_drawn() {
    let g = example("2x2x2.nfg");
    let p = path(&g, &Default::default()).unwrap();
    assert!(p.points[0].profile.iter().flatten().all(|&x| x == 0.5));
    assert!(p.points.windows(2).all(|w| w[1].lambda > w[0].lambda));
    let end = &p.points.last().unwrap().profile;
    let pix = picture::render(&plot(&g, &p));
    // The plot's box: 600 x 360 pixels with a margin of 50; x is lambda / (1 + lambda).
    let at = |x: f64, prob: f64| {
        let (cx, cy) = (50.0 + 600.0 * x, 50.0 + 360.0 * (1.0 - prob));
        (-2i32..=2).any(|dy| {
            (-1i32..=1).any(|dx| {
                let c = pix
                    .pixel((cx as i32 + dx) as u32, (cy as i32 + dy) as u32)
                    .unwrap();
                // A coloured line, not the white ground or the grey frame.
                let (r, g, b) = (c.red() as i32, c.green() as i32, c.blue() as i32);
                (r - g).abs() + (g - b).abs() + (r - b).abs() > 60
            })
        })
    };
    // Every line starts at one half and ends at the path's end.
    assert!(at(0.002, 0.5));
    for prob in end.iter().flatten() {
        assert!(at(0.995, *prob), "no line ends at {prob}");
    }
    // Nothing is drawn at a height no strategy reaches at the end.
    let empty = (1..20)
        .map(|k| k as f64 / 20.0)
        .find(|y| end.iter().flatten().all(|p| (p - y).abs() > 0.08))
        .unwrap();
    assert!(!at(0.995, empty));
}

/// A four-player game on which the corrector once stopped at λ ≈ 3·10^4 (an absolute
/// tolerance the large log-probabilities could not meet) and the end's support was not
/// solved.
#[test]
fn a_game_whose_path_once_stalled() {
    let raw: Vec<i64> = RAW.to_vec();
    logit_end_is_enumerated(&random_game(&[2, 2, 2, 2], &raw)).unwrap();
}

const RAW: [i64; 216] = [
    53, 13, 33, 33, 48, 76, 91, 77, 28, 14, 2, 9, 18, 0, 8, 4, 44, 20, 90, 72, 44, 79, 34, 51, 48,
    27, 40, 5, 86, 59, 17, 75, 2, 51, 44, 8, 9, 87, 41, 94, 97, 68, 85, 82, 30, 28, 72, 83, 32, 95,
    52, 79, 42, 29, 20, 39, 28, 24, 56, 96, 84, 6, 29, 23, 20, 1, 8, 99, 73, 44, 33, 38, 87, 83,
    48, 98, 1, 10, 2, 99, 28, 95, 25, 25, 27, 41, 2, 13, 76, 38, 19, 46, 50, 70, 34, 42, 77, 37, 9,
    50, 9, 99, 28, 76, 20, 40, 89, 35, 39, 91, 35, 24, 78, 26, 93, 49, 45, 38, 21, 78, 24, 3, 91,
    82, 12, 62, 63, 57, 8, 20, 21, 3, 50, 74, 63, 16, 17, 31, 5, 56, 5, 67, 54, 41, 76, 14, 51, 27,
    75, 33, 39, 87, 94, 12, 13, 67, 34, 22, 8, 73, 76, 33, 80, 78, 39, 1, 15, 70, 52, 12, 40, 80,
    18, 65, 42, 98, 81, 13, 59, 27, 37, 74, 94, 59, 24, 2, 34, 69, 91, 39, 46, 5, 32, 69, 59, 83,
    83, 42, 75, 98, 88, 51, 50, 52, 20, 88, 24, 17, 62, 56, 58, 54, 62, 37, 52, 37,
];

/// The path as data (`--path`): from λ = 0 at the uniform profile, λ increasing, every
/// player's probabilities a distribution, over the strategies as given when dominance removed
/// some, and its last point next to the equilibrium the method returns. Other methods refuse.
#[test]
fn the_path_is_in_the_answer_when_asked_for() {
    use nimbus::api::nash::Dominance;
    for (name, dominance) in [
        ("2x2x2.nfg", Dominance::None),
        ("3x3x3.nfg", Dominance::Strict),
    ] {
        let g = example(name);
        let req = Request {
            method: Method::Logit,
            path: true,
            dominance,
            ..Default::default()
        };
        let a = solve(&g, &req, &Limits::default()).unwrap();
        let points = a.logit_path.as_ref().unwrap();
        assert!(points.len() > 10, "{name}");
        assert_eq!(points[0].lambda, 0.0);
        let reduced = dominance == Dominance::None || a.eliminated.is_empty();
        if reduced {
            for p in &points[0].profile {
                assert!(p.iter().all(|&x| (x - 1.0 / p.len() as f64).abs() < 1e-12));
            }
        }
        for w in points.windows(2) {
            assert!(w[1].lambda > w[0].lambda, "{name}");
        }
        for point in points {
            for (p, s) in point.profile.iter().zip(&g.strategies) {
                assert_eq!(p.len(), s.len());
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{name}");
            }
        }
        for st in &a.eliminated {
            assert!(points
                .iter()
                .all(|q| q.profile[st.player][st.strategy] == 0.0));
        }
        let end = &points.last().unwrap().profile;
        let e = &a
            .equilibria
            .first()
            .map(|e| e.profile.clone())
            .unwrap_or_else(|| a.enumeration.as_ref().unwrap().certified[0].lower.clone());
        let gap = end
            .iter()
            .flatten()
            .zip(e.iter().flatten())
            .map(|(x, y)| (x - to_f64(y)).abs())
            .fold(0.0, f64::max);
        assert!(gap < 1e-3, "{name}: {gap}");
    }
    let req = Request {
        method: Method::Vertex,
        path: true,
        ..Default::default()
    };
    let e = solve(&example("bos.nfg"), &req, &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("method logit"), "{e}");
}

/// A random game with ties whose path ends inside a continuum of equilibria (one player
/// indifferent over a range of mixtures): the support's equations do not isolate the end,
/// and the answer is the end rounded to the simplest fractions that are an equilibrium.
#[test]
fn an_end_in_a_continuum_is_rounded_and_checked() {
    let text = "NFG 1 R \"r\" { \"P0\" \"P1\" \"P2\" \"P3\" } { 2 2 2 2 }\n\
                3 3 3 1 2 3 0 2 0 3 2 3 2 1 1 3 3 2 1 3 0 0 1 2 0 0 0 2 3 0 3 3 0 0 0 1 0 1 2 3 \
                1 1 1 3 1 0 1 0 0 3 0 2 0 0 3 1 0 3 0 2 3 3 2 2\n";
    let g = nfg::parse(text, "continuum.nfg").unwrap();
    let req = Request {
        method: Method::Logit,
        ..Default::default()
    };
    let a = solve(&g, &req, &Limits::default()).unwrap();
    assert!(
        a.notes
            .iter()
            .any(|n| n.contains("rounded to simple fractions")),
        "{:?}",
        a.notes
    );
    let q = |n: i64, d: i64| Q::new(n.into(), d.into());
    assert_eq!(
        a.equilibria[0].profile,
        vec![
            vec![q(1, 1), q(0, 1)],
            vec![q(2, 3), q(1, 3)],
            vec![q(1, 1), q(0, 1)],
            vec![q(1, 1), q(0, 1)]
        ]
    );
}

/// A random game (found by the proptest below in CI) whose trace jumped, near a turning point,
/// to another branch that ran back past lambda = 0; shorter steps follow the path from the
/// uniform profile to the game's one equilibrium.
#[test]
fn a_game_whose_trace_once_jumped_branches() {
    #[rustfmt::skip]
    let raw: [i64; 216] = [
        97, 86, 88, 8, 37, 11, 47, 17, 81, 50, 0, 69, 8, 86, 34, 0, 49, 9,
        75, 87, 23, 64, 2, 50, 63, 81, 30, 88, 74, 31, 89, 44, 21, 76, 14, 25,
        39, 32, 91, 77, 1, 18, 26, 35, 34, 77, 82, 39, 71, 2, 52, 92, 3, 85,
        90, 85, 32, 42, 81, 40, 88, 38, 88, 5, 6, 71, 87, 37, 13, 62, 32, 49,
        60, 16, 7, 76, 29, 91, 30, 50, 24, 88, 65, 78, 82, 9, 47, 97, 77, 46,
        2, 58, 87, 4, 2, 38, 70, 63, 47, 30, 20, 42, 70, 92, 13, 16, 72, 87,
        5, 35, 28, 31, 3, 4, 95, 29, 69, 0, 15, 99, 8, 67, 73, 62, 42, 19,
        96, 34, 16, 82, 34, 36, 17, 32, 60, 98, 95, 82, 74, 17, 84, 71, 8, 92,
        5, 6, 54, 6, 67, 1, 71, 56, 1, 13, 64, 18, 99, 23, 29, 9, 67, 96,
        67, 35, 97, 95, 82, 67, 5, 23, 81, 17, 14, 38, 14, 91, 64, 8, 51, 66,
        80, 33, 60, 79, 96, 32, 35, 91, 39, 68, 14, 9, 14, 0, 14, 53, 73, 68,
        33, 95, 45, 50, 25, 64, 91, 34, 83, 89, 43, 61, 71, 18, 85, 30, 74, 0,
    ];
    logit_end_is_enumerated(&random_game(&[3, 3, 3], &raw)).unwrap();
}
