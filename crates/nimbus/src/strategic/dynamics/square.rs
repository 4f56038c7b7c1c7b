//! The phase portrait of a two-population dynamics (the replicator equation or the logit
//! dynamics) of a 2 × 2 game, on the unit square: across, the row population's share of its
//! first strategy; up, the column population's. Trajectories from a grid of starting points
//! with arrows along them, the run's own trajectory in colour, the rest points (when known)
//! marked by their stability, and the sides that rest as a whole drawn thick.

use super::draw::{arrow, line, mark};
use super::field::{self, Field};
use super::square_rest::{Side, SquareRest};
use crate::core::budget::Limits;
use crate::core::error::Result;
use crate::core::svg;
use crate::exact::to_f64;
use std::fmt::Write;

/// The square's left, bottom, right and top edges, in pixels.
pub const FRAME: (f64, f64, f64, f64) = (80.0, 480.0, 520.0, 40.0);

/// Where the shares `(x, y)` are drawn.
pub fn place(x: f64, y: f64) -> (f64, f64) {
    let (l, b, r, t) = FRAME;
    (l + x * (r - l), b - y * (b - t))
}

/// What the portrait shows besides the field: the players' and their first strategies' names,
/// the run's trajectory (the two shares at each record), its time, and the rest points.
pub struct Shown<'a> {
    /// The two players' names.
    pub players: &'a [String],
    /// Each player's first strategy's name.
    pub first: [&'a str; 2],
    /// The run: `(x, y)` at each record.
    pub run: &'a [(f64, f64)],
    /// The run's length in time.
    pub time: f64,
    /// The isolated rest points.
    pub rests: &'a [SquareRest],
    /// The sides resting as a whole.
    pub sides: &'a [Side],
}

/// The portrait of `field` on the bimatrix game `(a, b)` (2 × 2).
pub fn portrait(
    field: &Field,
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    shown: &Shown,
    limits: &Limits,
) -> Result<String> {
    let (l, bottom, r, t) = FRAME;
    let mut out = svg::begin(600.0, 560.0, 14);
    let _ = writeln!(
        out,
        r##"<rect x="{l}" y="{t}" width="{}" height="{}" fill="none" stroke="#444" stroke-width="1.5"/>"##,
        r - l,
        bottom - t
    );
    for (v, label) in [(0.0, "0"), (0.5, "1/2"), (1.0, "1")] {
        let (px, _) = place(v, 0.0);
        let (_, py) = place(0.0, v);
        let _ = writeln!(
            out,
            r#"<text x="{px}" y="{}" text-anchor="middle">{label}</text><text x="{}" y="{}" text-anchor="end">{label}</text>"#,
            bottom + 20.0,
            l - 12.0,
            py + 5.0
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}: share playing {}</text>"#,
        (l + r) / 2.0,
        bottom + 45.0,
        svg::escape(&shown.players[0]),
        svg::escape(shown.first[0])
    );
    let _ = writeln!(
        out,
        r#"<text x="22" y="{}" text-anchor="middle" transform="rotate(-90 22 {})">{}: share playing {}</text>"#,
        (bottom + t) / 2.0,
        (bottom + t) / 2.0,
        svg::escape(&shown.players[1]),
        svg::escape(shown.first[1])
    );
    for side in shown.sides {
        let ends = match side {
            Side::Row(first) => {
                let x = if *first { 1.0 } else { 0.0 };
                [place(x, 0.0), place(x, 1.0)]
            }
            Side::Column(first) => {
                let y = if *first { 1.0 } else { 0.0 };
                [place(0.0, y), place(1.0, y)]
            }
            Side::Everywhere => continue,
        };
        line(&mut out, &ends, "#000000", 5.0);
    }
    // Trajectories from the points of a grid of sixths inside the square.
    let horizon = shown.time.clamp(1.0, 50.0);
    let times: Vec<f64> = (0..=120).map(|k| horizon * k as f64 / 120.0).collect();
    for i in 1..6 {
        for j in 1..6 {
            let (x, y) = (i as f64 / 6.0, j as f64 / 6.0);
            let start = vec![vec![x, 1.0 - x], vec![y, 1.0 - y]];
            let (path, _) = field::run(field, a, b, &start, &times, limits)?;
            let points: Vec<(f64, f64)> = path.iter().map(|p| place(p[0][0], p[1][0])).collect();
            line(&mut out, &points, "#9a9a9a", 1.2);
            arrow(&mut out, &points);
        }
    }
    let own: Vec<(f64, f64)> = shown.run.iter().map(|&(x, y)| place(x, y)).collect();
    line(&mut out, &own, "#1f77b4", 2.5);
    arrow(&mut out, &own);
    for rest in shown.rests {
        mark(
            &mut out,
            place(to_f64(&rest.x), to_f64(&rest.y)),
            rest.stability,
        );
    }
    let legend = match (shown.rests.is_empty(), shown.sides.is_empty()) {
        (true, true) => "blue: this run",
        (false, true) => {
            "rest points: filled stable, open unstable, grey not decided; blue: this run"
        }
        _ => "rest points: filled stable, open unstable, grey not decided; thick: resting sides",
    };
    let _ = writeln!(out, r##"<text x="20" y="548" fill="#444">{legend}</text>"##);
    svg::end(&mut out);
    Ok(out)
}
