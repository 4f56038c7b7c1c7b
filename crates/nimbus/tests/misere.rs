//! Misère play: random sums against a brute-force misère search of the whole sum, a known
//! counterexample to the SJ rule, misère Nim and the misère Bash game.

mod common;

use common::{build, spec, winning_results};
use nimbus::core::budget::Limits;
use nimbus::impartial::component::{Component, Positioned};
use nimbus::impartial::games::digraph::{Graph, Tokens};
use nimbus::impartial::games::heap::{HeapRule, Heaps};
use nimbus::impartial::games::nim::Nim;
use nimbus::impartial::games::subtraction::Subtraction;
use nimbus::impartial::misere::{analyze_misere, MisereOptions, MisereResult, MisereRule};
use nimbus::impartial::Outcome;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

fn opts(rule: Option<MisereRule>) -> MisereOptions {
    MisereOptions {
        limits: Limits::default(),
        max_moves: usize::MAX,
        rule,
    }
}

fn answer(components: &[Box<dyn Component>], rule: Option<MisereRule>) -> MisereResult {
    analyze_misere(components, &opts(rule)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn misere_sums_agree_with_brute_force(specs in prop::collection::vec(spec(), 1..4)) {
        let (components, mut brute, start) = build(&specs, true);
        let MisereResult::Answer(a) = answer(&components, None) else {
            panic!("no rule was forced, so there is no refusal");
        };
        let (wins, remoteness) = brute.solve(&start);
        prop_assert_eq!(a.outcome == Outcome::N, wins, "decided by {}", a.rule);
        if let Some(r) = a.remoteness {
            prop_assert_eq!(r, remoteness);
        }
        let got: BTreeSet<String> = a.winning_moves.iter().map(|m| m.result.clone()).collect();
        prop_assert_eq!(got, winning_results(&mut brute, &start), "decided by {}", a.rule);
    }

    #[test]
    fn the_sj_rule_is_only_used_where_it_is_right(specs in prop::collection::vec(spec(), 1..4)) {
        let (components, mut brute, start) = build(&specs, true);
        match answer(&components, Some(MisereRule::Sj)) {
            MisereResult::Answer(a) => {
                prop_assert_eq!(a.rule, MisereRule::Sj);
                prop_assert_eq!(a.outcome == Outcome::N, brute.solve(&start).0);
            }
            MisereResult::Refused(r) => {
                let c = r.counterexample.expect("a failing atom always has a counterexample");
                prop_assert_ne!(c.rule_says, c.truth);
            }
        }
    }
}

fn seed_graph() -> Vec<Box<dyn Component>> {
    let g = Graph::parse("seed.txt", "1 2\n2 3\n3 4\n2 4\n").unwrap();
    let start = g.node("1").unwrap();
    vec![Box::new(Positioned::new(
        Rc::new(Tokens::new(g)),
        vec![start],
    ))]
}

#[test]
fn a_known_counterexample_is_p_and_the_sj_rule_is_refused_there() {
    let MisereResult::Answer(a) = answer(&seed_graph(), None) else {
        panic!("answered by search")
    };
    assert_eq!(a.outcome, Outcome::P);
    assert_eq!(a.rule, MisereRule::Search);
    let MisereResult::Refused(r) = answer(&seed_graph(), Some(MisereRule::Sj)) else {
        panic!("the SJ rule must be refused")
    };
    let c = r.counterexample.unwrap();
    assert_eq!(c.position, "graph seed.txt @1");
    assert_eq!((c.rule_says, c.truth), (Outcome::N, Outcome::P));
}

/// Misère Nim by the definition.
fn nim_wins(heaps: &mut Vec<u64>, memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    heaps.sort_unstable();
    if let Some(&w) = memo.get(heaps.as_slice()) {
        return w;
    }
    let mut any = false;
    let mut terminal = true;
    for i in 0..heaps.len() {
        for left in 0..heaps[i] {
            terminal = false;
            let mut next = heaps.clone();
            next[i] = left;
            if !nim_wins(&mut next, memo) {
                any = true;
            }
        }
    }
    let w = terminal || any;
    memo.insert(heaps.clone(), w);
    w
}

#[test]
fn misere_nim_follows_bouton_and_the_definition() {
    let mut memo = HashMap::new();
    let rule = Rc::new(Heaps::new(Nim));
    for code in 0..6u64.pow(4) {
        let heaps: Vec<u64> = (0..4).map(|i| code / 6u64.pow(i) % 6).collect();
        let c: Vec<Box<dyn Component>> =
            vec![Box::new(Positioned::new(rule.clone(), heaps.clone()))];
        let MisereResult::Answer(a) = answer(&c, None) else {
            panic!()
        };
        assert_eq!(a.rule, MisereRule::AntiNim);
        assert_eq!(
            a.outcome == Outcome::N,
            nim_wins(&mut heaps.clone(), &mut memo),
            "{heaps:?}"
        );
        for m in &a.winning_moves {
            let mut after: Vec<u64> = m.result["nim ".len()..]
                .split(' ')
                .map(|x| x.parse().unwrap())
                .collect();
            assert!(
                !nim_wins(&mut after, &mut memo),
                "{heaps:?} -> {}",
                m.result
            );
        }
    }
}

#[test]
fn misere_bash_game() {
    // Seed 002: in misère Bash with moves 1..k, the player to move loses iff (n-1) mod (k+1) = 0.
    for k in 1..7u64 {
        let rule = Rc::new(Heaps::new(Subtraction::bash(k)));
        for n in 0..60u64 {
            let c: Vec<Box<dyn Component>> = vec![Box::new(Positioned::new(rule.clone(), vec![n]))];
            let MisereResult::Answer(a) = answer(&c, None) else {
                panic!()
            };
            assert_eq!(a.rule, MisereRule::Sj);
            let p = n >= 1 && (n - 1) % (k + 1) == 0;
            assert_eq!(a.outcome == Outcome::P, p, "k = {k}, n = {n}");
        }
    }
}

/// Misère Grundy value and remoteness of a row of pins (bit i set: pin i stands) where a move
/// knocks down `widths` adjacent standing pins, by recursion over bitmasks: no heap rules, no
/// multisets. A row with no move has value 1 and remoteness 0 (the player to move has won).
fn pins_brute(mask: u32, widths: &[u32], memo: &mut HashMap<u32, (u64, u64)>) -> (u64, u64) {
    if let Some(&v) = memo.get(&mask) {
        return v;
    }
    let mut opts = Vec::new();
    for &w in widths {
        let block = (1u32 << w) - 1;
        for i in 0..=(32 - w) {
            if mask & (block << i) == block << i {
                opts.push(pins_brute(mask & !(block << i), widths, memo));
            }
        }
    }
    let v = if opts.is_empty() {
        (1, 0)
    } else {
        let mut g = 0;
        while opts.iter().any(|o| o.0 == g) {
            g += 1;
        }
        let losing = opts.iter().filter(|o| o.0 == 0).map(|o| o.1).min();
        let r = match losing {
            Some(r) => r + 1,
            None => opts.iter().map(|o| o.1).max().unwrap() + 1,
        };
        (g, r)
    };
    memo.insert(mask, v);
    v
}

#[test]
fn misere_sequences_of_kayles_and_dawson_match_pins_brute_force() {
    use nimbus::impartial::games::octal::Octal;
    use nimbus::impartial::sequence::misere_sequence;
    for (rule, widths) in [(Octal::kayles(), vec![1, 2]), (Octal::dawson(), vec![2])] {
        let seq = misere_sequence(&rule, 16, Limits::default()).unwrap();
        let mut memo = HashMap::new();
        for n in 0..=16u32 {
            let (g, r) = pins_brute((1u32 << n) - 1, &widths, &mut memo);
            assert_eq!(seq.values[n as usize], g, "{} {n}", rule.name());
            assert_eq!(seq.remoteness[n as usize], r, "{} {n}", rule.name());
        }
        // The sum engine's misère search must agree on the outcome of each heap.
        let game = Rc::new(Heaps::new(rule.clone()));
        for n in 0..=16u64 {
            let c: Vec<Box<dyn Component>> = vec![Box::new(Positioned::new(game.clone(), vec![n]))];
            let MisereResult::Answer(a) = answer(&c, None) else {
                panic!("no rule was forced");
            };
            let p = seq.values[n as usize] == 0;
            assert_eq!(a.outcome == Outcome::P, p, "{} {n}", rule.name());
        }
    }
}

#[test]
fn misere_bash_sequence_is_p_exactly_at_one_mod_k_plus_one() {
    use nimbus::impartial::sequence::misere_sequence;
    for k in 1..6u64 {
        let seq = misere_sequence(&Subtraction::bash(k), 300, Limits::default()).unwrap();
        for (n, &g) in seq.values.iter().enumerate() {
            assert_eq!(g == 0, n as u64 % (k + 1) == 1, "k = {k}, n = {n}");
        }
        let p = seq.period.expect("the misère Bash game is periodic");
        assert_eq!(p.period, k + 1);
        assert!(
            seq.proved,
            "a subtraction game's period is proved by its window"
        );
    }
}
