//! Issue 48, item 11: a work estimate is an upper bound of the time it admits. Each method runs
//! on an input far larger than its budget, at a budget's edge, and must end (an answer or a
//! refusal naming the budget) within the time that budget stands for: at most 20 ns a step on
//! this machine (15 ns is what the default budget of 4·10^9 steps assumes, a minute), and a
//! second and a half to start and read the input. Every case below took 10 s to several
//! minutes before its fix.
//!
//! The budget is 10^8 steps (2 s); `NIMBUS_FULL_TESTS=1` runs the same inputs at the default
//! budget instead (80 s each), the edge users meet.

use std::time::{Duration, Instant};

mod common;
use common::with_stdin;

/// Nanoseconds a step may take, and the time to start and read an input.
const NS_PER_STEP: f64 = 20.0;
const START: f64 = 1.5;

fn full() -> bool {
    std::env::var_os("NIMBUS_FULL_TESTS").is_some()
}

/// The budget the cases run at, as the flag's value (none: the default).
fn budget() -> Option<u64> {
    (!full()).then_some(100_000_000)
}

/// Runs `nimbus args` at the budget (`work`, or the case's budget) and checks that it ends
/// within the time it stands for, with status 0 or 2 (never a crash).
fn ends_within(args: &[&str], work: Option<u64>) {
    let steps = work.unwrap_or(nimbus::api::DEFAULT_MAX_WORK);
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    if let Some(w) = work {
        all.extend(["--max-work".to_string(), w.to_string()]);
    }
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let bound = Duration::from_secs_f64(steps as f64 * NS_PER_STEP * 1e-9 + START);
    let started = Instant::now();
    let out = with_stdin(&refs, "");
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "{all:?} ended with {:?}: {err}",
        out.status
    );
    assert!(
        took <= bound,
        "{all:?} took {took:?} under a budget of {steps} steps (at most {bound:?}): {err}"
    );
}

fn scratch() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nimbus-work-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A two-player .nfg of `m` × `n` with pseudo-random payoffs 0..9 (or all zero).
fn bimatrix(m: usize, n: usize, seed: u64, zero: bool) -> String {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if zero {
            0
        } else {
            state % 10
        }
    };
    let mut text = format!("NFG 1 R \"random\" {{ \"1\" \"2\" }} {{ {m} {n} }}\n\n");
    for _ in 0..m * n {
        text += &format!("{} {} ", next(), next());
    }
    text
}

#[test]
fn each_method_ends_within_the_time_its_work_budget_stands_for() {
    let dir = scratch();
    let file = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let w = budget();

    // Misère Kayles: sums of heaps in a hash memo, each option a multiset (78 s before).
    ends_within(&["sequence", "kayles", "--upto", "100", "--misere"], w);
    // A misère quotient that grows past the budget (Kayles' sums searched where it grows).
    ends_within(&["quotient", "kayles", "--upto", "40"], w);
    // Lemke's algorithm with many covering vectors: the runs share one budget (over 2 min).
    ends_within(
        &["nash", "kuhn", "--method", "lcp", "--covering", "100000"],
        w,
    );
    // The logit path's end settled on an all-zero game: a continuum (19 s).
    let zero = file("zero6.nfg", bimatrix(6, 6, 1, true));
    ends_within(&["nash", &zero, "--method", "logit"], w);
    // Every equilibrium of Myerson's three-player tree, full of continua (10 s at 10^8).
    ends_within(
        &[
            "nash",
            "crates/nimbus/tests/data/gambit/contrib/games/my_2-8.efg",
        ],
        w,
    );
    // Backward induction over a chain of 20 000 chance moves of probability 1/2: numbers of
    // 20 000 bits (100 s).
    let mut chain = String::from("EFG 2 R \"chain\" { \"1\" \"2\" }\n\"\"\n");
    for k in 0..20_000 {
        chain += &format!("c \"\" {} \"\" {{ \"a\" 1/2 \"b\" 1/2 }} 0\n", k + 1);
        chain += &format!("t \"\" {} \"\" {{ {}, {} }}\n", k + 1, k % 3, -(k % 3));
    }
    chain += "t \"\" 20001 \"\" { 0, 0 }\n";
    let chain = file("chance.efg", chain);
    ends_within(&["nash", &chain], w);
    // The tracing procedure on a 200 x 200 game: four thousand pivots on a tableau of
    // 400 x 800 big integers (175 s before a pivot was charged by the length of its numbers).
    let wide = file("tracing200.nfg", bimatrix(200, 200, 5, false));
    ends_within(&["nash", &wide, "--select", "tracing"], w);
    // A repeated 40 x 40 game at 99/100: rounds of 1600 profiles, then the exact tests.
    let big = file("repeated40.nfg", bimatrix(40, 40, 3, false));
    ends_within(&["repeated", &big, "--discount", "0.99"], w);
    // A stochastic game of 60 states, 3 x 3 actions each, discounted by 99/100, to 1e-30:
    // exact linear systems of 60 unknowns on long fractions (340 s before the work was
    // charged by the length of the numbers).
    let mut sto = String::from("discount 99/100\n");
    let mut seed = 5u64;
    let mut next = |k: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % k
    };
    for s in 0..60 {
        sto += &format!("state s{s}\n");
        for i in 1..=3 {
            for j in 1..=3 {
                let pay = next(19) as i64 - 9;
                let (a, b, c) = (next(60), next(60), next(60));
                sto += &format!(" {i} {j}: {pay} -> s{a} 1/3, s{b} 1/3, s{c}\n");
            }
        }
    }
    let sto = file("big.ssg", sto);
    for method in ["policy", "value"] {
        ends_within(
            &[
                "stochastic",
                &sto,
                "--method",
                method,
                "--tolerance",
                "1e-30",
            ],
            w,
        );
    }
    // A tree of 10 000 players and one node (41 s under a budget of 1 000).
    let players: Vec<String> = (0..10_000).map(|i| format!("\"{i}\"")).collect();
    let zeros = vec!["0"; 10_000].join(", ");
    let many = file(
        "many.efg",
        format!(
            "EFG 2 R \"many\" {{ {} }}\n\"\"\nt \"\" 1 \"\" {{ {zeros} }}\n",
            players.join(" ")
        ),
    );
    ends_within(&["nash", &many], Some(1000));
    // One information set met 10^5 times on one path: its subgames (66 s).
    let mut absent = String::from("EFG 2 R \"absent\" { \"1\" \"2\" }\n\"\"\n");
    for k in 0..100_000 {
        absent += "p \"\" 1 1 \"\" { \"a\" \"b\" } 0\n";
        absent += &format!("t \"\" {} \"\" {{ {}, 0 }}\n", k + 1, k % 3);
    }
    absent += "t \"\" 100001 \"\" { 0, 0 }\n";
    let absent = file("absent.efg", absent);
    ends_within(&["efg", &absent], w);
    // Support enumeration admitted by its estimate (2.2·10^8 steps here): it must finish in
    // the time of that estimate (a 13 x 16 game was estimated at 3.6·10^9 and ran minutes).
    let supports = file("s10x11.nfg", bimatrix(10, 11, 11, false));
    ends_within(
        &["nash", &supports, "--method", "support"],
        w.map(|_| 250_000_000),
    );
    // Vertex enumeration of the 30 x 30 identity game: big-integer pivots.
    let mut identity = String::from("NFG 1 R \"id\" { \"1\" \"2\" } { 30 30 }\n\n");
    for j in 0..30 {
        for i in 0..30 {
            let x = u8::from(i == j);
            identity += &format!("{x} {x} ");
        }
    }
    let identity = file("id30.nfg", identity);
    ends_within(&["nash", &identity, "--method", "vertex"], w);
    // Scripts: compilation is bounded by the declarations counted before it (100 000
    // functions took minutes; 16 000 `let`s compile in under 2 s and are then refused).
    let fns: String = (0..100_000)
        .map(|i| format!("fn f{i}(x) {{ x + {i} }}\n"))
        .collect();
    let fns = file(
        "fns.rhai",
        fns + "fn heap(n) { n }\nfn moves(n) { if n > 0 { [n - 1] } else { [] } }\n",
    );
    ends_within(&["sg", &format!("script:{fns} 3")], w);
    let lets: String = (0..16_000).map(|i| format!("let x{i} = {i};\n")).collect();
    let lets = file(
        "lets.rhai",
        format!(
            "fn heap(n) {{ n }}\nfn moves(n) {{\n{lets}if n > 0 {{ [n - 1] }} else {{ [] }} }}\n"
        ),
    );
    ends_within(&["sg", &format!("script:{lets} 3")], w);
    // Partizan canonical forms: a board far past the budget, and a sum of hot Snort paths
    // whose forms are large (the comparisons are charged, not the positions alone).
    ends_within(&["cgt", "domineering 6x6"], w);
    let path: Vec<String> = (0..15).map(|i| format!("v{i} v{}", i + 1)).collect();
    ends_within(&["cgt", &format!("snort '{}'", path.join("; "))], w);

    // Correlated equilibria: an LP of a constraint for each pair of a player's strategies
    // over every profile, admitted and refused by its size.
    for n in [12, 20, 40] {
        let game = file(&format!("ce{n}.nfg"), bimatrix(n, n, 7 + n as u64, false));
        ends_within(&["correlated", &game], w);
        ends_within(&["correlated", &game, "--coarse"], w);
    }
    // The vertices of the correlated equilibria, counted as the rays are combined; the
    // dynamics, counted by rounds and by the integrator's steps.
    let five = file("ce5.nfg", bimatrix(5, 5, 3, false));
    ends_within(&["correlated", &five, "--vertices"], w);
    ends_within(&["dynamics", &five, "--rounds", "1000000000000"], w);
    ends_within(
        &[
            "dynamics",
            &five,
            "--rule",
            "replicator",
            "--time",
            "1000000",
        ],
        w,
    );
    // The other rules: best response with random ties runs every round; the Moran process's
    // exact fixation grows as the population squared, its simulated runs as they go.
    for rule in ["best-response", "sfp", "regret-matching"] {
        ends_within(
            &[
                "dynamics",
                &five,
                "--rule",
                rule,
                "--rounds",
                "1000000000000",
                "--ties",
                "random:1",
            ],
            w,
        );
    }
    ends_within(
        &["dynamics", &five, "--rule", "logit", "--time", "1000000"],
        w,
    );
    ends_within(
        &[
            "dynamics",
            "--row",
            "3 1; 4 2",
            "--col",
            "3 4; 1 2",
            "--rule",
            "moran",
            "--population",
            "100000 7",
        ],
        w,
    );
    ends_within(
        &[
            "dynamics",
            "--row",
            "1 1 1; 1 1 1; 1 1 1",
            "--rule",
            "moran",
            "--population",
            "300 300 300",
            "--runs",
            "1000000000",
            "--rounds",
            "1000000000",
        ],
        w,
    );
    let _ = std::fs::remove_dir_all(&dir);
}
