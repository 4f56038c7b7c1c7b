//! Scripts against Rust: the same games as Rhai scripts (examples/) and as Rust rulesets, so
//! that the ratio of their times is measured in one run. Subtraction {1,3,4} up to 10^5 (the
//! script through the generic engine; the Rust ruleset through the same engine and through
//! its own table loop) and tic-tac-toe's strong solution (the script explored into a graph,
//! then solved; the Rust game ranked and solved).

use criterion::{criterion_group, criterion_main, Criterion};
use nimbus::core::budget::Limits;
use nimbus::impartial::games::heap::HeapRule;
use nimbus::impartial::games::subtraction::Subtraction;
use nimbus::impartial::grundy::Engine;
use nimbus::impartial::Impartial;
use nimbus::script::impartial::nim_sequence;
use nimbus::script::sequential::ScriptGame;
use nimbus::script::{Script, ScriptOptions};
use nimbus::sequential::explicit::Explicit;
use nimbus::sequential::games::tictactoe::TicTacToe;
use nimbus::sequential::strong::retrograde as solve;
use nimbus::sequential::Game;
use std::hint::black_box;
use std::rc::Rc;
use std::time::Duration;

const UPTO: u64 = 100_000;

fn load(name: &str) -> Rc<Script> {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    Rc::new(Script::load(&path, ScriptOptions::default()).expect("the example compiles"))
}

/// The Rust twin of examples/take134.rhai, for the generic engine.
struct Take134;

impl Impartial for Take134 {
    type Position = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend([1, 3, 4].iter().filter(|&&k| k <= *n).map(|k| n - k));
    }
}

fn subtraction(c: &mut Criterion) {
    let limits = Limits::default();
    let mut group = c.benchmark_group("subtraction {1,3,4} to 10^5");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    let script = load("take134.rhai");
    group.bench_function("script, generic engine", |b| {
        b.iter(|| black_box(nim_sequence(&script, UPTO, limits).unwrap()))
    });
    group.bench_function("rust, generic engine", |b| {
        b.iter(|| {
            let mut e = Engine::hashed(&Take134, limits, "take134");
            black_box((0..=UPTO).map(|n| e.grundy(&n).unwrap()).sum::<u64>())
        })
    });
    let rule = Subtraction::Finite(vec![1, 3, 4]);
    group.bench_function("rust, table loop", |b| {
        b.iter(|| black_box(rule.table(UPTO, limits).unwrap()))
    });
    group.finish();
}

fn tictactoe(c: &mut Criterion) {
    let mut group = c.benchmark_group("tic-tac-toe strong solution");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(6));
    let script = load("tictactoe.rhai");
    group.bench_function("script, explored then solved", |b| {
        b.iter(|| {
            let g = ScriptGame::new(script.clone(), &[]).unwrap();
            let (graph, _) = Explicit::build(&g, &g.start(), u64::MAX).unwrap();
            black_box(solve::solve(&graph, "script", u64::MAX, u64::MAX, &|_| {}).unwrap())
        })
    });
    group.bench_function("rust, explored then solved", |b| {
        b.iter(|| {
            let (graph, _) = Explicit::build(&TicTacToe, &TicTacToe.start(), u64::MAX).unwrap();
            black_box(solve::solve(&graph, "rust", u64::MAX, u64::MAX, &|_| {}).unwrap())
        })
    });
    group.bench_function("rust, ranked", |b| {
        b.iter(|| {
            black_box(solve::solve(&TicTacToe, "tictactoe", u64::MAX, u64::MAX, &|_| {}).unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, subtraction, tictactoe);
criterion_main!(benches);
