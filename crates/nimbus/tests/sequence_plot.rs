//! The nim-sequence plot, tested as a picture: the SVG is rasterised and the pixels at each
//! value, on the preperiod line and in the period band are checked.

use nimbus::api::sequence::{solve, Request};
use nimbus::impartial::plot::{common_values, HEIGHT, PAD, WIDTH};
mod picture;

use resvg::tiny_skia;

const COMMON: [u8; 3] = [0x1f, 0x77, 0xb4];
const RARE: [u8; 3] = [0xd6, 0x27, 0x28];
const MARK: [u8; 3] = [0x2c, 0xa0, 0x2c];

fn render(svg: &str) -> tiny_skia::Pixmap {
    picture::render(svg)
}

fn colour_at(p: &tiny_skia::Pixmap, x: f64, y: f64) -> [u8; 3] {
    let c = p
        .pixel(x.round() as u32, y.round() as u32)
        .expect("inside the picture");
    [c.red(), c.green(), c.blue()]
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter()
        .zip(b)
        .all(|(&x, y)| (i32::from(x) - i32::from(y)).abs() <= 40)
}

fn plotted(rule: &str, upto: u64) -> (Vec<u64>, Option<(u64, u64)>, tiny_skia::Pixmap) {
    let req = Request {
        upto,
        plot: true,
        ..Request::default()
    };
    let a = solve(rule, &req).unwrap();
    let picture = render(a.plot.as_deref().unwrap());
    (a.values, a.preperiod.zip(a.period), picture)
}

/// Kayles to 200: a dot per heap in the colour of its class, the preperiod line at 71 and a
/// band over one period (71 to 83).
#[test]
fn each_value_is_a_dot_of_its_class_and_the_period_is_marked() {
    let (values, period, p) = plotted("kayles", 200);
    assert_eq!(period, Some((71, 12)));
    let n = values.len() as f64;
    let top = *values.iter().max().unwrap() as f64;
    let x = |i: f64| PAD + i / n * WIDTH;
    let y = |g: f64| PAD + HEIGHT - g / top * HEIGHT;
    let common = common_values(&values);
    // Kayles' rare values are those of its first heaps only.
    assert!(values[71..].iter().all(|v| common.contains(v)));
    assert!(values.iter().any(|v| !common.contains(v)));
    for (i, &v) in values.iter().enumerate() {
        let want = if common.contains(&v) { COMMON } else { RARE };
        let got = colour_at(&p, x(i as f64 + 0.5), y(v as f64));
        assert!(close(got, want), "G({i}) = {v}: {got:?}");
    }
    // The preperiod line, away from every dot (halfway between two values' heights).
    let between = y(top - 0.5);
    // The pixel the 2-pixel line covers whole.
    let line = colour_at(&p, x(71.0).floor(), between);
    assert!(close(line, MARK), "{line:?}");
    // Inside the band: tinted green; outside, white.
    let inside = colour_at(&p, x(77.0), between);
    assert!(
        inside[1] > inside[0] && inside[1] > inside[2] && inside[0] < 250,
        "{inside:?}"
    );
    assert_eq!(colour_at(&p, x(150.0), between), [255, 255, 255]);
}

/// More heaps than pixel columns: every rare heap still shows in red in its column.
#[test]
fn rare_heaps_survive_the_scale() {
    let (values, _, p) = plotted("octal 0.16", 20000);
    let n = values.len();
    let top = *values.iter().max().unwrap() as f64;
    let common = common_values(&values);
    let rare: Vec<usize> = (0..n).filter(|&i| !common.contains(&values[i])).collect();
    assert!(
        !rare.is_empty() && rare.len() < n / 10,
        "{} rare heaps",
        rare.len()
    );
    for &i in &rare {
        let column = (i * WIDTH as usize / n) as f64;
        let yv = PAD + HEIGHT - values[i] as f64 / top * HEIGHT;
        // The pixel the column's mark covers whole.
        let got = colour_at(&p, PAD + column, yv.floor());
        assert!(close(got, RARE), "heap {i}: {got:?}");
    }
}
