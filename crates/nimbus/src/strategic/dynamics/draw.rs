//! What the phase portraits share: paths with arrowheads along them, and rest points marked by
//! their stability (filled: stable; open: unstable; grey: not decided by the linearisation).

use super::rest_points::Stability;
use std::fmt::Write;

/// A rest point at `(px, py)` (pixels).
pub fn mark(out: &mut String, (px, py): (f64, f64), stability: Stability) {
    let (fill, word) = match stability {
        Stability::Stable => ("#000000", "asymptotically stable"),
        Stability::Unstable => ("#ffffff", "unstable"),
        Stability::Undecided => ("#909090", "not decided by the linearisation"),
    };
    let _ = writeln!(
        out,
        r##"<circle cx="{px:.2}" cy="{py:.2}" r="7" fill="{fill}" stroke="#000" stroke-width="1.5"><title>{word}</title></circle>"##
    );
}

/// A path through `points`.
pub fn line(out: &mut String, points: &[(f64, f64)], colour: &str, width: f64) {
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
pub fn arrow(out: &mut String, points: &[(f64, f64)]) {
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
