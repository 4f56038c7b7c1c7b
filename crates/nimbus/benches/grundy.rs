//! Hot paths of the impartial engine: the generic Grundy engine on a random DAG of 10^6
//! nodes (flat-array and hash-map memo), the octal nim-sequence loop, retrograde analysis
//! of a cyclic graph with 10^7 edges, and the substring game's automaton.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use nimbus::core::budget::Limits;
use nimbus::impartial::explicit::ExplicitGame;
use nimbus::impartial::games::heap::HeapRule;
use nimbus::impartial::games::octal::Octal;
use nimbus::impartial::games::substring::SubstringGame;
use nimbus::impartial::loopy::retrograde;
use nimbus::impartial::Engine;
use std::hint::black_box;

/// A random DAG: node i has up to 4 edges to nodes after it, mostly near it (xorshift, fixed
/// seed, so every run measures the same graph).
fn random_dag(n: usize) -> ExplicitGame {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let lists: Vec<Vec<u32>> = (0..n)
        .map(|i| {
            let deg = (next() % 5) as usize;
            (0..deg)
                .filter_map(|_| {
                    let span = if next() % 8 == 0 { n as u64 } else { 64 };
                    let j = i as u64 + 1 + next() % span;
                    (j < n as u64).then_some(j as u32)
                })
                .collect()
        })
        .collect();
    ExplicitGame::from_lists(&lists)
}

fn engine(c: &mut Criterion) {
    let g = random_dag(1_000_000);
    let limits = Limits::default();
    let mut group = c.benchmark_group("engine_dag_1e6");
    group.sample_size(10);
    group.bench_function("indexed_all_nodes", |b| {
        b.iter(|| {
            let mut e = Engine::indexed(&g, limits, "dag").unwrap();
            let mut acc = 0u64;
            for v in 0..g.len() as u32 {
                acc ^= e.grundy(&v).unwrap();
            }
            black_box(acc)
        })
    });
    group.bench_function("hashed_all_nodes", |b| {
        b.iter_batched(
            || Engine::hashed(&g, limits, "dag"),
            |mut e| {
                let mut acc = 0u64;
                for v in 0..g.len() as u32 {
                    acc ^= e.grundy(&v).unwrap();
                }
                black_box(acc)
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// A random graph with cycles: 2·10^6 nodes, 10^7 edges to anywhere (fixed seed); a tenth of
/// the nodes are terminal so that wins and losses spread back from them.
fn random_cyclic(n: usize, edges: usize) -> ExplicitGame {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n];
    let per = edges / (n - n / 10);
    for (i, list) in lists.iter_mut().enumerate() {
        if i % 10 != 0 {
            list.extend((0..per).map(|_| (next() % n as u64) as u32));
        }
    }
    ExplicitGame::from_lists(&lists)
}

fn loopy(c: &mut Criterion) {
    let g = random_cyclic(2_000_000, 10_000_000);
    let mut group = c.benchmark_group("loopy");
    group.sample_size(10);
    group.bench_function("retrograde_2e6_nodes_1e7_edges", |b| {
        b.iter(|| black_box(retrograde(&g).outcome.len()))
    });
    group.finish();
}

/// The suffix automaton of a random 2·10^5-letter string and every state's value.
fn substring(c: &mut Criterion) {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let s: String = (0..200_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (b'a' + (x % 26) as u8) as char
        })
        .collect();
    let mut group = c.benchmark_group("substring");
    group.sample_size(10);
    group.bench_function("automaton_and_values_2e5_letters", |b| {
        b.iter(|| black_box(SubstringGame::new(&s, "S").unwrap().automaton().len()))
    });
    group.finish();
}

fn sequences(c: &mut Criterion) {
    let mut group = c.benchmark_group("nim_sequence");
    group.sample_size(10);
    let kayles = Octal::kayles();
    group.bench_function("kayles_1e4", |b| {
        b.iter(|| black_box(kayles.table(10_000, Limits::default()).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, engine, sequences, loopy, substring);
criterion_main!(benches);
