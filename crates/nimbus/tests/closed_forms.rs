//! Every closed form and fast method against the generic engine (or the definition), over all
//! positions up to a bound, and on random inputs.

use nimbus::core::budget::Limits;
use nimbus::impartial::component::{Component, Normalized, Positioned, Ruleset};
use nimbus::impartial::games::fibonacci::{self, FibonacciNim};
use nimbus::impartial::games::grundy_game::GrundyGame;
use nimbus::impartial::games::heap::{generic_table, HeapRule, Heaps};
use nimbus::impartial::games::nim::Nim;
use nimbus::impartial::games::octal::Octal;
use nimbus::impartial::games::subtraction::Subtraction;
use nimbus::impartial::games::wythoff::{self, Wythoff};
use nimbus::impartial::Engine;
use proptest::prelude::*;
use std::rc::Rc;

fn limits() -> Limits {
    Limits::default()
}

/// The heap rule's fast table against the definition, and the engine on sums of two heaps
/// against the xor of the table.
fn check_heap_rule<R: HeapRule + Clone>(rule: R, upto: u64) {
    let fast = rule.table(upto, limits()).unwrap();
    let slow = generic_table(&rule, upto, limits()).unwrap();
    assert_eq!(fast, slow, "{}", rule.name());
    let heaps = Heaps::new(rule.clone());
    // Heaps sorted, so that splitting games store multisets rather than orderings.
    let sorted = Normalized(&heaps);
    let mut engine = Engine::hashed(&sorted, limits(), rule.name());
    let small = upto.min(12);
    for a in 0..=small {
        for b in 0..=small {
            let g = engine.grundy(&vec![a, b]).unwrap();
            assert_eq!(
                g,
                fast[a as usize] ^ fast[b as usize],
                "{} {a} {b}",
                rule.name()
            );
        }
    }
    // Values beyond the table (periodic forms) agree with the table where both exist.
    let v = rule.values(upto, limits()).unwrap();
    for n in 0..=upto {
        assert_eq!(v.get(n), Some(fast[n as usize]), "{} at {n}", rule.name());
    }
}

#[test]
fn nim_is_identity() {
    check_heap_rule(Nim, 60);
}

#[test]
fn named_octal_games_and_grundys_game() {
    check_heap_rule(Octal::kayles(), 120);
    check_heap_rule(Octal::dawson(), 120);
    check_heap_rule(Octal::parse("0.137").unwrap(), 120);
    check_heap_rule(Octal::parse("4.07").unwrap(), 120);
    check_heap_rule(GrundyGame, 150);
}

#[test]
fn bash_game_closed_form() {
    for k in 1..8u64 {
        let rule = Subtraction::bash(k);
        check_heap_rule(rule.clone(), 60);
        let v = rule.values(10u64.pow(18), limits()).unwrap();
        for n in [0, 1, k, k + 1, 999_999_999_999, 10u64.pow(18)] {
            assert_eq!(v.get(n), Some(n % (k + 1)));
        }
    }
}

#[test]
fn huge_heaps_use_a_proved_period() {
    // Kayles has period 12 from 71, so a heap of 10^18 has the value of 71 + (10^18 - 71) % 12.
    let heaps = Heaps::new(Octal::kayles());
    let small = Octal::kayles().table(200, limits()).unwrap();
    let n = 10u64.pow(18);
    let g = heaps.heap_value(n, limits()).unwrap();
    assert_eq!(g, small[(71 + (n - 71) % 12) as usize]);
    // subtract{2,5,7}: the period found from a window repetition.
    let rule = Subtraction::Finite(vec![2, 5, 7]);
    let t = rule.table(3000, limits()).unwrap();
    let v = rule.values(u64::MAX, limits()).unwrap();
    for n in 0..3000 {
        assert_eq!(v.get(n), Some(t[n as usize]));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_subtraction_sets(set in prop::collection::btree_set(1u64..12, 1..5)) {
        check_heap_rule(Subtraction::Finite(set.into_iter().collect()), 80);
    }

    #[test]
    fn random_all_but_sets(set in prop::collection::btree_set(1u64..10, 0..4)) {
        check_heap_rule(Subtraction::AllBut(set.into_iter().collect()), 70);
    }

    #[test]
    fn random_octal_codes(first in prop::sample::select(vec!["0", "4"]), digits in prop::collection::vec(0u8..8, 1..4)) {
        let code = format!("{first}.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        check_heap_rule(Octal::parse(&code).unwrap(), 60);
    }
}

#[test]
fn wythoff_closed_form_against_engine() {
    let game = Wythoff::default();
    let mut engine = Engine::hashed(&game, limits(), "wythoff");
    for a in 0..40u64 {
        for b in 0..40u64 {
            let p = (a, b);
            let g = engine.grundy(&p).unwrap();
            assert_eq!(g == 0, wythoff::is_p(a, b), "({a},{b})");
            let mut expected = engine.winning_moves(&p).unwrap();
            expected.sort_unstable();
            assert_eq!(game.p_options(&p), expected, "({a},{b})");
        }
    }
}

#[test]
fn wythoff_table_against_engine() {
    let game = Wythoff::default();
    let mut engine = Engine::hashed(&game, limits(), "wythoff");
    // Strips (fewer than 128 rows or columns: bitsets for the long lines only), across and
    // down, and a square table (bitsets for every line).
    for (a, b) in [
        (0u64, 0u64),
        (0, 7),
        (9, 0),
        (25, 31),
        (40, 12),
        (5, 400),
        (300, 3),
        (130, 140),
    ] {
        let t = wythoff::table(a, b);
        for x in 0..=a {
            for y in 0..=b {
                let g = engine.grundy(&(x, y)).unwrap();
                assert_eq!(
                    t[(x * (b + 1) + y) as usize],
                    g,
                    "({x},{y}) in a table to ({a},{b})"
                );
            }
        }
        // The component's value, through the cached table.
        assert_eq!(
            game.closed_grundy(&(a, b), limits()).unwrap(),
            Some(engine.grundy(&(a, b)).unwrap())
        );
    }
}

#[test]
fn wythoff_is_exact_near_the_top_of_its_range() {
    // a_k = floor(kφ) iff (2a - k)² < 5k² < (2a + 2 - k)², an integer test independent of the
    // square root used by the library.
    let check = |k: u64| {
        let a = wythoff::lower(k) as i128;
        let k2 = k as i128;
        let five = 5 * (k as u128) * (k as u128);
        let lo = (2 * a - k2) as u128;
        let hi = (2 * a + 2 - k2) as u128;
        assert!(lo * lo < five && five < hi * hi, "k = {k}");
        let a = a as u64;
        assert!(wythoff::is_p(a, a + k) && wythoff::is_p(a + k, a));
        assert!(!wythoff::is_p(a, a + k + 1) && !wythoff::is_p(a + 1, a + k));
    };
    for k in [
        1,
        2,
        3,
        10u64.pow(9),
        10u64.pow(17),
        618_033_988_749_894_848,
        10u64.pow(18) / 2,
    ] {
        check(k);
    }
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        check(x % (wythoff::MAX_HEAP / 3));
    }
}

#[test]
fn fibonacci_nim_closed_form_against_engine() {
    let mut engine = Engine::hashed(&FibonacciNim, limits(), "fibonacci");
    for n in 0..70u64 {
        for limit in 0..=n {
            let p = (n, limit);
            let g = engine.grundy(&p).unwrap();
            assert_eq!(g != 0, FibonacciNim.is_n(p), "{p:?}");
            let mut expected = engine.winning_moves(&p).unwrap();
            expected.sort_unstable();
            let mut got = FibonacciNim.closed_winning_moves(&p).unwrap();
            got.sort_unstable();
            assert_eq!(got, expected, "{p:?}");
        }
    }
    let fib = fibonacci::fibonacci_numbers();
    for n in 1..3000u64 {
        let start = FibonacciNim::start(n);
        assert_eq!(!FibonacciNim.is_n(start), fib.contains(&n), "{n}");
    }
}

#[test]
fn fibonacci_nim_winning_moves_for_huge_heaps_are_checked_by_definition() {
    // Each listed move must leave a P-position, and the smallest Zeckendorf term must be one.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..500 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let n = x | 1;
        let p = FibonacciNim::start(n);
        let moves = FibonacciNim.closed_winning_moves(&p).unwrap();
        for &(m, lim) in &moves {
            assert!(m == 0 || !FibonacciNim.is_n((m, lim)));
        }
        let z = fibonacci::smallest_term(n);
        if z < n {
            assert!(moves.contains(&(n - z, (2 * z).min(n - z))));
        }
    }
}

#[test]
fn positioned_components_use_engine_when_no_closed_form() {
    // A Wythoff N-position's value comes from the engine; its moves to each lower value exist
    // (the mex property) and are listed.
    let c = Positioned::new(Rc::new(Wythoff::default()), (4u64, 9u64));
    let g = c.grundy(limits()).unwrap();
    assert!(g > 0);
    for t in 0..g {
        assert!(c.moves_to_value(t, limits(), 10).unwrap().total > 0);
    }
    assert_eq!(Wythoff::default().expression(&(4, 9)), "wythoff 4 9");
}
