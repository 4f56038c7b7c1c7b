//! The stage game as the repeated game's algorithms see it: each pure profile's payoffs and
//! what each player gains by their best deviation from it, exactly and on the integer grid
//! the outer iteration runs on.

use super::polygon::Point;
use crate::core::error::{Error, Result};
use crate::exact::Q;
use crate::strategic::game::NormalForm;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Each pure profile (row-major: row `r`, column `c` at `r · columns + c`).
#[derive(Debug, Clone)]
pub struct Stage {
    /// The players' names.
    pub players: [String; 2],
    /// Each player's strategies.
    pub strategies: [Vec<String>; 2],
    /// The payoffs `(u1, u2)` of each profile.
    pub payoffs: Vec<Point<Q>>,
    /// What each player gains by their best deviation from the profile (zero when the
    /// profile is already a best reply).
    pub gains: Vec<Point<Q>>,
}

impl Stage {
    /// The stage game of a two-player game.
    pub fn of(game: &NormalForm) -> Result<Stage> {
        if game.players.len() != 2 {
            return Err(Error::Invalid(format!(
                "repeated games here have two players, and this game has {}",
                game.players.len()
            )));
        }
        let (m, n) = (game.strategies[0].len(), game.strategies[1].len());
        let u = |r: usize, c: usize, i: usize| game.payoff(&[r, c], i);
        // Each column's best payoff for the first player, each row's for the second: once,
        // so that the stage game costs its size and not its size times a side.
        let best1: Vec<&Q> = (0..n)
            .map(|c| (0..m).map(|x| u(x, c, 0)).max().expect("a strategy"))
            .collect();
        let best2: Vec<&Q> = (0..m)
            .map(|r| (0..n).map(|y| u(r, y, 1)).max().expect("a strategy"))
            .collect();
        let mut payoffs = Vec::with_capacity(m * n);
        let mut gains = Vec::with_capacity(m * n);
        for (r, b2) in best2.iter().enumerate() {
            for (c, b1) in best1.iter().enumerate() {
                gains.push((*b1 - u(r, c, 0), *b2 - u(r, c, 1)));
                payoffs.push((u(r, c, 0).clone(), u(r, c, 1).clone()));
            }
        }
        Ok(Stage {
            players: [game.players[0].clone(), game.players[1].clone()],
            strategies: [game.strategies[0].clone(), game.strategies[1].clone()],
            payoffs,
            gains,
        })
    }

    /// The profiles that are pure equilibria of the stage game.
    pub fn pure_equilibria(&self) -> Vec<usize> {
        (0..self.payoffs.len())
            .filter(|&a| self.gains[a].0.is_zero() && self.gains[a].1.is_zero())
            .collect()
    }

    /// The profile `a`'s strategies.
    pub fn profile(&self, a: usize) -> (usize, usize) {
        let n = self.strategies[1].len();
        (a / n, a % n)
    }
}

/// The largest grid coordinate of a payoff: the iteration's numbers then stay below 2^118.
const PAYOFF_BITS: u64 = 44;
/// The longest discount denominator the grid's arithmetic has room for.
pub const DISCOUNT_BITS: u64 = 24;

/// The grid: payoffs are multiples of `1 / scale`, the discount is `p / q`.
#[derive(Debug, Clone)]
pub struct Grid {
    /// Grid points a payoff unit.
    pub scale: i128,
    /// The discount's numerator.
    pub p: i128,
    /// The discount's denominator.
    pub q: i128,
    /// Each profile's payoffs, in grid units.
    pub payoffs: Vec<Point<i128>>,
    /// Each profile's incentive margin, in grid units and rounded down: a continuation `w`
    /// is enough to keep player `i` from deviating when `w_i ≥ threat_i + margin_i`, where
    /// the exact margin is `(1 − δ)/δ` times the deviation's gain.
    pub margins: Vec<Point<i128>>,
}

impl Grid {
    /// The finest grid on which every payoff lies and the iteration's integers cannot
    /// overflow.
    pub fn of(stage: &Stage, discount: &Q) -> Result<Grid> {
        let (p, q) = (discount.numer(), discount.denom());
        if q.bits() > DISCOUNT_BITS {
            return Err(Error::Invalid(format!(
                "{} {discount} has a denominator longer than {DISCOUNT_BITS} bits, more than \
                 the repeated game's exact grid has room for (give it with at most 7 digits)",
                crate::core::hint::setting("discount")
            )));
        }
        let mut lcm = BigInt::one();
        let mut largest = BigInt::one();
        for (x, y) in &stage.payoffs {
            for v in [x, y] {
                lcm = lcm.lcm(v.denom());
                largest = largest.max(v.abs().ceil().to_integer());
            }
        }
        let unit_bits = (&lcm * &largest).bits();
        if unit_bits + 8 > PAYOFF_BITS {
            return Err(Error::Invalid(format!(
                "the payoffs need {unit_bits} bits over their common denominator {lcm}, and the \
                 repeated game's grid has room for {} (give the payoffs with fewer digits)",
                PAYOFF_BITS - 8
            )));
        }
        let scale = lcm << (PAYOFF_BITS - unit_bits);
        let on_grid = |v: &Q| -> i128 {
            (v * Q::from(scale.clone()))
                .to_integer()
                .to_i128()
                .expect("below 2^44")
        };
        let (p, q) = (p.to_i128().expect("24 bits"), q.to_i128().expect("24 bits"));
        let payoffs = stage
            .payoffs
            .iter()
            .map(|(x, y)| (on_grid(x), on_grid(y)))
            .collect();
        let margin = |g: &Q| ((q - p) * on_grid(g)).div_euclid(p);
        let margins = stage
            .gains
            .iter()
            .map(|(x, y)| (margin(x), margin(y)))
            .collect();
        Ok(Grid {
            scale: scale.to_i128().expect("below 2^44"),
            p,
            q,
            payoffs,
            margins,
        })
    }

    /// A grid point as fractions.
    pub fn exact(&self, (x, y): &Point<i128>) -> Point<Q> {
        let s = BigInt::from(self.scale);
        (Q::new((*x).into(), s.clone()), Q::new((*y).into(), s))
    }

    /// A grid point in payoff units, in floating point.
    pub fn float(&self, (x, y): &Point<i128>) -> (f64, f64) {
        (*x as f64 / self.scale as f64, *y as f64 / self.scale as f64)
    }
}

/// Each player's minmax payoffs: the least payoff the other can hold them to with a pure
/// strategy, and with a mixed one (the value of the zero-sum game of their payoffs).
#[derive(Debug, Clone)]
pub struct Minmax {
    /// Pure: `min_{a_j} max_{a_i} u_i`.
    pub pure: Point<Q>,
    /// Mixed: `min_{σ_j} max_{a_i} u_i(a_i, σ_j)`.
    pub mixed: Point<Q>,
}

impl Stage {
    /// Both players' minmax payoffs (the mixed ones by the exact LP of
    /// [`crate::strategic::solvers::zerosum`]).
    pub fn minmax(&self, max_memory: u64) -> Result<Minmax> {
        let (m, n) = (self.strategies[0].len(), self.strategies[1].len());
        let u1: Vec<Vec<Q>> = (0..m)
            .map(|r| (0..n).map(|c| self.payoffs[r * n + c].0.clone()).collect())
            .collect();
        // The second player chooses the row of their own matrix.
        let u2: Vec<Vec<Q>> = (0..n)
            .map(|c| (0..m).map(|r| self.payoffs[r * n + c].1.clone()).collect())
            .collect();
        let pure = |a: &[Vec<Q>]| -> Q {
            let columns = a[0].len();
            (0..columns)
                .map(|c| a.iter().map(|row| row[c].clone()).max().expect("a row"))
                .min()
                .expect("a column")
        };
        use crate::strategic::solvers::zerosum::solve_within;
        Ok(Minmax {
            pure: (pure(&u1), pure(&u2)),
            mixed: (
                solve_within(&u1, max_memory)?.value,
                solve_within(&u2, max_memory)?.value,
            ),
        })
    }
}
