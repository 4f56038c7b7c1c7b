//! A game tree drawn as SVG: nodes top-down with the mover's colour, actions on the edges
//! (with chance's probabilities, and a behaviour profile's where one is given, its played
//! edges drawn thick), information sets as dashed links between their nodes, and the payoffs
//! under each leaf.
//!
//! The layout is the plain one for game trees (as Gambit's and Game Theory Explorer's): leaves
//! spaced evenly in prefix order, each inner node centred over its first and last child, one
//! level per depth. [`layout`] gives the positions so that a test can look at the pixels.

use super::{Mover, Tree};
use crate::core::error::Result;
use crate::core::svg;
use crate::exact::{show, Q};
use num_traits::Zero;
use std::fmt::Write;

/// Pixels between neighbouring leaves.
pub const LEAF_GAP: f64 = 80.0;
/// Pixels between levels.
pub const LEVEL_GAP: f64 = 90.0;
/// The margin around the tree; the title sits in the top one.
pub const MARGIN: f64 = 50.0;
/// The radius of a decision or chance node.
pub const NODE_RADIUS: f64 = 7.0;

/// The players' colours, in turn.
pub const PLAYER_COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

/// The centre of each node, in pixels.
pub fn layout(tree: &Tree) -> Vec<(f64, f64)> {
    let n = tree.nodes.len();
    let mut depth = vec![0usize; n];
    for v in 1..n {
        if let Some((p, _)) = tree.nodes[v].parent {
            depth[v] = depth[p] + 1;
        }
    }
    let mut x = vec![0.0; n];
    let mut leaves = 0;
    for (v, node) in tree.nodes.iter().enumerate() {
        if node.children.is_empty() {
            x[v] = MARGIN + leaves as f64 * LEAF_GAP;
            leaves += 1;
        }
    }
    // Children come after their parents, so a backward pass has them placed.
    for v in (0..n).rev() {
        let c = &tree.nodes[v].children;
        if let (Some(&first), Some(&last)) = (c.first(), c.last()) {
            x[v] = (x[first] + x[last]) / 2.0;
        }
    }
    (0..n)
        .map(|v| (x[v], MARGIN + depth[v] as f64 * LEVEL_GAP))
        .collect()
}

/// The control point of the quadratic Bézier arc that links two nodes of information set
/// `k`: sets alternate above and below, at three depths of bend.
pub fn link_control(a: (f64, f64), b: (f64, f64), k: usize) -> (f64, f64) {
    let bend = 16.0 + 8.0 * ((k / 2) % 3) as f64;
    let bend = if k % 2 == 0 { -bend } else { bend };
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0 + 2.0 * bend)
}

/// The colour of a mover.
pub fn colour(m: Mover) -> &'static str {
    match m {
        Mover::Chance => "#000000",
        Mover::Player(p) => PLAYER_COLOURS[p % PLAYER_COLOURS.len()],
    }
}

/// The tree as an SVG picture; with `behaviour` (one distribution per information set of the
/// tree, chance's included), its probabilities on the players' edges and the edges it plays
/// drawn thick. `max_memory` bounds the picture's size.
// Kept as one function: the picture written in the order it is drawn (title, edges, nodes, labels,
// payoffs), all from one layout.
pub fn svg(tree: &Tree, behaviour: Option<&[Vec<Q>]>, max_memory: u64) -> Result<String> {
    // A few hundred bytes of SVG a node.
    crate::core::budget::check_memory(
        &format!("a drawing of {} nodes", tree.nodes.len()),
        tree.nodes.len() as u64 * 600,
        max_memory,
    )?;
    let pos = layout(tree);
    let width = pos.iter().map(|p| p.0).fold(0.0, f64::max) + MARGIN;
    let height = pos.iter().map(|p| p.1).fold(0.0, f64::max) + MARGIN + 20.0;
    let pay = tree.path_payoffs();
    let mut s = svg::begin(width, height, 11);
    if !tree.title.is_empty() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="20" font-size="14">{}</text>"#,
            MARGIN / 2.0,
            svg::escape(&tree.title)
        );
    }
    // Edges first, so that nodes sit on top of them.
    for (v, node) in tree.nodes.iter().enumerate() {
        let Some(h) = node.infoset else { continue };
        let set = &tree.infosets[h];
        for (a, &c) in node.children.iter().enumerate() {
            let ((x1, y1), (x2, y2)) = (pos[v], pos[c]);
            let prob = match set.mover {
                Mover::Chance => Some(&set.probs[a]),
                Mover::Player(_) => behaviour.map(|b| &b[h][a]),
            };
            let played =
                matches!(set.mover, Mover::Player(_)) && prob.is_some_and(|p| !p.is_zero());
            let (stroke, w) = if played {
                (colour(set.mover), 3.5)
            } else {
                ("#888888", 1.2)
            };
            let _ = writeln!(
                s,
                r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{stroke}" stroke-width="{w}"/>"#
            );
            let mut label = svg::escape(&set.actions[a]);
            if let Some(p) = prob {
                let _ = write!(label, " ({})", show(p));
            }
            // The label sits beside the edge's midpoint, on its outer side.
            let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
            let (dx, anchor) = if x2 < x1 {
                (-6.0, "end")
            } else {
                (6.0, "start")
            };
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{my}" text-anchor="{anchor}" fill="#333333">{label}</text>"##,
                mx + dx
            );
        }
    }
    // Information sets: a dashed arc from each node to the next of its set, bent by an amount
    // of the set's own, so that the links of sets whose nodes interleave stay apart.
    for (k, set) in tree.infosets.iter().enumerate() {
        if set.mover == Mover::Chance {
            continue;
        }
        for w in set.nodes.windows(2) {
            let ((x1, y1), (x2, y2)) = (pos[w[0]], pos[w[1]]);
            let (cx, cy) = link_control(pos[w[0]], pos[w[1]], k);
            let _ = writeln!(
                s,
                r#"<path d="M {x1} {y1} Q {cx} {cy} {x2} {y2}" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="6 5"/>"#,
                colour(set.mover)
            );
        }
    }
    for (v, node) in tree.nodes.iter().enumerate() {
        let (x, y) = pos[v];
        match node.infoset {
            None => {
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="6" height="6" fill="black"/>"#,
                    x - 3.0,
                    y - 3.0
                );
                let p: Vec<String> = pay[v].iter().map(show).collect();
                let _ = writeln!(
                    s,
                    r#"<text x="{x}" y="{}" text-anchor="middle">{}</text>"#,
                    y + 18.0,
                    svg::escape(&p.join(", "))
                );
            }
            Some(h) => {
                let set = &tree.infosets[h];
                let (fill, who) = match set.mover {
                    Mover::Chance => ("white".to_string(), "chance".to_string()),
                    Mover::Player(p) => (colour(set.mover).to_string(), tree.players[p].clone()),
                };
                let _ = writeln!(
                    s,
                    r#"<circle cx="{x}" cy="{y}" r="{NODE_RADIUS}" fill="{fill}" stroke="black" stroke-width="1"/>"#
                );
                let name = if set.name.is_empty() || set.mover == Mover::Chance {
                    who
                } else {
                    format!("{who}: {}", set.name)
                };
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="start">{}</text>"#,
                    x + NODE_RADIUS + 3.0,
                    y - NODE_RADIUS - 2.0,
                    svg::escape(&name)
                );
            }
        }
    }
    svg::end(&mut s);
    Ok(s)
}
