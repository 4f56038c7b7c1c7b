//! Games on a directed graph read from a file: tokens sit on nodes, a move slides one token
//! along one edge, and a player who cannot move loses. Every impartial game is one of these
//! (its positions are the nodes), which is how textbooks introduce the Sprague–Grundy
//! function.
//!
//! File format: one edge `u v` per line (a line with one name declares a node with no edges),
//! `#` starts a comment, blank lines are ignored. Node names are integers or identifiers made
//! of letters, digits, `_`, `-` and `.`. Self-loops and parallel edges are accepted; a cycle
//! reachable from a token is reported (with the cycle) by the engine, never looped on.

use crate::core::budget::Limits;
use crate::core::error::{Error, Result, Span};
use crate::impartial::component::Ruleset;
use crate::impartial::explicit::{explore_numbered, ExplicitGame};
use crate::impartial::grundy::Engine;
use crate::impartial::{Impartial, Indexed};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// A directed graph with named nodes.
#[derive(Debug, Clone)]
pub struct Graph {
    /// The file it came from, as the user wrote it.
    pub path: String,
    names: Vec<String>,
    ids: FxHashMap<String, u32>,
    edges: ExplicitGame,
}

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl Graph {
    /// Parses a graph from `text`; `path` names it in errors.
    pub fn parse(path: &str, text: &str) -> Result<Graph> {
        // Names are borrowed from the text while reading, and edges kept as flat pairs: a file
        // of 10^7 edges would otherwise spend most of its time allocating.
        let mut ids: FxHashMap<&str, u32> = FxHashMap::default();
        let mut order: Vec<&str> = Vec::new();
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        fn id_of<'t>(
            name: &'t str,
            ids: &mut FxHashMap<&'t str, u32>,
            order: &mut Vec<&'t str>,
        ) -> u32 {
            let next = order.len() as u32;
            *ids.entry(name).or_insert_with(|| {
                order.push(name);
                next
            })
        }
        for (ln, raw) in text.lines().enumerate() {
            let line = raw.find('#').map_or(raw, |i| &raw[..i]);
            // Columns are counted only for an error: files may have millions of lines.
            let span = |word: &str| Span {
                source: path.to_string(),
                line: ln + 1,
                column: line[..word.as_ptr() as usize - line.as_ptr() as usize]
                    .chars()
                    .count()
                    + 1,
            };
            let mut words = line.split_whitespace();
            let (u, v, extra) = (words.next(), words.next(), words.next());
            for w in [u, v].into_iter().flatten() {
                if !valid_name(w) {
                    return Err(Error::parse(
                        span(w),
                        format!("'{w}' is not a node name (use letters, digits, '_', '-', '.')"),
                    ));
                }
            }
            if let Some(w) = extra {
                return Err(Error::parse(
                    span(w),
                    format!("expected one edge 'u v' per line, found a third name '{w}'"),
                ));
            }
            match (u, v) {
                (Some(u), Some(v)) => {
                    let a = id_of(u, &mut ids, &mut order);
                    let b = id_of(v, &mut ids, &mut order);
                    pairs.push((a, b));
                }
                (Some(u), None) => {
                    id_of(u, &mut ids, &mut order);
                }
                _ => {}
            }
        }
        let n = order.len();
        if n >= u32::MAX as usize || pairs.len() >= u32::MAX as usize {
            return Err(Error::Invalid(format!("{path}: too many nodes or edges")));
        }
        // Compressed rows by counting sort, keeping each node's edges in file order.
        let mut offsets = vec![0u32; n + 1];
        for &(a, _) in &pairs {
            offsets[a as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut succ = vec![0u32; pairs.len()];
        for &(a, b) in &pairs {
            succ[fill[a as usize] as usize] = b;
            fill[a as usize] += 1;
        }
        let names: Vec<String> = order.iter().map(|s| s.to_string()).collect();
        let ids = ids.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        Ok(Graph {
            path: path.to_string(),
            names,
            ids,
            edges: ExplicitGame::from_csr(offsets, succ),
        })
    }

    /// Reads and parses the graph file at `path`.
    pub fn read(path: &str) -> Result<Graph> {
        Graph::parse(path, &crate::core::input::read_text(path)?)
    }

    /// The node called `name`.
    pub fn node(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// The names of all nodes, in order of first appearance.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The name of node `v`.
    pub fn name(&self, v: u32) -> &str {
        &self.names[v as usize]
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The successors of `v`.
    pub fn successors(&self, v: u32) -> &[u32] {
        self.edges.options(v)
    }
}

impl Impartial for Graph {
    type Position = u32;
    fn moves(&self, p: &u32, out: &mut Vec<u32>) {
        out.extend_from_slice(self.successors(*p));
    }
    fn show(&self, p: &u32) -> String {
        self.name(*p).to_string()
    }
}

impl Indexed for Graph {
    fn size(&self) -> usize {
        self.len()
    }
    fn index(&self, p: &u32) -> usize {
        *p as usize
    }
}

/// Tokens on a graph: the [`Ruleset`] of graph games. A position is the token nodes.
pub struct Tokens {
    /// The graph.
    pub graph: Graph,
    /// Grundy values found so far (`u64::MAX`: not yet known).
    values: RefCell<Vec<u64>>,
}

impl Tokens {
    /// The game of tokens on `graph`.
    pub fn new(graph: Graph) -> Self {
        let n = graph.len();
        Tokens {
            graph,
            values: RefCell::new(vec![u64::MAX; n]),
        }
    }

    /// The Grundy value of the single token position `v`, searching the graph from `v` on first
    /// use (and keeping every value found).
    pub fn node_value(&self, v: u32, limits: Limits) -> Result<u64> {
        let known = self.values.borrow()[v as usize];
        if known != u64::MAX {
            return Ok(known);
        }
        let what = format!("the graph {}", self.graph.path);
        let mut engine = Engine::indexed(&self.graph, limits, what)?;
        let g = engine.grundy(&v)?;
        let mut values = self.values.borrow_mut();
        for (u, slot) in values.iter_mut().enumerate() {
            if let Some(e) = engine.known(&(u as u32)) {
                *slot = e.grundy;
            }
        }
        Ok(g)
    }
}

impl Impartial for Tokens {
    type Position = Vec<u32>;
    fn cost(&self, p: &Self::Position) -> u64 {
        crate::impartial::parts_cost(p.len())
    }

    fn moves(&self, p: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        for (i, &v) in p.iter().enumerate() {
            for &w in self.graph.successors(v) {
                let mut q = p.clone();
                q[i] = w;
                out.push(q);
            }
        }
    }
    fn show(&self, p: &Vec<u32>) -> String {
        self.expression(p)
    }
}

impl Ruleset for Tokens {
    fn name(&self) -> String {
        format!("graph {}", self.graph.path)
    }
    fn expression(&self, p: &Vec<u32>) -> String {
        let mut s = self.name();
        for &v in p {
            s.push_str(" @");
            s.push_str(self.graph.name(v));
        }
        s
    }
    fn describe(&self, from: &Vec<u32>, to: &Vec<u32>) -> String {
        let i = (0..from.len()).find(|&i| from[i] != to[i]).unwrap_or(0);
        let (a, b) = (self.graph.name(from[i]), self.graph.name(to[i]));
        if from.len() > 1 {
            format!("move token {} from {a} to {b}", i + 1)
        } else {
            format!("move the token from {a} to {b}")
        }
    }
    fn closed_grundy(&self, p: &Vec<u32>, limits: Limits) -> Result<Option<u64>> {
        let mut g = 0;
        for &v in p {
            g ^= self.node_value(v, limits)?;
        }
        Ok(Some(g))
    }
    fn explore_fast(
        &self,
        p: &Vec<u32>,
        limits: Limits,
    ) -> Result<Option<(ExplicitGame, Vec<Vec<u32>>)>> {
        let &[start] = p.as_slice() else {
            return Ok(None);
        };
        let (graph, order) = explore_numbered(
            start,
            |v, out| out.extend_from_slice(self.graph.successors(v)),
            limits,
            &format!("the graph {}", self.graph.path),
        )?;
        let positions = order.into_iter().map(|v| vec![v]).collect();
        Ok(Some((graph, positions)))
    }

    fn atoms(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
        p.iter().map(|&v| vec![v]).collect()
    }
    fn normalize(&self, p: &Vec<u32>) -> Vec<u32> {
        let mut q = p.clone();
        q.sort_unstable();
        q
    }
    fn size_hint(&self, p: &Vec<u32>) -> u64 {
        (0..p.len()).fold(1u64, |a, _| a.saturating_mul(self.graph.len() as u64))
    }
    fn search_cost(&self, p: &Vec<u32>) -> u64 {
        // Each placement of the other tokens, times every edge for each token.
        let others = (1..p.len()).fold(1u64, |a, _| a.saturating_mul(self.graph.len() as u64));
        others
            .saturating_mul(self.graph.edges.edges() as u64)
            .saturating_mul(p.len() as u64)
    }
}
