//! The sequential solvers against plain minimax and each other, the rulesets against their
//! closed forms and published results (Connect Four test sets, tic-tac-toe's 5478 positions).

use nimbus::sequential::games::carrot::{self, Carrot};
use nimbus::sequential::games::coin_grid::CoinGrid;
use nimbus::sequential::games::connect4::Connect4;
use nimbus::sequential::games::nim::Nim;
use nimbus::sequential::games::tictactoe::TicTacToe;
use nimbus::sequential::search::{alphabeta, deepening, memo, minimax, mtdf};
use nimbus::sequential::strong::retrograde::{self as solve, Solved};
use nimbus::sequential::{Game, Indexed, Notation, Player, SearchLimits, Value, INFINITY};
use proptest::prelude::*;
use std::hash::Hash;

/// Plays random moves from the start, `plies` of them or until the game ends.
fn random_position<G: Game>(g: &G, seed: u64, plies: u32) -> G::Position {
    random_line(g, seed, plies).0
}

/// As [`random_position`], with the moves played.
fn random_line<G: Game>(g: &G, seed: u64, plies: u32) -> (G::Position, Vec<G::Move>) {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut p = g.start();
    let mut moves = Vec::new();
    let mut line = Vec::new();
    for _ in 0..plies {
        moves.clear();
        if g.outcome(&p).is_some() {
            break;
        }
        g.moves(&p, &mut moves);
        if moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(state >> 33) as usize % moves.len()];
        line.push(m);
        p = g.play(&p, m);
    }
    (p, line)
}

/// Checks every solver against plain minimax at `p`: values, best moves, and that each
/// principal variation keeps the value.
fn agree<G>(g: &G, p: &G::Position)
where
    G: Game,
    G::Position: Hash + Eq + std::fmt::Debug,
{
    let reference = minimax::solve(g, p);
    let limits = SearchLimits {
        table_bits: 12,
        ..SearchLimits::default()
    };
    let ab = alphabeta::solve(g, p, &limits).unwrap();
    let id = deepening::solve(g, p, &limits).unwrap();
    let me = memo::solve(g, p, u64::MAX).unwrap();
    let mut s = alphabeta::Searcher::new(g, &limits);
    let (lo, hi) = mtdf::root_bounds(g, p);
    let bi = mtdf::bisect(&mut s, p, lo, hi, None).unwrap();
    let mt = mtdf::mtdf(&mut s, p, 0, None).unwrap();
    for (name, v) in [
        ("alpha-beta", ab.value),
        ("deepening", id.value),
        ("memo", me.value),
        ("bisection", bi.value),
        ("mtdf", mt.value),
    ] {
        assert_eq!(v, reference.value, "{name} at {p:?}");
    }
    assert!(
        lo <= reference.value && reference.value <= hi,
        "bounds at {p:?}"
    );
    for search in [&ab, &id, &me] {
        assert_eq!(
            search.best_moves, reference.best_moves,
            "best moves at {p:?}"
        );
        assert!(search.exact);
        // Walk the PV: each move keeps the value (checked by minimax at each step).
        let (mut q, mut v) = (p.clone(), search.value);
        for &m in &search.pv {
            let r = g.reward(&q, m);
            q = g.play(&q, m);
            let child = minimax::solve(g, &q).value;
            assert_eq!(r - child, v, "PV {:?} at {p:?}", search.pv);
            v = child;
        }
        assert!(
            g.outcome(&q).is_some() || {
                let mut ms = Vec::new();
                g.moves(&q, &mut ms);
                ms.is_empty()
            }
        );
    }
}

#[test]
fn tictactoe_is_a_draw_with_5478_positions() {
    let g = TicTacToe;
    let r = minimax::solve(&g, &g.start());
    assert_eq!(r.value, 0);
    assert_eq!(r.best_moves.len(), 9, "every first move draws");
    agree(&g, &g.start());
    let strong = solve::solve(&g, "tictactoe", u64::MAX, u64::MAX, &|_| {}).unwrap();
    let s = strong.summary();
    assert_eq!(s.positions, 5478);
    assert_eq!(s.start, Solved::Draw);
    assert_eq!(s.wins + s.losses + s.draws, 5478);
    assert!(solve::check_ranking(&g, 10_000));
}

/// Minimax with the winner hurrying and the loser delaying: the value's magnitude tells the
/// ply the game ends on, so remoteness = that ply − the ply of the position.
struct Remote<'a, G>(&'a G);
const BIG: Value = 1 << 20;
impl<G: Game> Game for Remote<'_, G> {
    type Position = (G::Position, i64);
    type Move = G::Move;
    fn start(&self) -> Self::Position {
        (self.0.start(), 0)
    }
    fn moves(&self, p: &Self::Position, out: &mut Vec<G::Move>) {
        self.0.moves(&p.0, out)
    }
    fn play(&self, p: &Self::Position, m: G::Move) -> Self::Position {
        (self.0.play(&p.0, m), p.1 + 1)
    }
    fn outcome(&self, p: &Self::Position) -> Option<Value> {
        self.0
            .outcome(&p.0)
            .map(|v| v.signum() * (BIG - p.1))
            .or_else(|| {
                let mut ms = Vec::new();
                self.0.moves(&p.0, &mut ms);
                ms.is_empty().then_some(0)
            })
    }
    fn to_move(&self, p: &Self::Position) -> Player {
        self.0.to_move(&p.0)
    }
}

fn remoteness_by_minimax<G>(g: &G, p: &G::Position) -> Solved
where
    G: Game,
    G::Position: Hash + Eq,
{
    let w = Remote(g);
    let v = memo::solve(&w, &(p.clone(), 0), u64::MAX).unwrap().value;
    match v.signum() {
        1 => Solved::Win((BIG - v) as u32),
        -1 => Solved::Loss((BIG + v) as u32),
        _ => Solved::Draw,
    }
}

#[test]
fn strong_solution_matches_minimax_remoteness() {
    let g = TicTacToe;
    let strong = solve::solve(&g, "tictactoe", u64::MAX, u64::MAX, &|_| {}).unwrap();
    for seed in 0..300 {
        let p = random_position(&g, seed, (seed % 9) as u32);
        assert_eq!(
            strong.get(&g, &p),
            Some(remoteness_by_minimax(&g, &p)),
            "{p:?}"
        );
    }
    let c4 = Connect4::new(4, 4).unwrap();
    assert!(solve::check_ranking(&c4, 100_000));
    let strong = solve::solve(&c4, "connect4 4x4", u64::MAX, u64::MAX, &|_| {}).unwrap();
    for seed in 0..60 {
        let p = random_position(&c4, seed, 6 + (seed % 6) as u32);
        assert_eq!(
            strong.get(&c4, &p),
            Some(remoteness_by_minimax(&c4, &p)),
            "{p:?}"
        );
    }
    let nim = Nim::new(vec![3, 4, 2]);
    let strong = solve::solve(&nim, "nim 3 4 2", u64::MAX, u64::MAX, &|_| {}).unwrap();
    for seed in 0..50 {
        let p = random_position(&nim, seed, (seed % 5) as u32);
        assert_eq!(strong.get(&nim, &p), Some(remoteness_by_minimax(&nim, &p)));
    }
}

#[test]
fn saved_solution_loads_back() {
    let g = TicTacToe;
    let strong = solve::solve(&g, "tictactoe", u64::MAX, u64::MAX, &|_| {}).unwrap();
    let bytes = strong.to_bytes();
    let back = solve::Strong::from_bytes(&g, "tictactoe", &bytes, "mem").unwrap();
    assert_eq!(back.summary(), strong.summary());
    let p = g.parse_position("5 1").unwrap();
    assert_eq!(back.get(&g, &p), strong.get(&g, &p));
    assert!(solve::Strong::from_bytes(&g, "connect4", &bytes, "mem").is_err());
    assert!(solve::Strong::from_bytes(&g, "tictactoe", &bytes[..100], "mem").is_err());
}

#[test]
fn searches_agree_with_minimax_on_small_games() {
    let t = TicTacToe;
    for seed in 0..60 {
        agree(&t, &random_position(&t, seed, (seed % 7) as u32));
    }
    for (w, h) in [(4, 4), (5, 3), (3, 5)] {
        let c4 = Connect4::new(w, h).unwrap();
        for seed in 0..25 {
            agree(&c4, &random_position(&c4, seed, 5 + (seed % 5) as u32));
        }
    }
    for seed in 0..20 {
        let heaps = vec![(seed % 4) as u32 + 1, 3, (seed % 3) as u32 + 1];
        let nim = Nim::new(heaps.clone());
        let r = minimax::solve(&nim, &nim.start());
        let xor = heaps.iter().fold(0, |a, &h| a ^ h);
        assert_eq!(r.value, if xor != 0 { 1 } else { -1 }, "{heaps:?}");
        agree(&nim, &nim.start());
    }
}

/// Minimax to `depth` plies with the game's evaluation at the horizon, over the moves the game
/// gives the search and within the bounds it states (which hold for the value searched to the
/// end, so a value at a depth limit is kept inside them): the definition the depth-limited
/// alpha–beta search computes, by plain recursion.
fn minimax_within_bounds<G: Game>(g: &G, p: &G::Position, depth: u32) -> Value {
    if let Some(v) = g.outcome(p) {
        return v;
    }
    if depth == 0 {
        return g.evaluate(p);
    }
    let mut moves = Vec::new();
    let (lo, hi) = g.search_moves(p, &mut moves);
    if lo == hi || moves.is_empty() {
        return if lo == hi { lo } else { 0 };
    }
    let best = moves
        .iter()
        .map(|&m| g.reward(p, m) - minimax_within_bounds(g, &g.play(p, m), depth - 1))
        .max()
        .expect("a move");
    best.clamp(lo, hi)
}

#[test]
fn depth_limited_search_matches_depth_limited_minimax() {
    let c4 = Connect4::new(5, 4).unwrap();
    let mut bounds_decided = 0;
    for seed in 0..60 {
        let p = random_position(&c4, seed, 4 + (seed % 8) as u32);
        for depth in 1..=4 {
            let reference = minimax_within_bounds(&c4, &p, depth);
            if reference != minimax::solve_to_depth(&c4, &p, Some(depth)).value {
                bounds_decided += 1;
            }
            let limits = SearchLimits {
                depth: Some(depth),
                table_bits: 12,
                ..SearchLimits::default()
            };
            let ab = alphabeta::solve(&c4, &p, &limits).unwrap();
            assert_eq!(ab.value, reference, "depth {depth} at {p:?}");
            let id = deepening::solve(&c4, &p, &limits).unwrap();
            assert_eq!(id.value, reference, "deepening, depth {depth}");
        }
    }
    // The game's bounds and its pruned moves changed some of these values.
    assert!(bounds_decided > 0);
}

fn coin_grid_by_definition(coins: &[Vec<Value>], rounds: u32) -> Value {
    // best[t][r][c]: Alice's coins still to come with t moves made and the piece at (r, c).
    let n = coins.len();
    let total = 2 * rounds as usize;
    let mut best = vec![vec![0; n]; n];
    for t in (0..total).rev() {
        let mut now = vec![vec![0; n]; n];
        for (r, row) in now.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let mut options = Vec::new();
                let steps = [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)];
                for (dr, dc) in steps {
                    let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                    if nr >= 0 && nc >= 0 && (nr as usize) < n && (nc as usize) < n {
                        let (nr, nc) = (nr as usize, nc as usize);
                        options.push(coins[nr][nc] + best[nr][nc]);
                    }
                }
                *cell = if options.is_empty() {
                    0
                } else if t % 2 == 0 {
                    *options.iter().max().unwrap()
                } else {
                    *options.iter().min().unwrap()
                };
            }
        }
        best = now;
    }
    best[0][0]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn coin_grid_matches_its_definition(
        n in 1usize..4,
        rounds in 0u32..4,
        raw in proptest::collection::vec(-5i64..10, 16),
    ) {
        let coins: Vec<Vec<Value>> = (0..n).map(|r| raw[r * n..r * n + n].to_vec()).collect();
        let g = CoinGrid::new(coins.clone(), rounds).unwrap();
        let expected = coin_grid_by_definition(&coins, rounds);
        let m = memo::solve(&g, &g.start(), u64::MAX).unwrap();
        prop_assert_eq!(m.value, expected);
        let mm = minimax::solve(&g, &g.start());
        prop_assert_eq!(mm.value, expected);
        prop_assert_eq!(&m.best_moves, &mm.best_moves);
        let ab = alphabeta::solve(&g, &g.start(), &SearchLimits::default()).unwrap();
        prop_assert_eq!(ab.value, expected);
    }

    #[test]
    fn carrot_answers_agree(a in proptest::collection::vec(0i64..6, 1..11)) {
        let fast = carrot::answers(&a);
        prop_assert_eq!(&fast, &carrot::answers_dp(&a));
        let g = Carrot::new(a.clone());
        let n = a.len();
        for (k, &answer) in fast.iter().enumerate() {
            let m = n - k;
            let best = (0..=n - m)
                .map(|l| minimax::solve(&g, &g.window(l, l + m - 1)).value)
                .max()
                .unwrap();
            prop_assert_eq!(answer, best, "k = {}", k);
        }
    }
}

#[test]
fn carrot_is_linear() {
    let n = 300_000;
    let mut x = 12345u64;
    let a: Vec<Value> = (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((x >> 33) % 1_000_000_000) as Value
        })
        .collect();
    let started = std::time::Instant::now();
    let fast = carrot::answers(&a);
    assert!(started.elapsed().as_secs_f64() < 1.0);
    assert_eq!(fast.len(), n);
    assert_eq!(fast[n - 1], *a.iter().max().unwrap());
    // Spot checks against the quadratic program on a prefix-sized copy.
    let small = &a[..2000];
    assert_eq!(carrot::answers(small), carrot::answers_dp(small));
}

fn connect4_set(name: &str) -> Vec<(String, Value)> {
    let path = format!("{}/../../data/connect4/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(|l| {
            let mut it = l.split_whitespace();
            let moves = it.next().unwrap().to_string();
            let score = it.next().unwrap().parse().unwrap();
            (moves, score)
        })
        .collect()
}

#[test]
fn connect4_solves_pons_test_sets() {
    let g = Connect4::standard();
    let mut s = alphabeta::Searcher::new(&g, &SearchLimits::default());
    for set in ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"] {
        for (moves, expected) in connect4_set(set) {
            let p = g.parse_position(&moves).unwrap();
            s.reset();
            assert_eq!(g.score(&mut s, &p), Some(expected), "{set}: {moves}");
        }
    }
}

#[test]
fn connect4_notation_errors_name_the_token() {
    let g = Connect4::standard();
    let e = g.parse_position("4448").unwrap_err().to_string();
    assert!(e.contains("column 4") && e.contains("`8`"), "{e}");
    let e = g.parse_position("1111111").unwrap_err().to_string();
    assert!(e.contains("column 7") && e.contains("full"), "{e}");
    let e = g.parse_position("12121212").unwrap_err().to_string();
    assert!(e.contains("over"), "{e}");
    assert!(Connect4::new(8, 8).is_err());
    assert!(Connect4::new(16, 3).is_ok());
    let big = Connect4::new(1, 63).unwrap();
    assert_eq!(big.size(), u64::MAX);
}

#[test]
fn bounds_hold_on_random_connect4_positions() {
    let g = Connect4::new(4, 4).unwrap();
    for seed in 0..200 {
        let p = random_position(&g, seed, 3 + (seed % 10) as u32);
        let v = minimax::solve(&g, &p).value;
        let (lo, hi) = mtdf::root_bounds(&g, &p);
        assert!(lo <= v && v <= hi, "{lo} {v} {hi}");
        assert!(lo > -INFINITY && hi < INFINITY);
    }
}

/// The bounds Connect Four's search order states — no win sooner than the stones allow, none
/// without a four still open, the opponent's claimeven strategy on boards of even height, a
/// win the opponent cannot stop settled — hold against the exact value, found by memoised
/// minimax over the plain legal moves, on random positions of boards of even and odd height.
#[test]
fn connect4_static_bounds_hold_against_exact_values() {
    let (mut held_to_draw, mut settled_wins, mut raised_to_win) = (0, 0, 0);
    for (w, h, plies) in [(4, 4, 2), (5, 4, 6), (6, 4, 9), (4, 5, 5), (4, 6, 8)] {
        let g = Connect4::new(w, h).unwrap();
        for seed in 0..150 {
            let p = random_position(&g, seed, plies + (seed % 8) as u32);
            if g.outcome(&p).is_some() {
                continue;
            }
            let exact = memo::solve(&g, &p, 50_000_000).unwrap().value;
            let mut order = Vec::new();
            let (lo, hi) = g.search_moves(&p, &mut order);
            let at = g.show_position(&p);
            assert!(
                lo <= exact && exact <= hi,
                "{w}x{h}: {lo} {exact} {hi}\n{at}"
            );
            if lo == hi {
                assert_eq!(exact, lo, "{w}x{h}\n{at}");
                settled_wins += usize::from(lo > 0 && !order.is_empty());
            } else if hi <= 0 && w * h - p.moves >= 3 {
                held_to_draw += 1;
            }
            // Only a reply's claimeven bound proves a win without settling the value.
            raised_to_win += usize::from(lo > 0 && lo < hi);
        }
    }
    // The new rules were exercised, not only the old loose bounds.
    assert!(
        held_to_draw > 20 && settled_wins > 20 && raised_to_win > 10,
        "{held_to_draw} {settled_wins} {raised_to_win}"
    );
}

/// The search order only lists moves after which the opponent cannot win at once (which lets
/// the search skip that test in the child): checked by playing every reply, unmarked, and
/// asking the full end-of-game test.
#[test]
fn connect4_search_order_never_allows_an_immediate_win() {
    for (w, h) in [(7, 6), (5, 4), (4, 5)] {
        let g = Connect4::new(w, h).unwrap();
        let mut checked = 0;
        for seed in 0..400 {
            let p = random_position(&g, seed, (seed % 30) as u32);
            if g.outcome(&p).is_some() {
                continue;
            }
            let mut order = Vec::new();
            let (lo, hi) = g.search_moves(&p, &mut order);
            if lo == hi {
                continue;
            }
            for &m in &order {
                let child = g.play(&p, m);
                assert!(child.safe);
                let plain = nimbus::sequential::games::connect4::Position {
                    safe: false,
                    ..child
                };
                let mut replies = Vec::new();
                g.moves(&plain, &mut replies);
                for &r in &replies {
                    let after = g.play(&plain, r);
                    assert!(
                        g.outcome(&after).is_none_or(|v| v >= 0),
                        "{w}x{h}: reply {} wins at once after {}",
                        g.show_move(r),
                        g.show_move(m)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}

/// Two Connect Four positions share a table key exactly when they are the same position or
/// reflections of each other, judged on the drawn boards (an independent representation):
/// checked over every pair of a few hundred random early and late positions.
#[test]
fn connect4_keys_fold_reflections_and_nothing_else() {
    for (w, h) in [(7, 6), (5, 4), (6, 5)] {
        let g = Connect4::new(w, h).unwrap();
        let positions: Vec<_> = (0..300)
            .map(|seed| random_position(&g, seed, (seed % 16) as u32))
            .collect();
        let drawn: Vec<String> = positions.iter().map(|p| g.show_position(p)).collect();
        let reflected = |board: &str| -> String {
            let mut lines: Vec<String> = board.lines().map(String::from).collect();
            let labels = lines.pop().unwrap();
            let mut out: Vec<String> = lines
                .iter()
                .map(|l| l.split(' ').rev().collect::<Vec<_>>().join(" "))
                .collect();
            out.push(labels);
            out.join("\n") + "\n"
        };
        let mut folded = 0;
        for i in 0..positions.len() {
            for j in 0..positions.len() {
                let same = drawn[i] == drawn[j] || drawn[i] == reflected(&drawn[j]);
                let shared = g.key(&positions[i]) == g.key(&positions[j]);
                // Only positions with few stones fold their reflection.
                let early = positions[i].moves < 12;
                if same && (early || drawn[i] == drawn[j]) {
                    assert!(shared, "{w}x{h}:\n{}\n{}", drawn[i], drawn[j]);
                } else {
                    assert!(!shared, "{w}x{h}:\n{}\n{}", drawn[i], drawn[j]);
                }
                folded += usize::from(shared && drawn[i] != drawn[j]);
            }
        }
        assert!(folded > 0, "{w}x{h}: no reflected pair met");
    }
}

/// Multi-heap Nim for the impartial engine, independent of the sequential ruleset.
struct ImpartialNim;
impl nimbus::impartial::Impartial for ImpartialNim {
    type Position = Vec<u32>;
    fn moves(&self, p: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        for (i, &h) in p.iter().enumerate() {
            for to in 0..h {
                let mut q = p.clone();
                q[i] = to;
                out.push(q);
            }
        }
    }
}

#[test]
fn sequential_nim_agrees_with_the_impartial_engine() {
    let mut engine = nimbus::impartial::Engine::hashed(
        &ImpartialNim,
        nimbus::core::budget::Limits::default(),
        "nim",
    );
    for seed in 0..40u64 {
        let heaps: Vec<u32> = (0..3).map(|i| ((seed * 7 + i * 3) % 5) as u32).collect();
        let nim = Nim::new(heaps.clone());
        let limits = SearchLimits {
            table_bits: 12,
            ..SearchLimits::default()
        };
        let value = nimbus::sequential::search::search(
            &nim,
            &nim.start(),
            nimbus::sequential::search::Method::Memo,
            &limits,
            u64::MAX,
        )
        .unwrap()
        .value;
        let grundy = engine.grundy(&heaps).unwrap();
        assert_eq!(value == 1, grundy != 0, "{heaps:?}");
        // The winning first moves are exactly the moves to P-positions.
        let best = minimax::solve(&nim, &nim.start()).best_moves;
        if value == 1 {
            for m in best {
                let after = nim.play(&nim.start(), m).heaps;
                assert_eq!(engine.grundy(&after).unwrap(), 0, "{heaps:?} -> {after:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Each move's score (the front door's `scores`) is its reward less plain minimax's
    /// value of the position it leads to, and the best moves are those of the best score.
    #[test]
    fn move_scores_match_minimax_of_each_child(seed in any::<u64>(), plies in 0u32..7) {
        let g = TicTacToe;
        let (p, line) = random_line(&g, seed, plies);
        // The position as the front door reads it: the moves from the start.
        let position: String = line.iter().map(|&m| g.show_move(m)).collect();
        let mut moves = Vec::new();
        let req = nimbus::api::solve::Request {
            position: Some(position),
            scores: true,
            ..Default::default()
        };
        let nimbus::api::solve::Answer::Search(s) = nimbus::api::solve::solve("tictactoe", &req).unwrap() else {
            panic!("a position's answer is a search");
        };
        let scores = s.scores.unwrap();
        moves.clear();
        if g.outcome(&p).is_none() {
            g.moves(&p, &mut moves);
        }
        prop_assert_eq!(scores.len(), moves.len());
        for (score, &m) in scores.iter().zip(&moves) {
            prop_assert_eq!(&score.mv, &g.show_move(m));
            let child = minimax::solve(&g, &g.play(&p, m));
            prop_assert_eq!(score.value, g.reward(&p, m) - child.value);
        }
        if let Some(best) = scores.iter().map(|x| x.value).max() {
            prop_assert_eq!(best, s.value);
            let at_best: Vec<_> = scores.iter().filter(|x| x.value == best).map(|x| x.mv.clone()).collect();
            let mut listed = s.best_moves.clone();
            listed.sort();
            let mut at_best = at_best;
            at_best.sort();
            prop_assert_eq!(listed, at_best);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Connect Four's search, with everything that makes it fast — a table that starts tiny
    /// and grows mid-search, reflections sharing a key, children looked up before they are
    /// searched, the threat-first order — scores positions as memoised minimax over the
    /// plain moves does; and a second position after a reset (the table shrunk back) too.
    #[test]
    fn connect4_search_with_a_growing_table_matches_memoised_minimax(
        seed in any::<u64>(),
        board in 0usize..3,
        plies in 3u32..12,
    ) {
        let (w, h) = [(4, 4), (5, 4), (4, 5)][board];
        let g = Connect4::new(w, h).unwrap();
        let limits = SearchLimits {
            table_bits: 6,
            grow_to_bits: Some(12),
            ..SearchLimits::default()
        };
        let mut s = alphabeta::Searcher::new(&g, &limits);
        for k in 0..2 {
            let p = random_position(&g, seed.wrapping_add(k), plies + 2 * k as u32);
            if g.outcome(&p).is_some() {
                continue;
            }
            let exact = memo::explore(&g, &p, 50_000_000).unwrap().value(&p).unwrap();
            s.reset();
            prop_assert_eq!(g.score(&mut s, &p), Some(exact), "{}x{} {:?}", w, h, p);
        }
    }
}

/// Steininger's table of who wins each board with width + height ≤ 14 and on which move the
/// game ends (data/connect4/boards.txt, with its source): (width, height, winner, last move).
fn steininger_boards() -> Vec<(u32, u32, i32, u32)> {
    let path = format!(
        "{}/../../data/connect4/boards.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<i64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (f[0] as u32, f[1] as u32, f[2] as i32, f[3] as u32)
        })
        .collect()
}

/// The boards of that table with width + height ≤ 10 (the rest take from seconds to
/// minutes: `bench/connect4_boards.sh`), solved from the empty board by the search: the
/// winner and the move on which the game ends.
#[test]
fn connect4_small_boards_end_where_steininger_says() {
    let boards = steininger_boards();
    assert_eq!(boards.len(), 28);
    let mut checked = 0;
    for &(w, h, winner, last) in boards.iter().filter(|b| b.0 + b.1 <= 10) {
        let g = Connect4::new(w, h).unwrap();
        let mut s = alphabeta::Searcher::new(&g, &SearchLimits::default());
        let start = g.start();
        let v = g.score(&mut s, &start).unwrap();
        assert_eq!(
            (v.signum() as i32, g.plies_to_end(&start, v)),
            (winner, last),
            "{w}x{h}"
        );
        checked += 1;
    }
    assert_eq!(checked, 6);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// A race of one to three helper threads through a shared table (lazy SMP) scores what
    /// memoised minimax does, whoever finishes first; and the table the race leaves behind
    /// still serves a plain search of the next position.
    #[test]
    fn connect4_parallel_race_matches_memoised_minimax(
        seed in any::<u64>(),
        board in 0usize..3,
        plies in 3u32..10,
        helpers in 1usize..4,
    ) {
        let (w, h) = [(4, 4), (5, 4), (4, 5)][board];
        let g = Connect4::new(w, h).unwrap();
        let limits = SearchLimits { table_bits: 8, ..SearchLimits::default() };
        let mut s = alphabeta::Searcher::new(&g, &limits);
        for k in 0..2u64 {
            let p = random_position(&g, seed.wrapping_add(k), plies + 2 * k as u32);
            if g.outcome(&p).is_some() {
                continue;
            }
            let exact = memo::explore(&g, &p, 50_000_000).unwrap().value(&p).unwrap();
            s.reset();
            let raced = nimbus::sequential::search::parallel::race(&mut s, helpers, &|s| g.score(s, &p));
            prop_assert_eq!(raced, Some(exact), "{}x{} {:?}", w, h, p);
            prop_assert!(!s.stopped());
            s.reset();
            prop_assert_eq!(g.score(&mut s, &p), Some(exact));
        }
    }
}
