//! Every command's `--json` output against the schema documented in `docs/schema.json`: each
//! answer must match its command's definition exactly (no key missing, none undocumented).

use serde_json::{json, Value};
use std::process::Command;

mod common;
use common::{root, with_stdin};

/// The validator of `$defs/NAME`, with the rest of the document for its references.
fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/schema.json")).expect("docs/schema.json");
    let mut doc: Value = serde_json::from_str(&text).expect("the schema is JSON");
    doc["$ref"] = json!(format!("#/$defs/{name}"));
    jsonschema::validator_for(&doc).expect("a valid schema")
}

fn check(command: &str, lines: &[u8], args: &[&str]) {
    let v = validator(command);
    let text = String::from_utf8_lossy(lines);
    assert!(!text.trim().is_empty(), "{args:?}: no output");
    for line in text.lines() {
        let value: Value = serde_json::from_str(line).expect("one JSON object a line");
        let errors: Vec<String> = v
            .iter_errors(&value)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(
            errors.is_empty(),
            "{args:?} against $defs/{command}: {errors:?}\n{line}"
        );
    }
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_nimbus"))
        .args(args)
        .arg("--json")
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

/// Runs `nimbus ARGS --json` and checks its output against `$defs/COMMAND` (the first word).
fn answers(args: &[&str]) {
    let out = run(args);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    check(args[0], &out.stdout, args);
}

#[test]
fn every_answer_matches_the_documented_schema() {
    answers(&["sg", "nim 3 4 5"]);
    answers(&["sg", "kayles 7 + wythoff 3 5 + subtract{1,3,4} 20"]);
    answers(&["sg", "wythoff 1000000000000000000 1618033988749894848"]);
    answers(&["sg", "graph examples/loopy.txt @a @c"]);
    answers(&["sg", "--misere", "nim 1 1 1"]);
    answers(&["sg", "--misere", "kayles 4 5"]);
    answers(&[
        "sg",
        "--misere",
        "--rule",
        "sj",
        "graph examples/seed-antisg.txt @1",
    ]);
    answers(&["cgt", "domineering ..#|..#|... + toads TFT.TFF - {1|-1}"]);
    answers(&["cgt", "stalks BRR + ^*"]);
    answers(&[
        "cgt",
        "--table",
        "domineering RxC",
        "--rows",
        "1..3",
        "--cols",
        "2..3",
    ]);
    answers(&["sequence", "kayles", "--upto", "100"]);
    answers(&[
        "quotient",
        "octal 0.75",
        "--upto",
        "12",
        "--position",
        "5 7 9",
    ]);
    answers(&["quotient", "nim", "--upto", "3"]);
    answers(&["sequence", "octal 0.137", "--upto", "50"]);
    answers(&["sequence", "dawson", "--misere", "--upto", "12"]);
    answers(&["sequence", "script:examples/take134.rhai", "--upto", "20"]);
    answers(&["substring", "abcab", "ab"]);
    answers(&["zerosum", "0 -1 1; 1 0 -1; -1 1 0"]);
    answers(&["zerosum", "1 4; 2 3"]);
    answers(&["zerosum", "1 4; 2 3", "--float"]);
    answers(&["zerosum", "--file", "examples/bos.nfg"]);
    answers(&["stochastic", "examples/big-match.ssg"]);
    answers(&["stochastic", "examples/quadratic.ssg", "--method", "value"]);
    answers(&["repeated", "examples/pd.nfg", "--discount", "0.9"]);
    answers(&[
        "repeated",
        "examples/abreu-sannikov.nfg",
        "--discount",
        "3/10",
    ]);
    answers(&[
        "repeated",
        "--row",
        "1 -1; -2 1",
        "--col",
        "-1 2; 2 0",
        "--discount",
        "0.05",
    ]);
    answers(&["nash", "examples/pd.nfg"]);
    answers(&["nash", "examples/continuum.nfg"]);
    answers(&["nash", "data/nfg/8x8.nfg"]);
    answers(&["nash", "data/nfg/8x8.nfg", "--method", "support"]);
    answers(&["nash", "data/nfg/8x8.nfg", "--method", "lh"]);
    answers(&["nash", "data/nfg/mixdom.nfg", "--dominance"]);
    answers(&["nash", "data/nfg/2x2x2.nfg"]);
    answers(&["nash", "data/nfg/3x3x3.nfg"]);
    answers(&["nash", "data/nfg/3x3x3.nfg", "--max-supports", "7"]);
    answers(&["nash", "data/nfg/3x3x3.nfg", "--method", "logit"]);
    answers(&["nash", "data/nfg/2x2x2.nfg", "--method", "logit", "--path"]);
    answers(&["nash", "data/nfg/3x3x3.nfg", "--method", "simpdiv"]);
    answers(&["nash", "data/nfg/3x3x3.nfg", "--method", "gnm"]);
    answers(&["nash", "kuhn"]);
    answers(&["nash", "examples/trust.efg"]);
    answers(&["nash", "examples/centipede.efg"]);
    answers(&["nash", "examples/job-market.efg"]);
    answers(&["nash", "kuhn", "--method", "cfr"]);
    answers(&["nash", "examples/selten-horse.efg", "--method", "pure"]);
    answers(&["nash", "examples/selten-horse.efg", "--method", "agent"]);
    answers(&["efg", "kuhn"]);
    answers(&["cfr", "kuhn", "--iterations", "100"]);
    answers(&[
        "cfr",
        "kuhn",
        "--iterations",
        "100",
        "--sampling",
        "external",
    ]);
    answers(&["efg", "examples/selten-horse.efg"]);
    answers(&["verify", "examples/pd.nfg", "0,1,0,1"]);
    answers(&["correlated", "--row", "6 2; 7 0", "--col", "6 7; 2 0"]);
    answers(&["nash", "examples/bos.nfg", "--refine", "perfect"]);
    answers(&["nash", "examples/pd.nfg", "--refine", "perfect,ess"]);
    answers(&["nash", "examples/myerson.nfg", "--refine", "perfect,proper"]);
    answers(&[
        "nash",
        "examples/myerson.nfg",
        "--refine",
        "proper",
        "--max-work",
        "1000",
    ]);
    answers(&[
        "nash",
        "examples/bos.nfg",
        "--select",
        "tracing:1/4,3/4,1/2,1/2",
    ]);
    answers(&["nash", "examples/jordan.nfg", "--select", "tracing"]);
    answers(&["nash", "examples/bos.nfg", "--select", "risk-dominance"]);
    answers(&["stochastic", "examples/quadratic.ssg"]);
    answers(&["nash", "kuhn", "--select", "tracing"]);
    answers(&["nash", "kuhn", "--method", "quasi-perfect"]);
    answers(&[
        "nash",
        "examples/entry.efg",
        "--method",
        "enum",
        "--refine",
        "perfect",
    ]);
    answers(&[
        "nash",
        "examples/consistency.efg",
        "--refine",
        "sequential,perfect",
    ]);
    answers(&[
        "correlated",
        "examples/bos.nfg",
        "--coarse",
        "--maximize",
        "player:2",
    ]);
    answers(&["correlated", "examples/2x2x2.nfg", "--vertices"]);
    answers(&["dynamics", "examples/rps.nfg", "--rounds", "50"]);
    answers(&["dynamics", "examples/rps.nfg", "--rule", "replicator"]);
    answers(&[
        "dynamics",
        "examples/bos.nfg",
        "--rule",
        "replicator",
        "--time",
        "3",
    ]);
    answers(&[
        "dynamics",
        "examples/bos.nfg",
        "--rule",
        "replicator",
        "--two-populations",
    ]);
    answers(&["dynamics", "examples/bos.nfg", "--rule", "best-response"]);
    answers(&["dynamics", "examples/rps.nfg", "--rule", "best-response"]);
    answers(&[
        "dynamics",
        "examples/rps.nfg",
        "--rule",
        "sfp",
        "--rounds",
        "40",
    ]);
    answers(&[
        "dynamics",
        "examples/bos.nfg",
        "--rule",
        "regret",
        "--rounds",
        "90",
    ]);
    answers(&[
        "dynamics",
        "examples/rps.nfg",
        "--rule",
        "logit",
        "--time",
        "2",
    ]);
    answers(&[
        "dynamics",
        "examples/bos.nfg",
        "--rule",
        "moran",
        "--population",
        "3 4",
    ]);
    answers(&[
        "dynamics",
        "--row",
        "1 2 3; 3 1 2; 2 3 1",
        "--rule",
        "moran",
        "--population",
        "2 2 2",
        "--runs",
        "20",
    ]);
    answers(&["verify", "examples/bos.nfg", "0.667,0.333,0.333,0.667"]);
    answers(&["solve", "tictactoe"]);
    answers(&["solve", "tictactoe", "12", "--scores"]);
    answers(&["solve", "connect4", "4453", "--time-limit", "0.2"]);
    answers(&["solve", "coin-grid:2:1,5,2;3,0,4;2,2,9"]);
    answers(&["solve", "carrot:1,2,3,5"]);
    answers(&["solve", "script:examples/tictactoe.rhai", "5"]);
    let db = std::env::temp_dir().join(format!("nimbus-schema-{}.db", std::process::id()));
    let db = db.to_str().unwrap();
    answers(&["solve", "connect4:4x4", "--all", "--save", db]);
    answers(&["solve", "connect4:4x4", "12", "--db", db]);
    let _ = std::fs::remove_file(db);
    let book = std::env::temp_dir().join(format!("nimbus-schema-{}.book", std::process::id()));
    let book = book.to_str().unwrap();
    answers(&["solve", "connect4:4x4", "--book", "3", "--save", book]);
    answers(&["solve", "connect4:4x4", "12", "--db", book, "--scores"]);
    let out = with_stdin(
        &["solve", "connect4:4x4", "-", "--db", book, "--json"],
        "12\n",
    );
    check(
        "solve",
        &out.stdout,
        &["solve", "connect4:4x4", "-", "--db", "BOOK"],
    );
    let _ = std::fs::remove_file(book);
    let dir = std::env::temp_dir().join(format!("nimbus-schema-tiers-{}", std::process::id()));
    let dir = dir.to_str().unwrap();
    answers(&["solve", "connect4:4x4", "--all", "--db", dir]);
    answers(&[
        "solve",
        "connect4:4x4",
        "--all",
        "--remoteness",
        "--db",
        dir,
    ]);
    answers(&["solve", "connect4:4x4", "12", "--db", dir]);
    let out = with_stdin(
        &["solve", "connect4:4x4", "-", "--db", dir, "--json"],
        "12\n4433\n",
    );
    check(
        "solve",
        &out.stdout,
        &["solve", "connect4:4x4", "-", "--db"],
    );
    let _ = std::fs::remove_dir_all(dir);
    let out = with_stdin(&["solve", "connect4", "-", "--json"], "4453 3\n");
    check("solve", &out.stdout, &["solve", "connect4", "-"]);
}

#[test]
fn errors_match_the_documented_schema() {
    for args in [
        &["sg", "kayels 7"][..],
        &["nash", "no-such-file.nfg"],
        &["sg", "grundy-game 902149", "--max-work", "1000000"],
        &["zerosum", "1 2; 3"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        check("error", &out.stdout, args);
    }
}

/// The schema is strict: an answer with a key it does not document fails, so the test above
/// cannot pass by accepting anything.
#[test]
fn the_schema_rejects_undocumented_keys() {
    let out = run(&["nash", "examples/pd.nfg"]);
    let mut value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(validator("nash").is_valid(&value));
    value["surprise"] = json!(1);
    assert!(!validator("nash").is_valid(&value));
    value.as_object_mut().unwrap().remove("surprise");
    value["equilibria"][0]["profile"][0][0] = json!(0.5);
    assert!(
        !validator("nash").is_valid(&value),
        "a float is not an exact number"
    );
}
