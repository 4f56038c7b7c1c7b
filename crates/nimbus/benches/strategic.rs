//! Hot paths of the strategic-form solvers on seeded random games with payoffs 0..99: vertex
//! and support enumeration of a 10 × 10 game, Lemke–Howson on 100 × 100, and the exact value
//! of a 50 × 50 matrix game.

use criterion::{criterion_group, criterion_main, Criterion};
use nimbus::strategic::bimatrix::Bimatrix;
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::solvers::{lemke, support, vertex, zerosum};
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
