//! Blue–Red–Green Hackenbush: a graph of coloured edges standing on the ground; Left removes a
//! blue or green edge, Right a red or green one, and every edge no longer joined to the ground
//! falls; who cannot move loses.
//!
//! A graph file has one edge a line (or, inline, edges separated by `;`), `u v COLOUR` (`B`, `R` or `G`; names of vertices are any
//! words, the vertex `g` is the ground), `#` starting a comment. Stalks are strings of colours
//! read from the ground up: `BRR` is a blue edge on the ground with two red ones above it.

use crate::partizan::Ruleset;

/// The most edges of a picture.
pub const MOST_EDGES: usize = 128;

/// The colour of an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    /// Left's.
    Blue,
    /// Right's.
    Red,
    /// Either's.
    Green,
}

/// A picture: its vertices' names (the ground first) and its edges.
#[derive(Debug, Clone)]
pub struct Hackenbush {
    names: Vec<String>,
    edges: Vec<(usize, usize, Colour)>,
    /// The edges at each vertex.
    at: Vec<u128>,
    /// For stalks: each stalk's edges, from the ground up.
    stalks: Option<Vec<std::ops::Range<usize>>>,
}

/// A position: the edges still standing.
pub type Edges = u128;

fn colour(word: &str) -> Option<Colour> {
    match word.to_ascii_lowercase().as_str() {
        "b" | "blue" | "l" => Some(Colour::Blue),
        "r" | "red" => Some(Colour::Red),
        "g" | "green" => Some(Colour::Green),
        _ => None,
    }
}

impl Hackenbush {
    fn build(names: Vec<String>, edges: Vec<(usize, usize, Colour)>) -> Result<Self, String> {
        if edges.len() > MOST_EDGES {
            return Err(format!("{} edges: at most {MOST_EDGES}", edges.len()));
        }
        let mut at = vec![0u128; names.len()];
        for (i, &(u, v, _)) in edges.iter().enumerate() {
            at[u] |= 1 << i;
            at[v] |= 1 << i;
        }
        Ok(Hackenbush {
            names,
            edges,
            at,
            stalks: None,
        })
    }

    /// Reads a graph file's text, or edges on one line separated by `;`; errors name the
    /// line (the edge).
    pub fn parse_graph(text: &str) -> Result<(Self, Edges), String> {
        let text = if text.contains('\n') {
            text.to_string()
        } else {
            text.replace(';', "\n")
        };
        let mut names = vec!["g".to_string()];
        let index = |name: &str, names: &mut Vec<String>| -> usize {
            let name = if name.eq_ignore_ascii_case("ground") {
                "g"
            } else {
                name
            };
            match names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    names.push(name.to_string());
                    names.len() - 1
                }
            }
        };
        let mut edges = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let edge = match words[..] {
                [u, v, c] => colour(c).map(|c| (u, v, c)),
                _ => None,
            };
            let Some((u, v, c)) = edge else {
                return Err(format!(
                    "line {}: '{line}' is not an edge: write 'u v COLOUR' (B, R or G)",
                    n + 1
                ));
            };
            let (u, v) = (index(u, &mut names), index(v, &mut names));
            edges.push((u, v, c));
        }
        let h = Hackenbush::build(names, edges)?;
        let all = h.grounded(full(h.edges.len()));
        Ok((h, all))
    }

    /// Stalks from colour strings separated by spaces or commas: `BRR GB`.
    pub fn parse_stalks(text: &str) -> Result<(Self, Edges), String> {
        let mut names = vec!["g".to_string()];
        let mut edges = Vec::new();
        let mut stalks = Vec::new();
        for word in text.split([' ', ',']).filter(|w| !w.is_empty()) {
            let mut below = 0;
            let first = edges.len();
            for ch in word.chars() {
                let c = colour(&ch.to_string())
                    .filter(|_| ch != 'l' && ch != 'L')
                    .ok_or_else(|| format!("'{ch}' in '{word}' is not a colour: use B, R, G"))?;
                names.push(format!("v{}", names.len()));
                edges.push((below, names.len() - 1, c));
                below = names.len() - 1;
            }
            stalks.push(first..edges.len());
        }
        let mut h = Hackenbush::build(names, edges)?;
        h.stalks = Some(stalks);
        let all = full(h.edges.len());
        Ok((h, all))
    }

    /// The edges of `alive` still joined to the ground.
    fn grounded(&self, alive: Edges) -> Edges {
        let mut seen_v = vec![false; self.names.len()];
        seen_v[0] = true;
        let mut stack = vec![0usize];
        let mut kept = 0u128;
        while let Some(v) = stack.pop() {
            let mut rest = self.at[v] & alive & !kept;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                kept |= 1 << i;
                let (a, b, _) = self.edges[i];
                for w in [a, b] {
                    if !seen_v[w] {
                        seen_v[w] = true;
                        stack.push(w);
                    }
                }
            }
        }
        kept
    }

    fn moves(&self, alive: Edges, me: Colour) -> Vec<Edges> {
        let mut out = Vec::new();
        let mut rest = alive;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let c = self.edges[i].2;
            if c == me || c == Colour::Green {
                out.push(self.grounded(alive & !(1u128 << i)));
            }
        }
        out
    }
}

fn full(n: usize) -> Edges {
    if n == 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

impl Ruleset for Hackenbush {
    type Position = Edges;

    fn left_moves(&self, p: &Edges) -> Vec<Edges> {
        self.moves(*p, Colour::Blue)
    }

    fn right_moves(&self, p: &Edges) -> Vec<Edges> {
        self.moves(*p, Colour::Red)
    }

    fn regions(&self, p: &Edges) -> Vec<Edges> {
        // The parts that meet only at the ground are played independently.
        let mut out = Vec::new();
        let mut rest = *p;
        while rest != 0 {
            let first = rest.trailing_zeros() as usize;
            let mut part = 1u128 << first;
            let (a, b, _) = self.edges[first];
            let mut stack: Vec<usize> = [a, b].into_iter().filter(|&v| v != 0).collect();
            let mut seen = vec![false; self.names.len()];
            while let Some(v) = stack.pop() {
                if std::mem::replace(&mut seen[v], true) {
                    continue;
                }
                let mut next = self.at[v] & *p & !part;
                while next != 0 {
                    let i = next.trailing_zeros() as usize;
                    next &= next - 1;
                    part |= 1 << i;
                    let (a, b, _) = self.edges[i];
                    stack.extend([a, b].into_iter().filter(|&w| w != 0 && !seen[w]));
                }
            }
            rest &= !part;
            out.push(part);
        }
        out
    }

    fn show(&self, p: &Edges) -> String {
        let letter = |c: Colour| match c {
            Colour::Blue => 'B',
            Colour::Red => 'R',
            Colour::Green => 'G',
        };
        if let Some(stalks) = &self.stalks {
            // What stands of each stalk is a string from the ground up.
            let words: Vec<String> = stalks
                .iter()
                .map(|r| {
                    r.clone()
                        .take_while(|&i| p & (1 << i) != 0)
                        .map(|i| letter(self.edges[i].2))
                        .collect::<String>()
                })
                .filter(|w| !w.is_empty())
                .collect();
            return words.join(",");
        }
        let mut words = Vec::new();
        for (i, &(u, v, c)) in self.edges.iter().enumerate() {
            if p & (1 << i) != 0 {
                words.push(format!("{} {} {}", self.names[u], self.names[v], letter(c)));
            }
        }
        words.join("; ")
    }
}
