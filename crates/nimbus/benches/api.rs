//! The front door's cost on small questions: `api::nash::solve` (method choice, the solve,
//! lifting and the exact check of every equilibrium) on the battle of the sexes and on the
//! seeded 10 × 10 game of `strategic.rs`. `bench/python.py` times the same calls from Python
//! and subtracts these figures to get the binding's overhead.

use criterion::{criterion_group, criterion_main, Criterion};
use nimbus::api::{self, nash, Limits};
use nimbus::formats::matrix::parse_matrix;
use nimbus::strategic::game::NormalForm;
use std::hint::black_box;

mod common;
use common::random_matrix;

fn benches(c: &mut Criterion) {
    let limits = Limits::default();
    let bos = NormalForm::bimatrix(
        &parse_matrix("2 0; 0 1", "A").unwrap(),
        &parse_matrix("1 0; 0 2", "B").unwrap(),
    )
    .unwrap();
    let req = nash::Request::default();
    c.bench_function("api nash 2x2", |b| {
        b.iter(|| nash::solve(black_box(&bos), &req, &limits).unwrap())
    });
    c.bench_function("api nash 2x2 with JSON", |b| {
        b.iter(|| api::to_json(&nash::solve(black_box(&bos), &req, &limits).unwrap()))
    });
    let g10 = NormalForm::bimatrix(&random_matrix(10, 1), &random_matrix(10, 2)).unwrap();
    let vertex = nash::Request {
        method: nash::Method::Vertex,
        ..nash::Request::default()
    };
    c.bench_function("api nash 10x10 vertex with JSON", |b| {
        b.iter(|| api::to_json(&nash::solve(black_box(&g10), &vertex, &limits).unwrap()))
    });
}

criterion_group! {
    name = api_benches;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(api_benches);
