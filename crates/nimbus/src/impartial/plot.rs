//! The picture researchers draw of a nim-sequence: `G(n)` against `n`, the rare values in
//! another colour, the preperiod and one period marked.

use crate::core::svg;
use crate::impartial::period::Period;
use std::fmt::Write;

/// Width and height of the plotting area, and the margin around it, in pixels.
pub const WIDTH: f64 = 800.0;
/// Height of the plotting area.
pub const HEIGHT: f64 = 400.0;
/// Margin on every side.
pub const PAD: f64 = 60.0;
/// The colour of common values.
pub const COMMON: &str = "#1f77b4";
/// The colour of rare values.
pub const RARE: &str = "#d62728";
/// The colour of the preperiod line and the period band's edges.
pub const MARK: &str = "#2ca02c";

/// Which values are common: the sparse-space split of the sequence (as the sparse method
/// builds it), a set of values no two of which xor to a third, taken greedily from the most
/// frequent value down; 0 is never common. The rest are rare.
pub fn common_values(values: &[u64]) -> std::collections::HashSet<u64> {
    let mut count: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    for &v in values {
        *count.entry(v).or_default() += 1;
    }
    let mut order: Vec<(u64, u64)> = count.into_iter().filter(|&(v, _)| v != 0).collect();
    order.sort_by_key(|&(v, c)| (std::cmp::Reverse(c), v));
    let mut common = std::collections::HashSet::new();
    for (v, _) in order {
        if common.iter().all(|&c| !common.contains(&(c ^ v))) {
            common.insert(v);
        }
    }
    common
}

/// The SVG scatter plot of `values` (`G(0..values.len())`) for the ruleset `game`, with the
/// `period` marked when there is one: a line at the preperiod and a band over one period.
/// Up to `WIDTH` heaps each gets a dot; beyond, each pixel column shows every value some heap
/// in it takes, so no value (a rare one least of all) is lost to the scale.
pub fn sequence_svg(game: &str, values: &[u64], period: Option<Period>, proved: bool) -> String {
    let n = values.len().max(1) as f64;
    let top = values.iter().copied().max().unwrap_or(0).max(1) as f64;
    let x = |i: f64| PAD + i / n * WIDTH;
    let y = |g: f64| PAD + HEIGHT - g / top * HEIGHT;
    let (w, h) = (WIDTH + 2.0 * PAD, HEIGHT + 2.0 * PAD);
    let mut svg = svg::begin(w, h, 14);
    let title = svg::escape(game);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="30" text-anchor="middle">nim-sequence of {title}: G(n) for n = 0 to {}</text>"#,
        PAD + WIDTH / 2.0,
        values.len().saturating_sub(1)
    );
    if let Some(p) = period {
        let (a, b) = (p.preperiod as f64, (p.preperiod + p.period) as f64);
        if a < n {
            let band = (x(b.min(n)) - x(a)).max(1.0);
            let _ = writeln!(
                svg,
                r##"<rect x="{}" y="{PAD}" width="{band}" height="{HEIGHT}" fill="#2ca02c" fill-opacity="0.12"/>"##,
                x(a)
            );
            let _ = writeln!(
                svg,
                r#"<line x1="{0}" y1="{PAD}" x2="{0}" y2="{1}" stroke="{MARK}" stroke-width="2"/>"#,
                x(a),
                PAD + HEIGHT
            );
            let status = if proved { "proved" } else { "observed" };
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}" font-size="12" fill="{MARK}">preperiod {}, period {} ({status})</text>"#,
                x(a) + 4.0,
                PAD - 8.0,
                p.preperiod,
                p.period
            );
        }
    }
    let _ = writeln!(
        svg,
        r##"<rect x="{PAD}" y="{PAD}" width="{WIDTH}" height="{HEIGHT}" fill="none" stroke="#999"/>"##
    );
    for (t, label) in [(0.0, "0".to_string()), (top, (top as u64).to_string())] {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end">{label}</text>"#,
            PAD - 6.0,
            y(t) + 5.0
        );
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">n</text>"#,
        PAD + WIDTH / 2.0,
        h - 20.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
        PAD + WIDTH,
        h - 20.0,
        values.len().saturating_sub(1)
    );
    let common = common_values(values);
    let colour = |v: u64| if common.contains(&v) { COMMON } else { RARE };
    if values.len() as f64 <= WIDTH {
        for (i, &v) in values.iter().enumerate() {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="{}"/>"#,
                x(i as f64 + 0.5),
                y(v as f64),
                colour(v)
            );
        }
    } else {
        // One pixel column at a time: the distinct values of its heaps, rare ones drawn last
        // so that they stay visible.
        let columns = WIDTH as usize;
        let mut seen: Vec<u64> = Vec::new();
        for c in 0..columns {
            let lo = c * values.len() / columns;
            let hi = ((c + 1) * values.len() / columns).max(lo + 1);
            seen.clear();
            seen.extend_from_slice(&values[lo..hi.min(values.len())]);
            seen.sort_unstable();
            seen.dedup();
            seen.sort_by_key(|v| !common.contains(v));
            for &v in &seen {
                let _ = writeln!(
                    svg,
                    r#"<rect x="{:.1}" y="{:.1}" width="1.5" height="3" fill="{}"/>"#,
                    PAD + c as f64,
                    y(v as f64) - 1.5,
                    colour(v)
                );
            }
        }
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" font-size="12"><tspan fill="{COMMON}">● common values</tspan>   <tspan fill="{RARE}">● rare values</tspan></text>"#,
        PAD,
        h - 20.0
    );
    svg::end(&mut svg);
    svg
}
