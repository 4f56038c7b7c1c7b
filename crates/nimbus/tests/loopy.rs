//! Games with cycles: sums decided by the generalised Sprague–Grundy function against a naive
//! win/loss/draw fixpoint on the whole product graph, and retrograde remoteness against its
//! round-by-round definition.

use nimbus::core::budget::Limits;
use nimbus::impartial::analysis::{AnalyzeOptions, WinningMove};
use nimbus::impartial::component::{Component, Positioned};
use nimbus::impartial::explicit::ExplicitGame;
use nimbus::impartial::games::digraph::{Graph, Tokens};
use nimbus::impartial::loopy::{retrograde, Wld};
use nimbus::impartial::misere::{analyze_misere, MisereOptions, MisereResult};
use nimbus::impartial::sum::analyze;
use nimbus::impartial::Outcome;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// A random graph on `n` nodes (cycles, self-loops and parallel edges allowed).
fn graph_text(n: usize, edges: &[(usize, usize)]) -> String {
    let mut text: String = (0..n).map(|i| format!("v{i}\n")).collect();
    for &(a, b) in edges {
        text.push_str(&format!("v{} v{}\n", a % n, b % n));
    }
    text
}

/// W/L/D of every product position by plain fixpoint iteration (no queue, no order); under
/// misère play a position without moves is a win.
fn naive_wld(
    succ: &dyn Fn(&Vec<u32>) -> Vec<Vec<u32>>,
    start: &[u32],
    misere: bool,
) -> HashMap<Vec<u32>, Wld> {
    let mut all = vec![start.to_vec()];
    let mut seen: BTreeSet<Vec<u32>> = [start.to_vec()].into();
    let mut i = 0;
    while i < all.len() {
        for q in succ(&all[i]) {
            if seen.insert(q.clone()) {
                all.push(q);
            }
        }
        i += 1;
    }
    let mut val: HashMap<Vec<u32>, Wld> = HashMap::new();
    loop {
        let mut changed = false;
        for p in &all {
            if val.contains_key(p) {
                continue;
            }
            let opts = succ(p);
            let v = if opts.is_empty() {
                Some(if misere { Wld::Win } else { Wld::Loss })
            } else if opts.iter().any(|q| val.get(q) == Some(&Wld::Loss)) {
                Some(Wld::Win)
            } else if opts.iter().all(|q| val.get(q) == Some(&Wld::Win)) {
                Some(Wld::Loss)
            } else {
                None
            };
            if let Some(v) = v {
                val.insert(p.clone(), v);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for p in all {
        val.entry(p).or_insert(Wld::Draw);
    }
    val
}

fn edges() -> impl Strategy<Value = (usize, Vec<(usize, usize)>)> {
    (
        1usize..7,
        prop::collection::vec((0usize..7, 0usize..7), 0..14),
    )
}

/// What a sum analysis reports, for comparison with the truth.
struct Reported {
    outcome: Outcome,
    winning: Vec<String>,
    drawing: Vec<String>,
}

/// Builds token games on random graphs, asks `analyze` (normal or misère), and compares its
/// outcome and its winning (or, from a draw, drawing) moves with a naive fixpoint on the whole
/// product graph.
fn check_against_product(
    graphs: &[(usize, Vec<(usize, usize)>)],
    tokens: &[usize],
    misere: bool,
) -> Result<(), TestCaseError> {
    let mut components: Vec<Box<dyn Component>> = Vec::new();
    let mut parsed = Vec::new();
    let mut start = Vec::new();
    for (i, (n, es)) in graphs.iter().enumerate() {
        let g = Graph::parse(&format!("g{i}.txt"), &graph_text(*n, es)).unwrap();
        let t = g.node(&format!("v{}", tokens[i] % n)).unwrap();
        components.push(Box::new(Positioned::new(
            Rc::new(Tokens::new(g.clone())),
            vec![t],
        )));
        parsed.push(g);
        start.push(t);
    }
    let results = |m: &[WinningMove]| m.iter().map(|m| m.result.clone()).collect();
    let a = if misere {
        let opts = MisereOptions {
            limits: Limits::default(),
            max_moves: usize::MAX,
            rule: None,
        };
        let MisereResult::Answer(a) = analyze_misere(&components, &opts).unwrap() else {
            panic!("no rule was asked for, so nothing is refused");
        };
        Reported {
            outcome: a.outcome,
            winning: results(&a.winning_moves),
            drawing: results(&a.drawing_moves),
        }
    } else {
        let opts = AnalyzeOptions {
            max_moves: usize::MAX,
            ..AnalyzeOptions::default()
        };
        let a = analyze(&components, &opts).unwrap();
        Reported {
            outcome: a.outcome,
            winning: results(&a.winning_moves),
            drawing: results(&a.drawing_moves),
        }
    };
    let succ = |p: &Vec<u32>| -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for (i, g) in parsed.iter().enumerate() {
            for &w in g.successors(p[i]) {
                let mut q = p.clone();
                q[i] = w;
                out.push(q);
            }
        }
        out
    };
    let truth = naive_wld(&succ, &start, misere);
    let expected: Outcome = truth[&start].into();
    prop_assert_eq!(a.outcome, expected);
    // The winning moves (or, from a draw, the drawing moves) are exactly the moves to
    // positions lost (drawn) for the opponent.
    let want = match truth[&start] {
        Wld::Win => Some(Wld::Loss),
        Wld::Draw => Some(Wld::Draw),
        Wld::Loss => None,
    };
    let name = |q: &Vec<u32>| -> String {
        q.iter()
            .enumerate()
            .map(|(i, &v)| format!("graph g{i}.txt @{}", parsed[i].name(v)))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let expected_moves: BTreeSet<String> = match want {
        None => BTreeSet::new(),
        Some(w) => succ(&start)
            .into_iter()
            .filter(|q| truth[q] == w)
            .map(|q| name(&q))
            .collect(),
    };
    let listed = if truth[&start] == Wld::Draw {
        a.drawing
    } else {
        a.winning
    };
    prop_assert_eq!(
        listed.into_iter().collect::<BTreeSet<String>>(),
        expected_moves
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn loopy_sums_agree_with_the_product_graph(
        graphs in prop::collection::vec(edges(), 1..4),
        tokens in prop::collection::vec(0usize..7, 3),
    ) {
        check_against_product(&graphs, &tokens, false)?;
    }

    #[test]
    fn misere_loopy_sums_agree_with_the_product_graph(
        graphs in prop::collection::vec(edges(), 1..4),
        tokens in prop::collection::vec(0usize..7, 3),
    ) {
        check_against_product(&graphs, &tokens, true)?;
    }

    #[test]
    fn retrograde_remoteness_matches_its_definition((n, es) in edges()) {
        let mut lists = vec![Vec::new(); n];
        for &(a, b) in &es {
            lists[a % n].push((b % n) as u32);
        }
        let g = ExplicitGame::from_lists(&lists);
        let r = retrograde(&g);
        // Round t settles the losses whose options are all wins settled before, the last at
        // t - 1, and the wins with a loss settled at t - 1.
        let mut known: Vec<Option<(Wld, u64)>> = vec![None; n];
        for t in 0..=(2 * n as u64 + 2) {
            let snapshot = known.clone();
            for v in 0..n {
                if snapshot[v].is_some() {
                    continue;
                }
                let opts: Vec<Option<(Wld, u64)>> = lists[v].iter().map(|&w| snapshot[w as usize]).collect();
                if t == 0 {
                    if opts.is_empty() {
                        known[v] = Some((Wld::Loss, 0));
                    }
                    continue;
                }
                if opts.iter().any(|o| *o == Some((Wld::Loss, t - 1))) {
                    known[v] = Some((Wld::Win, t));
                } else if !opts.is_empty()
                    && opts.iter().all(|o| matches!(o, Some((Wld::Win, _))))
                    && opts.iter().any(|o| *o == Some((Wld::Win, t - 1)))
                {
                    known[v] = Some((Wld::Loss, t));
                }
            }
        }
        for (v, k) in known.iter().enumerate() {
            match *k {
                Some((w, t)) => prop_assert_eq!((r.outcome[v], r.remoteness[v]), (w, t), "node {}", v),
                None => prop_assert_eq!(r.outcome[v], Wld::Draw, "node {}", v),
            }
        }
    }
}

#[test]
fn infinite_values_show_their_follower_set() {
    // e passes or ends the game: ∞ with the finite value 0 among its options, an N-position.
    let g = Graph::parse("loopy.txt", "a b\nb a\nb c\nc d\ne e\ne d\n").unwrap();
    let game = Rc::new(Tokens::new(g.clone()));
    let at = |n: &str| -> Box<dyn Component> {
        Box::new(Positioned::new(game.clone(), vec![g.node(n).unwrap()]))
    };
    let a = analyze(&[at("e")], &AnalyzeOptions::default()).unwrap();
    assert_eq!(a.gamma.as_deref(), Some("∞{0}"));
    assert_eq!(a.outcome, Outcome::N);
    // Two infinities draw.
    let a = analyze(&[at("e"), at("e")], &AnalyzeOptions::default()).unwrap();
    assert_eq!(a.outcome, Outcome::D);
}
