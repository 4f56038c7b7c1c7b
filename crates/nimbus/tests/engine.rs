//! The generic engine: deep chains without recursion, cycles, the state limit, and the
//! remoteness rule against a direct recursive definition on random DAGs.

use nimbus::core::budget::Limits;
use nimbus::impartial::explicit::ExplicitGame;
use nimbus::impartial::{mex, Engine, Impartial, Indexed};
use nimbus::Error;
use proptest::prelude::*;
use std::collections::HashMap;

/// n -> n - 1: a chain as deep as its start.
struct Chain(u64);

impl Impartial for Chain {
    type Position = u64;
    fn moves(&self, p: &u64, out: &mut Vec<u64>) {
        if *p > 0 {
            out.push(p - 1);
        }
    }
}

impl Indexed for Chain {
    fn size(&self) -> usize {
        self.0 as usize + 1
    }
    fn index(&self, p: &u64) -> usize {
        *p as usize
    }
}

#[test]
fn chain_of_ten_million_positions_does_not_overflow_the_stack() {
    let n = 10_000_000u64;
    let game = Chain(n);
    let mut e = Engine::hashed(&game, Limits::default(), "chain");
    let entry = e.entry(&n).unwrap();
    assert_eq!(entry.grundy, n % 2);
    assert_eq!(entry.remoteness, n);
    let mut e = Engine::indexed(&game, Limits::default(), "chain").unwrap();
    assert_eq!(e.entry(&n).unwrap().grundy, n % 2);
}

#[test]
fn state_limit_reports_how_far_it_got() {
    let game = Chain(1000);
    let mut e = Engine::hashed(
        &game,
        Limits {
            max_states: 100,
            ..Limits::default()
        },
        "chain",
    );
    match e.entry(&1000) {
        Err(Error::StateLimit {
            explored, limit, ..
        }) => {
            assert_eq!((explored, limit), (100, 100));
        }
        other => panic!("expected a state limit, got {other:?}"),
    }
}

#[test]
fn a_cycle_is_reported_with_its_positions() {
    // 0 -> 1 -> 2 -> 3 -> 1, and 2 -> 4.
    let g = ExplicitGame::from_lists(&[vec![1], vec![2], vec![3, 4], vec![1], vec![]]);
    let mut e = Engine::hashed(&g, Limits::default(), "g");
    match e.entry(&0) {
        Err(Error::Cycle { cycle, .. }) => assert_eq!(cycle, ["1", "2", "3", "1"]),
        other => panic!("expected a cycle, got {other:?}"),
    }
    // A self-loop is a cycle too.
    let g = ExplicitGame::from_lists(&[vec![0]]);
    assert!(matches!(
        Engine::hashed(&g, Limits::default(), "g").entry(&0),
        Err(Error::Cycle { .. })
    ));
}

#[test]
fn mex_examples() {
    assert_eq!(mex(&mut []), 0);
    assert_eq!(mex(&mut [1, 2]), 0);
    assert_eq!(mex(&mut [0, 0, 2, 1, 4]), 3);
}

fn random_dag(n: usize, bits: &[bool]) -> ExplicitGame {
    let mut lists = vec![Vec::new(); n];
    let mut k = 0;
    for (i, list) in lists.iter_mut().enumerate() {
        for j in i + 1..n {
            if bits[k % bits.len()] {
                list.push(j as u32);
            }
            k += 1;
        }
    }
    ExplicitGame::from_lists(&lists)
}

/// Grundy value and remoteness straight from their definitions (recursion is fine on graphs
/// of a few nodes).
fn definition(g: &ExplicitGame, v: u32, memo: &mut HashMap<u32, (u64, u64)>) -> (u64, u64) {
    if let Some(&r) = memo.get(&v) {
        return r;
    }
    let opts: Vec<(u64, u64)> = g
        .options(v)
        .iter()
        .map(|&w| definition(g, w, memo))
        .collect();
    let grundy = (0..).find(|x| !opts.iter().any(|o| o.0 == *x)).unwrap();
    let to_p: Vec<u64> = opts.iter().filter(|o| o.0 == 0).map(|o| o.1).collect();
    let remoteness = if opts.is_empty() {
        0
    } else if let Some(m) = to_p.iter().min() {
        m + 1
    } else {
        opts.iter().map(|o| o.1).max().unwrap() + 1
    };
    memo.insert(v, (grundy, remoteness));
    (grundy, remoteness)
}

proptest! {
    #[test]
    fn engine_matches_the_definition(n in 1usize..25, bits in prop::collection::vec(any::<bool>(), 1..300)) {
        let g = random_dag(n, &bits);
        let mut memo = HashMap::new();
        let mut e = Engine::indexed(&g, Limits::default(), "dag").unwrap();
        for v in 0..n as u32 {
            let entry = e.entry(&v).unwrap();
            let (grundy, remoteness) = definition(&g, v, &mut memo);
            prop_assert_eq!((entry.grundy, entry.remoteness), (grundy, remoteness));
            // P-positions are exactly those at even remoteness.
            prop_assert_eq!(entry.grundy == 0, entry.remoteness % 2 == 0);
        }
    }
}
