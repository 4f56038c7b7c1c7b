//! Hot paths of the sequential solvers: Connect Four positions from Pons' middle-game test set
//! (null-window search with the table), tic-tac-toe's strong solution, Choosing Carrot's O(n)
//! answer for n = 3·10^5.

use criterion::{criterion_group, criterion_main, Criterion};
use nimbus::sequential::games::carrot;
use nimbus::sequential::games::connect4::Connect4;
use nimbus::sequential::games::tictactoe::TicTacToe;
use nimbus::sequential::search::alphabeta::Searcher;
use nimbus::sequential::strong::retrograde as solve;
use nimbus::sequential::{Notation, SearchLimits};
use std::hint::black_box;

fn connect4(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/connect4/Test_L2_R1"
    );
    let text = std::fs::read_to_string(path).expect("data/connect4 is in the repository");
    let g = Connect4::standard();
    let positions: Vec<_> = text
        .lines()
        .take(100)
        .map(|l| {
            g.parse_position(l.split_whitespace().next().unwrap())
                .unwrap()
        })
        .collect();
    let limits = SearchLimits {
        table_bits: 14,
        ..SearchLimits::default()
    };
    let mut s = Searcher::new(&g, &limits);
    s.prefault();
    c.bench_function("connect4 100 positions of Test_L2_R1", |b| {
        b.iter(|| {
            for p in &positions {
                s.reset();
                black_box(g.score(&mut s, p));
            }
        })
    });
}

fn strong(c: &mut Criterion) {
    c.bench_function("tictactoe strong solution", |b| {
        b.iter(|| {
            black_box(
                solve::solve(&TicTacToe, "tictactoe", u64::MAX, u64::MAX, &|_| {})
                    .unwrap()
                    .summary(),
            )
        })
    });
}

fn carrot_linear(c: &mut Criterion) {
    let mut x = 1u64;
    let a: Vec<i64> = (0..300_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 40) as i64
        })
        .collect();
    c.bench_function("carrot n = 300000", |b| {
        b.iter(|| black_box(carrot::answers(&a)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = connect4, strong, carrot_linear
}
criterion_main!(benches);
