//! Octal games: the sparse-space table against the naive loop, and published periods.

use nimbus::api::sequence;
use nimbus::core::budget::Limits;
use nimbus::impartial::games::heap::HeapRule;
use nimbus::impartial::games::octal::Octal;
use nimbus::impartial::period::{proved_period, Period};
use proptest::prelude::*;

fn code(whole: u8, digits: &[u8]) -> String {
    let frac: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    format!("{whole}.{frac}")
}

/// Every code `0.d1d2d3` and `4.d1d2d3`, to n = 300: the sparse method equals the naive loop.
#[test]
fn every_three_digit_code_agrees_with_the_naive_loop_to_300() {
    for whole in [0u8, 4] {
        for d in 0..512u32 {
            let digits = [(d >> 6) as u8, (d >> 3 & 7) as u8, (d & 7) as u8];
            let c = code(whole, &digits);
            let g = Octal::parse(&c).unwrap();
            assert_eq!(
                g.table(300, Limits::default()).unwrap(),
                g.naive_table(300),
                "octal {c}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Random codes of up to three digits, to n = 5000.
    #[test]
    fn sparse_equals_naive_to_5000(whole in prop::sample::select(vec![0u8, 4]),
                                   digits in prop::collection::vec(0u8..8, 1..=3)) {
        let c = code(whole, &digits);
        let g = Octal::parse(&c).unwrap();
        prop_assert_eq!(g.table(5000, Limits::default()).unwrap(), g.naive_table(5000), "octal {}", c);
    }
}

fn hex_code(whole: u8, digits: &[u8]) -> String {
    let frac: String = digits
        .iter()
        .map(|&d| char::from_digit(u32::from(d), 16).unwrap())
        .collect();
    format!("{:x}.{frac}", whole)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Hexadecimal codes (moves may leave three heaps): the table equals the naive loop over
    /// every split to n = 400, and the values of every move the rule lists (a third method).
    #[test]
    fn hexadecimal_tables_equal_the_naive_loop(whole in prop::sample::select(vec![0u8, 4, 8, 12]),
                                               digits in prop::collection::vec(0u8..16, 1..=3)) {
        let c = hex_code(whole, &digits);
        let g = Octal::parse_hex(&c).unwrap();
        let table = g.table(400, Limits::default()).unwrap();
        prop_assert_eq!(&table, &g.naive_table(400), "hex {}", c);
        let listed = nimbus::impartial::games::heap::generic_table(&g, 120, Limits::default()).unwrap();
        prop_assert_eq!(&table[..=120], &listed[..], "hex {}", c);
    }
}

/// A hexadecimal code with octal digits only is that octal game; a hexadecimal game whose
/// period is proved satisfies the three-heap form of the test (checked against a table twice
/// as long as the test needs).
#[test]
fn hexadecimal_codes_extend_octal_ones() {
    for c in ["0.77", "0.07", "4.07", "0.137", "0.165"] {
        let (h, o) = (Octal::parse_hex(c).unwrap(), Octal::parse(c).unwrap());
        assert_eq!(
            h.table(3000, Limits::default()).unwrap(),
            o.table(3000, Limits::default()).unwrap(),
            "{c}"
        );
    }
    // Each of these has a digit with bit 8 (three heaps left); many others (0.8, 0.8f) look
    // arithmetic-periodic, with values that grow, and prove nothing.
    for c in ["0.f", "0.a", "0.b", "0.d", "0.f1", "0.f3"] {
        let g = Octal::parse_hex(c).unwrap();
        let proof = g.prove(Limits::default()).unwrap();
        let (pre, p) = (
            proof.period.preperiod as usize,
            proof.period.period as usize,
        );
        let long = g.naive_table(1500);
        assert!(
            (pre..long.len() - p).all(|n| long[n] == long[n + p]),
            "hex {c}"
        );
        assert_eq!(long[..proof.table.len()], proof.table[..], "hex {c}");
    }
}

/// The least period a table proves, by brute force: for each `p` in turn, the preperiod is one
/// past the last `n` with `G(n) != G(n + p)`.
fn brute_proved_period(values: &[u8], horizon: impl Fn(u64, u64) -> Option<u64>) -> Option<Period> {
    let len = values.len();
    (1..len).find_map(|p| {
        let pre = (0..len - p)
            .rev()
            .find(|&n| values[n] != values[n + p])
            .map_or(0, |n| n + 1);
        let h = horizon(pre as u64, p as u64)?;
        (h < len as u64).then_some(Period {
            preperiod: pre as u64,
            period: p as u64,
        })
    })
}

proptest! {
    /// The linear-time search for a proved period equals the brute-force one, on tables that
    /// are eventually periodic with a few late exceptions.
    #[test]
    fn proved_period_equals_brute_force(
        prefix in prop::collection::vec(0u8..4, 0..40),
        cycle in prop::collection::vec(0u8..4, 1..8),
        len in 1usize..200,
        flips in prop::collection::vec(0usize..200, 0..3),
        t in 0u64..4,
    ) {
        let mut values: Vec<u8> = prefix
            .iter()
            .copied()
            .chain(cycle.iter().copied().cycle())
            .take(len)
            .collect();
        for f in flips {
            if f < values.len() {
                values[f] ^= 1;
            }
        }
        let horizon = |pre: u64, p: u64| (2 * pre + 2 * p + t).checked_sub(1);
        prop_assert_eq!(proved_period(&values, horizon), brute_proved_period(&values, horizon));
    }
}

fn prove(code: &str) -> sequence::Answer {
    let req = sequence::Request {
        upto: 10,
        prove: true,
        ..Default::default()
    };
    sequence::solve(&format!("octal {code}"), &req).unwrap()
}

/// Published preperiods and periods (Flammenkamp's table of octal games; Winning Ways), each
/// proved here by the Guy-Smith test: `--prove` computes until it holds.
#[test]
fn published_periods_are_proved() {
    for (code, preperiod, period) in [
        ("0.45", 498, 20),
        ("0.156", 3479, 349),
        ("0.356", 7315, 142),
        ("0.644", 3256, 442),
        ("0.165", 5181, 1550),
        ("0.127", 46578, 4),
    ] {
        let a = prove(code);
        assert_eq!(
            (a.preperiod, a.period, a.proved),
            (Some(preperiod), Some(period), true),
            "octal {code}"
        );
        // The certificate: the test's horizon, and the checksum of the table up to it.
        let h = 2 * preperiod + 2 * period + code.len() as u64 - 3;
        assert_eq!(a.checked_upto, Some(h), "octal {code}");
        let full = sequence::solve(
            &format!("octal {code}"),
            &sequence::Request {
                upto: h,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(a.checksum, Some(sequence::checksum(&full.values)));
    }
}

/// A pattern in the last few dozen values of a game whose preperiod is 105 351 is not a
/// period: 0.16 to 5000 shows none.
#[test]
fn no_period_on_thin_evidence() {
    let req = sequence::Request {
        upto: 5000,
        ..Default::default()
    };
    let a = sequence::solve("octal 0.16", &req).unwrap();
    assert_eq!((a.period, a.proved), (None, false));
    // Kayles is proved periodic from a short table all the same.
    let k = sequence::solve(
        "kayles",
        &sequence::Request {
            upto: 200,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        (k.preperiod, k.period, k.proved),
        (Some(71), Some(12), true)
    );
}

/// Grundy's game (splits into unequal heaps) by the sparse method equals the definition.
#[test]
fn grundy_game_agrees_with_the_definition_to_3000() {
    use nimbus::impartial::games::grundy_game::GrundyGame;
    use nimbus::impartial::games::heap::generic_table;
    assert_eq!(
        GrundyGame.table(3000, Limits::default()).unwrap(),
        generic_table(&GrundyGame, 3000, Limits::default()).unwrap()
    );
}

/// A proof stopped by its budget leaves its values in the checkpoint file, and the next run
/// goes on from them: the same proof as a run without stops. A resumed run really reads the
/// file (a value altered in it, with a checksum to match, changes the answer), and a damaged
/// file or one of another game is refused.
#[test]
fn a_stopped_proof_resumes_from_its_checkpoint() {
    let dir = std::env::temp_dir().join(format!("nimbus-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("0.165.ckpt");
    let _ = std::fs::remove_file(&path);
    let mut req = sequence::Request {
        upto: 10,
        prove: true,
        checkpoint: Some(path.clone()),
        ..Default::default()
    };
    req.limits.max_work = 1000;
    let stopped = sequence::solve("octal 0.165", &req).unwrap_err();
    assert!(stopped.to_string().contains("raise max_work"), "{stopped}");
    let saved = std::fs::read(&path).unwrap();
    let (head, data) = split_checkpoint(&saved);
    assert_eq!(head["values"], 4096, "{head}");
    assert_eq!(data.len(), 2 * 4096);

    req.limits.max_work = sequence::PROVE_MAX_WORK;
    let resumed = sequence::solve("octal 0.165", &req).unwrap();
    let whole = prove("0.165");
    assert_eq!(
        (
            resumed.preperiod,
            resumed.period,
            resumed.checked_upto,
            &resumed.checksum
        ),
        (
            whole.preperiod,
            whole.period,
            whole.checked_upto,
            &whole.checksum
        )
    );

    // The file now holds the table up to the proof's horizon; put back the stopped run's
    // values with one changed: the run that reads them cannot prove the same thing.
    let mut altered = data.to_vec();
    altered[2 * 100] ^= 1;
    write_checkpoint(&path, &head, &altered);
    let changed = sequence::solve("octal 0.165", &req);
    assert!(
        changed.map_or(true, |a| a.checksum != whole.checksum),
        "a resumed run ignored the values it was given"
    );

    write_checkpoint(&path, &head, data);
    let mut damaged = std::fs::read(&path).unwrap();
    *damaged.last_mut().unwrap() ^= 1;
    std::fs::write(&path, damaged).unwrap();
    let e = sequence::solve("octal 0.165", &req).unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");

    write_checkpoint(&path, &head, data);
    let e = sequence::solve("octal 0.156", &req).unwrap_err();
    assert!(e.to_string().contains("another game"), "{e}");

    req.prove = false;
    let e = sequence::solve("octal 0.165", &req).unwrap_err();
    assert!(e.to_string().contains("prove"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint file's header (its second line, JSON) and its values.
fn split_checkpoint(bytes: &[u8]) -> (serde_json::Value, &[u8]) {
    let mut parts = bytes.splitn(3, |&b| b == b'\n');
    assert_eq!(parts.next().unwrap(), b"nimbus nim-sequence checkpoint 1");
    let head = serde_json::from_slice(parts.next().unwrap()).unwrap();
    (head, parts.next().unwrap())
}

fn write_checkpoint(path: &std::path::Path, head: &serde_json::Value, data: &[u8]) {
    let mut head = head.clone();
    head["values"] = (data.len() / 2).into();
    head["crc32"] = crc32fast::hash(data).into();
    let mut out = b"nimbus nim-sequence checkpoint 1\n".to_vec();
    out.extend(serde_json::to_vec(&head).unwrap());
    out.push(b'\n');
    out.extend(data);
    std::fs::write(path, out).unwrap();
}

/// The terms of the OEIS entries for Kayles (A002186), Dawson's chess (A002187) and Grundy's
/// game (A002188), copied into tests/data/oeis with their source.
#[test]
fn oeis_terms() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/oeis");
    for (file, ruleset) in [
        ("A002186.txt", "kayles"),
        ("A002187.txt", "dawson-chess"),
        ("A002188.txt", "grundy-game"),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let terms: Vec<u64> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| {
                let (n, v) = l.split_once(' ').unwrap();
                assert_eq!(n.parse::<usize>().unwrap(), i, "{file}");
                v.trim().parse().unwrap()
            })
            .collect();
        assert!(terms.len() > 100, "{file}");
        let req = sequence::Request {
            upto: terms.len() as u64 - 1,
            ..Default::default()
        };
        assert_eq!(
            sequence::solve(ruleset, &req).unwrap().values,
            terms,
            "{file}"
        );
    }
}
