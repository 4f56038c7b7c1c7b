//! A thermograph as an SVG picture: temperature up, value across with Left's side (positive
//! values) on the left as Winning Ways and CGSuite draw it, both walls and the mast.

use super::dyadic::Dyadic;
use super::thermograph::{Piece, Thermograph};
use crate::core::svg;

/// Margin around the plot, in pixels.
pub const PAD: f64 = 60.0;
/// Width of the plot area, in pixels.
pub const WIDTH: f64 = 420.0;
/// Height of the plot area, in pixels.
pub const HEIGHT: f64 = 300.0;
/// The colour of the walls and the mast.
pub const WALL: &str = "#1f77b4";

fn f(x: Dyadic) -> f64 {
    x.numerator() as f64 / (1u64 << x.exponent()) as f64
}

/// The ranges drawn: values (least, most) and temperatures (from −1 to a little above the
/// temperature, so the mast shows).
pub fn frame(t: &Thermograph) -> ((f64, f64), (f64, f64)) {
    let top = f(t.temperature).max(0.0) + 1.0;
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for w in [&t.left, &t.right] {
        for p in w {
            lo = lo.min(f(p.v));
            hi = hi.max(f(p.v));
        }
        let end = value_at(w, top);
        lo = lo.min(end);
        hi = hi.max(end);
    }
    if hi - lo < 1.0 {
        let mid = (hi + lo) / 2.0;
        lo = mid - 1.0;
        hi = mid + 1.0;
    }
    let margin = (hi - lo) * 0.08;
    ((lo - margin, hi + margin), (-1.0, top))
}

/// The wall's value at temperature `s`.
pub fn value_at(w: &[Piece], s: f64) -> f64 {
    let p = w.iter().rev().find(|p| f(p.t) <= s).unwrap_or(&w[0]);
    f(p.v) + p.slope as f64 * (s - f(p.t))
}

/// Where the point of value `v` at temperature `s` is drawn, in pixels.
pub fn point(t: &Thermograph, v: f64, s: f64) -> (f64, f64) {
    let ((lo, hi), (t0, t1)) = frame(t);
    (
        PAD + (hi - v) / (hi - lo) * WIDTH,
        PAD + HEIGHT - (s - t0) / (t1 - t0) * HEIGHT,
    )
}

/// The picture of `t`, titled `title`.
pub fn thermograph_svg(t: &Thermograph, title: &str) -> String {
    let ((lo, hi), (t0, t1)) = frame(t);
    let mut out = svg::begin(WIDTH + 2.0 * PAD, HEIGHT + 2.0 * PAD, 13);
    let (x0, y0) = (PAD, PAD + HEIGHT);
    // Axes: temperature 0 across, value 0 up (where in range).
    let (_, yz) = point(t, 0.0, 0.0);
    out.push_str(&format!(
        "<line x1=\"{x0}\" y1=\"{yz:.1}\" x2=\"{:.1}\" y2=\"{yz:.1}\" stroke=\"#999\"/>\n",
        PAD + WIDTH
    ));
    if lo < 0.0 && hi > 0.0 {
        let (xz, _) = point(t, 0.0, 0.0);
        out.push_str(&format!(
            "<line x1=\"{xz:.1}\" y1=\"{PAD}\" x2=\"{xz:.1}\" y2=\"{y0}\" stroke=\"#999\"/>\n"
        ));
    }
    out.push_str(&format!(
        "<rect x=\"{PAD}\" y=\"{PAD}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"none\" stroke=\"#333\"/>\n"
    ));
    // Walls: each piece's start, then the top of the frame.
    for w in [&t.left, &t.right] {
        let mut pts: Vec<(f64, f64)> = w.iter().map(|p| point(t, f(p.v), f(p.t))).collect();
        pts.push(point(t, value_at(w, t1), t1));
        let line: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        out.push_str(&format!(
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{WALL}\" stroke-width=\"2.5\"/>\n",
            line.join(" ")
        ));
    }
    // Labels: the axes, the frame's ends, the mean and the temperature.
    let label = |x: f64, y: f64, anchor: &str, text: &str| {
        format!(
            "<text x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"{anchor}\">{}</text>\n",
            svg::escape(text)
        )
    };
    out.push_str(&label(PAD + WIDTH / 2.0, PAD / 2.0, "middle", title));
    out.push_str(&label(
        PAD + WIDTH / 2.0,
        y0 + 40.0,
        "middle",
        "value (Left's side on the left)",
    ));
    out.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" transform=\"rotate(-90 {:.1} {:.1})\">temperature</text>\n",
        PAD - 40.0,
        PAD + HEIGHT / 2.0,
        PAD - 40.0,
        PAD + HEIGHT / 2.0
    ));
    out.push_str(&label(PAD, y0 + 18.0, "middle", &format!("{hi:.3}")));
    out.push_str(&label(
        PAD + WIDTH,
        y0 + 18.0,
        "middle",
        &format!("{lo:.3}"),
    ));
    out.push_str(&label(PAD - 6.0, y0 + 4.0, "end", &format!("{t0}")));
    out.push_str(&label(PAD - 6.0, PAD + 4.0, "end", &format!("{t1:.3}")));
    let (xm, ym) = point(t, f(t.mean), f(t.temperature));
    out.push_str(&label(
        xm + 8.0,
        ym - 8.0,
        "start",
        &format!("mean {}, temperature {}", t.mean, t.temperature),
    ));
    svg::end(&mut out);
    out
}
