//! 2 × 2 games by the indifference conditions (where the best-reply functions intersect):
//! with `p` the probability of the first row and `q` that of the first column, the row
//! player's best replies to `q` and the column player's best replies to `p` are unions of
//! axis-parallel segments of the unit square; the equilibria are where they meet. Degenerate
//! games, where a player is indifferent along a whole edge or everywhere, give segments (or
//! the whole square) of equilibria, reported as such.

use crate::core::error::{Error, Result};
use crate::core::svg;
use crate::exact::{over_common_denominator, show, Q};
use crate::strategic::bimatrix::{Bimatrix, Equilibrium};
use crate::strategic::game::NormalForm;
use num_traits::{One, Signed, Zero};
use std::fmt::Write;

/// A closed axis-parallel box `[p0, p1] × [q0, q1]` of the unit square: a point, a segment or
/// a rectangle.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Piece {
    /// The range of `p`, the probability of the first row.
    pub p: (Q, Q),
    /// The range of `q`, the probability of the first column.
    pub q: (Q, Q),
}

impl Piece {
    fn meet(&self, other: &Piece) -> Option<Piece> {
        let lo = |a: &Q, b: &Q| a.max(b).clone();
        let hi = |a: &Q, b: &Q| a.min(b).clone();
        let p = (lo(&self.p.0, &other.p.0), hi(&self.p.1, &other.p.1));
        let q = (lo(&self.q.0, &other.q.0), hi(&self.q.1, &other.q.1));
        (p.0 <= p.1 && q.0 <= q.1).then_some(Piece { p, q })
    }

    fn contains(&self, other: &Piece) -> bool {
        self.p.0 <= other.p.0
            && other.p.1 <= self.p.1
            && self.q.0 <= other.q.0
            && other.q.1 <= self.q.1
    }

    /// Whether this is a single point.
    pub fn is_point(&self) -> bool {
        self.p.0 == self.p.1 && self.q.0 == self.q.1
    }

    /// The corners (one for a point, two for a segment, four for a rectangle).
    pub fn corners(&self) -> Vec<(Q, Q)> {
        let mut v = Vec::new();
        for p in [&self.p.0, &self.p.1] {
            for q in [&self.q.0, &self.q.1] {
                let c = (p.clone(), q.clone());
                if !v.contains(&c) {
                    v.push(c);
                }
            }
        }
        v
    }
}

/// A 2 × 2 game solved by the indifference conditions.
#[derive(Debug, Clone)]
pub struct TwoByTwo {
    /// The row player's best-reply correspondence, as pieces of the `(p, q)` square.
    pub row_best: Vec<Piece>,
    /// The column player's best-reply correspondence.
    pub col_best: Vec<Piece>,
    /// The `q` at which the row player is indifferent (when there is exactly one).
    pub row_indifferent_at: Option<Q>,
    /// The `p` at which the column player is indifferent (when there is exactly one).
    pub col_indifferent_at: Option<Q>,
    /// The sets of equilibria: points, segments or rectangles, none inside another.
    pub pieces: Vec<Piece>,
    /// The equilibria at the corners of those pieces (every equilibrium is a mix of these
    /// within its piece), each checked exactly.
    pub equilibria: Vec<Equilibrium>,
}

/// A box as `(own0, own1, t0, t1)`.
type Boxed = (Q, Q, Q, Q);

/// A best-reply correspondence from the payoff difference `f(t) = c0 + t (c1 − c0)` (first
/// strategy minus second, against the opponent's probability `t` of their first strategy):
/// pieces in `(own, t)` coordinates, and the indifference point when unique.
fn best_reply(c0: &Q, c1: &Q) -> (Vec<Boxed>, Option<Q>) {
    let (zero, one) = (Q::zero(), Q::one());
    let at = |t: &Q| c0 + t * (c1 - c0);
    if c0.is_zero() && c1.is_zero() {
        return (vec![(zero.clone(), one.clone(), zero, one)], None);
    }
    let mut breaks = vec![zero.clone(), one.clone()];
    let mut root = None;
    if c0 != c1 {
        let t = c0 / (c0 - c1);
        if t > zero && t < one {
            breaks.insert(1, t.clone());
        }
        if t >= zero && t <= one {
            root = Some(t);
        }
    }
    let own_for = |s: &Q| {
        if s.is_positive() {
            one.clone()
        } else {
            zero.clone()
        }
    };
    let mut pieces = Vec::new();
    for w in breaks.windows(2) {
        let mid = (&w[0] + &w[1]) / Q::from_integer(2.into());
        let s = at(&mid);
        let o = own_for(&s);
        pieces.push((o.clone(), o, w[0].clone(), w[1].clone()));
    }
    if let Some(t) = &root {
        pieces.push((zero.clone(), one.clone(), t.clone(), t.clone()));
    }
    (pieces, root)
}

/// Solves a 2 × 2 game.
pub fn solve(game: &NormalForm) -> Result<TwoByTwo> {
    if game.shape() != [2, 2] {
        return Err(Error::Invalid(format!(
            "the indifference method is for 2 x 2 games; this one is {}",
            game.shape()
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" x ")
        )));
    }
    let a = game.matrix(0);
    let b = game.matrix(1);
    // Row: first row minus second, as a function of q.
    let (rb, row_at) = best_reply(&(&a[0][1] - &a[1][1]), &(&a[0][0] - &a[1][0]));
    // Column: first column minus second, as a function of p.
    let (cb, col_at) = best_reply(&(&b[1][0] - &b[1][1]), &(&b[0][0] - &b[0][1]));
    let row_best: Vec<Piece> = rb
        .into_iter()
        .map(|(p0, p1, q0, q1)| Piece {
            p: (p0, p1),
            q: (q0, q1),
        })
        .collect();
    let col_best: Vec<Piece> = cb
        .into_iter()
        .map(|(q0, q1, p0, p1)| Piece {
            p: (p0, p1),
            q: (q0, q1),
        })
        .collect();
    let mut meets: Vec<Piece> = Vec::new();
    for r in &row_best {
        for c in &col_best {
            if let Some(x) = r.meet(c) {
                meets.push(x);
            }
        }
    }
    meets.sort();
    meets.dedup();
    let pieces: Vec<Piece> = meets
        .iter()
        .enumerate()
        .filter(|&(i, x)| {
            !meets
                .iter()
                .enumerate()
                .any(|(j, y)| j != i && y.contains(x) && y != x)
        })
        .map(|(_, x)| x.clone())
        .collect();
    let g = Bimatrix::new(game)?;
    let mut equilibria = Vec::new();
    for piece in &pieces {
        for (p, q) in piece.corners() {
            let (x, _) = over_common_denominator(&[p.clone(), Q::one() - &p]);
            let (y, _) = over_common_denominator(&[q.clone(), Q::one() - &q]);
            let eq = g.equilibrium(&x, &y).ok_or_else(|| {
                Error::Invalid(format!(
                    "internal inconsistency: ({}, {}) is not an equilibrium",
                    show(&p),
                    show(&q)
                ))
            })?;
            if !equilibria.contains(&eq) {
                equilibria.push(eq);
            }
        }
    }
    Ok(TwoByTwo {
        row_best,
        col_best,
        row_indifferent_at: row_at,
        col_indifferent_at: col_at,
        pieces,
        equilibria,
    })
}

/// Draws both best-reply correspondences in the unit square, the equilibria marked, as SVG.
pub fn plot(game: &NormalForm, s: &TwoByTwo) -> String {
    let (size, pad) = (400.0, 60.0);
    let x = |p: &Q| pad + crate::exact::to_f64(p) * size;
    let y = |q: &Q| pad + size - crate::exact::to_f64(q) * size;
    let total = size + 2.0 * pad;
    let mut svg = svg::begin(total, total, 14);
    let _ = writeln!(
        svg,
        r##"<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" stroke="#999"/>"##
    );
    let name = |i: usize, k: usize| svg::escape(&game.strategies[i][k]);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">p = P({} plays {})</text>"#,
        pad + size / 2.0,
        total - 20.0,
        svg::escape(&game.players[0]),
        name(0, 0)
    );
    let _ = writeln!(
        svg,
        r#"<text x="20" y="{}" text-anchor="middle" transform="rotate(-90 20 {})">q = P({} plays {})</text>"#,
        pad + size / 2.0,
        pad + size / 2.0,
        svg::escape(&game.players[1]),
        name(1, 0)
    );
    for (t, label) in [(0.0, "0"), (1.0, "1")] {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{label}</text>"#,
            pad + t * size,
            pad + size + 20.0
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end">{label}</text>"#,
            pad - 8.0,
            pad + size - t * size + 5.0
        );
    }
    // A point, a segment or a rectangle each have their own element: a segment drawn as a
    // rectangle of width 0 is not rendered at all (SVG 1.1, 9.2).
    let draw = |svg: &mut String, pieces: &[Piece], colour: &str, width: f64, dash: &str| {
        for pc in pieces {
            let (x0, x1, y0, y1) = (x(&pc.p.0), x(&pc.p.1), y(&pc.q.1), y(&pc.q.0));
            if pc.is_point() {
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{x0}" cy="{y0}" r="{}" fill="{colour}"/>"#,
                    width
                );
            } else if pc.p.0 == pc.p.1 || pc.q.0 == pc.q.1 {
                let _ = writeln!(
                    svg,
                    r#"<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y0}" stroke="{colour}" stroke-width="{width}" stroke-dasharray="{dash}" stroke-linecap="round"/>"#
                );
            } else {
                let _ = writeln!(
                    svg,
                    r#"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="{colour}" fill-opacity="0.15" stroke="{colour}" stroke-width="{width}" stroke-dasharray="{dash}"/>"#,
                    x1 - x0,
                    y1 - y0
                );
            }
        }
    };
    draw(&mut svg, &s.row_best, "#1f77b4", 4.0, "none");
    draw(&mut svg, &s.col_best, "#d62728", 2.0, "8 5");
    for pc in &s.pieces {
        if pc.is_point() {
            let (cx, cy) = (x(&pc.p.0), y(&pc.q.0));
            let _ = writeln!(svg, r#"<circle cx="{cx}" cy="{cy}" r="7" fill="black"/>"#);
            // The label sits inside the square, on the side away from the nearer edges.
            let (dx, anchor) = if cx > pad + size / 2.0 {
                (-12.0, "end")
            } else {
                (12.0, "start")
            };
            let dy = if cy > pad + size / 2.0 { -12.0 } else { 22.0 };
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}" text-anchor="{anchor}">(p, q) = ({}, {})</text>"#,
                cx + dx,
                cy + dy,
                show(&pc.p.0),
                show(&pc.q.0)
            );
        } else {
            draw(&mut svg, std::slice::from_ref(pc), "black", 7.0, "none");
        }
    }
    let _ = writeln!(
        svg,
        r##"<text x="{pad}" y="30" fill="#1f77b4">— best replies of {}</text><text x="{}" y="30" fill="#d62728">- - best replies of {}</text>"##,
        svg::escape(&game.players[0]),
        pad + size / 2.0,
        svg::escape(&game.players[1])
    );
    svg::end(&mut svg);
    svg
}
