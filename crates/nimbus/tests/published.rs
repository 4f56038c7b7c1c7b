//! Published facts: OEIS nim-sequences (A002186 Kayles, A002187 Dawson's chess 0.137,
//! A002188 Grundy's game, A071074 Double Kayles 0.7777, A071435 0.177), their known periods
//! (Winning Ways ch. 4), and the first Wythoff P-positions.

use nimbus::core::budget::Limits;
use nimbus::impartial::games::grundy_game::GrundyGame;
use nimbus::impartial::games::heap::HeapRule;
use nimbus::impartial::games::octal::Octal;
use nimbus::impartial::games::wythoff;
use nimbus::impartial::period::Period;
use nimbus::impartial::sequence::nim_sequence;

fn table(rule: &dyn HeapRule, upto: u64) -> Vec<u64> {
    rule.table(upto, Limits::default()).unwrap()
}

#[test]
fn kayles_matches_oeis_a002186() {
    let oeis = [
        0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4,
        7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7,
        4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4,
        7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1,
    ];
    assert_eq!(table(&Octal::kayles(), oeis.len() as u64 - 1), oeis);
}

#[test]
fn dawsons_chess_matches_oeis_a002187_and_dawsons_kayles_is_its_shift() {
    let oeis = [
        0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
        5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2,
        1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1,
    ];
    let chess = Octal::parse("0.137").unwrap();
    assert_eq!(table(&chess, oeis.len() as u64 - 1), oeis);
    assert_eq!(table(&Octal::dawson_chess(), oeis.len() as u64 - 1), oeis);
    // OEIS: 0.07 has values a(n-1).
    let dawson = table(&Octal::dawson(), oeis.len() as u64);
    assert_eq!(&dawson[1..], &oeis[..]);
}

#[test]
fn grundys_game_matches_oeis_a002188() {
    let oeis = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
        3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
        2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3,
        7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
    ];
    assert_eq!(table(&GrundyGame, oeis.len() as u64 - 1), oeis);
}

#[test]
fn double_kayles_matches_oeis_a071074() {
    let oeis = [
        0, 1, 2, 3, 4, 5, 6, 7, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 4, 5, 12, 13, 9, 8, 2, 3, 4, 5,
        15, 14, 3, 2, 8, 9, 7, 6, 5, 4, 3, 2, 8, 9, 13, 12, 15, 14, 9, 8, 2, 3, 4, 5, 16, 17,
    ];
    let rule = Octal::parse("0.7777").unwrap();
    assert_eq!(table(&rule, oeis.len() as u64 - 1), oeis);
}

#[test]
fn published_periods_are_found_and_proved() {
    let limits = Limits::default();
    // (code, last exceptional n + 1, period, heap size large enough for the Guy–Smith test)
    let cases = [
        ("0.77", 71, 12, 400),
        ("0.07", 53, 34, 400),
        ("0.137", 52, 34, 400),
        ("0.7777", 142, 24, 600),
        ("0.177", 497, 20, 1200),
    ];
    for (code, pre, period, upto) in cases {
        let rule = Octal::parse(code).unwrap();
        let seq = nim_sequence(&rule, upto, limits).unwrap();
        assert_eq!(
            seq.period,
            Some(Period {
                preperiod: pre,
                period
            }),
            "{code}"
        );
        assert!(seq.proved, "{code} should be proved by n = {upto}");
    }
}

#[test]
fn a_period_seen_too_briefly_is_not_called_proved() {
    // Kayles up to 120 shows the period from 71 but the Guy–Smith test needs
    // 2·71 + 2·12 + 2 - 1 = 167 values.
    let seq = nim_sequence(&Octal::kayles(), 120, Limits::default()).unwrap();
    assert!(!seq.proved);
}

#[test]
fn grundys_game_has_no_proved_period() {
    let seq = nim_sequence(&GrundyGame, 3000, Limits::default()).unwrap();
    assert!(!seq.proved);
}

#[test]
fn first_wythoff_p_positions() {
    let expected = [
        (0, 0),
        (1, 2),
        (3, 5),
        (4, 7),
        (6, 10),
        (8, 13),
        (9, 15),
        (11, 18),
    ];
    for (k, &(a, b)) in expected.iter().enumerate() {
        assert_eq!(wythoff::lower(k as u64), a as u128);
        assert!(wythoff::is_p(a, b) && wythoff::is_p(b, a));
    }
    let mut found = Vec::new();
    for a in 0..12u64 {
        for b in a..20u64 {
            if wythoff::is_p(a, b) {
                found.push((a, b));
            }
        }
    }
    assert_eq!(found, expected);
}
