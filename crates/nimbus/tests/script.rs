//! Games written in Rhai (examples/*.rhai) against the built-in Rust rulesets, closed forms
//! and brute force; and every kind of script error the issue lists.

use nimbus::catalog::impartial::Parser;
use nimbus::core::budget::Limits;
use nimbus::impartial::analysis::AnalyzeOptions;
use nimbus::impartial::games::heap::HeapRule;
use nimbus::impartial::games::octal::Octal;
use nimbus::impartial::games::subtraction::Subtraction;
use nimbus::impartial::sequence::misere_sequence;
use nimbus::impartial::sum::analyze;
use nimbus::script::impartial::{misere_sequence as script_misere, nim_sequence};
use nimbus::script::sequential::ScriptGame;
use nimbus::script::{Script, ScriptOptions};
use nimbus::sequential::explicit::Explicit;
use nimbus::sequential::games::carrot;
use nimbus::sequential::games::coin_grid::CoinGrid;
use nimbus::sequential::games::tictactoe::TicTacToe;
use nimbus::sequential::search::{memo, minimax};
use nimbus::sequential::strong::retrograde as solve;
use nimbus::sequential::{Game, Notation};
use nimbus::Error;
use proptest::prelude::*;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(name)
}

fn load(name: &str) -> Rc<Script> {
    let path = example(name);
    Rc::new(Script::load(path.to_str().unwrap(), ScriptOptions::default()).unwrap())
}

/// The example's text with `from` replaced by `to` (a different constant, say), compiled.
fn variant(name: &str, from: &str, to: &str) -> Rc<Script> {
    let text = std::fs::read_to_string(example(name)).unwrap();
    assert!(text.contains(from), "{name} has no '{from}'");
    let text = text.replace(from, to);
    Rc::new(Script::compile(&text, name, ScriptOptions::default()).unwrap())
}

fn compile(text: &str) -> Rc<Script> {
    Rc::new(Script::compile(text, "test.rhai", ScriptOptions::default()).unwrap())
}

const LIMITS: Limits = Limits {
    max_states: 1_000_000,
    max_memory: 4 << 30,
    max_work: nimbus::core::budget::DEFAULT_MAX_WORK,
};

#[test]
fn take134_is_the_subtraction_game() {
    let s = load("take134.rhai");
    let got = nim_sequence(&s, 3000, LIMITS).unwrap();
    let want = Subtraction::Finite(vec![1, 3, 4])
        .table(3000, LIMITS)
        .unwrap();
    assert_eq!(got.values, want);
    let p = got.period.unwrap();
    assert_eq!((p.preperiod, p.period), (0, 7));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// A script of any finite subtraction set gives the Rust ruleset's nim-sequence, normal and
    /// misère.
    #[test]
    fn subtraction_scripts_match_rust(set in proptest::collection::btree_set(1u64..9, 1..4)) {
        let list: Vec<String> = set.iter().map(u64::to_string).collect();
        let s = variant("take134.rhai", "[1, 3, 4]", &format!("[{}]", list.join(", ")));
        let rule = Subtraction::Finite(set.iter().copied().collect());
        prop_assert_eq!(nim_sequence(&s, 120, LIMITS).unwrap().values, rule.table(120, LIMITS).unwrap());
        prop_assert_eq!(
            script_misere(&s, 60, LIMITS).unwrap().values,
            misere_sequence(&rule, 60, LIMITS).unwrap().values
        );
    }
}

#[test]
fn kayles_script_is_octal_kayles() {
    let s = load("kayles.rhai");
    let got = nim_sequence(&s, 40, LIMITS).unwrap();
    assert_eq!(got.values, Octal::kayles().table(40, LIMITS).unwrap());
    let mis = script_misere(&s, 20, LIMITS).unwrap();
    assert_eq!(
        mis.values,
        misere_sequence(&Octal::kayles(), 20, LIMITS)
            .unwrap()
            .values
    );
}

/// Take-and-break scripts written as one heap's moves (`fn heap_moves(n)`) are heap rules:
/// Kayles written so equals the built-in table to 500 and its misère values, and sums are
/// valued by xor like the built-in ruleset's.
#[test]
fn heap_moves_scripts_are_heap_rules() {
    use nimbus::script::impartial::ScriptHeapRule;
    let rule = ScriptHeapRule::of(&load("kayles_heaps.rhai")).unwrap();
    assert_eq!(
        rule.table(500, LIMITS).unwrap(),
        Octal::kayles().table(500, LIMITS).unwrap()
    );
    assert_eq!(
        misere_sequence(&rule, 20, LIMITS).unwrap().values,
        misere_sequence(&Octal::kayles(), 20, LIMITS)
            .unwrap()
            .values
    );
    let path = example("kayles_heaps.rhai");
    for heaps in ["5 7", "12 30 4", "70 71"] {
        let grundy = |e: &str| {
            let mut p = Parser::new();
            let c = p.parse(e, "test").unwrap();
            analyze(&c, &AnalyzeOptions::default()).unwrap().grundy
        };
        assert_eq!(
            grundy(&format!("script:{} {heaps}", path.display())),
            grundy(&format!("kayles {heaps}")),
            "{heaps}"
        );
    }
}

/// The game (take 1, 2 or 5, or split a heap into two unequal heaps), which took
/// 22-45 s to n = 40 as a search over multisets of heaps: as a heap rule, the table to 600
/// equals the mex loop written here.
#[test]
fn take_and_break_script_equals_the_mex_loop() {
    use nimbus::script::impartial::ScriptHeapRule;
    let rule = ScriptHeapRule::of(&load("take_break.rhai")).unwrap();
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=600usize {
        let mut options: Vec<u64> = [1, 2, 5]
            .iter()
            .filter(|&&t| t <= n)
            .map(|&t| g[n - t])
            .collect();
        options.extend((1..n).filter(|&a| 2 * a < n).map(|a| g[a] ^ g[n - a]));
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    assert_eq!(rule.table(600, LIMITS).unwrap(), g);
}

#[test]
fn heap_moves_scripts_refuse_bad_options() {
    use nimbus::script::impartial::ScriptHeapRule;
    for (text, needle) in [
        (
            "fn heap_moves(n) { if n > 2 { [[n]] } else { [] } }",
            "not smaller than the heap",
        ),
        (
            "fn heap_moves(n) { if n > 4 { [[1, 1, 1, 1]] } else { [] } }",
            "more than three",
        ),
        (
            "fn heap_moves(n) { if n > 1 { [[1, \"a\"]] } else { [] } }",
            "not a whole number",
        ),
        (
            "fn heap_moves(n) { if n > 1 { [1] } else { [] } }",
            "not an array of the heaps",
        ),
        ("fn heap_moves(n) { 7 }", "not an array of options"),
    ] {
        let rule = ScriptHeapRule::of(&compile(text)).unwrap();
        let e = rule.table(10, LIMITS).unwrap_err();
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
}

#[test]
fn bash_game_closed_forms_normal_and_misere() {
    for k in 1..=6i64 {
        let s = variant("bash.rhai", "fn k() { 3 }", &format!("fn k() {{ {k} }}"));
        let normal = nim_sequence(&s, 80, LIMITS).unwrap();
        let misere = script_misere(&s, 80, LIMITS).unwrap();
        for n in 0..=80i64 {
            assert_eq!(
                normal.values[n as usize] == 0,
                n % (k + 1) == 0,
                "k {k} n {n}"
            );
            assert_eq!(
                misere.values[n as usize] == 0,
                (n - 1).rem_euclid(k + 1) == 0,
                "misère k {k} n {n}"
            );
        }
    }
}

/// The grid game as the same board written by hand as a graph file: every square's outcome,
/// remoteness and generalised value agree.
#[test]
fn grid_with_cycles_matches_the_graph_engine() {
    let board = ["...#..", "#.....", "..#.#.", ".#....", "...#.#"];
    let free = |r: i64, c: i64| {
        r >= 0
            && c >= 0
            && (r as usize) < board.len()
            && (c as usize) < board[0].len()
            && board[r as usize].as_bytes()[c as usize] != b'#'
    };
    let mut edges = String::new();
    let mut squares = Vec::new();
    for r in 0..board.len() as i64 {
        for c in 0..board[0].len() as i64 {
            if !free(r, c) {
                continue;
            }
            squares.push((r, c));
            edges.push_str(&format!("s{r}_{c}\n"));
            for (dr, dc) in [(0, 1), (1, 0), (-1, -1)] {
                if free(r + dr, c + dc) {
                    edges.push_str(&format!("s{r}_{c} s{}_{}\n", r + dr, c + dc));
                }
            }
        }
    }
    let dir = std::env::temp_dir().join(format!("nimbus-grid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let graph = dir.join("grid.txt");
    std::fs::write(&graph, edges).unwrap();
    let script = example("grid_cycles.rhai");
    let opts = AnalyzeOptions::default();
    let mut seen = std::collections::HashMap::new();
    for (r, c) in squares {
        let mut parser = Parser::new();
        let s = parser
            .parse(&format!("script:{} {r} {c}", script.display()), "test")
            .unwrap();
        let a = analyze(&s, &opts).unwrap();
        assert!(parser.script_error().is_none());
        let g = Parser::new()
            .parse(&format!("graph {} @s{r}_{c}", graph.display()), "test")
            .unwrap();
        let b = analyze(&g, &opts).unwrap();
        assert_eq!(a.outcome, b.outcome, "square {r} {c}");
        assert_eq!(a.remoteness, b.remoteness, "square {r} {c}");
        assert_eq!(a.gamma, b.gamma, "square {r} {c}");
        assert_eq!(a.winning_moves_total, b.winning_moves_total);
        *seen.entry(a.outcome.to_string()).or_insert(0) += 1;
    }
    // The example is chosen to have all three outcomes.
    assert_eq!(seen.len(), 3, "{seen:?}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn tictactoe_script_strong_solution_matches_rust() {
    let g = ScriptGame::new(load("tictactoe.rhai"), &[]).unwrap();
    let (graph, positions) = Explicit::build(&g, &g.start(), 1_000_000).unwrap();
    assert_eq!(positions.len(), 5478);
    let script = solve::solve(&graph, "script", u64::MAX, u64::MAX, &|_| {}).unwrap();
    let rust = solve::solve(&TicTacToe, "tictactoe", u64::MAX, u64::MAX, &|_| {}).unwrap();
    let (a, b) = (script.summary(), rust.summary());
    assert_eq!(
        (a.positions, a.wins, a.losses, a.draws, a.longest, a.start),
        (b.positions, b.wins, b.losses, b.draws, b.longest, b.start)
    );
    assert!(g.error().is_none());
    // Searches agree move by move too: the best first moves and the value after 5 1.
    let r = memo::solve(&g, &g.start(), 1_000_000).unwrap();
    assert_eq!(r.value, 0);
    assert_eq!(r.best_moves.len(), 9);
    let p = g.parse_position("5 1").unwrap();
    let q = TicTacToe.parse_position("51").unwrap();
    let (rs, rr) = (
        memo::solve(&g, &p, 1_000_000).unwrap(),
        memo::solve(&TicTacToe, &q, 1_000_000).unwrap(),
    );
    assert_eq!(rs.value, rr.value);
    let shown = |mut ms: Vec<String>| {
        ms.sort();
        ms.join(" ")
    };
    assert_eq!(
        shown(rs.best_moves.iter().map(|&m| g.show_move(m)).collect()),
        shown(
            rr.best_moves
                .iter()
                .map(|&m| TicTacToe.show_move(m))
                .collect()
        )
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// The coin-grid script on random boards = the Rust coin grid, value and best moves.
    #[test]
    fn coin_grid_script_matches_rust(
        n in 2usize..4,
        rounds in 1u32..4,
        cells in proptest::collection::vec(-9i64..10, 9),
    ) {
        let coins: Vec<Vec<i64>> = (0..n).map(|r| cells[r * n..r * n + n].to_vec()).collect();
        let rows: Vec<String> = coins
            .iter()
            .map(|r| format!("[{}]", r.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")))
            .collect();
        let text = std::fs::read_to_string(example("coin_grid.rhai")).unwrap()
            .replace("[[1, 5, 2], [3, 0, 4], [2, 2, 9]]", &format!("[{}]", rows.join(", ")))
            .replace("fn rounds() { 2 }", &format!("fn rounds() {{ {rounds} }}"));
        let g = ScriptGame::new(compile(&text), &[]).unwrap();
        let rust = CoinGrid::new(coins, rounds).unwrap();
        let a = memo::solve(&g, &g.start(), 1_000_000).unwrap();
        let b = memo::solve(&rust, &rust.start(), 1_000_000).unwrap();
        prop_assert_eq!(a.value, b.value);
        let moves_a: Vec<String> = a.best_moves.iter().map(|&m| g.show_move(m)).collect();
        let moves_b: Vec<String> = b.best_moves.iter().map(|&m| rust.show_move(m)).collect();
        prop_assert_eq!(moves_a, moves_b);
        // Plain minimax on the script (no memo) agrees as well.
        prop_assert_eq!(minimax::solve(&g, &g.start()).value, a.value);
    }

    /// Choosing Carrot as a script, with Oleg's extra moves as moves in a row, = the O(n)
    /// answer for every k.
    #[test]
    fn carrot_script_matches_the_linear_answer(a in proptest::collection::vec(1i64..20, 2..8)) {
        let want = carrot::answers(&a);
        let s = load("carrot.rhai");
        for (k, &w) in want.iter().enumerate() {
            let mut args = vec![k.to_string()];
            args.extend(a.iter().map(i64::to_string));
            let g = ScriptGame::new(s.clone(), &args).unwrap();
            let r = memo::solve(&g, &g.start(), 1_000_000).unwrap();
            prop_assert_eq!(r.value, w, "k {}", k);
            prop_assert_eq!(minimax::solve(&g, &g.start()).value, w);
        }
    }
}

fn script_error(e: Error) -> (usize, usize, String) {
    match e {
        // The message as a reader sees it: the settings it names written plainly.
        Error::Script { span, message } => {
            (span.line, span.column, nimbus::core::hint::plain(&message))
        }
        other => panic!("not a script error: {other}"),
    }
}

fn impartial_error(text: &str, args: &str) -> (usize, usize, String) {
    let dir = std::env::temp_dir().join(format!(
        "nimbus-script-{}-{}",
        std::process::id(),
        text.len()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.rhai");
    std::fs::write(&path, text).unwrap();
    let opts = ScriptOptions {
        max_operations: 100_000,
        max_memory: 1 << 16,
        ..Default::default()
    };
    let mut parser = Parser::with_script_options(opts);
    let r = parser
        .parse(&format!("script:{} {args}", path.display()), "test")
        .and_then(|c| analyze(&c, &AnalyzeOptions::default()));
    let e = match (parser.script_error(), r) {
        (Some(e), _) => e,
        (None, Err(e)) => e,
        (None, Ok(a)) => panic!("no error: {a:?}"),
    };
    std::fs::remove_dir_all(dir).ok();
    script_error(e)
}

#[test]
fn syntax_errors_name_the_line_and_column() {
    let e = Script::compile(
        "fn heap(n) { n }\nfn moves(p) { let x = ; }\n",
        "s.rhai",
        ScriptOptions::default(),
    )
    .unwrap_err();
    let (line, col, msg) = script_error(e);
    assert_eq!(line, 2);
    assert!(col > 0);
    assert!(msg.starts_with("syntax error"), "{msg}");
}

#[test]
fn runtime_errors_name_the_function_position_and_line() {
    let (line, col, msg) = impartial_error(
        "fn heap(n) { n }\nfn moves(p) {\n  if p == 3 { return [undefined_var]; }\n  if p > 0 { [p - 1] } else { [] }\n}\n",
        "5",
    );
    assert_eq!(line, 3, "{msg}");
    assert!(col > 0);
    assert!(msg.contains("moves(3)"), "{msg}");
    assert!(msg.contains("undefined_var"), "{msg}");
}

#[test]
fn an_endless_loop_stops_with_an_operations_error() {
    let (_, _, msg) = impartial_error("fn heap(n) { n }\nfn moves(p) { loop { } }\n", "4");
    assert!(msg.contains("raise script_ops"), "{msg}");
    assert!(msg.contains("moves(4)"), "{msg}");
}

#[test]
fn a_huge_value_stops_with_a_memory_error() {
    let (_, _, msg) = impartial_error(
        "fn heap(n) { n }\nfn moves(p) { let s = \"x\"; loop { s += s; } }\n",
        "4",
    );
    assert!(msg.contains("raise script_mem"), "{msg}");
}

#[test]
fn bad_values_are_named() {
    let (_, _, msg) = impartial_error("fn heap(n) { n }\nfn moves(p) { 42 }\n", "4");
    assert!(
        msg.contains("moves(4) returned a i64, not an array"),
        "{msg}"
    );
    let (_, _, msg) = impartial_error("fn heap(n) { n }\nfn moves(p) { [1.5] }\n", "4");
    assert!(msg.contains("cannot be a position"), "{msg}");
    assert!(msg.contains("floats"), "{msg}");
    let (_, _, msg) = impartial_error("fn heap(n) { n }\nfn moves(p) { [|x| x] }\n", "4");
    assert!(msg.contains("cannot be a position"), "{msg}");
    let (_, _, msg) = impartial_error("fn moves(p) { [] }\n", "4");
    assert!(msg.contains("fn heap(n)"), "{msg}");
}

#[test]
fn sequential_errors_are_named() {
    let base = "fn start() { 0 }\nfn to_move(p) { p % 2 }\nfn moves(p) { if p < 3 { [1] } else { [] } }\nfn result(p) { if p >= 3 { 1 } else { () } }\n";
    let g = ScriptGame::new(
        compile(&format!("{base}fn play(p, m) {{ p + 1.5 }}\n")),
        &[],
    )
    .unwrap();
    let _ = memo::solve(&g, &g.start(), 1000);
    let (_, _, msg) = script_error(g.error().expect("play gave a float"));
    assert!(msg.contains("play(0, 1)"), "{msg}");
    let g = ScriptGame::new(
        compile(&format!(
            "{base}fn play(p, m) {{ if p == 1 {{ throw \"no\"; }} p + m }}\n"
        )),
        &[],
    )
    .unwrap();
    let _ = memo::solve(&g, &g.start(), 1000);
    let (line, _, msg) = script_error(g.error().expect("play rejected a move"));
    assert_eq!(line, 5);
    assert!(msg.contains("play(1, 1)") && msg.contains("no"), "{msg}");
    let bad_turn = base.replace("p % 2", "7");
    let e = ScriptGame::new(
        compile(&format!("{bad_turn}fn play(p, m) {{ p + m }}\n")),
        &[],
    )
    .err()
    .expect("to_move must be 0 or 1");
    assert!(script_error(e).2.contains("to_move(0) returned 7"));
    let e = ScriptGame::new(compile("fn moves(p) { [] }\n"), &[])
        .err()
        .unwrap();
    assert!(script_error(e)
        .2
        .contains("impartial game: analyse it as one"));
}

#[test]
fn the_interrupt_flag_stops_a_running_script() {
    let flag = Arc::new(AtomicBool::new(true));
    let opts = ScriptOptions {
        max_operations: u64::MAX,
        max_memory: 1 << 20,
        interrupt: Some(flag),
        ..Default::default()
    };
    let s = Script::compile(
        "fn heap(n) { loop { } }\nfn moves(p) { [] }\n",
        "t.rhai",
        opts,
    )
    .unwrap();
    let rules = nimbus::script::impartial::ScriptRules::new(Rc::new(s)).unwrap();
    let (_, _, msg) = script_error(rules.heap(3).unwrap_err());
    assert!(msg.contains("interrupted"), "{msg}");
}

/// A two-player script with cycles, strongly solved through the explicit graph, against the
/// impartial engine's retrograde analysis of the same game (the grid of examples/grid_cycles.rhai
/// with the turn kept in the position): the same win, loss or draw and the same remoteness from
/// every square.
#[test]
fn sequential_script_with_cycles_matches_the_impartial_engine() {
    let grid = std::fs::read_to_string(example("grid_cycles.rhai")).unwrap();
    let board = &grid[grid.find("fn board()").unwrap()..grid.find("fn start(").unwrap()];
    let opts = AnalyzeOptions::default();
    let mut solved = 0;
    for (r, c) in (0..5).flat_map(|r| (0..6).map(move |c| (r, c))) {
        let mut parser = Parser::new();
        let Ok(parts) = parser.parse(
            &format!("script:{} {r} {c}", example("grid_cycles.rhai").display()),
            "t",
        ) else {
            continue; // a wall
        };
        let text = format!(
            "{board}
            fn start() {{ [{r}, {c}, 0] }}
            fn to_move(p) {{ p[2] }}
            fn moves(p) {{
                let out = [];
                for d in [[0, 1], [1, 0], [-1, -1]] {{
                    if free(p[0] + d[0], p[1] + d[1]) {{ out.push(d); }}
                }}
                out
            }}
            fn play(p, d) {{ [p[0] + d[0], p[1] + d[1], 1 - p[2]] }}
            fn result(p) {{
                if moves(p).is_empty() {{ if p[2] == 0 {{ -1 }} else {{ 1 }} }} else {{ () }}
            }}"
        );
        let g = ScriptGame::new(compile(&text), &[]).unwrap();
        let (graph, _) = Explicit::build(&g, &g.start(), 100_000).unwrap();
        let strong = solve::solve(&graph, "grid", u64::MAX, u64::MAX, &|_| {}).unwrap();
        let start = strong.summary().start;
        let a = analyze(&parts, &opts).unwrap();
        let expected = match (a.outcome, a.remoteness) {
            (nimbus::impartial::Outcome::N, Some(k)) => solve::Solved::Win(k as u32),
            (nimbus::impartial::Outcome::P, Some(k)) => solve::Solved::Loss(k as u32),
            (nimbus::impartial::Outcome::D, _) => solve::Solved::Draw,
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(start, expected, "square {r} {c}");
        solved += 1;
    }
    assert_eq!(solved, 23);
}

#[test]
fn import_is_refused_when_the_script_is_compiled() {
    let Err(e) = Script::compile(
        "import \"foo\" as f;\nfn heap(n) { n }\nfn moves(p) { [] }\n",
        "imports.rhai",
        ScriptOptions::default(),
    ) else {
        panic!("import is refused")
    };
    assert!(e.to_string().contains("imports.rhai, line 1"), "{e}");
}

/// Rhai re-measures an array at every push, work its operation count does not see: the time
/// budget stops it (and an array nested in itself) all the same.
#[test]
fn the_time_budget_stops_work_the_operation_count_misses() {
    for body in [
        "let a = []; loop { a.push(a.len()); }",
        "let a = []; loop { a = [a]; }",
    ] {
        let started = std::time::Instant::now();
        let mut parser = Parser::with_script_options(ScriptOptions {
            max_seconds: 1.0,
            ..Default::default()
        });
        let dir = std::env::temp_dir().join(format!("nimbus-slow-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("slow.rhai");
        std::fs::write(
            &path,
            format!("fn heap(n) {{ n }}\nfn moves(p) {{ {body} }}\n"),
        )
        .unwrap();
        let r = parser
            .parse(&format!("script:{} 3", path.display()), "test")
            .and_then(|c| analyze(&c, &AnalyzeOptions::default()));
        let e = parser
            .script_error()
            .or(r.err())
            .expect("stopped with an error");
        assert!(e.to_string().contains("raise script_time"), "{body}: {e}");
        assert!(started.elapsed().as_secs_f64() < 10.0, "{body}");
    }
}

/// A script's `print` and `debug` lines go to the place the front-end gives, and nowhere when
/// it gives none: the library itself never prints.
#[test]
fn print_goes_where_the_front_end_says() {
    let dir = std::env::temp_dir().join(format!("nimbus-script-print-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("talk.rhai");
    std::fs::write(
        &path,
        "fn heap(n) { n }\nfn moves(p) { print(`moves of ${p}`); debug(p); if p > 0 { [p - 1] } else { [] } }\n",
    )
    .unwrap();
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    let opts = ScriptOptions {
        output: Some(nimbus::script::ScriptOutput(std::sync::Arc::new(
            move |l| sink.lock().unwrap().push(l.to_string()),
        ))),
        ..Default::default()
    };
    let expr = format!("script:{} 2", path.display());
    let sum = Parser::with_script_options(opts)
        .parse(&expr, "test")
        .unwrap();
    analyze(&sum, &AnalyzeOptions::default()).unwrap();
    let lines = lines.lock().unwrap().clone();
    assert!(lines.iter().any(|l| l == "moves of 2"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("debug (") && l.ends_with("1")),
        "{lines:?}"
    );
    // Without a place, the same run prints nothing and still answers.
    let sum = Parser::new().parse(&expr, "test").unwrap();
    assert_eq!(
        analyze(&sum, &AnalyzeOptions::default()).unwrap().grundy,
        Some(0)
    );
    std::fs::remove_dir_all(dir).ok();
}
