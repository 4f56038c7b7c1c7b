//! The upper envelope of a two-player game in which one player has two strategies, as Game
//! Theory Explorer draws it: against every mixture of the player with two strategies (the
//! *mixer*), each strategy of the other player (the *responder*) pays a line, and the upper
//! envelope of those lines is the responder's best-reply payoff. Its kinks are the mixtures
//! at which the responder is indifferent between two strategies — the only mixtures at which
//! the responder can mix in an equilibrium.
//!
//! The envelope is computed exactly (its kinks are fractions); the picture is an SVG.
//!
//! ```
//! use nimbus::strategic::solvers::envelope::envelope;
//! use nimbus::strategic::game::NormalForm;
//! use nimbus::exact::Q;
//! let q = |v: &[i64]| v.iter().map(|&x| Q::from_integer(x.into())).collect::<Vec<_>>();
//! // The row player has two strategies; the column player's three lines.
//! let a = vec![q(&[0, 0, 0]), q(&[0, 0, 0])];
//! let b = vec![q(&[3, 0, 2]), q(&[0, 3, 2])];
//! let e = envelope(&NormalForm::bimatrix(&a, &b).unwrap()).unwrap();
//! assert_eq!(e.mixer, 0);
//! // The first column is best up to t = 1/3, the third up to 2/3, then the second.
//! let from: Vec<String> = e.pieces.iter().map(|p| p.from.to_string()).collect();
//! assert_eq!(from, ["0", "1/3", "2/3"]);
//! assert_eq!(e.pieces.iter().map(|p| p.best).collect::<Vec<_>>(), [0, 2, 1]);
//! ```

use crate::core::error::{Error, Result};
use crate::core::svg;
use crate::exact::{to_f64, Q};
use crate::strategic::game::NormalForm;
use num_traits::{One, Zero};
use std::fmt::Write;

/// One piece of the envelope: from `from` to `to` (probabilities of the mixer's second
/// strategy), the responder's strategy `best` is a best reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Where the piece starts.
    pub from: Q,
    /// Where it ends.
    pub to: Q,
    /// The responder's strategy whose line is the envelope there (the first of equal lines).
    pub best: usize,
}

/// A game's envelope.
#[derive(Debug, Clone)]
pub struct Envelope {
    /// The player with two strategies (0: rows, 1: columns).
    pub mixer: usize,
    /// For each of the responder's strategies, its payoff against the mixer's first and
    /// second strategy (the line runs from the one to the other).
    pub lines: Vec<(Q, Q)>,
    /// The envelope, left to right.
    pub pieces: Vec<Piece>,
}

impl Envelope {
    /// The responder's payoff from strategy `k` when the mixer plays its second strategy with
    /// probability `t`.
    pub fn value(&self, k: usize, t: &Q) -> Q {
        let (a, b) = &self.lines[k];
        a + (b - a) * t
    }
}

/// The envelope of `game`, which must have two players, one of them with exactly two
/// strategies (the column player's mixtures when both have two).
pub fn envelope(game: &NormalForm) -> Result<Envelope> {
    let shape = game.shape();
    let mixer = match shape.as_slice() {
        [_, 2] => 1,
        [2, _] => 0,
        _ => {
            return Err(Error::Invalid(format!(
                "the envelope is drawn for two-player games in which one player has two \
                 strategies; this game is {}",
                shape
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(" x ")
            )))
        }
    };
    let responder = 1 - mixer;
    let lines: Vec<(Q, Q)> = (0..shape[responder])
        .map(|k| {
            let at = |s: usize| {
                let mut profile = [0, 0];
                profile[mixer] = s;
                profile[responder] = k;
                game.payoff(&profile, responder).clone()
            };
            (at(0), at(1))
        })
        .collect();
    let mut e = Envelope {
        mixer,
        lines,
        pieces: Vec::new(),
    };
    e.pieces = upper_envelope(&e.lines);
    Ok(e)
}

/// The upper envelope on [0, 1] of lines given by their values at 0 and at 1: from the best
/// line at 0 (the steepest of equal ones), step to the first crossing by a steeper line, and
/// so on. At most one piece a line, since slopes only increase.
pub fn upper_envelope(lines: &[(Q, Q)]) -> Vec<Piece> {
    let value = |k: usize, t: &Q| {
        let (a, b) = &lines[k];
        a + (b - a) * t
    };
    let slope = |k: usize| &lines[k].1 - &lines[k].0;
    let n = lines.len();
    let mut t = Q::zero();
    let mut best = (0..n)
        .max_by(|&i, &j| {
            (value(i, &t), slope(i))
                .cmp(&(value(j, &t), slope(j)))
                // The first of equal lines.
                .then(j.cmp(&i))
        })
        .unwrap_or(0);
    let mut pieces = Vec::new();
    loop {
        // The first point after t at which a steeper line reaches the current one.
        let mut next: Option<(Q, usize)> = None;
        for k in 0..n {
            let ds = slope(k) - slope(best);
            if ds <= Q::zero() {
                continue;
            }
            let at = (value(best, &Q::zero()) - value(k, &Q::zero())) / &ds;
            if at <= t || at >= Q::one() {
                continue;
            }
            let better = match &next {
                None => true,
                Some((x, j)) => at < *x || (at == *x && slope(k) > slope(*j)),
            };
            if better {
                next = Some((at, k));
            }
        }
        match next {
            Some((at, k)) => {
                pieces.push(Piece {
                    from: t.clone(),
                    to: at.clone(),
                    best,
                });
                t = at;
                best = k;
            }
            None => {
                pieces.push(Piece {
                    from: t,
                    to: Q::one(),
                    best,
                });
                return pieces;
            }
        }
    }
}

/// The plot's square and margin, in pixels.
pub const SIZE: f64 = 400.0;
/// The margin around the plot's square.
pub const PAD: f64 = 60.0;
/// The colour of the envelope.
pub const ENVELOPE: &str = "#1f77b4";

/// The envelope as an SVG picture: x is the probability of the mixer's second strategy, y the
/// responder's payoff; every line thin and grey with its strategy's name, the envelope thick
/// and blue, its kinks marked with their probabilities.
pub fn plot(game: &NormalForm, e: &Envelope) -> String {
    let responder = 1 - e.mixer;
    let (lo, hi) = e
        .lines
        .iter()
        .flat_map(|(a, b)| [to_f64(a), to_f64(b)])
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let (lo, hi) = if hi - lo < 1e-12 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    let x = |t: f64| PAD + t * SIZE;
    let y = |v: f64| PAD + SIZE - (v - lo) / (hi - lo) * SIZE;
    let total_w = SIZE + 2.0 * PAD + 120.0;
    let total_h = SIZE + 2.0 * PAD;
    let mut svg = svg::begin(total_w, total_h, 13);
    let _ = writeln!(
        svg,
        r##"<rect x="{PAD}" y="{PAD}" width="{SIZE}" height="{SIZE}" fill="none" stroke="#999"/>"##
    );
    let mixer = svg::escape(&game.players[e.mixer]);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">t = P({mixer} plays {})</text>"#,
        PAD + SIZE / 2.0,
        total_h - 18.0,
        svg::escape(&game.strategies[e.mixer][1])
    );
    let _ = writeln!(
        svg,
        r#"<text x="18" y="{0}" text-anchor="middle" transform="rotate(-90 18 {0})">{1}'s payoff</text>"#,
        PAD + SIZE / 2.0,
        svg::escape(&game.players[responder])
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="30" text-anchor="middle">the upper envelope: {}'s best replies</text>"#,
        PAD + SIZE / 2.0,
        svg::escape(&game.players[responder])
    );
    for (v, anchor) in [(lo, "end"), (hi, "end")] {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="{anchor}">{}</text>"#,
            PAD - 6.0,
            y(v) + 4.0,
            (v * 1000.0).round() / 1000.0
        );
    }
    for (t, label) in [(0.0, "0"), (1.0, "1")] {
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="middle">{label}</text>"#,
            x(t),
            PAD + SIZE + 18.0
        );
    }
    for (k, (a, b)) in e.lines.iter().enumerate() {
        let (a, b) = (to_f64(a), to_f64(b));
        let _ = writeln!(
            svg,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#b0b0b0" stroke-width="1.5"/>"##,
            x(0.0),
            y(a),
            x(1.0),
            y(b)
        );
        let _ = writeln!(
            svg,
            r##"<text x="{}" y="{}" fill="#555">{}</text>"##,
            x(1.0) + 8.0,
            y(b) + 4.0,
            svg::escape(&game.strategies[responder][k])
        );
    }
    let points: Vec<String> = e
        .pieces
        .iter()
        .flat_map(|p| [&p.from, &p.to].map(|t| (to_f64(t), to_f64(&e.value(p.best, t)))))
        .map(|(t, v)| format!("{:.2},{:.2}", x(t), y(v)))
        .collect();
    let _ = writeln!(
        svg,
        r#"<polyline points="{}" fill="none" stroke="{ENVELOPE}" stroke-width="4" stroke-linejoin="round"/>"#,
        points.join(" ")
    );
    for p in e.pieces.iter().skip(1) {
        let (t, v) = (to_f64(&p.from), to_f64(&e.value(p.best, &p.from)));
        let _ = writeln!(
            svg,
            r#"<circle cx="{:.2}" cy="{:.2}" r="5" fill="black"/>"#,
            x(t),
            y(v)
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.2}" y="{:.2}" text-anchor="middle">t = {}</text>"#,
            x(t),
            y(v) - 10.0,
            p.from
        );
    }
    svg::end(&mut svg);
    svg
}
