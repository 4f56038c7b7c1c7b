//! The payoffs of a two-player game's correlated equilibria, drawn in the payoff plane (as
//! Aumann's chicken is shown): the feasible payoffs (the hull of the pure outcomes) in grey,
//! the correlated equilibria's payoffs (the hull of the polytope's vertices' payoffs: a linear
//! map sends a polytope onto the hull of its vertices' images) in blue, the Nash equilibria's
//! payoffs as red points with their hull dashed (every extreme Nash equilibrium is a vertex,
//! and the payoff of any equilibrium lies in the hull of its component's extreme ones), and
//! the maximiser the LP found as a black ring.

use crate::core::svg;
use std::fmt::Write;

/// What the picture shows, each point a payoff pair `(u1, u2)`.
pub struct Payoffs<'a> {
    /// The players' names.
    pub players: [&'a str; 2],
    /// Every pure outcome's payoffs.
    pub outcomes: &'a [(f64, f64)],
    /// Each vertex's payoffs, and whether it is a Nash equilibrium.
    pub vertices: &'a [((f64, f64), bool)],
    /// The objective's maximiser.
    pub best: (f64, f64),
}

/// The square's left, bottom, right and top edges, in pixels.
pub const FRAME: (f64, f64, f64, f64) = (80.0, 480.0, 520.0, 40.0);

/// The convex hull of `points`, counter-clockwise (Andrew's monotone chain), without repeats.
pub fn hull(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut p = points.to_vec();
    p.sort_by(|a, b| a.partial_cmp(b).expect("finite payoffs"));
    p.dedup();
    if p.len() < 3 {
        return p;
    }
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut out: Vec<(f64, f64)> = Vec::new();
    for pass in 0..2 {
        let start = out.len();
        let order: Box<dyn Iterator<Item = &(f64, f64)>> = if pass == 0 {
            Box::new(p.iter())
        } else {
            Box::new(p.iter().rev())
        };
        for &q in order {
            while out.len() >= start + 2 && cross(out[out.len() - 2], out[out.len() - 1], q) <= 0.0
            {
                out.pop();
            }
            out.push(q);
        }
        out.pop();
    }
    out
}

/// Where the payoffs `(u1, u2)` are drawn, given the ranges shown.
pub struct Scale {
    low: (f64, f64),
    high: (f64, f64),
}

impl Scale {
    /// The ranges of `points`, padded by a twentieth.
    pub fn of(points: &[(f64, f64)]) -> Scale {
        let (mut low, mut high) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for &(x, y) in points {
            low = (low.0.min(x), low.1.min(y));
            high = (high.0.max(x), high.1.max(y));
        }
        let pad = |l: f64, h: f64| ((h - l).max(1e-9)) / 20.0;
        let (px, py) = (pad(low.0, high.0), pad(low.1, high.1));
        Scale {
            low: (low.0 - px, low.1 - py),
            high: (high.0 + px, high.1 + py),
        }
    }

    /// Pixels of the payoffs `(u1, u2)`.
    pub fn place(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let (l, b, r, t) = FRAME;
        (
            l + (x - self.low.0) / (self.high.0 - self.low.0) * (r - l),
            b - (y - self.low.1) / (self.high.1 - self.low.1) * (b - t),
        )
    }
}

/// A polygon of payoff points, drawn with `style`.
pub fn polygon(out: &mut String, scale: &Scale, points: &[(f64, f64)], style: &str) {
    let text: Vec<String> = points
        .iter()
        .map(|&p| {
            let (x, y) = scale.place(p);
            format!("{x:.2},{y:.2}")
        })
        .collect();
    let _ = writeln!(out, r#"<polygon points="{}" {style}/>"#, text.join(" "));
}

/// The frame, ticks at the ranges' ends and middle, and the axes' names.
pub fn axes(out: &mut String, scale: &Scale, players: [&str; 2]) {
    let (l, b, r, t) = FRAME;
    let _ = writeln!(
        out,
        r##"<rect x="{l}" y="{t}" width="{}" height="{}" fill="none" stroke="#444"/>"##,
        r - l,
        b - t
    );
    // Ticks at the range's ends and middle.
    for k in 0..3 {
        let f = f64::from(k) / 2.0;
        let (vx, vy) = (
            scale.low.0 + f * (scale.high.0 - scale.low.0),
            scale.low.1 + f * (scale.high.1 - scale.low.1),
        );
        let (px, _) = scale.place((vx, scale.low.1));
        let (_, py) = scale.place((scale.low.0, vy));
        let _ = writeln!(
            out,
            r#"<text x="{px:.2}" y="{}" text-anchor="middle">{}</text><text x="{}" y="{:.2}" text-anchor="end">{}</text>"#,
            b + 20.0,
            tick(vx),
            l - 8.0,
            py + 5.0,
            tick(vy)
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}'s payoff</text>"#,
        (l + r) / 2.0,
        b + 45.0,
        svg::escape(players[0])
    );
    let _ = writeln!(
        out,
        r#"<text x="22" y="{m}" text-anchor="middle" transform="rotate(-90 22 {m})">{}'s payoff</text>"#,
        svg::escape(players[1]),
        m = (b + t) / 2.0
    );
}

/// The picture, and the scale it was drawn at.
pub fn picture(p: &Payoffs) -> (String, Scale) {
    let scale = Scale::of(p.outcomes);
    let mut out = svg::begin(600.0, 560.0, 14);
    axes(&mut out, &scale, p.players);
    polygon(
        &mut out,
        &scale,
        &hull(p.outcomes),
        r##"fill="#e6e6e6" stroke="#999""##,
    );
    let ce: Vec<(f64, f64)> = p.vertices.iter().map(|v| v.0).collect();
    polygon(
        &mut out,
        &scale,
        &hull(&ce),
        r##"fill="#9ecae1" stroke="#1f77b4" stroke-width="2""##,
    );
    let nash: Vec<(f64, f64)> = p.vertices.iter().filter(|v| v.1).map(|v| v.0).collect();
    if nash.len() >= 2 {
        polygon(
            &mut out,
            &scale,
            &hull(&nash),
            r##"fill="none" stroke="#d62728" stroke-width="1.5" stroke-dasharray="6 4""##,
        );
    }
    for &q in &nash {
        let (x, y) = scale.place(q);
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.2}" cy="{y:.2}" r="5" fill="#d62728"><title>a Nash equilibrium's payoffs</title></circle>"##
        );
    }
    let (x, y) = scale.place(p.best);
    let _ = writeln!(
        out,
        r##"<circle cx="{x:.2}" cy="{y:.2}" r="9" fill="none" stroke="#000" stroke-width="2"><title>the best correlated equilibrium found</title></circle>"##
    );
    let _ = writeln!(
        out,
        r##"<text x="20" y="548" fill="#444">grey: feasible; blue: correlated equilibria; red: Nash (dashed: their hull); ring: the best</text>"##
    );
    svg::end(&mut out);
    (out, scale)
}

/// A tick's label: few digits.
fn tick(v: f64) -> String {
    let s = format!("{v:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_and_its_centre() {
        let h = hull(&[
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 1.0),
            (0.0, 1.0),
            (0.5, 0.5),
            (1.0, 0.0),
        ]);
        assert_eq!(h, vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
        assert_eq!(hull(&[(1.0, 2.0), (1.0, 2.0)]), vec![(1.0, 2.0)]);
    }
}
