//! The phase portrait of a one-population dynamics (the replicator equation, with or without
//! mutation, or the logit dynamics) of a three-strategy game, on its simplex: trajectories from
//! a grid of starting points with arrows along them, the run's own trajectory in colour, and
//! the rest points, when known, marked by their stability (filled: stable; open: unstable;
//! grey: not decided by the linearisation).

use super::draw::{arrow, line, mark};
use super::field::{self, Field};
use super::rest_points::RestPoint;
use crate::core::budget::Limits;
use crate::core::error::Result;
use crate::core::svg;
use crate::exact::to_f64;
use std::fmt::Write;

/// The triangle's corners (strategy 1 bottom left, 2 bottom right, 3 at the top), in pixels.
pub const CORNERS: [(f64, f64); 3] = [(60.0, 470.0), (540.0, 470.0), (300.0, 54.3)];

/// Where the shares `x` are drawn.
pub fn place(x: &[f64]) -> (f64, f64) {
    let mut p = (0.0, 0.0);
    for (s, c) in x.iter().zip(CORNERS) {
        p.0 += s * c.0;
        p.1 += s * c.1;
    }
    p
}

/// The portrait of `field` on the game `a` (3 × 3) to time `time`, with the run's own
/// trajectory `run` and the rest points.
pub fn portrait(
    field: &Field,
    a: &[Vec<f64>],
    names: &[String],
    run: &[Vec<f64>],
    rests: &[RestPoint],
    time: f64,
    limits: &Limits,
) -> Result<String> {
    let mut out = svg::begin(600.0, 540.0, 14);
    let corner = |k: usize| CORNERS[k];
    let _ = writeln!(
        out,
        r##"<polygon points="{},{} {},{} {},{}" fill="none" stroke="#444" stroke-width="1.5"/>"##,
        corner(0).0,
        corner(0).1,
        corner(1).0,
        corner(1).1,
        corner(2).0,
        corner(2).1
    );
    let labels = [
        (-8.0, 22.0, "end"),
        (8.0, 22.0, "start"),
        (0.0, -12.0, "middle"),
    ];
    for (k, (dx, dy, anchor)) in labels.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="{anchor}">{}</text>"#,
            corner(k).0 + dx,
            corner(k).1 + dy,
            svg::escape(&names[k])
        );
    }
    // Trajectories from the points of a grid of sixths inside the triangle.
    let horizon = time.clamp(1.0, 50.0);
    let times: Vec<f64> = (0..=120).map(|k| horizon * k as f64 / 120.0).collect();
    for i in 1..6 {
        for j in 1..6 - i {
            let start = vec![vec![
                i as f64 / 6.0,
                j as f64 / 6.0,
                (6 - i - j) as f64 / 6.0,
            ]];
            let (path, _) = field::run(field, a, a, &start, &times, limits)?;
            let points: Vec<(f64, f64)> = path.iter().map(|p| place(&p[0])).collect();
            line(&mut out, &points, "#9a9a9a", 1.2);
            arrow(&mut out, &points);
        }
    }
    let own: Vec<(f64, f64)> = run.iter().map(|x| place(x)).collect();
    line(&mut out, &own, "#1f77b4", 2.5);
    arrow(&mut out, &own);
    marks(&mut out, rests);
    svg::end(&mut out);
    Ok(out)
}

/// The rest points by their stability, and the legend.
fn marks(out: &mut String, rests: &[RestPoint]) {
    for r in rests {
        let x: Vec<f64> = r.shares.iter().map(to_f64).collect();
        let (px, py) = place(&x);
        mark(out, (px, py), r.stability);
    }
    let legend = if rests.is_empty() {
        "blue: this run"
    } else {
        "rest points: filled stable, open unstable, grey not decided; blue: this run"
    };
    let _ = writeln!(out, r##"<text x="20" y="525" fill="#444">{legend}</text>"##);
}
