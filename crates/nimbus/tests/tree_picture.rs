//! A game tree's drawing, tested as a picture: the SVG is rasterised and the pixels at the
//! nodes, along the edges an equilibrium plays and along the dashed information-set links are
//! checked.

use nimbus::api::{tree, Limits};
use nimbus::extensive::draw::{layout, link_control, PLAYER_COLOURS};
use nimbus::extensive::{Mover, Tree};
use nimbus::formats::efg;
use num_traits::Zero;
mod picture;

use resvg::tiny_skia;

struct Picture(tiny_skia::Pixmap);

impl Picture {
    fn render(svg: &str) -> Picture {
        Picture(picture::render(svg))
    }

    /// The colours at the pixel nearest `(x, y)` and its eight neighbours.
    fn near(&self, x: f64, y: f64) -> Vec<[u8; 3]> {
        let mut out = Vec::new();
        for dx in -1i32..=1 {
            for dy in -1i32..=1 {
                let (px, py) = (x.round() as i32 + dx, y.round() as i32 + dy);
                if let Some(c) = self.0.pixel(px as u32, py as u32) {
                    out.push([c.red(), c.green(), c.blue()]);
                }
            }
        }
        out
    }

    fn has(&self, x: f64, y: f64, colour: [u8; 3]) -> bool {
        self.near(x, y).iter().any(|c| close(*c, colour))
    }

    /// The colour of the pixel at `(x, y)` exactly.
    fn at(&self, x: f64, y: f64) -> [u8; 3] {
        let c = self.0.pixel(x.round() as u32, y.round() as u32).unwrap();
        [c.red(), c.green(), c.blue()]
    }
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter()
        .zip(b)
        .all(|(&x, y)| (i32::from(x) - i32::from(y)).abs() <= 40)
}

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

const WHITE: [u8; 3] = [255, 255, 255];
const BLACK: [u8; 3] = [0, 0, 0];
const GREY: [u8; 3] = [0x88, 0x88, 0x88];

fn poker() -> Tree {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/one-card-poker.efg"
    );
    efg::parse(&std::fs::read_to_string(path).unwrap(), path).unwrap()
}

/// The point a quarter of the way along the edge from `a` to `b`, away from the nodes and from
/// the label beside the midpoint.
fn along(a: (f64, f64), b: (f64, f64), f: f64) -> (f64, f64) {
    (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f)
}

#[test]
fn nodes_edges_and_information_sets_are_where_the_layout_puts_them() {
    let t = poker();
    let limits = Limits::default();
    let pic = Picture::render(&tree::draw(&t, None, &limits).unwrap());
    let pos = layout(&t);
    for (v, node) in t.nodes.iter().enumerate() {
        let (x, y) = pos[v];
        match node.infoset.map(|h| t.infosets[h].mover) {
            None => assert!(close(pic.at(x, y), BLACK), "leaf {v} is not black"),
            Some(Mover::Chance) => assert!(close(pic.at(x, y), WHITE), "chance node {v}"),
            Some(Mover::Player(p)) => assert!(
                close(pic.at(x, y), rgb(PLAYER_COLOURS[p])),
                "node {v} is not in player {p}'s colour"
            ),
        }
        // Without a profile every edge is a thin grey line.
        for &c in &node.children {
            let (x, y) = along(pos[v], pos[c], 0.3);
            assert!(pic.has(x, y, GREY), "edge {v} -> {c} is not drawn");
        }
    }
    // Alice's set has two nodes: a dashed arc between them, ink and gaps.
    let k = t
        .infosets
        .iter()
        .position(|h| h.mover == Mover::Player(1))
        .unwrap();
    let nodes = &t.infosets[k].nodes;
    let (a, b) = (pos[nodes[0]], pos[nodes[1]]);
    let c = link_control(a, b, k);
    let red = rgb(PLAYER_COLOURS[1]);
    let samples: Vec<bool> = (5..=95)
        .map(|i| {
            let s = f64::from(i) / 100.0;
            let (u, v) = ((1.0 - s) * (1.0 - s), 2.0 * (1.0 - s) * s);
            let x = u * a.0 + v * c.0 + s * s * b.0;
            let y = u * a.1 + v * c.1 + s * s * b.1;
            close(pic.at(x, y), red)
        })
        .collect();
    let inked = samples.iter().filter(|&&s| s).count();
    assert!(
        inked > 20 && inked < samples.len() - 20,
        "not a dashed link: {inked} of {}",
        samples.len()
    );
    // The straight line between them is blank half-way (the arc bends away from it).
    let mid = along(a, b, 0.5);
    assert!(!pic.has(mid.0, mid.1, red));
    // Nothing is drawn below the payoffs.
    let (w, h) = (f64::from(pic.0.width()), f64::from(pic.0.height()));
    assert!(close(pic.at(w - 3.0, h - 3.0), WHITE));
}

#[test]
fn an_equilibrium_is_drawn_on_its_edges() {
    let t = poker();
    let limits = Limits::default();
    let answer = tree::solve(&t, &tree::Request::default(), &limits).unwrap();
    let pic = Picture::render(&tree::draw(&t, Some(tree::Method::Auto), &limits).unwrap());
    let pos = layout(&t);
    let sets: Vec<usize> = (0..t.players.len())
        .flat_map(|p| t.infosets_of(p))
        .collect();
    let e = &answer.equilibria[0];
    let mut thick = 0;
    for (k, &h) in sets.iter().enumerate() {
        let Mover::Player(p) = t.infosets[h].mover else {
            unreachable!()
        };
        let colour = rgb(PLAYER_COLOURS[p]);
        for &v in &t.infosets[h].nodes {
            for (a, &c) in t.nodes[v].children.iter().enumerate() {
                let (x, y) = along(pos[v], pos[c], 0.3);
                if e.behaviour[k][a].is_zero() {
                    assert!(!pic.has(x, y, colour), "an unplayed edge in colour");
                    assert!(pic.has(x, y, GREY));
                } else {
                    // Thick: the player's colour a pixel to either side of the line.
                    assert!(pic.has(x, y, colour), "a played edge not in colour");
                    assert!(close(pic.at(x + 1.0, y), colour) || close(pic.at(x - 1.0, y), colour));
                    thick += 1;
                }
            }
        }
    }
    assert!(thick >= 3);
}
