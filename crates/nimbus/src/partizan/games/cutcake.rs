//! Cutcake: a position is a set of rectangular cakes of unit squares; Left cuts a cake along a
//! line between columns, Right along a line between rows, each cut making two cakes; who
//! cannot cut loses. `RxC` is one cake of R rows and C columns; cakes are joined by `,`.

use crate::partizan::Ruleset;

/// The largest side of a cake.
pub const MOST_SIDE: u32 = 1 << 20;

/// The ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cutcake;

/// Cakes as (rows, columns), sorted.
pub type Cakes = Vec<(u32, u32)>;

impl Cutcake {
    /// Reads cakes: `3x4` or `2x2, 3x1`.
    pub fn parse(text: &str) -> std::result::Result<Cakes, String> {
        let mut out = Vec::new();
        for cake in text.split(',') {
            let cake = cake.trim();
            let size = cake.split_once(['x', 'X']).and_then(|(r, c)| {
                Some((r.trim().parse::<u32>().ok()?, c.trim().parse::<u32>().ok()?))
            });
            match size {
                Some((r, c)) if (1..=MOST_SIDE).contains(&r) && (1..=MOST_SIDE).contains(&c) => {
                    out.push((r, c))
                }
                _ => {
                    return Err(format!(
                        "'{cake}' is not a cake: write ROWSxCOLS, each 1 to {MOST_SIDE}"
                    ))
                }
            }
        }
        out.sort_unstable();
        Ok(out)
    }

    fn cuts(cakes: &Cakes, columns: bool) -> Vec<Cakes> {
        let mut out = Vec::new();
        for (i, &(r, c)) in cakes.iter().enumerate() {
            let side = if columns { c } else { r };
            // Cutting at k and at side - k give the same two cakes.
            for k in 1..=side / 2 {
                let (a, b) = if columns {
                    ((r, k), (r, c - k))
                } else {
                    ((k, c), (r - k, c))
                };
                let mut next = cakes.clone();
                next[i] = a;
                next.push(b);
                next.sort_unstable();
                out.push(next);
            }
        }
        out
    }
}

impl Ruleset for Cutcake {
    type Position = Cakes;

    fn left_moves(&self, p: &Cakes) -> Vec<Cakes> {
        Cutcake::cuts(p, true)
    }

    fn right_moves(&self, p: &Cakes) -> Vec<Cakes> {
        Cutcake::cuts(p, false)
    }

    fn regions(&self, p: &Cakes) -> Vec<Cakes> {
        // A single square is no cake anyone can cut.
        p.iter()
            .filter(|&&(r, c)| (r, c) != (1, 1))
            .map(|&cake| vec![cake])
            .collect()
    }

    fn show(&self, p: &Cakes) -> String {
        p.iter()
            .map(|(r, c)| format!("{r}x{c}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}
