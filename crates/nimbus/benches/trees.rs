//! Refinements on game trees: the quasi-perfect equilibrium of Kuhn poker and the decision
//! whether it is sequential (every level's LP, every set's beliefs), and the same decision on
//! Kuhn's LP equilibrium (sequential too, with other beliefs).

use criterion::{criterion_group, criterion_main, Criterion};
use nimbus::api::Limits;
use nimbus::extensive::games::kuhn;
use nimbus::extensive::solvers::{lp, quasi_perfect, sequential};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let limits = Limits::default();
    let tree = kuhn();
    let qp = quasi_perfect::solve(&tree, &limits).unwrap();
    c.bench_function("quasi-perfect kuhn", |b| {
        b.iter(|| quasi_perfect::solve(black_box(&tree), &limits).unwrap())
    });
    c.bench_function("sequential check kuhn quasi-perfect", |b| {
        b.iter(|| sequential::decide(black_box(&tree), &qp.behaviour, &limits).unwrap())
    });
    let plain = lp::solve(&tree, &limits).unwrap();
    c.bench_function("sequential check kuhn lp", |b| {
        b.iter(|| sequential::decide(black_box(&tree), &plain.behaviour, &limits).unwrap())
    });
}

criterion_group! {
    name = tree_benches;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(tree_benches);
