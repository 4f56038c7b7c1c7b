//! The phase portrait of the one-population replicator equation of a three-strategy game, on
//! its simplex: trajectories from a grid of starting points with arrows along them, the run's
//! own trajectory in colour, and the rest points marked by their stability (filled: stable;
//! open: unstable; grey: not decided by the linearisation).

use super::replicator;
use super::rest_points::{RestPoint, Stability};
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

/// The portrait of the game `a` (3 × 3) to time `time`, with the run's own trajectory `run`
/// and the rest points.
pub fn portrait(
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
            let (path, _) = replicator::run(a, a, &start, &times, limits)?;
            let points: Vec<(f64, f64)> = path.iter().map(|p| place(&p[0])).collect();
            line(&mut out, &points, "#9a9a9a", 1.2);
            arrow(&mut out, &points);
        }
    }
    let own: Vec<(f64, f64)> = run.iter().map(|x| place(x)).collect();
    line(&mut out, &own, "#1f77b4", 2.5);
    arrow(&mut out, &own);
    for r in rests {
        let x: Vec<f64> = r.shares.iter().map(to_f64).collect();
        let (px, py) = place(&x);
        let (fill, word) = match r.stability {
            Stability::Stable => ("#000000", "asymptotically stable"),
            Stability::Unstable => ("#ffffff", "unstable"),
            Stability::Undecided => ("#909090", "not decided by the linearisation"),
        };
        let _ = writeln!(
            out,
            r##"<circle cx="{px:.2}" cy="{py:.2}" r="7" fill="{fill}" stroke="#000" stroke-width="1.5"><title>{word}</title></circle>"##
        );
    }
    let _ = writeln!(
        out,
        r##"<text x="20" y="525" fill="#444">rest points: filled stable, open unstable, grey not decided; blue: this run</text>"##
    );
    svg::end(&mut out);
    Ok(out)
}

fn line(out: &mut String, points: &[(f64, f64)], colour: &str, width: f64) {
    let text: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{x:.2},{y:.2}"))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="{width}"/>"#,
        text.join(" ")
    );
}

/// A small arrowhead where the path has gone a third of its length, pointing along it.
fn arrow(out: &mut String, points: &[(f64, f64)]) {
    let lengths: Vec<f64> = points
        .windows(2)
        .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
        .collect();
    let total: f64 = lengths.iter().sum();
    if total < 12.0 {
        return;
    }
    let mut walked = 0.0;
    for (k, len) in lengths.iter().enumerate() {
        walked += len;
        if walked >= total / 3.0 && *len > 0.0 {
            let (a, b) = (points[k], points[k + 1]);
            let (dx, dy) = ((b.0 - a.0) / len, (b.1 - a.1) / len);
            let tip = (b.0, b.1);
            let back = (tip.0 - 8.0 * dx, tip.1 - 8.0 * dy);
            let side = (-dy * 4.0, dx * 4.0);
            let _ = writeln!(
                out,
                r##"<polygon points="{:.2},{:.2} {:.2},{:.2} {:.2},{:.2}" fill="#666"/>"##,
                tip.0,
                tip.1,
                back.0 + side.0,
                back.1 + side.1,
                back.0 - side.0,
                back.1 - side.1
            );
            return;
        }
    }
}
