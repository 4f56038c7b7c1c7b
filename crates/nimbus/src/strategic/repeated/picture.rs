//! The folk-theorem picture of a repeated game, in the payoff plane: the feasible payoffs
//! (the hull of the stage game's outcomes) in grey, the region above both players' minmax
//! payoffs marked by lines (solid: against pure punishments, which the pure-action
//! equilibria here use; dashed: against mixed ones, the folk theorem's bound), the outer
//! bound of the subgame-perfect equilibrium payoffs outlined in blue and the inner bound
//! filled, the stage game's outcomes as dots and its pure equilibria in red.

use crate::core::svg;
use crate::strategic::solvers::correlated_picture::{axes, hull, polygon, Scale};
use std::fmt::Write;

/// What the picture shows, each point a payoff pair `(u1, u2)`.
pub struct Shown<'a> {
    /// The players' names.
    pub players: [&'a str; 2],
    /// Every pure outcome's payoffs, and whether it is a stage equilibrium.
    pub outcomes: &'a [((f64, f64), bool)],
    /// The minmax payoffs, against pure and mixed punishments.
    pub minmax_pure: (f64, f64),
    /// Against mixed punishments.
    pub minmax_mixed: (f64, f64),
    /// The outer bound's vertices (empty when there is no equilibrium).
    pub outer: &'a [(f64, f64)],
    /// The inner bound's, when there is one.
    pub inner: Option<&'a [(f64, f64)]>,
}

/// The picture as an SVG document.
pub fn picture(p: &Shown) -> String {
    let points: Vec<(f64, f64)> = p.outcomes.iter().map(|o| o.0).collect();
    let scale = Scale::of(&points);
    let mut out = svg::begin(600.0, 560.0, 14);
    axes(&mut out, &scale, p.players);
    polygon(
        &mut out,
        &scale,
        &hull(&points),
        r##"fill="#e6e6e6" stroke="#999""##,
    );
    if let Some(inner) = p.inner {
        polygon(
            &mut out,
            &scale,
            inner,
            r##"fill="#9ecae1" stroke="#9ecae1""##,
        );
    }
    if !p.outer.is_empty() {
        polygon(
            &mut out,
            &scale,
            p.outer,
            r##"fill="none" stroke="#1f77b4" stroke-width="2""##,
        );
    }
    let (low, high) = bounds(&points);
    for (v, style) in [
        (p.minmax_pure, r##"stroke="#555" stroke-width="1.2""##),
        (
            p.minmax_mixed,
            r##"stroke="#555" stroke-width="1.2" stroke-dasharray="5 4""##,
        ),
    ] {
        let (x0, y0) = scale.place((v.0, low.1));
        let (x1, y1) = scale.place((v.0, high.1));
        let _ = writeln!(
            out,
            r#"<line x1="{x0:.2}" y1="{y0:.2}" x2="{x1:.2}" y2="{y1:.2}" {style}/>"#
        );
        let (x0, y0) = scale.place((low.0, v.1));
        let (x1, y1) = scale.place((high.0, v.1));
        let _ = writeln!(
            out,
            r#"<line x1="{x0:.2}" y1="{y0:.2}" x2="{x1:.2}" y2="{y1:.2}" {style}/>"#
        );
    }
    for &(q, nash) in p.outcomes {
        let (x, y) = scale.place(q);
        let (r, fill, title) = if nash {
            (6, "#d62728", "a pure equilibrium of the stage game")
        } else {
            (4, "#333", "a pure outcome of the stage game")
        };
        let _ = writeln!(
            out,
            r##"<circle cx="{x:.2}" cy="{y:.2}" r="{r}" fill="{fill}"><title>{title}</title></circle>"##
        );
    }
    let _ = writeln!(
        out,
        r##"<text x="20" y="548" fill="#444">grey: feasible; blue: equilibrium payoffs; lines: minmax (dashed: mixed)</text>"##
    );
    svg::end(&mut out);
    out
}

/// The least and greatest coordinates of `points`.
fn bounds(points: &[(f64, f64)]) -> ((f64, f64), (f64, f64)) {
    points.iter().fold(
        ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN)),
        |(l, h), &(x, y)| ((l.0.min(x), l.1.min(y)), (h.0.max(x), h.1.max(y))),
    )
}
