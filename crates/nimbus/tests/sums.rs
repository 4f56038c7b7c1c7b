//! Random sums of random small games (DAG games and subtraction games) against a brute-force
//! search of the whole sum's game graph: the outcome, the set of winning moves and the
//! remoteness must agree.

mod common;

use common::{build, spec, winning_results};
use nimbus::impartial::analysis::AnalyzeOptions;
use nimbus::impartial::sum::analyze;
use nimbus::impartial::Outcome;
use proptest::prelude::*;
use std::collections::BTreeSet;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn sums_agree_with_brute_force(specs in prop::collection::vec(spec(), 1..4)) {
        let (components, mut brute, start) = build(&specs, false);
        let opts = AnalyzeOptions { max_moves: usize::MAX, ..AnalyzeOptions::default() };
        let a = analyze(&components, &opts).unwrap();
        let (wins, remoteness) = brute.solve(&start);
        prop_assert_eq!(a.outcome == Outcome::N, wins);
        prop_assert_eq!(a.remoteness, Some(remoteness));
        let got: BTreeSet<String> = a.winning_moves.iter().map(|m| m.result.clone()).collect();
        prop_assert_eq!(got, winning_results(&mut brute, &start));
        prop_assert_eq!(a.winning_moves_total, a.winning_moves.len());
    }
}
