//! Whether a mixed profile is a Nash equilibrium, exactly or within a tolerance.

use crate::core::error::{Error, Result};
use crate::exact::json;
use crate::exact::{show, Q};
use crate::strategic::game::{verify_within, NormalForm};
use num_traits::{Signed, Zero};
use serde::Serialize;

pub use crate::strategic::game::parse_profile;

/// One player's side of the check.
#[derive(Debug, Clone, Serialize)]
pub struct Player {
    /// The player's name.
    pub player: String,
    /// The player's expected payoff under the profile.
    #[serde(serialize_with = "json::one")]
    pub payoff: Q,
    /// The best pure strategy against the others (its index).
    pub best_deviation: usize,
    /// Its name.
    pub best_deviation_name: String,
    /// What it pays.
    #[serde(serialize_with = "json::one")]
    pub best_deviation_payoff: Q,
    /// Whether deviating gains more than the tolerance.
    pub gains: bool,
}

/// The whole answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// Whether no player gains more than the tolerance by deviating.
    pub equilibrium: bool,
    /// The largest gain any player has from a pure deviation.
    #[serde(serialize_with = "json::one")]
    pub max_gain: Q,
    /// The tolerance used (0: exact).
    #[serde(serialize_with = "json::one")]
    pub tolerance: Q,
    /// Each player's payoff and best deviation.
    pub players: Vec<Player>,
    /// Remarks (rounded decimals that just miss).
    pub notes: Vec<String>,
}

/// Checks `profile` (each player's probabilities over their strategies) in `game`; with a
/// positive `tolerance`, probabilities may sum to within it of 1 and gains up to it are
/// accepted. `decimal` says the profile was written in decimals, which are often rounded.
pub fn check(
    game: &NormalForm,
    profile: &[Vec<Q>],
    tolerance: &Q,
    decimal: bool,
) -> Result<Answer> {
    if tolerance.is_negative() {
        return Err(Error::Invalid("the tolerance must not be negative".into()));
    }
    let v = verify_within(game, profile, tolerance)?;
    let players = (0..game.players.len())
        .map(|i| Player {
            player: game.players[i].clone(),
            payoff: v.payoffs[i].clone(),
            best_deviation: v.best_replies[i].0,
            best_deviation_name: game.strategies[i][v.best_replies[i].0].clone(),
            best_deviation_payoff: v.best_replies[i].1.clone(),
            gains: &v.best_replies[i].1 - &v.payoffs[i] > *tolerance,
        })
        .collect();
    let mut notes = Vec::new();
    if !v.is_equilibrium
        && tolerance.is_zero()
        && decimal
        && v.max_gain < Q::new(1.into(), 100.into())
    {
        notes.push(format!(
            "the check is exact, and the largest gain is only {} (about {:.2e}): the decimals \
             look rounded; a tolerance accepts gains up to a bound",
            show(&v.max_gain),
            crate::exact::to_f64(&v.max_gain)
        ));
    }
    Ok(Answer {
        equilibrium: v.is_equilibrium,
        max_gain: v.max_gain,
        tolerance: tolerance.clone(),
        players,
        notes,
    })
}
