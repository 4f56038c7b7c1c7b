//! Two-player games as the pivoting algorithms want them, and their equilibria.
//!
//! Each player's payoffs are scaled by a common denominator and shifted so that every entry is
//! a positive integer: a positive affine change of one player's payoffs changes no best reply,
//! so the equilibria are those of the game as given. Positive payoffs make the best-response
//! polytopes `P = {x ≥ 0 : Bᵀx ≤ 1}` and `Q = {y ≥ 0 : A y ≤ 1}` bounded, with the origin a
//! vertex. Labels follow von Stengel: `0..m` are the row player's strategies, `m..m+n` the
//! column player's.

use super::game::NormalForm;
use crate::core::error::{Error, Result};
use crate::exact::Q;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

/// A two-player game with positive integer payoffs, equivalent to the game it came from.
#[derive(Debug, Clone)]
pub struct Bimatrix {
    /// Rows: the first player's strategies.
    pub m: usize,
    /// Columns: the second player's strategies.
    pub n: usize,
    /// The first player's payoffs, positive integers.
    pub a: Vec<Vec<BigInt>>,
    /// The second player's payoffs, positive integers.
    pub b: Vec<Vec<BigInt>>,
    /// `a = scale·A + shift` for the original `A` (and alike for `b`).
    scale: [BigInt; 2],
    shift: [BigInt; 2],
}

/// An equilibrium of a two-player game: both mixed strategies and both payoffs, exact.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Equilibrium {
    /// Each player's mixed strategy.
    pub profile: Vec<Vec<Q>>,
    /// Each player's expected payoff.
    pub payoffs: Vec<Q>,
}

impl Equilibrium {
    /// The pure profile `profile` (one strategy index per player) as an equilibrium record,
    /// with the payoffs there. Any number of players.
    pub fn pure(game: &NormalForm, profile: &[usize]) -> Self {
        Equilibrium {
            profile: profile
                .iter()
                .zip(game.shape())
                .map(|(&s, n)| {
                    (0..n)
                        .map(|i| Q::from_integer(u8::from(i == s).into()))
                        .collect()
                })
                .collect(),
            payoffs: game.payoffs_at(game.index(profile)).to_vec(),
        }
    }
}

/// Whether `v` can be a mixed strategy up to scale: non-negative, not all zero.
fn valid(v: &[BigInt]) -> bool {
    !v.iter().any(Signed::is_negative) && v.iter().any(|t| !t.is_zero())
}

/// `Σ p·v` in `i128`, `None` on overflow.
fn dot_small<'a>(mut pairs: impl Iterator<Item = (&'a BigInt, i128)>) -> Option<i128> {
    use num_traits::ToPrimitive;
    pairs.try_fold(0i128, |s, (p, v)| {
        s.checked_add(p.to_i128()?.checked_mul(v)?)
    })
}

/// A matrix as positive integers `scale·a + shift`: `(matrix, scale, shift)`.
pub(crate) fn positive_integers(a: &[Vec<Q>]) -> (Vec<Vec<BigInt>>, BigInt, BigInt) {
    let l = a
        .iter()
        .flatten()
        .fold(BigInt::one(), |l, q| l.lcm(q.denom()));
    let ints: Vec<Vec<BigInt>> = a
        .iter()
        .map(|r| r.iter().map(|q| q.numer() * (&l / q.denom())).collect())
        .collect();
    let least = ints.iter().flatten().min().cloned().unwrap_or_default();
    let k = BigInt::one() - least;
    let pos = ints
        .into_iter()
        .map(|r| r.into_iter().map(|x| x + &k).collect())
        .collect();
    (pos, l, k)
}

impl Bimatrix {
    /// The game's two payoff matrices made positive integers; an error for other than two
    /// players.
    pub fn new(game: &NormalForm) -> Result<Self> {
        if game.players.len() != 2 {
            return Err(Error::Invalid(format!(
                "this method needs a two-player game; this one has {} players (for more, \
                 use {})",
                game.players.len(),
                crate::core::hint::setting_value("method", "pure")
            )));
        }
        let (a, la, ka) = positive_integers(&game.matrix(0));
        let (b, lb, kb) = positive_integers(&game.matrix(1));
        Ok(Bimatrix {
            m: a.len(),
            n: a[0].len(),
            a,
            b,
            scale: [la, lb],
            shift: [ka, kb],
        })
    }

    /// `B` transposed: the constraint matrix of the row player's polytope `P`.
    pub fn b_transposed(&self) -> Vec<Vec<BigInt>> {
        (0..self.n)
            .map(|j| (0..self.m).map(|i| self.b[i][j].clone()).collect())
            .collect()
    }

    /// The exact check, in integers: `x` and `y` (non-negative, not all zero, any scale) are
    /// an equilibrium when every row `x` plays is a best reply to `y`, and every column `y`
    /// plays a best reply to `x`.
    pub fn is_equilibrium(&self, x: &[BigInt], y: &[BigInt]) -> bool {
        if !valid(x) || !valid(y) {
            return false;
        }
        if let Some(answer) = self.equilibrium_small(x, y) {
            return answer.is_some();
        }
        self.is_equilibrium_big(x, y)
    }

    /// [`Bimatrix::is_equilibrium`] in big integers, for valid `x` and `y`.
    fn is_equilibrium_big(&self, x: &[BigInt], y: &[BigInt]) -> bool {
        let ay: Vec<BigInt> = (0..self.m)
            .map(|i| (0..self.n).map(|j| &self.a[i][j] * &y[j]).sum())
            .collect();
        let xb: Vec<BigInt> = (0..self.n)
            .map(|j| (0..self.m).map(|i| &self.b[i][j] * &x[i]).sum())
            .collect();
        let best = |v: &[BigInt]| v.iter().max().cloned().unwrap_or_default();
        let (ba, bb) = (best(&ay), best(&xb));
        (0..self.m).all(|i| x[i].is_zero() || ay[i] == ba)
            && (0..self.n).all(|j| y[j].is_zero() || xb[j] == bb)
    }

    /// [`Bimatrix::equilibrium`] in `i128`, or `None` when a number does not fit (then
    /// `BigInt` decides): the common case, one pass for the check and the payoffs, without an
    /// allocation per product.
    fn equilibrium_small(&self, x: &[BigInt], y: &[BigInt]) -> Option<Option<Equilibrium>> {
        use num_traits::ToPrimitive;
        let small = |v: &[BigInt]| {
            v.iter()
                .map(ToPrimitive::to_i128)
                .collect::<Option<Vec<_>>>()
        };
        self.equilibrium_machine(&small(x)?, &small(y)?)
    }

    /// [`Bimatrix::equilibrium`] of a pair in machine integers: `None` when a number
    /// overflows on the way (then the big-integer check decides).
    pub(crate) fn equilibrium_machine(
        &self,
        x: &[i128],
        y: &[i128],
    ) -> Option<Option<Equilibrium>> {
        use num_traits::ToPrimitive;
        let valid = |v: &[i128]| v.iter().all(|&t| t >= 0) && v.iter().any(|&t| t > 0);
        if !valid(x) || !valid(y) {
            return Some(None);
        }
        let ay = (0..self.m)
            .map(|i| dot_small(self.a[i].iter().zip(y.iter().copied())))
            .collect::<Option<Vec<_>>>()?;
        let xb = (0..self.n)
            .map(|j| dot_small((0..self.m).map(|i| (&self.b[i][j], x[i]))))
            .collect::<Option<Vec<_>>>()?;
        let (ba, bb) = (*ay.iter().max()?, *xb.iter().max()?);
        let best = (0..self.m).all(|i| x[i] == 0 || ay[i] == ba)
            && (0..self.n).all(|j| y[j] == 0 || xb[j] == bb);
        if !best {
            return Some(None);
        }
        let sum = |v: &[i128]| v.iter().try_fold(0i128, |s, &t| s.checked_add(t));
        let (sx, sy) = (sum(x)?, sum(y)?);
        // Every strategy played earns the best reply's value: the payoff is that value over
        // the mass of the other player's strategy, then (v - shift) / scale.
        let payoff = |p: usize, best: i128, mass: i128| -> Option<Q> {
            let (scale, shift) = (self.scale[p].to_i128()?, self.shift[p].to_i128()?);
            let num = best.checked_sub(shift.checked_mul(mass)?)?;
            Some(crate::exact::ratio_i128(num, scale.checked_mul(mass)?))
        };
        let payoffs = vec![payoff(0, ba, sy)?, payoff(1, bb, sx)?];
        Some(Some(Equilibrium {
            profile: vec![
                x.iter().map(|&v| crate::exact::ratio_i128(v, sx)).collect(),
                y.iter().map(|&v| crate::exact::ratio_i128(v, sy)).collect(),
            ],
            payoffs,
        }))
    }

    /// The equilibrium `(x, y)` normalised to probabilities, with the payoffs of the game as
    /// given; `None` unless [`Bimatrix::is_equilibrium`] holds, so nothing unchecked escapes.
    pub fn equilibrium(&self, x: &[BigInt], y: &[BigInt]) -> Option<Equilibrium> {
        // The i128 pass checks and values in one go; only when a number does not fit does
        // the check run again in big integers (not through `is_equilibrium`, which would try
        // the i128 pass a second time).
        if let Some(answer) = self.equilibrium_small(x, y) {
            return answer;
        }
        if !valid(x) || !valid(y) || !self.is_equilibrium_big(x, y) {
            return None;
        }
        let (sx, sy): (BigInt, BigInt) = (x.iter().sum(), y.iter().sum());
        let mut pay = Vec::with_capacity(2);
        for (p, mat) in [&self.a, &self.b].into_iter().enumerate() {
            let total: BigInt = (0..self.m)
                .filter(|&i| !x[i].is_zero())
                .map(|i| {
                    let row: BigInt = (0..self.n).map(|j| &mat[i][j] * &y[j]).sum();
                    &x[i] * row
                })
                .sum();
            // (total / (sx sy) - shift) / scale, as one fraction.
            let mass = &sx * &sy;
            pay.push(crate::exact::ratio(
                &(total - &self.shift[p] * &mass),
                &(&self.scale[p] * mass),
            ));
        }
        Some(Equilibrium {
            profile: vec![
                x.iter().map(|v| crate::exact::ratio(v, &sx)).collect(),
                y.iter().map(|v| crate::exact::ratio(v, &sy)).collect(),
            ],
            payoffs: pay,
        })
    }
}
