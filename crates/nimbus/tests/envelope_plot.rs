//! The upper envelope of 2 × n and n × 2 games: exact against the maximum of the lines taken
//! point by point, and tested as a picture (rasterised, the pixels on and off the envelope).

use nimbus::exact::{to_f64, Q};
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::solvers::envelope::{envelope, plot, Envelope, PAD, SIZE};
use proptest::prelude::*;
mod picture;

fn q(x: i64) -> Q {
    Q::from_integer(x.into())
}

/// A game from the payoffs: `rows` rows, `cols` columns, the row player's then the column
/// player's.
fn game(rows: usize, cols: usize, pay: &[i64]) -> NormalForm {
    let a: Vec<Vec<Q>> = (0..rows)
        .map(|i| (0..cols).map(|j| q(pay[i * cols + j])).collect())
        .collect();
    let b: Vec<Vec<Q>> = (0..rows)
        .map(|i| {
            (0..cols)
                .map(|j| q(pay[rows * cols + i * cols + j]))
                .collect()
        })
        .collect();
    NormalForm::bimatrix(&a, &b).unwrap()
}

/// The largest of the lines at `t`, by taking every one.
fn brute_max(e: &Envelope, t: &Q) -> Q {
    (0..e.lines.len()).map(|k| e.value(k, t)).max().unwrap()
}

/// The point of the picture for mixture `t` and payoff `v`, in pixels.
fn at(e: &Envelope, t: f64, v: f64) -> (f64, f64) {
    let (lo, hi) = e
        .lines
        .iter()
        .flat_map(|(a, b)| [to_f64(a), to_f64(b)])
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
            (l.min(x), h.max(x))
        });
    let (lo, hi) = if hi - lo < 1e-12 {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo, hi)
    };
    (PAD + t * SIZE, PAD + SIZE - (v - lo) / (hi - lo) * SIZE)
}

fn is_envelope_blue(c: [u8; 3]) -> bool {
    let target: [u8; 3] = [0x1f, 0x77, 0xb4];
    c.iter()
        .zip(target)
        .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 40)
}

/// Whether some pixel within `r` of `(x, y)` has the envelope's colour.
fn blue_near(pix: &resvg::tiny_skia::Pixmap, x: f64, y: f64, r: i32) -> bool {
    (-r..=r).any(|dx| {
        (-r..=r).any(|dy| {
            let (px, py) = (x.round() as i32 + dx, y.round() as i32 + dy);
            px >= 0
                && py >= 0
                && pix
                    .pixel(px as u32, py as u32)
                    .is_some_and(|c| is_envelope_blue([c.red(), c.green(), c.blue()]))
        })
    })
}

/// The distance in pixels from `(x, y)` to the envelope's drawn polyline.
fn distance_to_envelope(e: &Envelope, x: f64, y: f64) -> f64 {
    e.pieces
        .iter()
        .map(|p| {
            let (x0, y0) = at(e, to_f64(&p.from), to_f64(&e.value(p.best, &p.from)));
            let (x1, y1) = at(e, to_f64(&p.to), to_f64(&e.value(p.best, &p.to)));
            let (dx, dy) = (x1 - x0, y1 - y0);
            let len = dx * dx + dy * dy;
            let s = if len == 0.0 {
                0.0
            } else {
                (((x - x0) * dx + (y - y0) * dy) / len).clamp(0.0, 1.0)
            };
            ((x - x0 - s * dx).powi(2) + (y - y0 - s * dy).powi(2)).sqrt()
        })
        .fold(f64::INFINITY, f64::min)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_envelope_is_the_maximum_of_the_lines_and_is_drawn_there(
        n in 1usize..6,
        mixer_rows in any::<bool>(),
        pay in proptest::collection::vec(-6i64..7, 20),
    ) {
        let (rows, cols) = if mixer_rows { (2, n) } else { (n, 2) };
        let g = game(rows, cols, &pay);
        let e = envelope(&g).unwrap();
        // A square 2 x 2 game is drawn against the column player's mixtures.
        prop_assert_eq!(e.mixer, if cols == 2 { 1 } else { 0 });
        // Exact: the pieces tile [0, 1], and on each the line named is the largest.
        prop_assert_eq!(&e.pieces[0].from, &q(0));
        prop_assert_eq!(&e.pieces.last().unwrap().to, &q(1));
        for w in e.pieces.windows(2) {
            prop_assert_eq!(&w[0].to, &w[1].from);
            prop_assert!(w[0].from < w[0].to);
        }
        for p in &e.pieces {
            for t in [&p.from, &p.to, &((&p.from + &p.to) / q(2))] {
                prop_assert_eq!(e.value(p.best, t), brute_max(&e, t), "at t = {}", t);
            }
        }
        for k in 0..=60 {
            let t = Q::new(k.into(), 60.into());
            let p = e.pieces.iter().find(|p| p.from <= t && t <= p.to).unwrap();
            prop_assert_eq!(e.value(p.best, &t), brute_max(&e, &t));
        }
        // The picture: blue along the maximum, none well away from it.
        let pix = picture::render(&plot(&g, &e));
        for k in 1..20 {
            let t = k as f64 / 20.0;
            let v = to_f64(&brute_max(&e, &Q::new(k.into(), 20.into())));
            let (x, y) = at(&e, t, v);
            // A kink's dot covers the line where two pieces meet.
            let by_a_kink = e.pieces.iter().skip(1).any(|p| {
                let (kx, ky) = at(&e, to_f64(&p.from), to_f64(&e.value(p.best, &p.from)));
                (kx - x).hypot(ky - y) < 8.0
            });
            if !by_a_kink {
                prop_assert!(blue_near(&pix, x, y, 2), "no envelope at t = {}", t);
            }
            for dy in [-25.0, 25.0] {
                let (x2, y2) = (x, y + dy);
                if (PAD + 3.0..PAD + SIZE - 3.0).contains(&y2) && distance_to_envelope(&e, x2, y2) > 8.0 {
                    prop_assert!(!blue_near(&pix, x2, y2, 1), "blue off the envelope at t = {}, {} px", t, dy);
                }
            }
        }
    }
}

#[test]
fn only_games_with_a_two_strategy_player_have_an_envelope() {
    let g = game(3, 3, &[0; 18]);
    assert!(envelope(&g).unwrap_err().to_string().contains("3 x 3"));
}
