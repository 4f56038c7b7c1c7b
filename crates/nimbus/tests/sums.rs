//! Random sums of random small games (DAG games and subtraction games) against a brute-force
//! search of the whole sum's game graph: the outcome, the set of winning moves and the
//! remoteness must agree.

use nimbus::impartial::component::{Component, Positioned, Ruleset};
use nimbus::impartial::games::digraph::{Graph, Tokens};
use nimbus::impartial::games::heap::Heaps;
use nimbus::impartial::games::subtraction::Subtraction;
use nimbus::impartial::sum::{analyze, AnalyzeOptions};
use nimbus::impartial::{Impartial, Outcome};
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

enum Part {
    Graph(Rc<Tokens>),
    Sub(Rc<Heaps<Subtraction>>),
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Pos {
    Graph(Vec<u32>),
    Sub(Vec<u64>),
}

struct Brute {
    parts: Vec<Part>,
    memo: HashMap<Vec<Pos>, (bool, u64)>,
}

impl Brute {
    fn options(&self, i: usize, p: &Pos) -> Vec<Pos> {
        match (&self.parts[i], p) {
            (Part::Graph(g), Pos::Graph(v)) => {
                let mut out = Vec::new();
                g.moves(v, &mut out);
                out.into_iter().map(Pos::Graph).collect()
            }
            (Part::Sub(g), Pos::Sub(v)) => {
                let mut out = Vec::new();
                g.moves(v, &mut out);
                out.into_iter().map(Pos::Sub).collect()
            }
            _ => unreachable!(),
        }
    }

    fn expression(&self, s: &[Pos]) -> String {
        s.iter()
            .enumerate()
            .map(|(i, p)| match (&self.parts[i], p) {
                (Part::Graph(g), Pos::Graph(v)) => g.expression(v),
                (Part::Sub(g), Pos::Sub(v)) => g.expression(v),
                _ => unreachable!(),
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }

    fn successors(&self, s: &[Pos]) -> Vec<Vec<Pos>> {
        let mut out = Vec::new();
        for i in 0..s.len() {
            for q in self.options(i, &s[i]) {
                let mut t = s.to_vec();
                t[i] = q;
                out.push(t);
            }
        }
        out
    }

    /// (the player to move wins, remoteness), by the definitions, on the sum itself.
    fn solve(&mut self, s: &[Pos]) -> (bool, u64) {
        if let Some(&r) = self.memo.get(s) {
            return r;
        }
        let results: Vec<(bool, u64)> = self.successors(s).iter().map(|t| self.solve(t)).collect();
        let r = if results.is_empty() {
            (false, 0)
        } else if let Some(m) = results.iter().filter(|r| !r.0).map(|r| r.1).min() {
            (true, m + 1)
        } else {
            (false, results.iter().map(|r| r.1).max().unwrap() + 1)
        };
        self.memo.insert(s.to_vec(), r);
        r
    }
}

fn graph_text(n: usize, bits: &[bool]) -> String {
    let mut text = String::new();
    let mut k = 0;
    for i in 0..n {
        text.push_str(&format!("n{i}\n"));
        for j in i + 1..n {
            if bits[k % bits.len()] {
                text.push_str(&format!("n{i} n{j}\n"));
            }
            k += 1;
        }
    }
    text
}

#[derive(Debug, Clone)]
enum Spec {
    Graph {
        n: usize,
        bits: Vec<bool>,
        token: usize,
    },
    Sub {
        set: BTreeSet<u64>,
        heap: u64,
    },
}

fn spec() -> impl Strategy<Value = Spec> {
    prop_oneof![
        (
            2usize..8,
            prop::collection::vec(any::<bool>(), 1..30),
            0usize..8
        )
            .prop_map(|(n, bits, t)| Spec::Graph {
                n,
                bits,
                token: t % n
            }),
        (prop::collection::btree_set(1u64..6, 1..4), 0u64..14)
            .prop_map(|(set, heap)| Spec::Sub { set, heap }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn sums_agree_with_brute_force(specs in prop::collection::vec(spec(), 1..4)) {
        let mut parts = Vec::new();
        let mut components: Vec<Box<dyn Component>> = Vec::new();
        let mut start = Vec::new();
        for (i, s) in specs.iter().enumerate() {
            match s {
                Spec::Graph { n, bits, token } => {
                    let g = Rc::new(Tokens::new(Graph::parse(&format!("g{i}.txt"), &graph_text(*n, bits)).unwrap()));
                    let pos = vec![*token as u32];
                    components.push(Box::new(Positioned::new(g.clone(), pos.clone())));
                    parts.push(Part::Graph(g));
                    start.push(Pos::Graph(pos));
                }
                Spec::Sub { set, heap } => {
                    let g = Rc::new(Heaps::new(Subtraction::Finite(set.iter().copied().collect())));
                    let pos = vec![*heap];
                    components.push(Box::new(Positioned::new(g.clone(), pos.clone())));
                    parts.push(Part::Sub(g));
                    start.push(Pos::Sub(pos));
                }
            }
        }
        let opts = AnalyzeOptions { max_moves: usize::MAX, ..AnalyzeOptions::default() };
        let a = analyze(&components, &opts).unwrap();

        let mut brute = Brute { parts, memo: HashMap::new() };
        let (wins, remoteness) = brute.solve(&start);
        prop_assert_eq!(a.outcome == Outcome::N, wins);
        prop_assert_eq!(a.remoteness, Some(remoteness));
        let mut expected = BTreeSet::new();
        for t in brute.successors(&start) {
            if !brute.solve(&t).0 {
                expected.insert(brute.expression(&t));
            }
        }
        let got: BTreeSet<String> = a.winning_moves.iter().map(|m| m.result.clone()).collect();
        prop_assert_eq!(got, expected);
        prop_assert_eq!(a.winning_moves_total, a.winning_moves.len());
    }
}
