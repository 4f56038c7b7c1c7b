//! Col and Snort: Left colours an uncoloured vertex of a graph blue, Right one red; in Col no
//! two vertices of one colour may be neighbours, in Snort no two of different colours; who
//! cannot move loses (Winning Ways, ch. 2).
//!
//! A coloured vertex plays no further part, except that it *tints* its neighbours: in Col a
//! vertex next to a blue one is barred to Left, in Snort it is barred to Right. So a position
//! is the uncoloured vertices, each tinted blue, red or neither, and the edges between them; a
//! vertex tinted both ways is barred to both and drops out.
//!
//! A graph file has one edge a line, `u v`, or a vertex alone, `u`; names are any words, and
//! `u/B` (`u/R`) is a vertex tinted blue (red). Inline, lines are joined by `;`. `#` starts a
//! comment.

use crate::partizan::Ruleset;

/// The most vertices of a graph.
pub const MOST_VERTICES: usize = 128;

/// Which game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Neighbours may not share a colour.
    Col,
    /// Neighbours may not differ in colour.
    Snort,
}

/// A graph and the rule it is played by.
#[derive(Debug, Clone)]
pub struct Colouring {
    kind: Kind,
    /// The vertices' names, as the graph was written.
    names: Vec<String>,
}

/// A position: the vertices still uncoloured, numbered from 0, their edges and their tints.
/// Equal positions are the same graph with the same tints whatever the vertices' names (which
/// only say how to write the position), and each region is numbered in a canonical-leaning
/// order, so the same shape met anywhere on the board is valued once.
#[derive(Debug, Clone)]
pub struct Tinted {
    /// Each vertex's neighbours.
    adjacent: Vec<u128>,
    /// Those next to a blue vertex.
    blue: u128,
    /// Those next to a red vertex.
    red: u128,
    /// Each vertex's name, as an index into the graph's names.
    names: Vec<u8>,
}

impl PartialEq for Tinted {
    fn eq(&self, other: &Self) -> bool {
        self.adjacent == other.adjacent && self.blue == other.blue && self.red == other.red
    }
}

impl Eq for Tinted {}

impl std::hash::Hash for Tinted {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.adjacent.hash(state);
        self.blue.hash(state);
        self.red.hash(state);
    }
}

impl Tinted {
    /// How many vertices it has.
    pub fn len(&self) -> usize {
        self.adjacent.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.adjacent.is_empty()
    }

    /// The vertices `order` lists, numbered in that order (the others dropped).
    fn relabel(&self, order: &[usize]) -> Tinted {
        let mut new_index = [u8::MAX; MOST_VERTICES];
        for (i, &v) in order.iter().enumerate() {
            new_index[v] = i as u8;
        }
        let moved = |set: u128| -> u128 {
            let mut out = 0u128;
            let mut rest = set;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if new_index[v] != u8::MAX {
                    out |= 1u128 << new_index[v];
                }
            }
            out
        };
        Tinted {
            adjacent: order.iter().map(|&v| moved(self.adjacent[v])).collect(),
            blue: moved(self.blue),
            red: moved(self.red),
            names: order.iter().map(|&v| self.names[v]).collect(),
        }
    }
}

/// The vertices of `part` in an order that depends, as far as cheaply possible, on the shape
/// alone: by a signature refined from the neighbours' signatures (colour refinement), ties in
/// the order given. Isomorphic regions then mostly get the same numbering.
fn shape_order(p: &Tinted, part: u128) -> Vec<usize> {
    let vertices: Vec<usize> = (0..p.len()).filter(|&v| part >> v & 1 == 1).collect();
    let mut sig = vec![0u64; p.len()];
    for &v in &vertices {
        let tint = (p.blue >> v & 1) | (p.red >> v & 1) << 1;
        sig[v] = (u64::from((p.adjacent[v] & part).count_ones()) << 2) | tint as u64;
    }
    for _ in 0..3 {
        let mut next = sig.clone();
        for &v in &vertices {
            let mut around: Vec<u64> = Vec::new();
            let mut rest = p.adjacent[v] & part;
            while rest != 0 {
                around.push(sig[rest.trailing_zeros() as usize]);
                rest &= rest - 1;
            }
            around.sort_unstable();
            let mut h = sig[v].wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for x in around {
                h = (h ^ x).wrapping_mul(0x100_0000_01B3).rotate_left(17);
            }
            next[v] = h;
        }
        sig = next;
    }
    let mut order = vertices;
    order.sort_by_key(|&v| (sig[v], v));
    order
}

impl Colouring {
    /// Reads a graph file's text (or its lines joined by `;`); errors name the line.
    pub fn parse(kind: Kind, text: &str) -> Result<(Self, Tinted), String> {
        let text = if text.contains('\n') {
            text.to_string()
        } else {
            text.replace(';', "\n")
        };
        let mut names: Vec<String> = Vec::new();
        let mut edges = Vec::new();
        let (mut blue, mut red) = (0u128, 0u128);
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() > 2 {
                return Err(format!(
                    "line {}: '{line}' is not an edge 'u v' or a vertex 'u'",
                    n + 1
                ));
            }
            let mut ends = Vec::new();
            for w in words {
                let (name, tint) = match w.rsplit_once('/') {
                    Some((name, t)) => (name, Some(t)),
                    None => (w, None),
                };
                let i = match names.iter().position(|x| x == name) {
                    Some(i) => i,
                    None => {
                        if names.len() == MOST_VERTICES {
                            return Err(format!(
                                "line {}: more than {MOST_VERTICES} vertices",
                                n + 1
                            ));
                        }
                        names.push(name.to_string());
                        names.len() - 1
                    }
                };
                let bit = 1u128 << i;
                match tint.map(|t| t.to_ascii_uppercase()) {
                    None => {}
                    Some(t) if t == "B" => blue |= bit,
                    Some(t) if t == "R" => red |= bit,
                    Some(t) => {
                        return Err(format!(
                            "line {}: '{w}': a tint is /B or /R, not /{t}",
                            n + 1
                        ))
                    }
                }
                ends.push(i);
            }
            if let [u, v] = ends[..] {
                if u == v {
                    return Err(format!("line {}: '{line}' joins a vertex to itself", n + 1));
                }
                edges.push((u, v));
            }
        }
        let mut adjacent = vec![0u128; names.len()];
        for (u, v) in edges {
            adjacent[u] |= 1 << v;
            adjacent[v] |= 1 << u;
        }
        let start = Tinted {
            adjacent,
            blue,
            red,
            names: (0..names.len() as u8).collect(),
        };
        let start = settle(&start, full(names.len()));
        Ok((Colouring { kind, names }, start))
    }

    fn moves(&self, p: &Tinted, left: bool) -> Vec<Tinted> {
        // Col bars a vertex to the side whose colour tints it, Snort to the other side.
        let barred = match (self.kind, left) {
            (Kind::Col, true) | (Kind::Snort, false) => p.blue,
            (Kind::Col, false) | (Kind::Snort, true) => p.red,
        };
        let all = full(p.len());
        let mut out = Vec::new();
        let mut free = all & !barred;
        while free != 0 {
            let v = free.trailing_zeros() as usize;
            free &= free - 1;
            let mut next = p.clone();
            let near = p.adjacent[v] & !(1u128 << v);
            if left {
                next.blue |= near;
            } else {
                next.red |= near;
            }
            out.push(settle(&next, all & !(1u128 << v)));
        }
        out
    }
}

/// The set of the first `n` vertices.
fn full(n: usize) -> u128 {
    if n == MOST_VERTICES {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The vertices of `keep` that someone may still colour (those tinted both ways are barred to
/// both and drop out), numbered afresh in their order.
fn settle(p: &Tinted, keep: u128) -> Tinted {
    let keep = keep & !(p.blue & p.red);
    let order: Vec<usize> = (0..p.len()).filter(|&v| keep >> v & 1 == 1).collect();
    p.relabel(&order)
}

impl Ruleset for Colouring {
    type Position = Tinted;

    fn left_moves(&self, p: &Tinted) -> Vec<Tinted> {
        self.moves(p, true)
    }

    fn right_moves(&self, p: &Tinted) -> Vec<Tinted> {
        self.moves(p, false)
    }

    fn regions(&self, p: &Tinted) -> Vec<Tinted> {
        // Connected parts are played independently; each is numbered by its shape.
        let mut out = Vec::new();
        let mut rest = full(p.len());
        while rest != 0 {
            let mut part = 1u128 << rest.trailing_zeros();
            let mut frontier = part;
            while frontier != 0 {
                let v = frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let new = p.adjacent[v] & rest & !part;
                part |= new;
                frontier |= new;
            }
            rest &= !part;
            out.push(p.relabel(&shape_order(p, part)));
        }
        out
    }

    fn show(&self, p: &Tinted) -> String {
        let name = |v: usize| {
            let tint = if p.blue >> v & 1 == 1 {
                "/B"
            } else if p.red >> v & 1 == 1 {
                "/R"
            } else {
                ""
            };
            format!("{}{tint}", self.names[p.names[v] as usize])
        };
        // Vertices in the order of their names in the graph, each edge once.
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by_key(|&v| p.names[v]);
        let mut words = Vec::new();
        for (i, &u) in order.iter().enumerate() {
            let later: Vec<usize> = order[i + 1..]
                .iter()
                .copied()
                .filter(|&v| p.adjacent[u] >> v & 1 == 1)
                .collect();
            for v in later {
                words.push(format!("{} {}", name(u), name(v)));
            }
        }
        words.extend(
            order
                .iter()
                .filter(|&&v| p.adjacent[v] == 0)
                .map(|&v| name(v)),
        );
        words.join("; ")
    }
}
