//! Hot paths of the strategic-form solvers on seeded random games with payoffs 0..99: vertex
//! and support enumeration of a 10 × 10 game, Lemke–Howson on 100 × 100, the tracing
//! procedure from the uniform prior on 10 × 10 and 50 × 50, and the exact value
//! of a 50 × 50 matrix game; and the repeated prisoner's dilemma at δ = 9/10 (QuantEcon's
//! example): one round of the outer iteration on its settled set (clusters merged, as the
//! iteration runs it), and the whole answer; the
//! replicator equation (3 × 3 to t = 100 with 1000 records, 30 × 30 to t = 10); and the
//! proper marks of every extreme equilibrium of Myerson's game and of a 10 × 10 game.

use criterion::{criterion_group, criterion_main, Criterion};
use nimbus::strategic::bimatrix::Bimatrix;
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::repeated;
use nimbus::strategic::solvers::{lemke, support, tracing, vertex, zerosum};
use std::hint::black_box;

mod common;
use common::random_matrix;

fn game(n: usize) -> Bimatrix {
    let g = NormalForm::bimatrix(&random_matrix(n, 1), &random_matrix(n, 2)).unwrap();
    Bimatrix::new(&g).unwrap()
}

fn benches(c: &mut Criterion) {
    let g10 = game(10);
    c.bench_function("vertex enumeration 10x10", |b| {
        b.iter(|| vertex::enumerate(black_box(&g10), u64::MAX, u64::MAX).unwrap())
    });
    c.bench_function("support enumeration 10x10", |b| {
        b.iter(|| support::enumerate(black_box(&g10)).unwrap())
    });
    let g100 = game(100);
    c.bench_function("lemke-howson 100x100", |b| {
        b.iter(|| lemke::lemke_howson(black_box(&g100), 0).unwrap())
    });
    // The tracing procedure from the uniform prior: exact pivots all the way (no float guide).
    let limits = nimbus::api::Limits::default();
    let g50 = game(50);
    for (n, g) in [(10, &g10), (50, &g50)] {
        c.bench_function(&format!("tracing procedure {n}x{n}"), |b| {
            b.iter(|| {
                tracing::trace(
                    black_box(g),
                    &tracing::uniform(n),
                    &tracing::uniform(n),
                    &limits,
                )
                .unwrap()
            })
        });
    }
    let pd = {
        let q = |x: i64| nimbus::exact::Q::from_integer(x.into());
        let a = vec![vec![q(9), q(1)], vec![q(10), q(3)]];
        let b = vec![vec![q(9), q(10)], vec![q(1), q(3)]];
        NormalForm::bimatrix(&a, &b).unwrap()
    };
    let options = repeated::Options {
        discount: nimbus::exact::Q::new(9.into(), 10.into()),
        ..repeated::Options::default()
    };
    let stage = repeated::stage::Stage::of(&pd).unwrap();
    let grid = repeated::stage::Grid::of(&stage, &options.discount).unwrap();
    let mut settled = repeated::polygon::hull(grid.payoffs.clone());
    // As the iteration runs them: each round's clusters of vertices merged.
    let merged_round = |w: &[repeated::polygon::Point<i128>]| {
        repeated::coarsen::coarsened(repeated::outer::round(&grid, w))
    };
    for _ in 0..200 {
        settled = merged_round(&settled);
    }
    c.bench_function("repeated: one round, prisoner's dilemma 9/10", |b| {
        b.iter(|| merged_round(black_box(&settled)))
    });
    c.bench_function(
        "repeated: prisoner's dilemma 9/10, proven both sides",
        |b| b.iter(|| repeated::solve(black_box(&pd), &options).unwrap()),
    );
    for (n, time, points) in [(3usize, 100.0, 1000u64), (30, 10.0, 101)] {
        let a = random_matrix(n, 4);
        let at: Vec<Vec<_>> = (0..n)
            .map(|j| a.iter().map(|r| r[j].clone()).collect())
            .collect();
        let sym = NormalForm::bimatrix(&a, &at).unwrap();
        let req = nimbus::api::dynamics::Request {
            rule: nimbus::api::dynamics::Rule::Replicator,
            time,
            points,
            rest_points: false,
            ..Default::default()
        };
        c.bench_function(&format!("replicator {n}x{n} to t = {time}"), |b| {
            b.iter(|| {
                nimbus::api::dynamics::solve(black_box(&sym), &req, &Default::default()).unwrap()
            })
        });
    }
    let proper_req = nimbus::api::nash::Request {
        method: nimbus::api::nash::Method::Vertex,
        refine: vec![nimbus::api::nash::Refinement::Proper],
        ..Default::default()
    };
    let plain_req = nimbus::api::nash::Request {
        method: nimbus::api::nash::Method::Vertex,
        ..Default::default()
    };
    let bad = |v: i64| nimbus::exact::Q::from_integer(v.into());
    let m: Vec<Vec<_>> = [[1, 0, -9], [0, 0, -7], [-9, -7, -7]]
        .iter()
        .map(|r| r.iter().map(|&v| bad(v)).collect())
        .collect();
    let myerson = NormalForm::bimatrix(&m, &m).unwrap();
    let g10n = NormalForm::bimatrix(&random_matrix(10, 1), &random_matrix(10, 2)).unwrap();
    for (name, g) in [("Myerson's game", &myerson), ("10x10", &g10n)] {
        for (what, req) in [
            ("vertex enumeration", &plain_req),
            ("with proper marks", &proper_req),
        ] {
            c.bench_function(&format!("{what}: {name}"), |b| {
                b.iter(|| nimbus::api::nash::solve(black_box(g), req, &Default::default()).unwrap())
            });
        }
    }
    let a50 = random_matrix(50, 3);
    c.bench_function("zero-sum exact 50x50", |b| {
        b.iter(|| zerosum::solve(black_box(&a50)).unwrap())
    });
}

criterion_group! {
    name = strategic;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(strategic);
