//! The best-reply plot of a 2 × 2 game, tested as a picture: the SVG is rasterised and the
//! pixels along each best reply and at each equilibrium are checked.

use nimbus::exact::{to_f64, Q};
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::solvers::two_by_two::{plot, solve, Piece};
mod picture;

use resvg::tiny_skia;

/// The plot's square: 400 pixels with a margin of 60 (as drawn).
const SIZE: f64 = 400.0;
const PAD: f64 = 60.0;

struct Picture {
    pixmap: tiny_skia::Pixmap,
}

impl Picture {
    fn render(svg: &str) -> Picture {
        Picture {
            pixmap: picture::render(svg),
        }
    }

    /// The colour at the point `(p, q)` of the unit square, and at the pixels around it (a
    /// line is a few pixels wide and antialiased at its edges).
    fn near(&self, p: f64, q: f64) -> Vec<[u8; 3]> {
        let (cx, cy) = (PAD + p * SIZE, PAD + SIZE - q * SIZE);
        let mut out = Vec::new();
        for dx in -1i32..=1 {
            for dy in -1i32..=1 {
                let (x, y) = (cx.round() as i32 + dx, cy.round() as i32 + dy);
                if let Some(c) = self.pixmap.pixel(x as u32, y as u32) {
                    out.push([c.red(), c.green(), c.blue()]);
                }
            }
        }
        out
    }

    /// Whether every pixel around `(p, q)` is white.
    fn blank(&self, p: f64, q: f64) -> bool {
        self.near(p, q).iter().all(|c| c.iter().all(|&v| v >= 250))
    }

    fn has(&self, p: f64, q: f64, colour: [u8; 3]) -> bool {
        self.near(p, q).iter().any(|c| {
            c.iter()
                .zip(colour)
                .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 40)
        })
    }
}

const ROW: [u8; 3] = [0x1f, 0x77, 0xb4];
const COL: [u8; 3] = [0xd6, 0x27, 0x28];
const BLACK: [u8; 3] = [0, 0, 0];

fn game(a: &str, b: &str) -> NormalForm {
    let parse = |m: &str| -> Vec<Vec<Q>> {
        m.split(';')
            .map(|r| {
                r.split_whitespace()
                    .map(|x| x.parse::<Q>().unwrap())
                    .collect()
            })
            .collect()
    };
    NormalForm::bimatrix(&parse(a), &parse(b)).unwrap()
}

/// Points along a piece of a correspondence (its segment, or its rectangle's edges).
fn samples(pc: &Piece) -> Vec<(f64, f64)> {
    let (p0, p1, q0, q1) = (
        to_f64(&pc.p.0),
        to_f64(&pc.p.1),
        to_f64(&pc.q.0),
        to_f64(&pc.q.1),
    );
    let along = |a: (f64, f64), b: (f64, f64)| {
        (1..20).map(move |k| {
            let t = f64::from(k) / 20.0;
            (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
        })
    };
    if p0 == p1 || q0 == q1 {
        along((p0, q0), (p1, q1)).collect()
    } else {
        // A rectangle is drawn as a tinted area with its border in the line's style.
        along((p0, q0), (p1, q0))
            .chain(along((p1, q0), (p1, q1)))
            .chain(along((p1, q1), (p0, q1)))
            .chain(along((p0, q1), (p0, q0)))
            .collect()
    }
}

/// Every best reply is drawn in its colour along its whole length (the column player's line
/// is dashed: most of its samples are coloured), and every equilibrium is a black point.
fn check(a: &str, b: &str) {
    let g = game(a, b);
    let s = solve(&g).unwrap();
    let pic = Picture::render(&plot(&g, &s));
    for pc in &s.row_best {
        let pts = samples(pc);
        let hit = pts
            .iter()
            .filter(|&&(p, q)| pic.has(p, q, ROW) || pic.has(p, q, BLACK));
        assert_eq!(hit.count(), pts.len(), "row best reply {pc:?} of {a} / {b}");
    }
    for pc in &s.col_best {
        let pts = samples(pc);
        let hit = pts
            .iter()
            .filter(|&&(p, q)| pic.has(p, q, COL) || pic.has(p, q, BLACK) || pic.has(p, q, ROW))
            .count();
        assert!(
            hit * 2 >= pts.len(),
            "column best reply {pc:?} of {a} / {b}: {hit} of {}",
            pts.len()
        );
        let own = pts.iter().filter(|&&(p, q)| pic.has(p, q, COL)).count();
        assert!(own > 0, "column best reply {pc:?} not drawn in its colour");
    }
    for pc in &s.pieces {
        for (p, q) in samples(pc)
            .into_iter()
            .chain([(to_f64(&pc.p.0), to_f64(&pc.q.0))])
        {
            assert!(
                pic.has(p, q, BLACK),
                "equilibrium {pc:?} at ({p}, {q}) of {a} / {b}"
            );
        }
    }
    // A rectangle of best replies is tinted inside.
    for pc in s.row_best.iter().chain(&s.col_best) {
        if pc.p.0 != pc.p.1 && pc.q.0 != pc.q.1 {
            let mid = |r: &(Q, Q)| (to_f64(&r.0) + to_f64(&r.1)) / 2.0;
            let (p, q) = (mid(&pc.p) + 0.013, mid(&pc.q) + 0.017);
            assert!(!pic.blank(p, q), "the inside of {pc:?} is not tinted");
        }
    }
    // The middle of the square away from every line stays blank.
    let blank = (0.37, 0.41);
    let on_a_line = s.row_best.iter().chain(&s.col_best).any(|pc| {
        samples(pc)
            .iter()
            .any(|&(p, q)| (p - blank.0).abs() < 0.05 && (q - blank.1).abs() < 0.05)
    });
    let inside = |pc: &Piece| {
        to_f64(&pc.p.0) <= blank.0
            && blank.0 <= to_f64(&pc.p.1)
            && to_f64(&pc.q.0) <= blank.1
            && blank.1 <= to_f64(&pc.q.1)
    };
    let covered = s.row_best.iter().chain(&s.col_best).any(inside);
    if !on_a_line && !covered {
        assert!(pic.blank(blank.0, blank.1));
    }
}

#[test]
fn battle_of_the_sexes_draws_both_correspondences_and_three_equilibria() {
    let (a, b) = ("2 0; 0 1", "1 0; 0 2");
    let s = solve(&game(a, b)).unwrap();
    assert_eq!(s.pieces.len(), 3);
    check(a, b);
}

#[test]
fn matching_pennies_and_a_dominant_strategy_game_are_drawn() {
    check("1 -1; -1 1", "-1 1; 1 -1");
    check("3 0; 5 1", "3 5; 0 1");
}

#[test]
fn a_continuum_of_equilibria_is_a_thick_black_segment() {
    // The column player is indifferent against the first row: every q >= 1/2 with p = 1.
    let (a, b) = ("1 1; 0 2", "1 1; 0 0");
    let s = solve(&game(a, b)).unwrap();
    assert!(s.pieces.iter().any(|pc| !pc.is_point()), "{:?}", s.pieces);
    check(a, b);
}

/// The dynamics' time series, as a picture: hawk–dove under the replicator equation from 9/10
/// hawks, the hawks' line (blue) starting at 0.9 and ending near 1/2, the doves' (red)
/// starting at 0.1, and nothing drawn above 0.95 in the panel's middle.
#[test]
fn dynamics_time_series_as_a_picture() {
    use nimbus::api::dynamics::{solve as run, Request, Rule};
    let g = game("-1 2; 0 1", "-1 0; 2 1");
    let req = Request {
        rule: Rule::Replicator,
        time: 10.0,
        points: 101,
        start: Some(vec![vec![
            Q::new(9.into(), 10.into()),
            Q::new(1.into(), 10.into()),
        ]]),
        plot: true,
        ..Default::default()
    };
    let answer = run(&g, &req, &nimbus::api::Limits::default()).unwrap();
    let pixmap = picture::render(answer.plot.as_ref().unwrap());
    // The panel: 560 × 220 pixels from (50, 50).
    let (left, top, w, h) = (50.0, 50.0, 560.0, 220.0);
    let at = |t: f64, p: f64| (left + w * t / 10.0, top + h * (1.0 - p));
    let colour_near = |(x, y): (f64, f64), colour: [u8; 3]| {
        (-2i32..=2).any(|dx| {
            (-2i32..=2).any(|dy| {
                pixmap
                    .pixel(
                        (x.round() as i32 + dx) as u32,
                        (y.round() as i32 + dy) as u32,
                    )
                    .is_some_and(|c| {
                        [c.red(), c.green(), c.blue()]
                            .iter()
                            .zip(colour)
                            .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 40)
                    })
            })
        })
    };
    let end = answer.points.last().unwrap().profile[0][0];
    assert!(colour_near(at(0.1, 0.9), ROW));
    assert!(colour_near(at(10.0, end), ROW));
    assert!(colour_near(at(0.1, 0.1), COL));
    assert!(!colour_near(at(5.0, 0.97), ROW));
    assert!(!colour_near(at(5.0, 0.97), COL));
}

/// The phase portrait on the simplex, as a picture: each rest point's disc is filled by its
/// verdict (black stable, white unstable, grey undecided), the run starts in blue, and grey
/// trajectories cross the triangle.
#[test]
fn simplex_portrait_as_a_picture() {
    use nimbus::api::dynamics::{solve as run, Request, Rule};
    use nimbus::strategic::dynamics::simplex::place;
    let portrait = |a: &str, at: &str, start: [i64; 3]| {
        let g = game(a, at);
        let total: i64 = start.iter().sum();
        let req = Request {
            rule: Rule::Replicator,
            time: 20.0,
            start: Some(vec![start
                .iter()
                .map(|&s| Q::new(s.into(), total.into()))
                .collect()]),
            plot: true,
            ..Default::default()
        };
        let answer = run(&g, &req, &nimbus::api::Limits::default()).unwrap();
        picture::render(answer.plot.as_ref().unwrap())
    };
    let pixel = |pix: &tiny_skia::Pixmap, x: &[f64]| {
        let (px, py) = place(x);
        let c = pix.pixel(px.round() as u32, py.round() as u32).unwrap();
        [c.red(), c.green(), c.blue()]
    };
    let close = |c: [u8; 3], want: [u8; 3]| {
        c.iter()
            .zip(want)
            .all(|(&a, b)| (i32::from(a) - i32::from(b)).abs() <= 40)
    };
    let third = [1.0 / 3.0; 3];
    // Rock–paper–scissors with wins worth 2, losses 1: the centre stable, the corners not.
    let rps = portrait(
        "0 -1 2; 2 0 -1; -1 2 0",
        "0 2 -1; -1 0 2; 2 -1 0",
        [6, 3, 3],
    );
    assert!(close(pixel(&rps, &third), BLACK));
    for corner in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] {
        assert!(close(pixel(&rps, &corner), [255, 255, 255]));
    }
    // The run's start, in blue; some grey trajectory between the centre and a corner.
    assert!(close(pixel(&rps, &[0.5, 0.25, 0.25]), ROW));
    let greys = (1..40)
        .filter(|k| {
            let t = f64::from(*k) / 40.0;
            let c = pixel(
                &rps,
                &[1.0 / 3.0 + t * 2.0 / 3.0, (1.0 - t) / 3.0, (1.0 - t) / 3.0],
            );
            c[0] == c[1] && c[1] == c[2] && c[0] > 100 && c[0] < 220
        })
        .count();
    assert!(greys > 0);
    // Plain rock–paper–scissors: the centre is grey (a centre; closed orbits).
    let plain = portrait(
        "0 -1 1; 1 0 -1; -1 1 0",
        "0 1 -1; -1 0 1; 1 -1 0",
        [6, 3, 3],
    );
    assert!(close(pixel(&plain, &third), [0x90, 0x90, 0x90]));
    // Coordination: every corner stable, the centre and the edges' middles unstable.
    let coordination = portrait("1 0 0; 0 1 0; 0 0 1", "1 0 0; 0 1 0; 0 0 1", [5, 3, 2]);
    for corner in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] {
        assert!(close(pixel(&coordination, &corner), BLACK));
    }
    assert!(close(pixel(&coordination, &third), [255, 255, 255]));
    assert!(close(
        pixel(&coordination, &[0.5, 0.5, 0.0]),
        [255, 255, 255]
    ));
}
