//! Perfect (trembling-hand) equilibria of two-player games. Selten's perfect equilibria are
//! the limits of equilibria of games whose players tremble onto every strategy; in a
//! two-player game they are exactly the equilibria in which each player's strategy is a best
//! reply to some completely mixed strategy of the other (van Damme, *Stability and Perfection
//! of Nash Equilibria*, Theorem 3.2.2) — that is, is not weakly dominated. Each half is decided
//! here by one exact LP.

use crate::core::budget::{check_memory, check_work, Limits};
use crate::core::error::Result;
use crate::exact::simplex::maximize;
use crate::exact::{over_common_denominator, Q};
use num_bigint::BigInt;
use num_traits::{One, Zero};

/// Whether the mixed strategy `x` of the player whose payoffs are `a` (rows: their
/// strategies; columns: the other player's) is a best reply to some completely mixed strategy
/// of the other player.
///
/// The LP, over the other player's `y ≥ 0` and `ε ≥ 0`: maximise `ε` subject to
/// `(A y)_i − xᵀA y ≤ 0` for every own strategy `i` (`x` is a best reply to `y`),
/// `ε − y_j ≤ 0` for every `j` and `Σ y ≤ 1`. Every constraint but the last is homogeneous,
/// so the optimum is positive exactly when some completely mixed `y` has `x` as a best reply.
pub fn best_reply_to_completely_mixed(a: &[Vec<Q>], x: &[Q], limits: &Limits) -> Result<bool> {
    let (m, n) = (a.len(), a[0].len());
    let cells = ((m + n + 1) as u64).saturating_mul(n as u64 + 1);
    check_memory(
        "the perfection LP",
        cells.saturating_mul(96),
        limits.max_memory,
    )?;
    check_work(
        "the perfection LP",
        cells.saturating_mul((m.min(n) + 1) as u64),
        limits.max_work,
    )?;
    // x's payoff against each pure strategy of the other player.
    let against: Vec<Q> = (0..n)
        .map(|j| (0..m).fold(Q::zero(), |acc, i| acc + &x[i] * &a[i][j]))
        .collect();
    let mut rows: Vec<Vec<Q>> = Vec::with_capacity(m + n + 1);
    for row in a {
        let mut r: Vec<Q> = row.iter().zip(&against).map(|(v, w)| v - w).collect();
        r.push(Q::zero());
        rows.push(r);
    }
    for j in 0..n {
        let mut r = vec![Q::zero(); n + 1];
        r[j] = -Q::one();
        r[n] = Q::one();
        rows.push(r);
    }
    let mut sum = vec![Q::one(); n + 1];
    sum[n] = Q::zero();
    rows.push(sum);
    let a_int: Vec<Vec<BigInt>> = rows
        .iter()
        .map(|r| over_common_denominator(r.iter()).0)
        .collect();
    let mut b = vec![BigInt::zero(); rows.len()];
    *b.last_mut().expect("the sum row") = BigInt::one();
    let mut c = vec![BigInt::zero(); n + 1];
    c[n] = BigInt::one();
    let lp = maximize(&a_int, &b, &c)?;
    Ok(lp.value > Q::zero())
}

/// A two-player game's payoffs as the perfection LPs read them: each player's own
/// strategies as rows.
pub struct Perfection {
    a: Vec<Vec<Q>>,
    bt: Vec<Vec<Q>>,
}

impl Perfection {
    /// The matrices of the two-player game `game`.
    pub fn of(game: &crate::strategic::game::NormalForm) -> Self {
        let a = game.matrix(0);
        let b = game.matrix(1);
        let bt = (0..b.first().map_or(0, Vec::len))
            .map(|j| b.iter().map(|row| row[j].clone()).collect())
            .collect();
        Perfection { a, bt }
    }

    /// Whether the equilibrium `(x, y)` is perfect: each strategy a best reply to some
    /// completely mixed strategy of the other.
    pub fn holds(&self, x: &[Q], y: &[Q], limits: &Limits) -> Result<bool> {
        Ok(best_reply_to_completely_mixed(&self.a, x, limits)?
            && best_reply_to_completely_mixed(&self.bt, y, limits)?)
    }
}
