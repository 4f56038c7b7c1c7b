//! The red-team inputs of the "first hour" issue, each a regression test: every one ends
//! within its budget with an answer or a clear error (exit status 2), never a panic, an abort
//! on allocation or a hang. Each runs with a memory cap on the child process well below what
//! the old behaviour allocated, and a wall-clock bound.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{root, with_stdin};

/// Runs the command with `input` on standard input; fails the test past `seconds`.
fn run(args: &[&str], input: &str, seconds: f64) -> Output {
    let started = Instant::now();
    let out = with_stdin(args, input);
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs_f64(seconds),
        "{args:?} took {took:?}, more than {seconds} s"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.contains("memory allocation"), "{args:?}: {err}");
    out
}

/// The memory budget the tests assume, so that they do not depend on the machine's size.
const MEMORY: &str = "--max-memory=8000000000";

fn refused(args: &[&str], needle: &str) {
    let args = [args, &[MEMORY]].concat();
    let args = args.as_slice();
    let out = run(args, "", 20.0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in {err}"
    );
}

fn answers(args: &[&str], needle: &str) -> String {
    let args = [args, &[MEMORY]].concat();
    let args = args.as_slice();
    let out = run(args, "", 20.0);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(needle),
        "{args:?}: expected '{needle}' in {text}"
    );
    text
}

#[test]
fn huge_heaps_beside_a_cyclic_graph_are_refused_before_their_moves_are_listed() {
    let loopy = "graph examples/loopy.txt @e";
    for heap in [
        "nim 18446744073709551615",
        "fibonacci 11057271708072619724",
        "nim 100000",
    ] {
        refused(&["sg", &format!("{loopy} + {heap}")], "raise --max-");
    }
    refused(
        &[
            "sg",
            &format!("{loopy} + kayles 1000000000"),
            "--max-states",
            "1000",
        ],
        "raise --max-",
    );
    // A heap whose moves fit is analysed with the cycle.
    answers(&["sg", &format!("{loopy} + nim 30")], "outcome:");
}

#[test]
fn wythoff_table_is_checked_against_memory_and_falls_back_on_the_closed_form() {
    // A strip of 26 × 347 402 values fits the budget now (a bitset for each long line only).
    let text = answers(&["sg", "wythoff 25 347401"], "grundy:     347413");
    assert!(text.contains("-> wythoff 25 41"), "{text}");
    // Under a budget it does not fit, the closed form answers the outcome and the move.
    let out = run(
        &["sg", "wythoff 25 347401", "--max-memory", "1000000"],
        "",
        20.0,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("beyond the memory budget"), "{text}");
    assert!(text.contains("-> wythoff 25 41"), "{text}");
}

#[test]
fn nim_remoteness_has_a_closed_form_and_sums_skip_searches_too_large() {
    answers(&["sg", "nim 20000"], "remoteness: 1\n");
    answers(&["sg", "nim 1999999"], "remoteness: 1\n");
    let text = answers(&["sg", "nim 8 6 + nim 3000"], "grundy:     2998");
    assert!(
        text.contains("remoteness of the sum not computed"),
        "{text}"
    );
    answers(&["sg", "subtract{1..1000} 100000"], "outcome:");
}

#[test]
fn quadratic_tables_are_refused_by_the_work_budget() {
    // The sparse-space tables' work depends on the values, so it is counted as it is done:
    // a small budget stops them early, with the heap reached.
    refused(
        &["sg", "grundy-game 902149", "--max-work", "100000000"],
        "raise --max-work",
    );
    refused(
        &["sg", "octal 0.123615 828975", "--max-work", "100000000"],
        "raise --max-work",
    );
    // Support enumeration of a 16 x 16 game: every pair of supports is 4·10^10 steps.
    let row: Vec<String> = (0..16)
        .map(|i| {
            (0..16)
                .map(|j| ((i * 7 + j * 3) % 10).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    refused(
        &["nash", "--row", &row.join("; "), "--method", "support"],
        "raise --max-work",
    );
    // Sequential Nim lists every move (a fuzzer's finding: 2·10^9 objects, 32 GB of moves).
    refused(
        &["solve", "nim:93,744399,2000000000"],
        "more than the 1000000 a search lists",
    );
    // Plain minimax of Connect Four is the whole tree: the time limit holds it.
    refused(
        &[
            "solve",
            "connect4",
            "--method",
            "minimax",
            "--time-limit",
            "0.5",
        ],
        "the time limit passed",
    );
}

#[test]
fn a_misere_search_that_cannot_fit_is_refused_at_once() {
    let dir = std::env::temp_dir().join(format!("nimbus-red-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cycle10k.txt");
    let edges: String = (0..10_000)
        .map(|i| format!("{i} {}\n", (i + 1) % 10_000))
        .collect();
    std::fs::write(&path, edges).unwrap();
    let expr = format!("graph {} @0 @1", path.display());
    refused(&["sg", "--misere", &expr], "raise --max-states");
}

#[test]
fn a_one_column_matrix_game_is_a_saddle_point_not_a_huge_lp() {
    let dir = std::env::temp_dir().join(format!("nimbus-col-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("column.txt");
    let rows: String = (0..100_000).map(|i| format!("{}\n", i % 7)).collect();
    std::fs::write(&path, rows).unwrap();
    let p = path.display().to_string();
    let v = run(&["zerosum", "--file", &p, "--json"], "", 20.0);
    let v: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
    assert_eq!(v["value"], "6");
    assert_eq!(v["pivots"], 0);
    let f = run(&["zerosum", "--float", "--file", &p, "--json"], "", 20.0);
    assert!(f.status.success());
}

#[test]
fn standard_input_positions_keep_the_time_limit() {
    let out = run(
        &["solve", "connect4", "-", "--time-limit", "0.5"],
        "4\n",
        10.0,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--time-limit"), "{err}");
    let out = run(&["solve", "connect4", "-", "--depth", "3"], "4\n", 10.0);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn strong_solutions_that_cannot_fit_are_refused_with_their_size() {
    refused(&["solve", "connect4", "--all"], "raise --max-memory");
    refused(&["solve", "connect4:6x5", "--all"], "raise --max-memory");
}

#[test]
fn scripts_cannot_import_and_stop_at_their_time_budget() {
    let dir = std::env::temp_dir().join(format!("nimbus-rhai-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let import = dir.join("import.rhai");
    std::fs::write(
        &import,
        "import \"foo\" as f;\nfn heap(n) { n }\nfn moves(n) { [] }\n",
    )
    .unwrap();
    refused(
        &["sg", &format!("script:{} 3", import.display())],
        "'import' is a reserved keyword",
    );
    let endless = dir.join("endless.rhai");
    std::fs::write(&endless, "fn heap(n) { n }\nfn moves(n) { [n + 1] }\n").unwrap();
    refused(
        &[
            "sg",
            &format!("script:{} 1", endless.display()),
            "--script-time",
            "2",
        ],
        "raise --script-time",
    );
    let push = dir.join("push.rhai");
    std::fs::write(
        &push,
        "fn heap(n) { n }\nfn moves(n) { let a = []; loop { a.push(a.len()); } }\n",
    )
    .unwrap();
    refused(
        &[
            "sg",
            &format!("script:{} 1", push.display()),
            "--script-time",
            "2",
        ],
        "raise --script",
    );
}

/// Starts the command, sends it Ctrl-C (SIGINT) after `after` seconds, and waits (at most ten
/// seconds) for it to stop.
fn interrupted(args: &[&str], after: f64) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_nimbus"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    std::thread::sleep(Duration::from_secs_f64(after));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{args:?} did not stop"
    );
    out
}

#[test]
fn ctrl_c_stops_long_work_cleanly_with_status_130() {
    for args in [
        &["sg", "grundy-game 20000000", "--max-work", "1000000000000"][..],
        &[
            "sequence",
            "octal",
            "0.6",
            "--upto",
            "20000000",
            "--max-work",
            "1000000000000",
        ],
        &["solve", "connect4"],
    ] {
        let out = interrupted(args, 1.0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?}: {err}");
        assert!(err.contains("interrupted (Ctrl-C)"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Iterative deepening keeps its best answer so far, marked as such.
    let out = interrupted(&["solve", "connect4", "--time-limit", "100"], 1.5);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(text.contains("(interrupted: best answer so far"), "{text}");
    assert!(text.contains("an estimate, not a proved result"), "{text}");
}

/// A short .nfg file whose header claims millions of profiles (a fuzzer's finding) is an error
/// after a few numbers, within half a gigabyte of address space: room is made for what the
/// file holds, not for what it claims.
#[test]
fn an_nfg_header_claiming_millions_of_profiles_allocates_nothing_large() {
    let dir = std::env::temp_dir().join(format!("nimbus-nfg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("claims.nfg");
    std::fs::write(
        &path,
        "NFG 1 R \"big\" { \"A\" \"B\" } { 4 4555555 }\n1 2 3 4 5 6 7 8\n",
    )
    .unwrap();
    let script = format!(
        "ulimit -v 500000; exec '{}' nash '{}'",
        env!("CARGO_BIN_EXE_nimbus"),
        path.display()
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("the payoff list has 8 numbers"), "{err}");
}

/// Fuzz finding (cli, a timeout of the instrumented build): a 3 x 3 game with a 7600-digit
/// payoff. Exact arithmetic on such numbers is slow (their gcds dominate) but bounded: the
/// answer comes, exactly, well within the bound of `answers`.
#[test]
fn a_payoff_of_thousands_of_digits_is_answered_exactly() {
    let text = answers(
        &[
            "nash",
            "--row",
            "00000000080000000000 0,9;23 1  5000129E7589;2 31 0",
        ],
        "equilibria:  1",
    );
    assert!(text.contains("99999999999999999999"), "{text}");
}

#[test]
fn vertex_enumeration_keeps_to_the_memory_budget() {
    // Von Stengel's 6 x 6 game: 75 equilibria, whose pairs alone pass 20 kB; the tableaux on
    // the search's path pass 2 kB.
    for cap in ["--max-memory=20000", "--max-memory=2000"] {
        let args = ["nash", "data/nfg/stengel.nfg", "--method", "vertex", cap];
        let out = run(&args, "", 20.0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("vertex enumeration"), "{err}");
        assert!(err.contains("--max-memory"), "{err}");
    }
    let args = [
        "nash",
        "data/nfg/stengel.nfg",
        "--method",
        "vertex",
        "--max-memory=200000",
    ];
    let out = run(&args, "", 20.0);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

// The "nothing wrong, nothing lost" issue: every file Nimbus writes and reads back is refused
// when any byte of it is damaged, and a resumed run repairs what does not verify.

/// A fresh directory under the system's temporary one, for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nimbus-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Replaces the first `from` in the file by `to`.
fn edit(path: &std::path::Path, from: &str, to: &str) {
    let bytes = std::fs::read(path).unwrap();
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("no {from} in {}", path.display()));
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(to.as_bytes());
    out.extend_from_slice(&bytes[at + from.len()..]);
    std::fs::write(path, out).unwrap();
}

#[test]
fn damaged_tier_files_are_refused_and_repaired_by_a_resume() {
    let dir = scratch("tiers");
    let db = dir.to_str().unwrap();
    let game = "connect4:5x4";
    let position = "121453215314";
    answers(&["solve", game, "--all", "--db", db], "start: draw");
    answers(&["solve", game, position, "--db", db], "\ndraw\n");
    let reach = dir.join("tier-12.reach");
    // The header's counts: a changed one, a huge one.
    for to in ["\"before\":[5]", "\"before\":[4611686018427387904]"] {
        edit(&reach, "\"before\":[0]", to);
        refused(&["solve", game, position, "--db", db], "checksum");
        answers(&["solve", game, "--all", "--db", db], "start: draw");
        answers(&["solve", game, position, "--db", db], "\ndraw\n");
    }
    // A byte of a block, a truncated file, bytes added, a file deleted.
    let values = dir.join("tier-12.bin");
    let mut bytes = std::fs::read(&values).unwrap();
    let last = bytes.len() - 10;
    bytes[last] ^= 0x10;
    std::fs::write(&values, &bytes).unwrap();
    refused(&["solve", game, position, "--db", db], "tier-12.bin");
    answers(&["solve", game, "--all", "--db", db], "start: draw");
    answers(&["solve", game, position, "--db", db], "\ndraw\n");
    let len = std::fs::metadata(&reach).unwrap().len();
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(&reach)
        .unwrap();
    file.set_len(len - 100).unwrap();
    refused(&["solve", game, position, "--db", db], "tier-12.reach");
    answers(&["solve", game, "--all", "--db", db], "start: draw");
    answers(&["solve", game, position, "--db", db], "\ndraw\n");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&reach)
        .unwrap();
    std::io::Write::write_all(&mut file, b"more").unwrap();
    refused(&["solve", game, position, "--db", db], "tier-12.reach");
    std::fs::remove_file(&reach).unwrap();
    refused(&["solve", game, position, "--db", db], "not solved yet");
    answers(&["solve", game, "--all", "--db", db], "start: draw");
    answers(&["solve", game, position, "--db", db], "\ndraw\n");
    // A tier of another board is named as such.
    let other = scratch("tiers-other");
    answers(
        &[
            "solve",
            "connect4:4x4",
            "--all",
            "--db",
            other.to_str().unwrap(),
        ],
        "start: draw",
    );
    std::fs::copy(other.join("tier-12.reach"), &reach).unwrap();
    refused(
        &["solve", game, position, "--db", db],
        "it holds tier 12 of connect4:4x4",
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

#[test]
fn a_damaged_saved_solution_is_refused() {
    let dir = scratch("saved");
    let db = dir.join("ttt.db");
    let db = db.to_str().unwrap();
    answers(
        &["solve", "tictactoe", "--all", "--save", db],
        "start: draw",
    );
    answers(&["solve", "tictactoe", "1 2", "--db", db], "win");
    let mut bytes = std::fs::read(db).unwrap();
    bytes[40] ^= 0x40;
    std::fs::write(db, &bytes).unwrap();
    refused(&["solve", "tictactoe", "1 2", "--db", db], "checksum");
    bytes[40] ^= 0x40;
    bytes.pop();
    std::fs::write(db, &bytes).unwrap();
    refused(&["solve", "tictactoe", "1 2", "--db", db], "ttt.db");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_cfr_checkpoint_is_refused() {
    let dir = scratch("checkpoint");
    let cp = dir.join("k.cp");
    let cp = cp.to_str().unwrap();
    let args = ["cfr", "kuhn", "--iterations", "200", "--checkpoint", cp];
    answers(&args, "exploitability");
    let mut bytes = std::fs::read(cp).unwrap();
    let at = bytes.windows(7).position(|w| w == b"\"sum\":[").unwrap() + 7;
    let digit = at + bytes[at..].iter().position(u8::is_ascii_digit).unwrap();
    let d = bytes[digit];
    bytes[digit] = if d == b'9' { b'8' } else { d + 1 };
    std::fs::write(cp, bytes).unwrap();
    let more = ["cfr", "kuhn", "--iterations", "400", "--checkpoint", cp];
    refused(&more, "checksum");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_script_result_of_minus_two_to_the_63_is_refused() {
    let dir = scratch("result");
    for (result, ok) in [
        ("-9223372036854775807 - 1", false),
        ("9223372036854775807", false),
        ("-576460752303423487", false),
        ("-576460752303423486", true),
    ] {
        let path = dir.join("min.rhai");
        std::fs::write(
            &path,
            format!(
                "fn start(args) {{ 0 }}\nfn to_move(p) {{ 0 }}\n\
                 fn moves(p) {{ if p == 0 {{ [1] }} else {{ [] }} }}\nfn play(p, m) {{ m }}\n\
                 fn result(p) {{ if p == 1 {{ {result} }} else {{ () }} }}\n"
            ),
        )
        .unwrap();
        let game = format!("script:{}", path.display());
        if ok {
            answers(&["solve", &game, "--all"], "start: ");
        } else {
            refused(&["solve", &game, "--all"], "values must stay below");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_numeric_flag_refuses_nan_infinities_zero_negatives_and_overflow() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "nash",
                "examples/3x3x3.nfg",
                "--method",
                "enumpoly",
                "--time-limit",
            ],
            "--time-limit",
        ),
        (&["solve", "connect4"], "--time-limit"),
        (&["cfr", "kuhn"], "--target"),
        (
            &["solve", "script:examples/tictactoe.rhai", "--script-time"],
            "--script-time",
        ),
    ];
    for (args, flag) in cases {
        for bad in ["nan", "NaN", "inf", "-inf", "0", "-1", "1e20", "1e300"] {
            // A target of 0 or above is a target (a large one stops at the first report).
            if *flag == "--target" && ["0", "1e20", "1e300"].contains(&bad) {
                continue;
            }
            // Written FLAG=VALUE, so that "-inf" is read as a value, not a flag.
            refused(&[*args, &[&format!("{flag}={bad}")]].concat(), flag);
        }
    }
    // Each whole-number flag with the values past its range, and words that are no number.
    let counts: &[(&[&str], &str, &[&str])] = &[
        (
            &["nash", "examples/bos.nfg", "--decimals"],
            "--decimals",
            &["-1", "1001", "65536", "4294967296"],
        ),
        (
            &["cfr", "kuhn", "--reports"],
            "--reports",
            &["-1", "0", "1000001", "4294967296", "18446744073709551615"],
        ),
        (
            &["cfr", "kuhn", "--iterations"],
            "--iterations",
            &["-1", "0", "18446744073709551616"],
        ),
        (
            &["solve", "script:examples/tictactoe.rhai", "--script-mem"],
            "--script-mem",
            &["-1", "0", "18446744073709551616"],
        ),
        (
            &["solve", "script:examples/tictactoe.rhai", "--script-ops"],
            "--script-ops",
            &["-1", "0", "18446744073709551616"],
        ),
        (
            &["solve", "connect4", "--table-bits"],
            "--table-bits",
            &["-1", "0", "9", "33", "4294967296"],
        ),
        (
            &["solve", "connect4", "--depth"],
            "--depth",
            &["-1", "0", "4294967296"],
        ),
        (
            &["cgt", "--table", "domineering RxC", "--rows"],
            "--rows",
            &["-1", "1001", "4294967296", "3..1", "1..x"],
        ),
        (
            &["cgt", "domineering ..", "--max-moves"],
            "--max-moves",
            &["-1", "18446744073709551616"],
        ),
    ];
    for (args, flag, bad) in counts {
        for b in bad.iter().chain(&["nan", "inf", "1.5", ""]) {
            refused(&[*args, &[&format!("{flag}={b}")]].concat(), flag);
        }
    }
}

#[test]
fn usage_errors_under_json_print_one_json_object() {
    for args in [
        &["nash", "--json", "--bogus"][..],
        &["solve", "connect4", "--json", "--time-limit", "nan"],
        &["cfr", "--json"],
    ] {
        let out = run(args, "", 20.0);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(v["kind"], "usage", "{args:?}");
        assert!(!v["error"].as_str().unwrap().is_empty());
    }
}

#[test]
fn a_failed_write_does_not_say_read() {
    let out = run(
        &[
            "solve",
            "tictactoe",
            "--all",
            "--save",
            "/proc/no/such/dir/x.db",
        ],
        "",
        20.0,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("cannot read"), "{err}");
    assert!(err.contains("/proc/no/such/dir/x.db"), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn the_default_memory_budget_respects_the_process_cap() {
    // Under a 4 GB address-space cap, the default budget is 2 GB: the table of Wythoff values
    // (20 001 × 20 002 of them, 3.2 GB) is refused and the closed form answers, where the old
    // default (half the machine) let the allocation abort.
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 4000000 && exec '{}' sg 'wythoff 20000 20001' --max-states 1000000000",
            env!("CARGO_BIN_EXE_nimbus")
        ))
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("beyond the memory budget (2.0 GB)"), "{text}");
}

/// A POST of `body` to `path` on the server at `addr`, its status and body.
fn http_post(addr: &str, path: &str, body: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// A tree of `n` alternating moves, each "across" or "down" (Rosenthal's centipede).
fn centipede(n: usize) -> String {
    let mut t = String::from("EFG 2 R \"centipede\" { \"1\" \"2\" }\n\"\"\n");
    for k in 0..n {
        t += &format!("p \"\" {} {} \"\" {{ \"A\" \"D\" }} 0\n", 1 + k % 2, k + 1);
        t += &format!("t \"\" {} \"\" {{ {} {} }}\n", k + 1, k % 5, k * 3 % 7);
    }
    t + &format!("t \"\" {} \"\" {{ 1 1 }}\n", n + 1)
}

/// A tree where each player picks one of `m` moves without seeing the other's.
fn hidden(m: usize) -> String {
    let acts: Vec<String> = (0..m).map(|i| format!("\"a{i}\"")).collect();
    let acts = acts.join(" ");
    let mut t =
        format!("EFG 2 R \"hidden\" {{ \"1\" \"2\" }}\n\"\"\np \"\" 1 1 \"\" {{ {acts} }} 0\n");
    for i in 0..m {
        t += &format!("p \"\" 2 1 \"\" {{ {acts} }} 0\n");
        for j in 0..m {
            t += &format!(
                "t \"\" {} \"\" {{ {} {} }}\n",
                i * m + j + 1,
                (i * j + i) % 11,
                (i + 2 * j) % 13
            );
        }
    }
    t
}

#[test]
fn the_server_survives_requests_that_would_abort_and_stops_on_sigterm_under_load() {
    use std::io::BufRead;
    let mut server = Command::new(env!("CARGO_BIN_EXE_nimbus"))
        .args([
            "serve",
            "--port",
            "0",
            "--time-budget",
            "3",
            "--max-memory",
            "300000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap()
        .to_string();
    let small = r#"{"game": {"row": "3 0; 5 1", "col": "3 5; 0 1"}}"#;
    assert_eq!(http_post(&addr, "/api/nash", small).0, 200);
    let killers = [
        serde_json::json!({"efg": centipede(3000), "method": "enum"}).to_string(),
        serde_json::json!({"efg": hidden(30)}).to_string(),
    ];
    for body in &killers {
        let started = Instant::now();
        let (status, answer) = http_post(&addr, "/api/nash", body);
        assert_eq!(status, 422, "{answer}");
        assert!(answer.contains("\"kind\""), "{answer}");
        assert!(started.elapsed() < Duration::from_secs(15));
        // The server is still there, and answers.
        assert_eq!(http_post(&addr, "/api/nash", small).0, 200);
    }
    // SIGTERM while a computation runs: the server is gone within seconds.
    let load = {
        let (addr, body) = (addr.clone(), killers[1].clone());
        std::thread::spawn(move || http_post(&addr, "/api/nash", &body))
    };
    std::thread::sleep(Duration::from_millis(500));
    let stopped = Instant::now();
    Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    let status = server.wait().unwrap();
    assert!(
        stopped.elapsed() < Duration::from_secs(5),
        "{:?}",
        stopped.elapsed()
    );
    assert!(status.success(), "{status:?}");
    let _ = load.join();
}

#[test]
fn game_searches_keep_to_the_memory_and_work_budgets() {
    let refused_under = |args: &[&str], needle: &str| {
        let out = run(args, "", 20.0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    };
    refused_under(
        &[
            "solve",
            "connect4",
            "--table-bits",
            "28",
            "--max-memory",
            "1000000",
        ],
        "transposition table",
    );
    refused_under(
        &[
            "solve",
            "connect4",
            "-",
            "--table-bits",
            "26",
            "--max-memory",
            "1000000",
        ],
        "raise --max-memory",
    );
    refused(
        &["solve", "connect4", "--max-work", "100000"],
        "raise --max-work",
    );
    // The table is where a search stores positions: it counts against the state budget.
    refused(
        &["solve", "connect4", "--max-states", "1000"],
        "raise --max-states",
    );
    let out = run(
        &["solve", "connect4", "-", "--max-states", "1000"],
        "4453\n",
        20.0,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("raise --max-states"));
    // A line the work budget stops says so (it used to blame a time limit of 0).
    let out = run(
        &["solve", "connect4", "-", "--max-work", "100000"],
        "4453\n",
        20.0,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(
            "4453: no exact score within the work budget of 100000 nodes a line (raise --max-work)"
        ),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("4453 ? "));
    // With a time limit, the work budget stops the deepening as the deadline does.
    answers(
        &[
            "solve",
            "connect4",
            "--max-work",
            "100000",
            "--time-limit",
            "50",
        ],
        "an estimate",
    );
}

#[test]
fn the_moves_of_a_huge_heap_are_not_listed_past_the_memory_budget() {
    let out = run(
        &[
            "sg",
            "kayles 100000000",
            "--max-states",
            "18446744073709551615",
            "--max-memory",
            "1000000",
        ],
        "",
        5.0,
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("winning moves are not shown"), "{text}");
}

#[cfg(target_os = "linux")]
#[test]
fn trees_that_aborted_the_command_end_within_their_budgets() {
    let dir = scratch("trees");
    let (c, h) = (dir.join("centipede.efg"), dir.join("hidden.efg"));
    std::fs::write(&c, centipede(3000)).unwrap();
    std::fs::write(&h, hidden(30)).unwrap();
    for (tree, method, budget) in [(&c, "enum", "1000000000"), (&h, "auto", "300000000")] {
        // Under an address-space cap a little above the budget, as the server's workers run.
        let started = Instant::now();
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1500000 && exec '{}' nash '{}' --method {method} --max-memory {budget}",
                env!("CARGO_BIN_EXE_nimbus"),
                tree.display()
            ))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("raise --max-"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(30));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_at_the_play_prompt_ends_the_game_with_status_130() {
    for game in ["tictactoe", "connect4"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nimbus"))
            .args(["play", game])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The prompt is up once the board is printed.
        std::thread::sleep(Duration::from_millis(700));
        Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(
                started.elapsed() < Duration::from_secs(3),
                "{game}: still running after Ctrl-C at the prompt"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(130), "{game}");
    }
}

#[test]
fn floating_point_zero_sum_games_near_the_largest_double_are_solved_not_nan() {
    let text = answers(
        &["zerosum", "--float", "1e308 -1e308; -1e308 1e308"],
        "row player:   0.500000 0.500000",
    );
    assert!(text.contains("value:        0.0"), "{text}");
    assert!(
        !text.to_lowercase().contains("nan") && !text.contains("inf"),
        "{text}"
    );
}

#[test]
fn errors_quote_the_limit_set_and_exact_counts() {
    refused(
        &[
            "nash",
            "examples/3x3x3.nfg",
            "--method",
            "simpdiv",
            "--max-work",
            "1000",
        ],
        "more than the limit of 1000 (raise --max-work)",
    );
    let dir = scratch("players");
    let path = dir.join("p64.nfg");
    let names: Vec<String> = (0..64).map(|i| format!("\"{i}\"")).collect();
    std::fs::write(
        &path,
        format!(
            "NFG 1 R \"\" {{ {} }} {{ {} }}\n1 2 3\n",
            names.join(" "),
            vec!["2"; 64].join(" ")
        ),
    )
    .unwrap();
    refused(
        &["nash", path.to_str().unwrap()],
        "the game has 18446744073709551616 pure profiles",
    );
    // A count past 2^64 - 1 is called too large, not "not a whole number".
    let path = dir.join("huge.nfg");
    std::fs::write(
        &path,
        "NFG 1 R \"\" { \"1\" \"2\" } { 99999999999999999999 2 }\n1 2\n",
    )
    .unwrap();
    refused(
        &["nash", path.to_str().unwrap()],
        "'99999999999999999999' is too large",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A profile of 10 000-digit decimals is refused in a message of a line, not of 20 KB.
#[test]
fn a_profile_of_huge_numbers_is_refused_in_a_short_message() {
    let third = format!("0.{}", "3".repeat(10_000));
    let profile = format!("{third},0.5,1,0");
    let out = run(
        &["verify", "--row", "3 0; 5 1", "--col", "3 5; 0 1", &profile],
        "",
        20.0,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("they sum to about 0.833333333333"),
        "{}",
        &err[..err.len().min(300)]
    );
    assert!(err.len() < 300, "{} bytes", err.len());
}

/// A game of 5 000 players (two of them with two strategies): one evaluation of the logit
/// and global Newton equations takes players³ products a profile and a Jacobian of 5 000²
/// doubles. Both refused at once, by the work budget, where they ran for minutes at 1.4 GB.
#[test]
fn path_methods_on_a_game_of_five_thousand_players_keep_to_the_budgets() {
    let dir = scratch("players5000");
    let path = dir.join("p5000.nfg");
    let n = 5000;
    let names: Vec<String> = (0..n).map(|i| format!("\"{i}\"")).collect();
    let counts: Vec<&str> = (0..n).map(|i| if i < 2 { "2" } else { "1" }).collect();
    let payoffs: Vec<String> = (0..4 * n).map(|k| (k % 10).to_string()).collect();
    std::fs::write(
        &path,
        format!(
            "NFG 1 R \"\" {{ {} }} {{ {} }}\n{}\n",
            names.join(" "),
            counts.join(" "),
            payoffs.join(" ")
        ),
    )
    .unwrap();
    let file = path.to_str().unwrap();
    for method in ["gnm", "logit"] {
        let args = ["nash", file, "--method", method, "--max-work", "1000"];
        let out = run(&args, "", 5.0);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{method}: {err}");
        assert!(err.contains("(raise --max-work)"), "{method}: {err}");
        // And under the default budgets.
        let out = run(&["nash", file, "--method", method], "", 5.0);
        assert_eq!(out.status.code(), Some(2), "{method}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--time-limit` on a tree of three players (Gambit's jury game) stops the enumeration of
/// its reduced normal form there and says so, as on the .nfg; it ran for minutes, unheard.
#[test]
fn the_time_limit_stops_the_enumeration_of_a_tree() {
    let jury = "crates/nimbus/tests/data/gambit/contrib/games/condjury.efg";
    let started = Instant::now();
    let text = answers(&["nash", jury, "--time-limit", "1"], "equilibria");
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    assert!(text.contains("the time limit was reached"), "{text}");
    // The limit is for the enumeration only, as on a strategic game.
    refused(
        &["nash", "kuhn", "--time-limit", "1"],
        "apply to the enumeration of every equilibrium",
    );
}

/// A Wythoff position of a short heap and a long one needs a strip of values, not a square of
/// bitsets: 20 × 184 847 is answered in 40 MB where it needed 4.3 GB.
#[test]
fn a_wythoff_strip_is_valued_within_a_small_memory_budget() {
    for expr in ["wythoff 20 184846 + nim 1", "wythoff 184846 20 + nim 1"] {
        let out = run(
            &["sg", expr, "--max-memory", "100000000", "--json"],
            "",
            20.0,
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{expr}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["grundy"], 184833, "{expr}");
    }
}

/// The .efg reader keeps to the memory budget: a chain of 10^5 moves (a 6 MB file) is refused
/// under 50 MB, naming the budget, where the reader once held every token of the file with
/// its own copy of the file's name (40 times the file's size) and then aborted on 10^6 moves.
#[test]
fn the_efg_reader_keeps_to_the_memory_budget() {
    let dir = scratch("chain");
    let path = dir.join("chain.efg");
    let n = 100_000;
    let mut text = String::from("EFG 2 R \"chain\" { \"1\" \"2\" }\n\"\"\n\n");
    for i in 0..n {
        text.push_str(&format!(
            "p \"\" {} {} \"\" {{ \"s\" \"c\" }} 0\nt \"\" {} \"\" {{ {i}, -{i} }}\n",
            i % 2 + 1,
            i / 2 + 1,
            i + 1
        ));
    }
    text.push_str(&format!("t \"\" {} \"\" {{ 0, 0 }}\n", n + 1));
    std::fs::write(&path, text).unwrap();
    let file = path.to_str().unwrap();
    let out = run(&["efg", file, "--max-memory", "50000000"], "", 20.0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the tree read from") && err.contains("(raise --max-memory"),
        "{err}"
    );
    // With room, the same file is read.
    let out = run(&["efg", file, "--max-memory", "1000000000"], "", 20.0);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One command of [`random_commands_end_within_their_budgets`], from a seed: a question of
/// each family, sized at random, some far past what the budgets allow.
fn random_command(seed: u64) -> Vec<String> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let matrix = |next: &mut dyn FnMut(u64) -> u64, m: u64, n: u64| {
        (0..m)
            .map(|_| {
                (0..n)
                    .map(|_| next(10).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let words: Vec<String> = match next(7) {
        0 => {
            let (m, n) = (2 + next(7), 2 + next(7));
            let methods = ["vertex", "support", "lh", "pure", "logit", "gnm", "simpdiv"];
            let (row, col) = (matrix(&mut next, m, n), matrix(&mut next, m, n));
            let method = methods[next(7) as usize];
            vec!["nash", "--row", &row, "--col", &col, "--method", method]
                .into_iter()
                .map(String::from)
                .collect()
        }
        1 => {
            let expr = format!("kayles {} + nim {} {}", next(1 << 20), next(99), next(99));
            vec!["sg".into(), expr]
        }
        2 => {
            let code = ["0.07", "0.137", "0.16", "0.007", "4.7", "0.6"][next(6) as usize];
            let upto = next(1 << 22).to_string();
            vec![
                "sequence".into(),
                format!("octal {code}"),
                "--upto".into(),
                upto,
            ]
        }
        3 => {
            let moves: String = (0..next(12))
                .map(|_| char::from(b'1' + next(7) as u8))
                .collect();
            let limit = ["0.1", "0.5"][next(2) as usize];
            vec!["solve", "connect4", &moves, "--time-limit", limit]
                .into_iter()
                .map(String::from)
                .collect()
        }
        4 => {
            let method = ["lp", "enum", "lcp", "spe", "vertex"][next(5) as usize];
            vec![
                "nash".into(),
                "kuhn".into(),
                "--method".into(),
                method.into(),
            ]
        }
        5 => {
            // (One argument holds the matrix: at most 128 KB.)
            let n = 1 + next(100);
            vec!["zerosum".into(), matrix(&mut next, n, n)]
        }
        _ => vec![
            "cfr".into(),
            "kuhn".into(),
            "--iterations".into(),
            (1 + next(1 << 24)).to_string(),
        ],
    };
    let work = ["1000", "100000", "10000000"][next(3) as usize];
    let memory = ["1000000", "10000000", "100000000"][next(3) as usize];
    let mut out = words;
    out.extend([
        "--max-work".into(),
        work.into(),
        "--max-memory".into(),
        memory.into(),
    ]);
    out
}

proptest::proptest! {
    // CI runs 24 random commands; NIMBUS_FULL_TESTS=1 runs 200.
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
        if std::env::var_os("NIMBUS_FULL_TESTS").is_some() { 200 } else { 24 }
    ))]
    /// "Done when": random commands under small budgets each end within them: an answer or a
    /// clear error (status 0 or 2) within seconds, in an address space of twice the memory
    /// budget and 512 MiB (an allocation past the budget would abort the process there).
    #[test]
    fn random_commands_end_within_their_budgets(seed in 0u64..u64::MAX) {
        let args = random_command(seed);
        let memory: u64 = args[args.len() - 1].parse().unwrap();
        let cap = format!("--as={}", 2 * memory + (512 << 20));
        let started = Instant::now();
        // `timeout` kills a command that hangs, so that the failure is reported, not waited on.
        let out = Command::new("timeout")
            .args(["-s", "KILL", "30", "prlimit"])
            .arg(&cap)
            .arg("--")
            .arg(env!("CARGO_BIN_EXE_nimbus"))
            .args(&args)
            .current_dir(root())
            .stdin(Stdio::null())
            .output()
            .expect("prlimit runs");
        let took = started.elapsed();
        let err = String::from_utf8_lossy(&out.stderr);
        proptest::prop_assert!(
            matches!(out.status.code(), Some(0) | Some(2)),
            "{args:?}: {:?} {err}",
            out.status
        );
        proptest::prop_assert!(took < Duration::from_secs(15), "{args:?} took {took:?}");
        proptest::prop_assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Vertex enumeration keeps to the work budget: each basis is a pivot of an (m + n)-row
/// tableau. Kuhn poker's reduced form and the 30 × 30 identity game ran for minutes under
/// `--max-work 10000000`; both are refused in a fraction of a second.
#[test]
fn vertex_enumeration_keeps_to_the_work_budget() {
    refused(
        &[
            "nash",
            "kuhn",
            "--method",
            "vertex",
            "--max-work",
            "10000000",
        ],
        "the vertex enumeration needs about",
    );
    let identity: Vec<String> = (0..30)
        .map(|i| {
            (0..30)
                .map(|j| if i == j { "1" } else { "0" })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let m = identity.join("; ");
    let args = [
        "nash",
        "--row",
        &m,
        "--col",
        &m,
        "--method",
        "vertex",
        "--max-work",
        "10000000",
    ];
    let started = Instant::now();
    refused(&args, "(raise --max-work)");
    assert!(started.elapsed() < Duration::from_secs(5));
}
