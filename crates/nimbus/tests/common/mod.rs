//! An independent reference for tests: sums of small graph and subtraction games searched
//! position by position, straight from the definitions (recursion is fine at these sizes).

#![allow(dead_code)]

use nimbus::impartial::component::{Component, Positioned, Ruleset};
use nimbus::impartial::games::digraph::{Graph, Tokens};
use nimbus::impartial::games::heap::Heaps;
use nimbus::impartial::games::subtraction::Subtraction;
use nimbus::impartial::Impartial;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

pub enum Part {
    Graph(Rc<Tokens>),
    Sub(Rc<Heaps<Subtraction>>),
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Pos {
    Graph(Vec<u32>),
    Sub(Vec<u64>),
}

pub struct Brute {
    pub parts: Vec<Part>,
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
    pub memo: HashMap<Vec<Pos>, (bool, u64)>,
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

    pub fn expression(&self, s: &[Pos]) -> String {
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

    pub fn successors(&self, s: &[Pos]) -> Vec<Vec<Pos>> {
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
    pub fn solve(&mut self, s: &[Pos]) -> (bool, u64) {
        if let Some(&r) = self.memo.get(s) {
            return r;
        }
        let results: Vec<(bool, u64)> = self.successors(s).iter().map(|t| self.solve(t)).collect();
        let r = if results.is_empty() {
            (self.misere, 0)
        } else if let Some(m) = results.iter().filter(|r| !r.0).map(|r| r.1).min() {
            (true, m + 1)
        } else {
            (false, results.iter().map(|r| r.1).max().unwrap() + 1)
        };
        self.memo.insert(s.to_vec(), r);
        r
    }
}

pub fn graph_text(n: usize, bits: &[bool]) -> String {
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
pub enum Spec {
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

pub fn spec() -> impl Strategy<Value = Spec> {
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

/// The components of `specs` for the library, and the same sum for [`Brute`].
pub fn build(specs: &[Spec], misere: bool) -> (Vec<Box<dyn Component>>, Brute, Vec<Pos>) {
    let mut parts = Vec::new();
    let mut components: Vec<Box<dyn Component>> = Vec::new();
    let mut start = Vec::new();
    for (i, s) in specs.iter().enumerate() {
        match s {
            Spec::Graph { n, bits, token } => {
                let text = graph_text(*n, bits);
                let g = Rc::new(Tokens::new(
                    Graph::parse(&format!("g{i}.txt"), &text).unwrap(),
                ));
                let pos = vec![*token as u32];
                components.push(Box::new(Positioned::new(g.clone(), pos.clone())));
                parts.push(Part::Graph(g));
                start.push(Pos::Graph(pos));
            }
            Spec::Sub { set, heap } => {
                let rule = Subtraction::Finite(set.iter().copied().collect());
                let g = Rc::new(Heaps::new(rule));
                let pos = vec![*heap];
                components.push(Box::new(Positioned::new(g.clone(), pos.clone())));
                parts.push(Part::Sub(g));
                start.push(Pos::Sub(pos));
            }
        }
    }
    let brute = Brute {
        parts,
        misere,
        memo: HashMap::new(),
    };
    (components, brute, start)
}

/// The results (whole sums, in the grammar) of the winning moves, by brute force.
pub fn winning_results(brute: &mut Brute, start: &[Pos]) -> BTreeSet<String> {
    let mut expected = BTreeSet::new();
    for t in brute.successors(start) {
        if !brute.solve(&t).0 {
            expected.insert(brute.expression(&t));
        }
    }
    expected
}
