//! The `nimbus` command end to end: JSON keys, text output, round trips of winning moves, and
//! every kind of bad input the foundation issue lists (exit status 2, a clear message, no
//! panic).

use serde_json::Value;
use std::process::{Command, Output};

mod common;
use common::{root, with_stdin};

fn nimbus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimbus"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = nimbus(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn fails(args: &[&str], needle: &str) {
    let out = nimbus(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: expected '{needle}' in {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn sg_json_has_the_documented_keys() {
    let v = json(&["sg", "nim 3 4 5", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 2);
    assert_eq!(v["components"][0]["game"], "nim 3 4 5");
    assert_eq!(v["components"][0]["grundy"], 2);
    assert_eq!(v["winning_moves"][0]["result"], "nim 1 4 5");
    assert_eq!(
        v["winning_moves"][0]["description"],
        "take 2 from heap 1 (3 -> 1)"
    );
    assert!(v["remoteness"].is_u64());
    assert_eq!(v["winning_moves_total"], 1);
}

#[test]
fn every_winning_move_leads_to_a_p_position() {
    for expr in [
        "kayles 7 + wythoff 3 5 + subtract{1,3,4} 19",
        "dawson 9 + grundy-game 12",
        "octal 0.137 10 + fibonacci 20",
        "graph examples/dag.txt @a @b + nim 2",
        "allbut{1,2} 17 + wythoff 6 9",
    ] {
        let v = json(&["sg", expr, "--json"]);
        assert_eq!(v["outcome"], "N", "{expr}");
        let moves = v["winning_moves"].as_array().unwrap();
        assert!(!moves.is_empty(), "{expr}");
        for m in moves {
            let after = json(&["sg", m["result"].as_str().unwrap(), "--json"]);
            assert_eq!(after["outcome"], "P", "{expr} -> {}", m["result"]);
        }
    }
}

#[test]
fn sg_text_output_and_words_as_separate_arguments() {
    let out = nimbus(&["sg", "kayles", "7"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("outcome:    N"), "{text}");
    assert!(
        text.contains("knock down 1 pin from the row of 7, leaving rows of 3 and 3"),
        "{text}"
    );
}

#[test]
fn sg_reads_an_expression_file() {
    let dir = std::env::temp_dir().join(format!("nimbus-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("heaps.txt");
    let heaps: Vec<String> = (1..=10_000u64)
        .map(|i| (i * 7919 % 100_003).to_string())
        .collect();
    std::fs::write(&path, format!("nim\n{}\n", heaps.join("\n"))).unwrap();
    let v = json(&["sg", "--file", path.to_str().unwrap(), "--json"]);
    let expected = (1..=10_000u64).fold(0, |a, i| a ^ (i * 7919 % 100_003));
    assert_eq!(v["grundy"], expected);
    std::fs::write(&path, "nim 3\n4 x\n").unwrap();
    fails(
        &["sg", "--file", path.to_str().unwrap()],
        "line 2, column 3: 'x' is not a whole number",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sequence_json_and_proof() {
    let v = json(&["sequence", "kayles", "--upto", "200", "--json"]);
    assert_eq!(v["values"].as_array().unwrap().len(), 201);
    assert_eq!(v["preperiod"], 71);
    assert_eq!(v["period"], 12);
    assert_eq!(v["proved"], true);
    let v = json(&["sequence", "subtract{1,3,4}", "--upto", "40", "--json"]);
    assert_eq!(v["period"], 7);
    assert_eq!(v["proved"], true);
    let v = json(&["sequence", "grundy-game", "--upto", "300", "--json"]);
    assert_eq!(v["proved"], false);
}

/// Without --upto the sequence runs until its period is proved or a budget stops it, and says
/// which; with --upto it lists what was asked for and proves only what that shows.
#[test]
fn sequence_without_upto_runs_until_the_period_is_proved_or_a_budget_stops_it() {
    let v = json(&["sequence", "kayles", "--json"]);
    assert_eq!(
        (v["preperiod"].clone(), v["period"].clone()),
        (71.into(), 12.into())
    );
    assert_eq!(v["proved"], true);
    assert_eq!(v["checked_upto"], 167);
    assert_eq!(v["values"].as_array().unwrap().len(), 101);
    let asked = json(&["sequence", "kayles", "--upto", "100", "--json"]);
    assert_eq!(asked["proved"], false);
    assert_eq!(asked["values"], v["values"]);
    // Octal 0.007 (Treblecross) has no known period: the work budget ends the attempt.
    let v = json(&[
        "sequence",
        "octal 0.007",
        "--max-work",
        "100000000",
        "--json",
    ]);
    assert_eq!(v["proved"], false);
    let note = v["notes"][0].as_str().unwrap();
    assert!(
        note.starts_with("no period proved within the limits"),
        "{note}"
    );
    assert!(
        note.contains("--prove") && note.contains("raise --max-work"),
        "{note}"
    );
    // A ruleset without a periodicity test lists its values, as before.
    let v = json(&["sequence", "grundy-game", "--json"]);
    assert_eq!(v["proved"], false);
    assert!(v["notes"].as_array().unwrap().is_empty());
}

#[test]
fn bad_input_is_a_clear_error_with_status_2() {
    fails(&["sg", "nim -3"], "'-3' is negative");
    fails(&["sg", "nim", "-3"], "'-3' is negative");
    fails(&["sg", "nim 99999999999999999999"], "too large");
    fails(
        &["sg", "octal 0.18 5"],
        "column 10: '8' is not an octal digit",
    );
    fails(&["sg", ""], "the expression is empty");
    fails(&["sg", "kayels 7"], "did you mean 'kayles'?");
    fails(
        &["sg", "graph examples/missing.txt @a"],
        "examples/missing.txt: No such file or directory",
    );
    fails(&["sg", "graph examples/dag.txt @zz"], "no node 'zz'");
    fails(
        &["sg", "wythoff 3000 4001 + nim 1", "--max-states", "1000"],
        "--max-states",
    );
    fails(
        &["sg", "grundy-game 100000000", "--max-states", "1000"],
        "raise --max-states",
    );
    fails(&["sequence", "kayels"], "did you mean 'kayles'?");
    let dir = std::env::temp_dir().join(format!("nimbus-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    std::fs::write(&path, "a b\n# fine\nb c d\n").unwrap();
    let expr = format!("graph {} @a", path.display());
    fails(
        &["sg", &expr],
        "line 3, column 5: expected one edge 'u v' per line",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn state_limit_says_how_many_positions_were_explored() {
    let out = nimbus(&["sg", "fibonacci 60 + nim 1", "--max-states", "100"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("explored 100 positions"), "{err}");
}

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in [
        "sg",
        "sequence",
        "quotient",
        "substring",
        "zerosum",
        "stochastic",
        "repeated",
        "nash",
        "correlated",
        "dynamics",
        "verify",
        "efg",
    ] {
        let out = nimbus(&[cmd, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains("Examples:"),
            "{cmd}: {text}"
        );
    }
}

#[test]
fn misere_seed_counterexample_and_refusal() {
    let v = json(&[
        "sg",
        "--misere",
        "graph examples/seed-antisg.txt @1",
        "--json",
    ]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["rule"], "search");
    assert_eq!(v["play"], "misere");
    let out = nimbus(&[
        "sg",
        "--misere",
        "--rule",
        "sj",
        "graph examples/seed-antisg.txt @1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("refused:"), "{text}");
    assert!(
        text.contains("counterexample: graph examples/seed-antisg.txt @1 is P in misère play, but the SJ rule says N"),
        "{text}"
    );
    let out = nimbus(&[
        "sg",
        "--misere",
        "--explain",
        "graph examples/seed-antisg.txt @1",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("decided by: exact misère search"), "{text}");
    assert!(
        text.contains("has value 0, is not terminal, and has no move to value 1"),
        "{text}"
    );
}

#[test]
fn misere_nim_uses_the_anti_nim_rule() {
    let v = json(&["sg", "--misere", "nim 1 1 1", "--json"]);
    assert_eq!(
        (v["outcome"].as_str(), v["rule"].as_str()),
        (Some("P"), Some("anti-nim"))
    );
    let v = json(&["sg", "--misere", "nim 3 4 5", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"][0]["result"], "nim 1 4 5");
    let out = nimbus(&["sg", "--explain", "nim 3"]);
    assert_eq!(out.status.code(), Some(2), "--explain needs --misere");
}

#[test]
fn output_to_a_closed_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimbus"))
        .args(["sequence", "nim", "--upto", "300000"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn graphs_with_cycles_give_draws_and_drawing_moves() {
    // 1 -> 2, and from 2 both players can circle 2 -> 3 -> 4 -> 2 or 2 -> 4 -> 2 for ever.
    let v = json(&["sg", "graph examples/cycle.txt @1", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert!(v["remoteness"].is_null());
    assert_eq!(
        v["drawing_moves"][0]["result"],
        "graph examples/cycle.txt @2"
    );
    // e can pass or end the game: ∞{0}, a win (move to the end); with nim 3 beside it the
    // sum's value is ∞{3}, a draw.
    let v = json(&["sg", "graph examples/loopy.txt @e", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["gamma"], "∞{0}");
    assert_eq!(
        v["winning_moves"][0]["result"],
        "graph examples/loopy.txt @d"
    );
    let v = json(&["sg", "graph examples/loopy.txt @e + nim 3", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["gamma"], "∞{3}");
    let out = nimbus(&["sg", "graph examples/loopy.txt @a @c"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("outcome:    D (a draw"), "{text}");
    assert!(text.contains("drawing moves (1):"), "{text}");
}

#[test]
fn misere_sequence_json_and_text() {
    let v = json(&[
        "sequence",
        "--misere",
        "subtract{1,2,3}",
        "--upto",
        "12",
        "--json",
    ]);
    assert_eq!(v["play"], "misere");
    let values: Vec<u64> = v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(values, [1, 0, 2, 3, 1, 0, 2, 3, 1, 0, 2, 3, 1]);
    assert_eq!(v["period"], 4);
    assert_eq!(v["proved"], true);
    let normal = json(&["sequence", "kayles", "--upto", "5", "--json"]);
    assert_eq!(normal["play"], "normal");
    let out = nimbus(&["sequence", "--misere", "kayles", "--upto", "20"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("misère P-positions (G- = 0): 1 4 9 12 20"),
        "{text}"
    );
}

#[test]
fn substring_game_from_arguments_and_files() {
    let v = json(&["substring", "abcab", "ab", "b", "--json"]);
    assert_eq!(v["outcome"], "P");
    assert_eq!(v["play"], "normal");
    assert_eq!(v["strings"][0]["string"], "ab");
    assert_eq!(v["winning_moves_total"], 0);
    let v = json(&["substring", "abcab", "ab", "b", "--misere", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["rule"], "SJ rule");
    assert_eq!(v["winning_moves"][0]["to"], "abc");
    let dir = std::env::temp_dir().join(format!("nimbus-substring-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.txt");
    std::fs::write(&path, "aab\n2\n''\na\n").unwrap();
    let v = json(&["substring", "--file", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["strings"][0]["string"], "");
    assert_eq!(v["outcome"], "N");
    std::fs::write(&path, "abcab\n2\nab\nabd\n").unwrap();
    fails(
        &["substring", "--file", path.to_str().unwrap()],
        "line 4, column 1: 'abd' is not a substring of S",
    );
    fails(
        &["substring", "abcab", "abd"],
        "'abd' is not a substring of S",
    );
    fails(&["substring", "aBc", "a"], "'B' is not a letter a-z");
    fails(&["substring", "abc"], "no strings given");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn empty_graphs_self_loops_and_parallel_edges() {
    let dir = std::env::temp_dir().join(format!("nimbus-graphs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing here\n").unwrap();
    fails(
        &["sg", &format!("graph {} @a", empty.display())],
        "has no nodes",
    );
    // a can pass for ever (a self-loop) or move to b along either of two parallel edges.
    let g = dir.join("loops.txt");
    std::fs::write(&g, "a a\na b\na b\n").unwrap();
    let v = json(&["sg", &format!("graph {} @a", g.display()), "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves_total"], 2);
    let v = json(&[
        "sg",
        "--misere",
        &format!("graph {} @a", g.display()),
        "--json",
    ]);
    assert_eq!(v["outcome"], "D");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn zerosum_and_verify() {
    let v = json(&["zerosum", "0 -1 1; 1 0 -1; -1 1 0", "--json"]);
    assert_eq!(v["value"], "0");
    assert_eq!(v["row_strategy"], serde_json::json!(["1/3", "1/3", "1/3"]));
    assert_eq!(v["saddle_points"], serde_json::json!([]));
    let v = json(&["zerosum", "1 4; 2 3", "--json"]);
    assert_eq!(v["saddle_points"], serde_json::json!([[1, 0]]));
    let pd = "data/nfg/pd.nfg";
    let out = nimbus(&["verify", pd, "0,1,0,1"]);
    assert_eq!(out.status.code(), Some(0));
    let out = nimbus(&["verify", pd, "NE,1,0,1,0", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["equilibrium"], false);
    assert_eq!(v["players"][0]["best_deviation_payoff"], "10");
    fails(
        &["zerosum", "1 2; 3"],
        "row 2 has 1 entries, but row 1 has 2",
    );
    fails(&["zerosum", "1 x"], "column 3: 'x' is not a number");
    fails(&["verify", pd, "1,0,1"], "but 3 probabilities were given");
    fails(
        &["verify", pd, "1,0,1,q"],
        "column 7: 'q' is not a probability",
    );
}

#[test]
fn stochastic_games_exact_or_bracketed() {
    let out = nimbus(&["stochastic", "examples/big-match.ssg"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("values (exact, by policy iteration"),
        "{text}"
    );
    assert!(
        text.contains("match  row: play 2/3, stop 1/3   column: left 1/2, right 1/2"),
        "{text}"
    );
    let v = json(&[
        "stochastic",
        "examples/quadratic.ssg",
        "--json",
        "--tolerance",
        "1e-30",
    ]);
    assert_eq!(v["exact"], false);
    let root = 21f64.sqrt() - 3.0;
    assert!((v["states"][0]["approximate"].as_f64().unwrap() - root).abs() < 1e-15);
    let out = nimbus(&["stochastic", "examples/quadratic.ssg", "--decimals", "4"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(between 1.582575694955") && text.contains("row: 1 0.2087"),
        "{text}"
    );
    for bad in ["0", "-1", "nan", "inf", "-inf", "1e99999", "x"] {
        let out = nimbus(&["stochastic", "examples/big-match.ssg", "--tolerance", bad]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--tolerance"), "{bad}: {err}");
    }
    fails(
        &["stochastic", "examples/big-match.ssg", "--method", "x"],
        "--method: the method 'x'",
    );
    fails(&["stochastic", "examples/nope.ssg"], "nope.ssg");
    fails(
        &["stochastic", "examples/big-match.ssg", "--max-work", "1"],
        "raise --max-work",
    );
    fails(
        &["stochastic", "examples/bos.nfg"],
        "bos.nfg, line 1, column 1",
    );
}

#[test]
fn repeated_games_between_proven_bounds() {
    let out = nimbus(&[
        "repeated",
        "--row",
        "9 1; 10 3",
        "--col",
        "9 10; 1 3",
        "--discount",
        "0.9",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("vertices (proven to be equilibrium payoffs):\n  (3, 3)\n  (39/4, 3)\n  (9, 9)\n  (3, 39/4)"),
        "{text}"
    );
    let v = json(&[
        "repeated",
        "examples/abreu-sannikov.nfg",
        "--discount",
        "0.3",
        "--json",
    ]);
    assert_eq!(v["exact_vertices"], false);
    assert_eq!(v["vertices"].as_array().unwrap().len(), 6, "{v}");
    assert_eq!(v["inner_kind"], "a stricter game's set");
    let v = json(&[
        "repeated",
        "--row",
        "1 -1; -2 1",
        "--col",
        "-1 2; 2 0",
        "--discount",
        "0.05",
        "--json",
    ]);
    assert_eq!(v["exists"], false);
    let out = nimbus(&["repeated", "examples/pd.nfg", "--discount", "0.9"]);
    assert!(out.status.success());
    for bad in [
        "0",
        "1",
        "-0.5",
        "2",
        "nan",
        "inf",
        "-inf",
        "1e99999",
        "x",
        "0.123456789",
    ] {
        let out = nimbus(&["repeated", "examples/pd.nfg", "--discount", bad]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("discount"), "{bad}: {err}");
    }
    for bad in ["0", "-1", "nan", "inf", "x"] {
        let out = nimbus(&[
            "repeated",
            "examples/pd.nfg",
            "--discount",
            "0.9",
            "--tolerance",
            bad,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--tolerance"), "{bad}: {err}");
    }
    fails(
        &[
            "repeated",
            "examples/pd.nfg",
            "--discount",
            "0.99",
            "--max-work",
            "100",
        ],
        "raise --max-work",
    );
    fails(
        &["repeated", "data/nfg/2x2x2.nfg", "--discount", "0.5"],
        "two players",
    );
}

#[test]
fn zerosum_float_reports_a_duality_gap() {
    let v = json(&["zerosum", "--float", "0 -1 1; 1 0 -1; -1 1 0", "--json"]);
    assert!(v["value"].as_f64().unwrap().abs() < 1e-9);
    assert!(v["duality_gap"].as_f64().unwrap().abs() < 1e-9);
    let out = nimbus(&["zerosum", "--float", "3 1; 2 4"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("duality gap:") && text.contains("value:        2.5"),
        "{text}"
    );
}

#[test]
fn nash_methods_formats_and_errors() {
    let bos = ["nash", "--row", "2 0; 0 1", "--col", "1 0; 0 2"];
    let v = json(&[&bos[..], &["--json"]].concat());
    assert_eq!(v["method"], "indifference");
    let eqs = v["equilibria"].as_array().unwrap();
    assert_eq!(eqs.len(), 3);
    assert!(eqs.contains(&serde_json::json!({
        "profile": [["2/3", "1/3"], ["1/3", "2/3"]],
        "payoffs": ["2/3", "2/3"]
    })));
    // The same game by both enumeration methods: the same three equilibria. The paths from
    // the artificial equilibrium reach only the two pure ones; Lemke–Howson enumeration (as
    // Gambit's lcp) goes on from them and reaches the mixed one, so `lh` finds all three.
    for m in ["vertex", "support"] {
        let w = json(&[&bos[..], &["--method", m, "--json"]].concat());
        assert_eq!(w["equilibria"].as_array().unwrap().len(), 3, "{m}");
    }
    let w = json(&[&bos[..], &["--method", "lh", "--json"]].concat());
    let lh = w["equilibria"].as_array().unwrap();
    assert_eq!(lh.len(), 3);
    assert!(lh.iter().all(|e| eqs.contains(e)));
    for label in ["1", "4"] {
        let w = json(&[&bos[..], &["--method", "lh", "--label", label, "--json"]].concat());
        let one = w["equilibria"].as_array().unwrap();
        assert_eq!(one.len(), 1);
        assert!(eqs.contains(&one[0]) && one[0]["profile"][0][0] != "2/3");
    }
    let svg = std::env::temp_dir().join(format!("nimbus-br-{}.svg", std::process::id()));
    let svg_path = svg.to_str().unwrap();
    let out = nimbus(&[&bos[..], &["--plot", svg_path]].concat());
    assert!(out.status.success());
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.contains("<circle"));
    let _ = std::fs::remove_file(&svg);
    let out = nimbus(&[&bos[..], &["--format", "gambit"]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l == "NE,2/3,1/3,1/3,2/3"), "{text}");
    // Gambit's lines go straight back into verify.
    let pd = "data/nfg/pd.nfg";
    let out = nimbus(&["nash", pd, "--format", "gambit"]);
    let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(nimbus(&["verify", pd, &line]).status.code(), Some(0));
    // Dominance, with the order of elimination.
    let v = json(&["nash", "data/nfg/mixdom.nfg", "--dominance", "--json"]);
    let steps = v["eliminated"].as_array().unwrap();
    assert!(steps
        .iter()
        .any(|s| s["dominated_by"].as_array().unwrap().len() > 1));
    assert_eq!(v["equilibria"].as_array().unwrap().len(), 1);
    // A degenerate game: a component of several extreme equilibria.
    let v = json(&[
        "nash", "--row", "1 1; 0 0", "--col", "1 1; 1 1", "--method", "vertex", "--json",
    ]);
    assert_eq!(v["components"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["components"][0]["equilibria"].as_array().unwrap().len(),
        2
    );
    // Three players: every equilibrium, pure and mixed.
    let v = json(&["nash", "data/nfg/2x2x2.nfg", "--json"]);
    assert_eq!(v["method"], "enumpoly");
    assert_eq!(v["equilibria"].as_array().unwrap().len(), 9);
    assert_eq!(v["enumeration"]["complete"], true);
    fails(
        &["nash", "--row", "1 2; 3 4", "--col", "1 2"],
        "must have one shape",
    );
    fails(
        &["nash", "--row", "1 2; 3", "--col", "1 2; 3 4"],
        "row 2 has 1 entries",
    );
    fails(
        &["nash", pd, "--method", "magic"],
        "invalid value 'magic' for '--method",
    );
    fails(
        &["nash", "data/nfg/8x8.nfg", "--plot", "x.svg"],
        "plot draws 2 x 2 games",
    );
    fails(
        &["nash", pd, "--method", "lh", "--label", "9"],
        "labels run from 1 to 4",
    );
    fails(
        &["nash", pd, "--method", "lh", "--label", "0"],
        "label 0: labels run from 1 to 4",
    );
    // The library's message names the setting; the command line writes it as its flag.
    fails(
        &["nash", pd, "--method", "vertex", "--path"],
        "--path asks for the logit path: use it with --method logit",
    );
    fails(
        &["nash", "data/nfg/2x2x2.nfg", "--method", "vertex"],
        "two-player game",
    );
}

#[test]
fn solve_json_has_the_documented_keys() {
    let v = json(&["solve", "tictactoe", "--json"]);
    assert_eq!(v["value"], 0);
    assert_eq!(v["best_moves"].as_array().unwrap().len(), 9);
    assert_eq!(v["pv"].as_array().unwrap().len(), 9);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["exact"], true);
    let v = json(&[
        "solve",
        "connect4",
        "2252576253462244111563365343671351441",
        "--json",
    ]);
    assert_eq!(v["value"], -1, "Pons' Test_L3_R1, first line");
    let v = json(&["solve", "coin-grid:2:1,5,2;3,0,4;2,2,9", "--json"]);
    assert_eq!(v["value"], 10);
    assert_eq!(v["best_moves"], serde_json::json!(["R"]));
    let v = json(&["solve", "carrot:1,2,3,5", "--json"]);
    assert_eq!(v["answers"], serde_json::json!([3, 3, 5, 5]));
}

#[test]
fn solve_connect4_reads_positions_from_stdin() {
    let out = with_stdin(
        &["solve", "connect4", "-"],
        "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0][..2],
        ["2252576253462244111563365343671351441", "-1"]
    );
    assert_eq!(lines[1][..2], ["7422341735647741166133573473242566", "1"]);
    assert!(lines.iter().all(|l| l.len() == 4));
    let out = with_stdin(
        &["solve", "connect4", "-"],
        "448\n23163416124767223154467471272416755633 0\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1") && err.contains("`8`"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout)
        .starts_with("23163416124767223154467471272416755633 0 "));
}

/// `--threads` gives the same scores (a hard opening, past the point where helpers join, and
/// an easy line), and a bad count is refused by name before any input is read.
#[test]
fn solve_connect4_batch_on_threads_gives_the_same_scores() {
    let input = "3246313\n2252576253462244111563365343671351441\n";
    let scores = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["solve", "connect4", "-"];
        args.extend_from_slice(extra);
        let out = with_stdin(&args, input);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    let one = scores(&[]);
    assert_eq!(
        one,
        ["3246313 -2", "2252576253462244111563365343671351441 -1"]
    );
    assert_eq!(scores(&["--threads", "2"]), one);
    assert_eq!(scores(&["--threads", "3"]), one);
    for bad in ["0", "1025", "-1", "NaN", "18446744073709551616"] {
        let out = with_stdin(&["solve", "connect4", "-", "--threads", bad], input);
        assert_eq!(out.status.code(), Some(2), "--threads {bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--threads"), "--threads {bad}: {err}");
    }
    // Each thread has a table of its own: 64 of 256 KiB are more than 4 MiB.
    let out = with_stdin(
        &[
            "solve",
            "connect4",
            "-",
            "--threads",
            "64",
            "--max-memory",
            "4194304",
        ],
        input,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("64 transposition tables"), "{err}");
    assert!(err.contains("--max-memory"), "{err}");
}

/// One position on several threads: the same value, best moves and principal variation.
#[test]
fn solve_connect4_position_on_threads_gives_the_same_answer() {
    let answer = |threads: &str| {
        let v = json(&[
            "solve",
            "connect4",
            "3246313",
            "--threads",
            threads,
            "--json",
        ]);
        (v["value"].clone(), v["best_moves"].clone(), v["pv"].clone())
    };
    let one = answer("1");
    assert_eq!(one.0, -2);
    assert_eq!(answer("2"), one);
    assert_eq!(answer("3"), one);
    let out = with_stdin(&["solve", "connect4", "4", "--threads", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--threads"));
}

#[test]
fn solve_all_saves_and_answers_queries() {
    let db = std::env::temp_dir().join(format!("nimbus-ttt-{}.db", std::process::id()));
    let db = db.to_str().unwrap();
    let v = json(&["solve", "tictactoe", "--all", "--save", db, "--json"]);
    assert_eq!(v["positions"], 5478);
    assert_eq!(v["start"]["result"], "draw");
    let q = json(&["solve", "tictactoe", "1 2", "--db", db, "--json"]);
    assert_eq!(q["result"], "win");
    let direct = json(&["solve", "tictactoe", "1 2", "--json"]);
    assert_eq!(direct["value"], 1);
    fails(
        &["solve", "nim:2,2", "--db", db],
        "not a solution of nim:2,2",
    );
    std::fs::remove_file(db).unwrap();
}

#[test]
fn solve_with_limits_marks_inexact_answers() {
    let v = json(&["solve", "connect4", "--depth", "4", "--json"]);
    assert_eq!(v["exact"], false);
    assert_eq!(v["depth"], 4);
    let v = json(&["solve", "connect4", "--time-limit", "0.2", "--json"]);
    assert_eq!(v["exact"], false);
    assert!(!v["best_moves"].as_array().unwrap().is_empty());
}

#[test]
fn solve_bad_input_names_the_token() {
    fails(&["solve", "connect4", "448"], "`8` is not a column");
    fails(&["solve", "connect4", "1111111"], "column 1 is full");
    fails(&["solve", "connect4:9x9"], "does not fit");
    fails(&["solve", "connect4:axb"], "WIDTHxHEIGHT");
    fails(&["solve", "tictactoe", "55"], "cell 5 is taken");
    fails(
        &["solve", "connect4", "--time-limit", "0"],
        "'--time-limit <SECONDS>': give a positive number of seconds",
    );
    fails(
        &["solve", "connect4", "--depth", "0"],
        "'--depth <PLIES>': search at least one ply",
    );
    fails(&["solve", "chess"], "unknown game `chess`");
    fails(&["solve", "coin-grid:2:1,2;3"], "square");
    fails(&["solve", "coin-grid:2:1,2;3,4", "--all"], "score game");
    fails(
        &["solve", "tictactoe", "--method", "magic"],
        "invalid value 'magic' for '--method",
    );
}

#[test]
fn play_rejects_illegal_moves_and_finishes_the_game() {
    // The user plays first at tic-tac-toe; an illegal move gets a reason, then the game goes on
    // with whatever cells remain until it ends (the solver never loses).
    let moves = "5\n5\nx\n1\n2\n3\n4\n6\n7\n8\n9\n";
    let out = with_stdin(&["play", "tictactoe"], moves);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("illegal move: cell 5 is taken"), "{text}");
    assert!(text.contains("illegal move: `x` is not a cell"), "{text}");
    assert!(text.contains("nimbus plays"), "{text}");
    assert!(text.contains("game over"), "{text}");
    assert!(!text.contains("you win"), "{text}");
    let out = with_stdin(
        &[
            "play",
            "connect4",
            "--first",
            "nimbus",
            "--time-limit",
            "0.1",
        ],
        "q\n",
    );
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("nimbus plays"));
    // A script plays the same way; a forced pass (Oleg's extra move in Choosing Carrot) is
    // played without asking.
    let out = with_stdin(
        &["play", "script:examples/tictactoe.rhai"],
        "5\n5\n1\n2\n3\n4\n6\n7\n8\n9\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("illegal move"), "{text}");
    assert!(text.contains("game over"), "{text}");
    assert!(!text.contains("you win"), "{text}");
    let out = with_stdin(
        &[
            "play",
            "script:examples/carrot.rhai 1 1 2 3 5",
            "--first",
            "nimbus",
        ],
        "L\nL\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("second player plays (pass)"), "{text}");
    assert!(text.contains("game over"), "{text}");
}

/// A script written to a fresh temporary file, for the error tests.
fn temp_script(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("nimbus-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn scripts_run_through_sg_sequence_and_solve() {
    let v = json(&["sg", "script:examples/take134.rhai 20 7", "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["grundy"], 2);
    assert_eq!(v["components"].as_array().unwrap().len(), 2);
    let script = json(&[
        "sequence",
        "script:examples/take134.rhai",
        "--upto",
        "60",
        "--json",
    ]);
    let rust = json(&["sequence", "subtract{1,3,4}", "--upto", "60", "--json"]);
    assert_eq!(script["values"], rust["values"]);
    assert_eq!(script["period"], 7);
    let m = json(&[
        "sequence",
        "--misere",
        "script:examples/bash.rhai",
        "--upto",
        "12",
        "--json",
    ]);
    let zeros: Vec<u64> = (0..=12u64)
        .filter(|&n| m["values"][n as usize] == 0)
        .collect();
    assert_eq!(zeros, vec![1, 5, 9]);
    let v = json(&["solve", "script:examples/tictactoe.rhai", "--all", "--json"]);
    assert_eq!(v["positions"], 5478);
    assert_eq!(v["start"]["result"], "draw");
    let a = json(&["solve", "script:examples/coin_grid.rhai", "--json"]);
    let b = json(&["solve", "coin-grid:2:1,5,2;3,0,4;2,2,9", "--json"]);
    assert_eq!(a["value"], b["value"]);
    assert_eq!(a["pv"], b["pv"]);
    let c = json(&["solve", "script:examples/carrot.rhai 1 1 2 3 5", "--json"]);
    assert_eq!(c["value"], 3);
    let d = json(&["sg", "script:examples/grid_cycles.rhai 0 0", "--json"]);
    assert_eq!(d["outcome"], "D");
}

#[test]
fn script_errors_exit_2_with_file_line_and_column() {
    let bad = temp_script("syntax.rhai", "fn heap(n) { n }\nfn moves(p) { [p - ] }\n");
    fails(&["sg", &format!("script:{bad} 3")], "line 2, column");
    let lp = temp_script("loop.rhai", "fn heap(n) { n }\nfn moves(p) { loop { } }\n");
    fails(
        &["sg", &format!("script:{lp} 3"), "--script-ops", "100000"],
        "--script-ops",
    );
    fails(
        &[
            "sequence",
            &format!("script:{lp}"),
            "--script-ops",
            "100000",
        ],
        "in moves(0)",
    );
    fails(
        &["sg", "script:examples/no-such-file.rhai 3"],
        "examples/no-such-file.rhai: No such file",
    );
    fails(
        &["solve", "script:examples/take134.rhai"],
        "impartial game: analyse it as one",
    );
    fails(
        &["solve", "script:examples/tictactoe.rhai", "5 5"],
        "not a legal move",
    );
    fails(&["sg", "script:examples/grid_cycles.rhai 0 3"], "is a wall");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_running_script() {
    use std::time::{Duration, Instant};
    let lp = temp_script(
        "forever.rhai",
        "fn heap(n) { n }\nfn moves(p) { loop { } }\n",
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimbus"))
        .args([
            "sg",
            &format!("script:{lp} 3"),
            "--script-ops",
            "1000000000000",
        ])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
}

/// The examples in `--help` paste into bash as they are: braces, semicolons and other
/// characters the shell would take for its own are inside quotes (redirections are meant).
#[test]
fn help_examples_are_quoted_for_the_shell() {
    for cmd in [
        "sg",
        "sequence",
        "substring",
        "zerosum",
        "nash",
        "correlated",
        "dynamics",
        "verify",
        "solve",
        "play",
    ] {
        let out = nimbus(&["help", cmd]);
        let text = String::from_utf8_lossy(&out.stdout);
        for line in text
            .lines()
            .filter(|l| l.trim_start().starts_with("nimbus "))
        {
            let mut quote = None;
            let mut prev_space = false;
            for c in line.trim_start().chars() {
                match (quote, c) {
                    (None, '\'' | '"') => quote = Some(c),
                    (Some(q), c) if c == q => quote = None,
                    // Two spaces outside quotes start the description.
                    (None, ' ') if prev_space => break,
                    (None, ';' | '{' | '}' | '&' | '*' | '?') => {
                        panic!("nimbus help {cmd}: '{c}' unquoted in: {line}")
                    }
                    _ => {}
                }
                prev_space = quote.is_none() && c == ' ';
            }
        }
    }
}

/// Errors that say what to do: the user's own words, the limit, the flag.
#[test]
fn errors_name_what_to_do() {
    let out = nimbus(&["sg", "allbut{1..1000000}"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.len() < 300,
        "{} bytes: the set is shown as written",
        err.len()
    );
    assert!(err.contains("'allbut{1..1000000} 7'"), "{err}");
    fails(
        &["sg", "subtract{1..2000000} 3"],
        "at most 1000001 elements",
    );
    fails(&["sg", "subtract{5..2} 3"], "it must go up");
    fails(
        &["sequence", "script:examples/take134.rhai 5"],
        "takes no heap sizes here (the sequence runs from 0 to --upto)",
    );
    fails(&["solve", "nim:18446744073709551615"], "is too large");
    fails(&["zerosum", "1e9999999 0; 0 1"], "exponent beyond");
    fails(&["zerosum", "--float", "1 2; 3 1e999"], "row 2, column 2");
    fails(
        &["solve", "connect4", "12121212"],
        "the game is over before this move",
    );
}

#[test]
fn json_errors_are_one_object_on_standard_output() {
    let out = nimbus(&["sg", "kayels", "7", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["kind"], "parse");
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("did you mean 'kayles'"));
    let out = nimbus(&[
        "sg",
        "grundy-game 902149",
        "--json",
        "--max-work",
        "1000000",
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["kind"], "work_limit");
}

#[test]
fn finished_positions_say_who_won_and_one_ply_is_singular() {
    let out = nimbus(&["solve", "connect4", "1212121"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("game over: the side to move (second player) has lost"),
        "{text}"
    );
    let out = nimbus(&["solve", "tictactoe", "1 2 3 5 4 6 8 7 9"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("game over: a draw"));
    let out = nimbus(&["solve", "connect4", "121212"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("win in 1 ply (score 18)"));
}

#[test]
fn files_with_a_byte_order_mark_or_in_latin1_are_read() {
    let dir = std::env::temp_dir().join(format!("nimbus-enc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bom = dir.join("bom.txt");
    std::fs::write(&bom, b"\xEF\xBB\xBFnim 3 4\n").unwrap();
    let v = json(&["sg", "--file", bom.to_str().unwrap(), "--json"]);
    assert_eq!(v["grundy"], 7);
    let latin = dir.join("latin1.nfg");
    let mut game = b"NFG 1 R \"Caf\xE9\" { \"Jos\xE9\" \"P2\" } ".to_vec();
    game.extend_from_slice(b"{ { \"a\" \"b\" } { \"c\" \"d\" } } \"\" ");
    game.extend_from_slice(
        b"{ { \"\" 1, 1 } { \"\" 0, 0 } { \"\" 0, 0 } { \"\" 1, 1 } } 1 2 3 4\n",
    );
    std::fs::write(&latin, game).unwrap();
    let out = nimbus(&["nash", latin.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Café"), "{text}");
}

#[test]
fn long_winning_positions_stay_whole_expressions() {
    let heaps: Vec<String> = (1..=3000).map(|i| i.to_string()).collect();
    let expr = format!("nim {}", heaps.join(" "));
    let out = nimbus(&["sg", &expr]);
    let text = String::from_utf8_lossy(&out.stdout);
    let results: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("-> "))
        .collect();
    assert!(!results.is_empty());
    for r in results {
        assert!(!r.contains('…'), "cut: {}", &r[..80]);
        assert_eq!(r.split_whitespace().count(), 3001);
    }
}

/// What students and Gambit users type: Gambit's method names, nashpy's Game(A), names of
/// strategies, decimals, tolerances.
#[test]
fn students_and_gambit_users_habits() {
    let bos = ["nash", "examples/bos.nfg", "--format", "gambit"];
    let base = String::from_utf8_lossy(&nimbus(&bos).stdout).to_string();
    for (alias, method) in [("enummixed", "vertex"), ("lcp", "lh"), ("enumpure", "pure")] {
        let a = nimbus(&[&bos[..], &["--method", alias]].concat());
        let m = nimbus(&[&bos[..], &["--method", method]].concat());
        assert!(a.status.success(), "{alias}");
        assert_eq!(a.stdout, m.stdout, "{alias} = {method}");
    }
    assert_eq!(base.lines().count(), 3);
    // --row alone is the zero-sum game (A, -A), as nashpy's Game(A).
    let v = json(&["nash", "--row", "0 -1 1; 1 0 -1; -1 1 0", "--json"]);
    assert_eq!(
        v["equilibria"][0]["profile"][0],
        serde_json::json!(["1/3", "1/3", "1/3"])
    );
    assert!(v["notes"][0].as_str().unwrap().contains("zero-sum"));
    // Names, and mixed profiles written with the names they use.
    let out = nimbus(&[
        "nash",
        "--row",
        "2 0; 0 1",
        "--col",
        "1 0; 0 2",
        "--row-names",
        "Opera,Football",
        "--col-names",
        "Opera,Football",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(Opera: 2/3, Football: 1/3)"), "{text}");
    fails(
        &["nash", "--row", "1 2; 3 4", "--row-names", "a"],
        "--row-names: 1 names for 2 strategies",
    );
    // Gambit's -d.
    let out = nimbus(&[
        "nash",
        "examples/rps.nfg",
        "--decimals",
        "4",
        "--format",
        "gambit",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "NE,0.3333,0.3333,0.3333,0.3333,0.3333,0.3333"
    );
    // Three players with no pure equilibrium: the one mixed equilibrium, and the coverage.
    let out = nimbus(&["nash", "examples/jordan.nfg"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("equilibria:  1"), "{text}");
    assert!(text.contains("A: (Left: 1/2, Right: 1/2)"), "{text}");
    assert!(text.contains("supports:    27 of 27 examined"), "{text}");
    let out = nimbus(&["nash", "examples/jordan.nfg", "--method", "pure"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("equilibria:  0"), "{text}");
    assert!(text.contains("only pure equilibria"), "{text}");
    // Irrational equilibria: certified boxes, and Gambit's lines with decimals.
    let out = nimbus(&["nash", "examples/3x3x3.nfg"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("irrational:  1"), "{text}");
    assert!(text.contains("regret at most"), "{text}");
    let out = nimbus(&[
        "nash",
        "examples/3x3x3.nfg",
        "--format",
        "gambit",
        "--decimals",
        "4",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(
        text.contains("NE,0.3497,0.6503,0.0000,0.0000,0.8471,0.1529,0.0000,0.0430,0.9570"),
        "{text}"
    );
    fails(
        &["nash", "examples/jordan.nfg", "--method", "vertex"],
        "use enumpoly or pure",
    );
    fails(
        &["nash", "examples/rps.nfg", "--max-supports", "3"],
        "--max-supports and --time-limit are for the enumpoly method",
    );
    // One equilibrium by the logit path, and the path drawn.
    let svg = std::env::temp_dir().join(format!("nimbus-logit-{}.svg", std::process::id()));
    let out = nimbus(&[
        "nash",
        "examples/2x2x2.nfg",
        "--method",
        "logit",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("equilibria:  1"), "{text}");
    assert!(text.contains("logit path:"), "{text}");
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
    let _ = std::fs::remove_file(&svg);
    // One equilibrium by simplicial subdivision or the global Newton method: each its own
    // note, no enumeration's support count.
    for (method, note) in [
        ("simpdiv", "simplicial subdivision:"),
        ("gnm", "global Newton path:"),
    ] {
        let out = nimbus(&["nash", "examples/2x2x2.nfg", "--method", method]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("equilibria:  1"), "{text}");
        assert!(text.contains(note), "{text}");
        assert!(!text.contains("supports:"), "{text}");
    }
    let out = nimbus(&[
        "nash",
        "examples/3x3x3.nfg",
        "--max-supports",
        "10",
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["enumeration"]["examined"], 10);
    assert_eq!(v["enumeration"]["complete"], false);
    // A stopped enumeration names the methods that find one equilibrium of a large game.
    let stopped = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|n| n.starts_with("stopped after 10 of"))
        .unwrap();
    assert!(
        stopped.contains("the method gnm, logit or simpdiv"),
        "{stopped}"
    );
    // verify takes matrices and a tolerance for rounded decimals.
    let out = nimbus(&[
        "verify",
        "--row",
        "2 0; 0 1",
        "--col",
        "1 0; 0 2",
        "2/3,1/3,1/3,2/3",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let rounded = ["verify", "examples/bos.nfg", "0.6667,0.3333,0.3333,0.6667"];
    let out = nimbus(&rounded);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("the decimals look rounded"));
    let out = nimbus(&[&rounded[..], &["--tolerance", "0.001"]].concat());
    assert_eq!(out.status.code(), Some(0));
    let out = nimbus(&[&rounded[..], &["--tolerance", "1e-5"]].concat());
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_constant_sum_game_is_solved_as_zero_sum_and_said_so() {
    let dir = std::env::temp_dir().join(format!("nimbus-cs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cs.nfg");
    std::fs::write(
        &path,
        "NFG 1 R \"c\" { \"A\" \"B\" } { { \"1\" \"2\" } { \"1\" \"2\" } } \"\" \
         { { \"\" 3, 7 } { \"\" 6, 4 } { \"\" 8, 2 } { \"\" 1, 9 } } 1 2 3 4\n",
    )
    .unwrap();
    let v = json(&["zerosum", "--file", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["value"], "9/2");
    assert!(v["notes"][0].as_str().unwrap().contains("constant-sum"));
}

#[test]
fn sequence_summary_comes_first_and_a_proved_period_is_shown_once() {
    let out = nimbus(&["sequence", "subtract{1,3,4}", "--upto", "100"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    // The test for subtraction games needs 7 + 4 - 1 values to repeat: G(0..=10).
    assert_eq!(
        lines[0],
        "subtract{1,3,4}: G(0..=100): periodic from n = 0 with period 7 (proved to hold for \
         ever: the periodicity test checked up to n = 10; CRC-32 of G(0..=10) dddfb871)"
    );
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[1].contains("0 1 0 1 2 3 2"));
    let out = nimbus(&["sequence", "dawson", "--upto", "20"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("dawson: G(0..=20): "));
    let help = nimbus(&["help", "sg"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("Dawson's Kayles (octal 0.07"), "{help}");
    assert!(help.contains("dawson-chess"), "{help}");
}

/// Game trees: the answers, the conversions, and bad trees as clear errors with status 2.
#[test]
fn trees_end_to_end() {
    let a = json(&["nash", "kuhn", "--json"]);
    assert_eq!(a["value"], "-1/18");
    assert_eq!(a["method"], "lp");
    let a = json(&["nash", "examples/centipede.efg", "--json"]);
    assert_eq!(a["method"], "spe");
    assert_eq!(a["equilibria"][0]["payoffs"][0], "1");
    // The root's subtree is worth the equilibrium's payoffs.
    assert_eq!(
        a["equilibria"][0]["node_values"][0],
        a["equilibria"][0]["payoffs"]
    );
    let c = json(&["nash", "kuhn", "--method", "cfr", "--json"]);
    assert_eq!(c["iterations"], 1000);
    let nfg = nimbus(&["efg", "examples/trust.efg", "--to", "nfg"]);
    assert!(String::from_utf8_lossy(&nfg.stdout).starts_with("NFG 1 R"));
    let efg = nimbus(&["efg", "kuhn", "--to", "efg"]);
    let text = String::from_utf8_lossy(&efg.stdout).to_string();
    assert!(text.starts_with("EFG 2 R \"Kuhn poker\""));
    let out = with_stdin(&["nash", "-", "--json"], &text);
    assert!(out.status.success());
    fails(
        &[
            "nash",
            "crates/nimbus/tests/data/gambit/tests/test_games/not_perfect_recall.efg",
        ],
        "does not have perfect recall",
    );
    fails(&["nash", "kuhn", "--method", "indifference"], "not trees");
    fails(&["nash", "examples/pd.nfg", "--method", "lp"], "game trees");
    fails(
        &["nash", "examples/job-market.efg", "--method", "lp"],
        "zero-sum",
    );
    // Imperfect information: subgames folded (this tree has no proper subgame, so its pure
    // equilibria).
    let a = json(&[
        "nash",
        "examples/selten-horse.efg",
        "--method",
        "spe",
        "--json",
    ]);
    assert_eq!(a["equilibria"].as_array().unwrap().len(), 2);
    // Every equilibrium of the reduced form: two pure, and a point of each of its two
    // continua, said so.
    let a = json(&["nash", "examples/selten-horse.efg", "--json"]);
    assert_eq!(a["method"], "enumpoly");
    assert_eq!(a["equilibria"].as_array().unwrap().len(), 4);
    assert!(
        a["notes"]
            .to_string()
            .contains("not resolved into isolated"),
        "{a}"
    );
    let a = json(&[
        "nash",
        "examples/selten-horse.efg",
        "--method",
        "agent",
        "--json",
    ]);
    assert_eq!(a["method"], "agent");
    assert_eq!(a["equilibria"].as_array().unwrap().len(), 2);
    fails(&["efg", "examples/pd.nfg"], "not a game tree");
    let cut = "EFG 2 R \"\" { \"A\" \"B\" } \"\"\np \"\" 1 1 \"\" { \"a\" \"b\" } 0\nt \"\" 1 \"\" { 1, 2 }\n";
    let out = with_stdin(&["nash", "-"], cut);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 3"));
    let big = nimbus(&["nash", "kuhn", "--method", "vertex", "--max-states", "100"]);
    assert_eq!(big.status.code(), Some(2));
    let l = json(&["nash", "kuhn", "--method", "lcp", "--json"]);
    assert_eq!(l["method"], "lcp");
    assert_eq!(l["equilibria"][0]["payoffs"][0], "-1/18");
    let several = json(&[
        "nash",
        "examples/job-market.efg",
        "--method",
        "lcp",
        "--covering",
        "8",
        "--json",
    ]);
    assert!(!several["equilibria"].as_array().unwrap().is_empty());
    fails(
        &["nash", "examples/pd.nfg", "--covering", "2"],
        "--covering",
    );
    let a = json(&["nash", "examples/job-market.efg", "--json"]);
    assert_eq!(a["method"], "enum");
    assert_eq!(a["equilibria"].as_array().unwrap().len(), 3);
    let svg = std::env::temp_dir().join(format!("nimbus-tree-{}.svg", std::process::id()));
    let path = svg.to_str().unwrap();
    let out = nimbus(&["efg", "examples/trust.efg", "--svg", path, "--nash", "enum"]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_file(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("Honor"));
    fails(&["efg", "kuhn", "--nash", "auto"], "--svg");
    let state = std::env::temp_dir().join(format!("nimbus-cfr-{}.json", std::process::id()));
    let state_path = state.to_str().unwrap();
    let first = json(&[
        "cfr",
        "kuhn",
        "--iterations",
        "40",
        "--checkpoint",
        state_path,
        "--json",
    ]);
    let then = json(&[
        "cfr",
        "kuhn",
        "--iterations",
        "90",
        "--checkpoint",
        state_path,
        "--json",
    ]);
    let whole = json(&["cfr", "kuhn", "--iterations", "90", "--json"]);
    std::fs::remove_file(&state).unwrap();
    assert_eq!(first["iterations"], 40);
    assert_eq!(then["exploitability"], whole["exploitability"]);
    fails(
        &["efg", "kuhn", "--svg", path, "--nash", "magic"],
        "unknown method",
    );
}

/// Without the `mpi` feature, `--mpi` says how to get it rather than solving alone.
#[cfg(not(feature = "mpi"))]
#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    let dir = std::env::temp_dir().join(format!("nimbus-cli-mpi-{}", std::process::id()));
    fails(
        &[
            "solve",
            "connect4:4x4",
            "--all",
            "--db",
            dir.to_str().unwrap(),
            "--mpi",
        ],
        "--features mpi",
    );
    assert!(!dir.join("tier-0.bin").exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cgt_answers_and_its_winning_moves_lead_to_positions_the_mover_wins() {
    let v = json(&[
        "cgt",
        "domineering ..#|..#|... + toads TFT.TFF - {1|-1}",
        "--json",
    ]);
    assert_eq!(v["canonical"], "{3/2^|-1/2^||-1^|-3^}");
    assert_eq!(v["outcome"], "R");
    assert_eq!(v["right_wins_total"], 3);
    // Each of Right's winning moves leaves a sum Right wins moving second: P or R.
    for m in v["right_wins"].as_array().unwrap() {
        let after = json(&["cgt", m["result"].as_str().unwrap(), "--json"]);
        assert!(
            ["P", "R"].contains(&after["outcome"].as_str().unwrap()),
            "{m}"
        );
        assert_eq!(after["canonical"], m["value"], "{m}");
    }
    // A value written as the answer writes it reads back as the same value.
    let back = json(&["cgt", v["canonical"].as_str().unwrap(), "--json"]);
    assert_eq!(back["canonical"], v["canonical"]);
    let t = json(&[
        "cgt",
        "--table",
        "toads T^n.F^m",
        "--rows",
        "1..2",
        "--cols",
        "1..2",
        "--json",
    ]);
    assert_eq!(t["games"][1][0], "toads TT.F");
    assert_eq!(t["values"][0][0], "*");
}

#[test]
fn cgt_bad_input_and_budgets_are_clear_errors_with_status_2() {
    fails(&["cgt", "domineering ..x"], "column 13");
    fails(&["cgt", "domineering ..x"], "'x' is not a cell");
    fails(&["cgt", "domineerin ..|.."], "did you mean 'domineering'?");
    fails(&["cgt", "{1|"], "is not closed");
    fails(&["cgt", "{1||2||3}"], "which one splits is unclear");
    fails(&["cgt", "{1|2} {3|4}"], "follows a game without + or -");
    fails(&["cgt", "1 +"], "ends after + or -");
    fails(&["cgt", "3/5"], "is not a game or a value");
    fails(&["cgt", "*5000"], "nimbers up to *4096");
    fails(&["cgt", "^2000"], "at most 1000 ups");
    fails(&["cgt", "domineering 12x12"], "give 1 to 128 cells");
    fails(&["cgt", "hackenbush no/such/file.txt"], "no/such/file.txt");
    fails(&["cgt", "cutcake 0x3"], "is not a cake");
    let deep = format!("{}0{}", "{".repeat(100), "|}".repeat(100));
    fails(&["cgt", &deep], "nested more than 64 deep");
    fails(&["cgt", "99999999999999999999"], "is not a game or a value");
    fails(&["cgt", "9223372036854775807"], "past 2^62");
    fails(&["cgt", "4611686018427387904"], "--max-work");
    fails(
        &["cgt", "--max-work", "10000", "domineering 5x5"],
        "max-work",
    );
    fails(
        &["cgt", "--max-memory", "100000", "domineering 5x5"],
        "max-memory",
    );
    fails(
        &["cgt", "--max-states", "100", "domineering 5x5"],
        "max-states",
    );
    fails(
        &[
            "cgt",
            "--table",
            "domineering RxC",
            "--rows",
            "1..200",
            "--cols",
            "1..200",
        ],
        "at most 10000",
    );
    fails(&["cgt", "100000000"], "max-work");
}

#[test]
fn quotient_prints_the_monoid_and_answers_positions() {
    let out = nimbus(&[
        "quotient",
        "octal 0.75",
        "--upto",
        "20",
        "--position",
        "5 7 9 9 12",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("heaps 1..20: 8 elements"), "{text}");
    assert!(text.contains("P-portion: a b^2"), "{text}");
    assert!(text.contains("position 5 7 9 9 12: element b, N"), "{text}");
    let v = json(&["quotient", "kayles", "--upto", "9", "--json"]);
    assert_eq!(v["order"], 18);
    assert_eq!(v["generators"][0]["heap"], 1);
    fails(
        &["quotient", "kayles", "--upto", "0"],
        "--upto of 1 or more",
    );
    fails(&["quotient", "kayles", "--upto", "5000"], "4096");
    fails(
        &["quotient", "kayles", "--upto", "5", "--position", "9"],
        "raise --upto to 9",
    );
    fails(
        &["quotient", "kayles", "--position", "x"],
        "is not a heap size",
    );
    fails(&["quotient", "chess"], "chess");
    // sg --misere answers a sum of heaps of one wild game by its quotient, as the search does.
    let v = json(&["sg", "--misere", "kayles 10 10 9 8", "--json"]);
    assert_eq!(v["rule"], "quotient");
    let s = json(&[
        "sg",
        "--misere",
        "kayles 10 9 8",
        "--rule",
        "search",
        "--json",
    ]);
    let q = json(&["sg", "--misere", "kayles 10 9 8", "--json"]);
    assert_eq!(
        (q["rule"].as_str(), &q["outcome"]),
        (Some("quotient"), &s["outcome"])
    );
}

/// `correlated`: a bad objective or a game given twice is an error naming the place (exit 2).
#[test]
fn correlated_refuses_bad_objectives() {
    for (args, says) in [
        (
            vec!["correlated", "examples/bos.nfg", "--maximize", "player:0"],
            "--maximize: the objective 'player:0': players are numbered from 1",
        ),
        (
            vec!["correlated", "examples/bos.nfg", "--maximize", "player:3"],
            "names player 3",
        ),
        (
            vec![
                "correlated",
                "examples/bos.nfg",
                "--maximize",
                "weights:1,NaN",
            ],
            "'NaN'",
        ),
        (
            vec!["correlated", "examples/bos.nfg", "--row", "1 2"],
            "give the game once",
        ),
    ] {
        fails(&args, says);
    }
}

/// `dynamics`: every bad setting is refused naming its flag (exit 2): NaN, infinities, zero and
/// negative times, 2^64 rounds, one record, an unknown rule or tie rule, a start of the wrong
/// shape or that is not a number.
#[test]
fn dynamics_refuses_bad_settings() {
    let rep = |flag: &'static str, v: &'static str| {
        vec![
            "dynamics",
            "examples/bos.nfg",
            "--rule",
            "replicator",
            flag,
            v,
        ]
    };
    for (args, says) in [
        (rep("--time", "nan"), "--time is NaN"),
        (rep("--time", "inf"), "--time is inf"),
        (rep("--time", "-1"), "--time is -1"),
        (rep("--time", "0"), "--time is 0"),
        (rep("--start", "1/2 1/2"), "the game needs 2"),
        (rep("--start", "1/2 x; 1 0"), "--start: the start: 'x'"),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rounds",
                "18446744073709551616",
            ],
            "--rounds",
        ),
        (
            vec!["dynamics", "examples/bos.nfg", "--rounds", "0"],
            "--rounds is 0",
        ),
        (
            vec!["dynamics", "examples/bos.nfg", "--points", "1"],
            "--points is 1",
        ),
        (
            vec!["dynamics", "examples/bos.nfg", "--rule", "best"],
            "--rule: unknown rule",
        ),
        (
            vec!["dynamics", "examples/bos.nfg", "--ties", "last"],
            "--ties: the tie rule",
        ),
        (vec!["dynamics", "examples/3x3x3.nfg"], "two-player games"),
        (
            rep("--mutation", "2"),
            "--mutation: the mutation: the rate 2 is above 1",
        ),
        (rep("--mutation", "1 0; 1 1"), "row 2 sums to 2"),
        (rep("--mutation", "-1"), "cannot be negative"),
        (
            vec!["dynamics", "examples/bos.nfg", "--mutation", "0.1"],
            "mutation belongs to",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "logit",
                "--noise",
                "0",
            ],
            "--noise must be positive",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "sfp",
                "--noise",
                "nan",
            ],
            "--noise is NaN",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "sfp",
                "--perturbation",
                "inf",
            ],
            "--perturbation is inf",
        ),
        (
            vec!["dynamics", "examples/bos.nfg", "--rule", "moran"],
            "needs --population",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "moran",
                "--population",
                "3 x",
            ],
            "--population: the population: 'x'",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "moran",
                "--population",
                "1 0",
            ],
            "from 2 to 2^32 individuals",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "moran",
                "--population",
                "18446744073709551616 1",
            ],
            "--population",
        ),
        (
            vec![
                "dynamics",
                "--row",
                "1 -1; 0 1",
                "--rule",
                "moran",
                "--population",
                "2 2",
            ],
            "must not be negative",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "br",
                "--start",
                "1 1; 0 1",
            ],
            "a pure profile",
        ),
        (
            vec![
                "dynamics",
                "examples/bos.nfg",
                "--rule",
                "moran",
                "--population",
                "2 2",
                "--runs",
                "0",
            ],
            "--runs",
        ),
        (
            vec!["dynamics", "examples/bos.nfg", "--seed", "-1"],
            "--seed",
        ),
    ] {
        fails(&args, says);
    }
}

/// `correlated --plot`: a picture of a two-player game's payoffs, refused for three players.
#[test]
fn correlated_plot_is_for_two_players() {
    let dir = std::env::temp_dir().join(format!("nimbus-ce-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chicken.svg");
    let out = nimbus(&[
        "correlated",
        "--row",
        "6 2; 7 0",
        "--col",
        "6 7; 2 0",
        "--plot",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::read_to_string(&file).unwrap().contains("<polygon"));
    fails(
        &[
            "correlated",
            "examples/3x3x3.nfg",
            "--plot",
            file.to_str().unwrap(),
        ],
        "a two-player game's payoffs",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dynamics --rule moran --graph FILE`: simulated on the graph; a bad graph refused, naming
/// the line or the individual.
#[test]
fn moran_on_a_graph_from_a_file() {
    let dir = std::env::temp_dir().join(format!("nimbus-moran-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let ring = write("ring.txt", "# a ring\n0 1\n1 2\n2 3\n3 0\n");
    let args = |graph: &str| {
        vec![
            "dynamics".to_string(),
            "--row".into(),
            "1 4; 2 3".into(),
            "--col".into(),
            "1 2; 4 3".into(),
            "--rule".into(),
            "moran".into(),
            "--population".into(),
            "3 1".into(),
            "--runs".into(),
            "50".into(),
            "--graph".into(),
            graph.to_string(),
        ]
    };
    let ok = args(&ring);
    let out = nimbus(&ok.iter().map(String::as_str).collect::<Vec<_>>());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("(simulated)") && text.contains("replaces a neighbour"),
        "{text}"
    );
    for (name, body, says) in [
        ("cut.txt", "0 1\n2 3\n", "not connected"),
        ("far.txt", "0 9\n", "individuals are 0 to 3"),
        ("word.txt", "0 x\n", "--graph: the graph, line 1: 'x'"),
        ("three.txt", "0 1 2\n", "line 1: give an edge"),
        ("loop.txt", "0 0\n1 2\n", "to itself"),
    ] {
        let a = args(&write(name, body));
        fails(&a.iter().map(String::as_str).collect::<Vec<_>>(), says);
    }
    let a = args(dir.join("missing.txt").to_str().unwrap());
    fails(
        &a.iter().map(String::as_str).collect::<Vec<_>>(),
        "missing.txt",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dynamics`: the new rules' answers on textbook games, as printed.
#[test]
fn dynamics_rules_print_what_they_found() {
    let out = nimbus(&[
        "dynamics",
        "--row",
        "1 -1; -1 1",
        "--col",
        "-1 1; 1 -1",
        "--rule",
        "best-response",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("from round 0, a cycle of 4: (1, 1) -> (1, 2) -> (2, 2) -> (2, 1)"),
        "{text}"
    );
    let out = nimbus(&[
        "dynamics",
        "--row",
        "1 1; 1 1",
        "--rule",
        "moran",
        "--population",
        "3 7",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("  1: 3/10 (0.300000)"), "{text}");
    assert!(text.contains("  2: 7/10 (0.700000)"), "{text}");
    let out = nimbus(&[
        "dynamics",
        "--row",
        "2 0; 0 1",
        "--col",
        "1 0; 0 2",
        "--rule",
        "replicator",
        "--two-populations",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(2/3, 1/3; 1/3, 2/3)   payoffs 2/3, 2/3   Nash   unstable"),
        "{text}"
    );
}

/// A negative number of seconds is read as a value and refused by the flag's own rule, not
/// taken for an unknown flag.
#[test]
fn negative_seconds_are_refused_by_their_rule() {
    for args in [
        vec!["solve", "connect4", "4453", "--time-limit", "-1"],
        vec![
            "nash",
            "examples/3x3x3.nfg",
            "--method",
            "enumpoly",
            "--time-limit",
            "-2.5",
        ],
        vec!["cfr", "kuhn", "--target", "-1"],
    ] {
        let out = nimbus(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("give a "), "{args:?}: {err}");
    }
}

/// `--select tracing[:PRIOR]`: the one equilibrium the tracing procedure selects, the prior
/// and the start in JSON; every bad prior refused with exit 2 and its reason.
#[test]
fn nash_select_tracing() {
    let v = json(&[
        "nash",
        "--row",
        "3 0; 0 2",
        "--col",
        "3 0; 0 2",
        "--select",
        "tracing:1/5,4/5,1/5,4/5",
        "--json",
    ]);
    assert_eq!(v["method"], "tracing");
    assert_eq!(v["equilibria"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["equilibria"][0]["profile"][0],
        serde_json::json!(["0", "1"])
    );
    assert_eq!(v["tracing"]["start"], serde_json::json!([1, 1]));
    assert_eq!(v["tracing"]["prior"][0], serde_json::json!(["1/5", "4/5"]));
    // --method tracing is the uniform prior.
    let v = json(&["nash", "examples/bos.nfg", "--method", "tracing", "--json"]);
    assert_eq!(v["tracing"]["prior"][1], serde_json::json!(["1/2", "1/2"]));
    let g = ["nash", "--row", "3 0; 0 2", "--col", "3 0; 0 2"];
    let with =
        |extra: &[&'static str]| -> Vec<&'static str> { g.iter().chain(extra).copied().collect() };
    fails(
        &with(&["--select", "tracing:1/2,1/2,1"]),
        "the prior has 3 probabilities",
    );
    fails(
        &with(&["--select", "tracing:1/2,1/2,1,x"]),
        "'x' is not a probability",
    );
    fails(
        &with(&["--select", "tracing:1/2,1/2,NaN,1"]),
        "'NaN' is not a probability",
    );
    fails(
        &with(&["--select", "tracing:1/2,1/2,2,-1"]),
        "negative probability -1",
    );
    fails(
        &with(&["--select", "tracing:1/2,1/2,1/3,1/3"]),
        "sums to 2/3, not 1",
    );
    fails(
        &with(&["--select", "tracing:1/2,1/2,1e400,1"]),
        "a probability above 1",
    );
    fails(&with(&["--select", "risk"]), "unknown selection 'risk'");
    fails(
        &with(&["--select", "tracing", "--method", "vertex"]),
        "drop --method",
    );
    fails(
        &with(&["--select", "tracing", "--dominance"]),
        "drop --dominance",
    );
    // A tree: the centroid prior, a normal-form perfect equilibrium.
    let v = json(&["nash", "kuhn", "--select", "tracing", "--json"]);
    assert_eq!(v["method"], "tracing");
    assert_eq!(
        v["equilibria"][0]["payoffs"],
        serde_json::json!(["-1/18", "1/18"])
    );
    // Kuhn poker from a prior: twelve sets of two actions, each player's in turn.
    let prior = ["1/3,2/3"; 12].join(",");
    let v = json(&[
        "nash",
        "kuhn",
        "--select",
        &format!("tracing:{prior}"),
        "--json",
    ]);
    assert_eq!(
        v["equilibria"][0]["payoffs"],
        serde_json::json!(["-1/18", "1/18"])
    );
    assert!(v["notes"][0].as_str().unwrap().contains("completely mixed"));
    fails(
        &["nash", "kuhn", "--select", "tracing:1/2,1/2"],
        "the prior has 2 probabilities",
    );
    let bad = format!("tracing:1/2,1/3,{}", ["1/2,1/2"; 11].join(","));
    fails(&["nash", "kuhn", "--select", &bad], "sums to 5/6, not 1");
    fails(
        &["nash", "examples/selten-horse.efg", "--method", "tracing"],
        "two players",
    );
    // A quasi-perfect equilibrium of Kuhn poker: with the king, player 1 calls a bet after
    // checking, though equilibrium play never gets there (the tracing procedure leaves it).
    let v = json(&["nash", "kuhn", "--method", "quasi-perfect", "--json"]);
    assert_eq!(v["method"], "quasi-perfect");
    let sets = v["infosets"].as_array().unwrap();
    let kcb = sets.iter().position(|s| s["name"] == "Kcb").unwrap();
    let call = sets[kcb]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a == "call")
        .unwrap();
    assert_eq!(v["equilibria"][0]["behaviour"][kcb][call], "1");
    fails(
        &["nash", "examples/selten-horse.efg", "--method", "qpe"],
        "two-player trees",
    );
    // Normal-form perfect equilibria marked on a tree: in the entry game, staying out against
    // a threat to fight (wholly or half) rests on a weakly dominated strategy.
    let v = json(&[
        "nash",
        "examples/entry.efg",
        "--method",
        "enum",
        "--refine",
        "perfect",
        "--json",
    ]);
    assert_eq!(v["perfect"], serde_json::json!([false, false, true]));
    assert_eq!(v["equilibria"][2]["payoffs"], serde_json::json!(["1", "1"]));
    fails(&["nash", "kuhn", "--refine", "ess"], "strategic-form games");
    // Proper equilibria: undecided past the work budget, with the note naming the flag.
    let v = json(&[
        "nash",
        "examples/myerson.nfg",
        "--refine",
        "proper",
        "--max-work",
        "1000",
        "--json",
    ]);
    assert_eq!(v["proper"], serde_json::json!([null, null, false]));
    assert!(
        v["notes"][0].as_str().unwrap().contains("--max-work"),
        "{v}"
    );
    fails(
        &["nash", "examples/selten-horse.efg", "--refine", "perfect"],
        "two players",
    );
    // Sequential equilibria: consistency ties Bob's beliefs at his two sets, which (Out; a,
    // x) would need apart; the others come with their beliefs.
    let v = json(&[
        "nash",
        "examples/consistency.efg",
        "--refine",
        "sequential",
        "--json",
    ]);
    assert_eq!(v["sequential"], serde_json::json!([false, true, true]));
    assert_eq!(v["equilibria"][0].get("beliefs"), None);
    assert_eq!(
        v["equilibria"][1]["beliefs"],
        serde_json::json!([["1"], ["3/5", "2/5"], ["3/5", "2/5"]])
    );
    assert_eq!(
        v["infosets"][2]["node_labels"],
        serde_json::json!(["L a", "R a"])
    );
    assert!(
        v["notes"][1]
            .as_str()
            .unwrap()
            .contains("equilibrium 1 is not sequential"),
        "{v}"
    );
    let out = nimbus(&["nash", "examples/consistency.efg", "--refine", "sequential"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Bob believes  \"first\": L 1/2, R 1/2; \"second\": L a 1/2, R a 1/2"),
        "{text}"
    );
    fails(
        &["nash", "examples/bos.nfg", "--refine", "sequential"],
        "game trees",
    );
}

/// An opening book end to end: written, read back to answer what a search answers (value,
/// best moves, every move's score) without one, searched beyond its depth, refused when a
/// byte is changed or the board differs, and used by `play`.
#[test]
fn an_opening_book_answers_as_the_search_does() {
    let dir = std::env::temp_dir().join(format!("nimbus-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("c54.book");
    let book = file.to_str().unwrap();
    let built = json(&[
        "solve",
        "connect4:5x4",
        "--book",
        "4",
        "--save",
        book,
        "--json",
    ]);
    assert_eq!(built["depth"], 4);
    assert!(built["positions"].as_u64().unwrap() > built["searched"].as_u64().unwrap());
    for position in ["", "3", "31", "313"] {
        let from_book = json(&[
            "solve",
            "connect4:5x4",
            position,
            "--db",
            book,
            "--scores",
            "--json",
        ]);
        let searched = json(&["solve", "connect4:5x4", position, "--scores", "--json"]);
        assert_eq!(from_book["book"], true, "{position}");
        assert_eq!(from_book["nodes"], 0);
        assert!(searched.get("book").is_none());
        for key in ["value", "meaning", "best_moves", "scores", "exact"] {
            assert_eq!(from_book[key], searched[key], "{position}: {key}");
        }
    }
    // Four stones: the book holds the position but not its moves; the search answers.
    let beyond = json(&["solve", "connect4:5x4", "3131", "--db", book, "--json"]);
    assert!(beyond.get("book").is_none());
    assert_eq!(
        beyond["value"],
        json(&["solve", "connect4:5x4", "3131", "--json"])["value"]
    );
    // Lines from standard input: the book scores those it holds, the search the others.
    let out = with_stdin(
        &["solve", "connect4:5x4", "-", "--db", book, "--json"],
        "3131\n31311\n",
    );
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["book"], true);
    assert!(lines[1].get("book").is_none());
    let searched = with_stdin(&["solve", "connect4:5x4", "-", "--json"], "3131\n");
    let searched: Value = serde_json::from_slice(&searched.stdout).unwrap();
    assert_eq!(lines[0]["score"], searched["score"]);
    let text =
        String::from_utf8(nimbus(&["solve", "connect4:5x4", "3", "--db", book]).stdout).unwrap();
    assert!(
        text.contains("(from the opening book, without a search)"),
        "{text}"
    );
    let out = with_stdin(
        &["play", "connect4:5x4", "--first", "nimbus", "--db", book],
        "q\n",
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("perfect play, from the book"), "{said}");
    fails(
        &["solve", "connect4:4x5", "3", "--db", book],
        "a book of the 5 x 4 board, not of 4 x 5",
    );
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    let damaged = dir.join("damaged.book");
    std::fs::write(&damaged, bytes).unwrap();
    fails(
        &[
            "solve",
            "connect4:5x4",
            "3",
            "--db",
            damaged.to_str().unwrap(),
        ],
        "damaged",
    );
    // A server refuses a book that does not read before it starts.
    fails(
        &["serve", "--port", "0", "--db", damaged.to_str().unwrap()],
        "damaged",
    );
    fails(
        &["serve", "--port", "0", "--db", "README.md"],
        "not an opening book",
    );
    fails(
        &["solve", "tictactoe", "--book", "2", "--save", book],
        "builds an opening book of Connect Four",
    );
    fails(
        &["solve", "connect4:5x4", "--save", book],
        "--all or --book",
    );
    fails(
        &["solve", "connect4:5x4", "--book", "0", "--save", book],
        "--book",
    );
    fails(
        &["solve", "connect4:5x4", "--book", "30", "--save", book],
        "holds 20 stones",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
