//! Games for the tests of the one-equilibrium methods: the examples shipped with the
//! repository, and random games from a list of payoffs.

#![allow(dead_code)]

use nimbus::exact::Q;
use nimbus::formats::nfg;
use nimbus::strategic::game::NormalForm;
use std::path::PathBuf;

/// An example game from the repository's `examples` folder.
pub fn example(name: &str) -> NormalForm {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name);
    nfg::parse(&std::fs::read_to_string(&path).unwrap(), name).unwrap()
}

/// A game of `shape` whose payoffs are `raw`, repeated as needed, profile by profile.
pub fn random_game(shape: &[usize], raw: &[i64]) -> NormalForm {
    let n = shape.len();
    let count: usize = shape.iter().product();
    let payoffs = (0..count)
        .map(|k| {
            (0..n)
                .map(|i| Q::from_integer(raw[(k * n + i) % raw.len()].into()))
                .collect()
        })
        .collect();
    let names = |m: usize| (0..m).map(|t| t.to_string()).collect::<Vec<_>>();
    NormalForm::new(
        String::new(),
        (0..n).map(|i| format!("P{i}")).collect(),
        shape.iter().map(|&m| names(m)).collect(),
        payoffs,
    )
    .unwrap()
}
