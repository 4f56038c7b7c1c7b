//! The bodies of the fuzz targets, one per parser or entry point that takes user text. Each
//! parses the input and, when it parses, runs the solver behind it under small budgets: the
//! property is that nothing panics, aborts or runs past its budget; an error is an answer.
//!
//! `fuzz_targets/*.rs` hand these to libFuzzer (`cargo fuzz run NAME`), and
//! `crates/nimbus-cli/tests/fuzz_corpus.rs` replays the kept corpus on the stable toolchain, so
//! CI checks every input the fuzzer found interesting without the fuzzer itself.

use nimbus::catalog::impartial::Parser;
use nimbus::core::budget::Limits;
use nimbus::impartial::analysis::AnalyzeOptions;
use nimbus::impartial::component::{Component, Positioned};
use nimbus::impartial::games::digraph::{Graph, Tokens};
use nimbus::impartial::misere::{analyze_misere, MisereOptions};
use nimbus::impartial::sum::analyze;
use std::rc::Rc;

/// Budgets small enough that every execution takes milliseconds, even under the fuzzer's
/// instrumentation (which slows the engines some twenty times).
fn limits() -> Limits {
    Limits {
        max_states: 5_000,
        max_memory: 64 << 20,
        max_work: 200_000,
    }
}

fn text(data: &[u8]) -> String {
    nimbus::core::input::decode(data.to_vec())
}

fn analyse(components: &[Box<dyn Component>]) {
    let opts = AnalyzeOptions {
        limits: limits(),
        remoteness_limit: 2_000,
        ..AnalyzeOptions::default()
    };
    let _ = analyze(components, &opts);
    let mopts = MisereOptions {
        limits: limits(),
        max_moves: 20,
        rule: None,
    };
    let _ = analyze_misere(components, &mopts);
}

/// The game-expression grammar, analysed under normal and misère play. Expressions that name
/// files (graphs, scripts) are skipped: the fuzzer should not roam the file system.
pub fn expression(data: &[u8]) {
    let t = text(data);
    if t.contains("graph") || t.contains("script") {
        return;
    }
    let mut parser = Parser::new();
    if let Ok(components) = parser.parse(&t, "fuzz") {
        analyse(&components);
    }
}

/// Graph files; a token on the first node (and on the first two) analysed, cycles included.
pub fn graph(data: &[u8]) {
    let Ok(g) = Graph::parse("fuzz", &text(data)) else {
        return;
    };
    if g.is_empty() {
        return;
    }
    let two = g.len() > 1;
    let rule = Rc::new(Tokens::new(g));
    let one: Vec<Box<dyn Component>> = vec![Box::new(Positioned::new(rule.clone(), vec![0]))];
    analyse(&one);
    if two {
        let pair: Vec<Box<dyn Component>> = vec![Box::new(Positioned::new(rule, vec![0, 1]))];
        analyse(&pair);
    }
}

/// Gambit's .nfg format: parse, write and read back; pure equilibria of small games.
pub fn nfg(data: &[u8]) {
    use nimbus::formats::nfg;
    let Ok(game) = nfg::parse(&text(data), "fuzz") else {
        return;
    };
    let written = nfg::write(&game);
    let again = nfg::parse(&written, "written").expect("a written game reads back");
    assert_eq!(again.shape(), game.shape());
    if game.shape().iter().product::<usize>() <= 64 {
        let _ = nimbus::strategic::solvers::pure::pure_equilibria(&game);
    }
}

/// Payoff matrices as the command line takes them; small ones solved exactly and in floating
/// point.
pub fn matrix(data: &[u8]) {
    use nimbus::strategic::solvers::zerosum::{solve_float_within, solve_within};
    let Ok(a) = nimbus::formats::matrix::parse_matrix(&text(data), "fuzz") else {
        return;
    };
    if a.len() * a[0].len() > 36 {
        return;
    }
    // Entries with thousands of digits make exact pivots slow, not wrong: keep them modest.
    if a.iter()
        .flatten()
        .any(|q| q.numer().bits() > 256 || q.denom().bits() > 256)
    {
        return;
    }
    let _ = solve_within(&a, 64 << 20);
    let f: Vec<Vec<f64>> = a
        .iter()
        .map(|r| r.iter().map(nimbus::exact::to_f64).collect())
        .collect();
    let _ = solve_float_within(&f, 64 << 20);
}

/// Connect Four and tic-tac-toe move strings, and game names with parameters; a legal
/// position is searched a few plies deep.
pub fn moves(data: &[u8]) {
    use nimbus::sequential::games::connect4::Connect4;
    use nimbus::sequential::games::tictactoe::TicTacToe;
    use nimbus::sequential::search::alphabeta;
    use nimbus::sequential::{Notation, SearchLimits as Search};
    let t = text(data);
    let (head, rest) = t.split_once('|').unwrap_or(("", &t));
    if !head.contains('@') {
        let _ = nimbus::catalog::sequential::Builtin::parse(head);
    }
    let limits = Search {
        depth: Some(4),
        deadline: None,
        table_bits: 10,
        max_nodes: Some(1_000_000),
        grow_to_bits: Some(12),
    };
    let c4 = Connect4::standard();
    if let Ok(p) = c4.parse_position(rest) {
        let _ = alphabeta::solve(&c4, &p, &limits);
    }
    if let Ok(p) = TicTacToe.parse_position(rest) {
        let _ = alphabeta::solve(&TicTacToe, &p, &limits);
    }
}

/// The substring game's input: S and the strings, analysed.
pub fn substring(data: &[u8]) {
    use nimbus::impartial::games::substring::{
        analyze_substrings, parse_position, words_of, SubstringOptions,
    };
    let t = text(data);
    let words = words_of(&t, "fuzz");
    if words.len() < 2 || words[0].0.len() > 2_000 {
        return;
    }
    if let Ok((game, subs)) = parse_position(&words) {
        for misere in [false, true] {
            let opts = SubstringOptions {
                misere,
                limits: limits(),
                max_moves: 20,
                max_strings: 20,
            };
            let _ = analyze_substrings(&game, &subs, &opts);
        }
    }
}

/// Whole command lines, one argument a line, run as `nimbus` runs them (output collected, not
/// printed) under small budgets. Arguments that would touch the file system or standard input
/// are skipped: paths, scripts, graph files, plots and saved solutions, `-`.
pub fn cli(data: &[u8]) {
    let t = text(data);
    let mut args: Vec<String> = t.lines().take(12).map(str::to_string).collect();
    let touches_files = |a: &String| {
        a == "-"
            || a.contains('/')
            || a.contains('\\')
            || a.contains('@')
            || [
                "script", "graph", "--plot", "--save", "--db", "--file", "-f",
            ]
            .iter()
            .any(|w| a.contains(w))
    };
    if args.is_empty() || args.iter().any(touches_files) || args.iter().any(|a| a.len() > 200) {
        return;
    }
    if args[0] == "solve" {
        args.extend(["--time-limit".into(), "0.01".into()]);
    }
    args.extend(
        [
            "--max-states",
            "5000",
            "--max-work",
            "200000",
            "--max-memory",
            "8000000",
        ]
        .map(String::from),
    );
    let mut out = String::new();
    let _ = nimbus_cli::execute(&args, &mut out);
}

/// The readers of the files Nimbus writes and reads back: a sealed file (a saved solution of
/// tic-tac-toe) and a tier file (of Connect Four on 4 × 4), from bytes that may be damaged
/// anywhere. Nothing may panic, and a file that does not verify must be refused: a saved
/// solution that reads back must answer what the solver answers.
pub fn files(data: &[u8]) {
    use nimbus::sequential::games::tictactoe::TicTacToe;
    use nimbus::sequential::strong::retrograde::Strong;
    let (kind, bytes) = match data.split_first() {
        Some((k, rest)) => (k % 3, rest),
        None => return,
    };
    match kind {
        0 => {
            if let Ok(body) = nimbus::core::sealed::unseal(bytes, "fuzz.db") {
                let _ = Strong::from_bytes(&TicTacToe, "tictactoe", body, "fuzz.db");
            }
        }
        _ => {
            // A solved database of Connect Four on 4 × 4, made once; each input replaces one
            // of its files and is queried as the command line does.
            static SOLVED: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
            let solved = SOLVED.get_or_init(|| {
                let dir = std::env::temp_dir().join(format!("nimbus-fuzz-{}", std::process::id()));
                let _ = std::fs::remove_dir_all(&dir);
                let args = [
                    "solve",
                    "connect4:4x4",
                    "--all",
                    "--db",
                    &dir.display().to_string(),
                ]
                .map(String::from);
                let _ = nimbus_cli::execute(&args, &mut String::new());
                dir
            });
            let work = solved.with_extension("work");
            let _ = std::fs::remove_dir_all(&work);
            let _ = std::fs::create_dir_all(&work);
            for name in ["tier-4.reach", "tier-4.bin"] {
                let _ = std::fs::copy(solved.join(name), work.join(name));
            }
            let name = if kind == 1 {
                "tier-4.reach"
            } else {
                "tier-4.bin"
            };
            let _ = std::fs::write(work.join(name), bytes);
            if let Ok(g) = nimbus::sequential::games::connect4::tiers::Connect4Tiers::new(4, 4) {
                let _ = nimbus::sequential::strong::tiers::query(&g, &work, "1234");
            }
        }
    }
}
