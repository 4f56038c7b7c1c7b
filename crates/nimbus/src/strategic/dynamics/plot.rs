//! The time series of a run of the dynamics: each strategy's probability against the round or
//! the time, a panel a player (one when a single population plays), as SVG.

use crate::core::svg;
use std::fmt::Write;

const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// The picture: `at` the horizontal positions (rounds or times), `profiles[k][player][s]` the
/// probabilities there, `names[player]` the player and `strategies[player]` theirs, and what
/// the horizontal axis measures.
pub fn time_series(
    at: &[f64],
    profiles: &[Vec<Vec<f64>>],
    names: &[String],
    strategies: &[Vec<String>],
    axis: &str,
) -> String {
    let panels = profiles.first().map_or(1, Vec::len);
    let (w, h, pad, gap) = (560.0, 220.0, 50.0, 40.0);
    let total_h = pad * 2.0 + panels as f64 * h + (panels - 1) as f64 * gap;
    let mut out = svg::begin(w + pad * 2.0 + 150.0, total_h, 13);
    let end = at.last().copied().unwrap_or(1.0).max(f64::MIN_POSITIVE);
    let start = at.first().copied().unwrap_or(0.0);
    let span = (end - start).max(f64::MIN_POSITIVE);
    for p in 0..panels {
        let top = pad + p as f64 * (h + gap);
        let _ = writeln!(
            out,
            r##"<rect x="{pad}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#999"/>"##
        );
        let _ = writeln!(
            out,
            r#"<text x="{pad}" y="{}">{}</text>"#,
            top - 8.0,
            svg::escape(&names[p])
        );
        for (v, label) in [(0.0, "0"), (0.5, "0.5"), (1.0, "1")] {
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" text-anchor="end">{label}</text>"#,
                pad - 6.0,
                top + h * (1.0 - v) + 4.0
            );
        }
        for (s, name) in strategies[p].iter().enumerate() {
            let points: Vec<String> = at
                .iter()
                .zip(profiles)
                .map(|(t, prof)| {
                    let x = pad + w * (t - start) / span;
                    let y = top + h * (1.0 - prof[p][s].clamp(0.0, 1.0));
                    format!("{x:.2},{y:.2}")
                })
                .collect();
            let colour = COLOURS[s % COLOURS.len()];
            let _ = writeln!(
                out,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"><title>{}</title></polyline>"#,
                points.join(" "),
                svg::escape(name)
            );
            let _ = writeln!(
                out,
                r#"<text x="{}" y="{}" fill="{colour}">{}</text>"#,
                pad + w + 10.0,
                top + 16.0 + 16.0 * s as f64,
                svg::escape(name)
            );
        }
    }
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        pad + w / 2.0,
        total_h - 12.0,
        svg::escape(axis)
    );
    let _ = writeln!(
        out,
        r#"<text x="{pad}" y="{}">{}</text><text x="{}" y="{}" text-anchor="end">{}</text>"#,
        total_h - 30.0,
        trim(start),
        pad + w,
        total_h - 30.0,
        trim(end)
    );
    svg::end(&mut out);
    out
}

fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
