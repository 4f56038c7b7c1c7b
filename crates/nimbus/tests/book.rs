//! Connect Four's opening book against two independent methods: on boards small enough to
//! solve strongly, every position it stores has the score whose result and distance the
//! retrograde solver gives, and each move's score it answers is the one that solver gives the
//! move; on random positions, each move's score is the search's.

use nimbus::sequential::games::connect4::{book::Book, Connect4, Position};
use nimbus::sequential::search::alphabeta::Searcher;
use nimbus::sequential::strong::retrograde::{self as solve, Solved};
use nimbus::sequential::{Game, SearchLimits, Value};
use proptest::prelude::*;

fn small() -> SearchLimits {
    SearchLimits {
        table_bits: 16,
        ..SearchLimits::default()
    }
}

/// Whether the score `v` of `p` is the retrograde result `r`: its sign, and the plies to the
/// end it implies.
fn agrees(g: &Connect4, p: &Position, v: Value, r: Solved) -> bool {
    match r {
        Solved::Win(n) => v > 0 && g.plies_to_end(p, v) == n,
        Solved::Loss(n) => v < 0 && g.plies_to_end(p, v) == n,
        Solved::Draw => v == 0,
    }
}

#[test]
fn every_stored_score_is_the_retrograde_result() {
    for (w, h, depth) in [(4, 4, 8), (5, 4, 6), (4, 5, 5)] {
        let g = Connect4::new(w, h).unwrap();
        let strong = solve::solve(&g, "c4", u64::MAX, u64::MAX, &|_| {}).unwrap();
        let book = Book::build(&g, depth, &small(), u64::MAX, u64::MAX)
            .unwrap()
            .book;
        let mut stack = vec![g.start()];
        let mut checked = 0;
        while let Some(p) = stack.pop() {
            let v = book
                .score(&g, &p)
                .expect("every position up to the depth is stored");
            let r = strong.get(&g, &p).expect("reachable");
            assert!(agrees(&g, &p, v, r), "{w}x{h} {p:?}: {v} against {r:?}");
            checked += 1;
            if p.moves == depth {
                assert!(
                    book.moves(&g, &p).is_none() || {
                        // Only when every move ends the game.
                        let mut ms = Vec::new();
                        g.moves(&p, &mut ms);
                        ms.iter().all(|&m| g.outcome(&g.play(&p, m)).is_some())
                    }
                );
                continue;
            }
            let answered = book
                .moves(&g, &p)
                .expect("a position above the depth is answered");
            let mut ms = Vec::new();
            g.moves(&p, &mut ms);
            assert_eq!(answered.len(), ms.len());
            for (c, v) in answered {
                let q = g.play(&p, c);
                let want = match g.outcome(&q) {
                    Some(end) => -end,
                    None => -book.score(&g, &q).unwrap(),
                };
                assert_eq!(v, want);
                if g.outcome(&q).is_none() {
                    // The move's score for the mover is minus the child's, whose result the
                    // retrograde solver gives.
                    let r = strong.get(&g, &q).unwrap();
                    assert!(agrees(&g, &q, -v, r), "{w}x{h} move {c}: {v} against {r:?}");
                    stack.push(q);
                }
            }
        }
        assert!(
            checked >= book.len(),
            "{w}x{h}: {checked} of {}",
            book.len()
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On a board too large for the retrograde solver's tests, each move's score the book
    /// answers is the search's score of the move.
    #[test]
    fn each_move_is_scored_as_the_search_scores_it(walk in proptest::collection::vec(0u32..6, 0..4)) {
        use std::sync::OnceLock;
        static BOOK: OnceLock<(Connect4, Book)> = OnceLock::new();
        let (g, book) = BOOK.get_or_init(|| {
            let g = Connect4::new(6, 4).unwrap();
            let book = Book::build(&g, 4, &small(), u64::MAX, u64::MAX).unwrap().book;
            (g, book)
        });
        let mut p = g.start();
        for c in walk {
            if g.outcome(&p).is_some() || !g.can_play(&p, c) {
                break;
            }
            p = g.drop_stone(&p, c);
        }
        prop_assume!(g.outcome(&p).is_none());
        let answered = book.moves(g, &p).expect("fewer stones than the depth");
        for (c, v) in answered {
            let q = g.drop_stone(&p, c.into());
            let want = match g.outcome(&q) {
                Some(end) => -end,
                None => -g.score(&mut Searcher::new(g, &small()), &q).unwrap(),
            };
            prop_assert_eq!(v, want, "column {}", c);
        }
    }
}

/// The 7 × 6 book the repository carries (data/connect4, made by `--book 2`): it reads back,
/// answers the empty board as published (the first player wins on move 41, only in the
/// centre), and each stored score above its deepest level is the best of its moves'.
#[test]
fn the_carried_7x6_book_agrees_with_the_published_result() {
    let path = format!(
        "{}/../../data/connect4/opening-7x6-2.book",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap();
    let body = nimbus::core::sealed::unseal(&bytes, &path).unwrap();
    let g = Connect4::standard();
    let book = Book::from_bytes(body, &g, &path).unwrap();
    assert_eq!((book.depth(), book.len()), (2, 30));
    let start = g.start();
    let v = book.score(&g, &start).unwrap();
    assert_eq!((v, g.plies_to_end(&start, v)), (1, 41));
    let moves = book.moves(&g, &start).unwrap();
    let winning: Vec<u8> = moves.iter().filter(|m| m.1 > 0).map(|m| m.0).collect();
    assert_eq!(
        winning,
        vec![3],
        "only the centre (column 4, 0-based 3) wins"
    );
    for (c, _) in moves {
        let p = g.play(&start, c);
        let best = book.moves(&g, &p).unwrap().iter().map(|m| m.1).max();
        assert_eq!(book.score(&g, &p), best);
    }
}
