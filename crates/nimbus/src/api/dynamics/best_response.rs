//! Best-response dynamics, run and recorded.

use super::{pure_profile, pure_start, record_rounds, Answer, Ending, Input, Point, Rule};
use crate::core::error::Result;
use crate::strategic::dynamics::best_response::{self, Ending as Ended};
use crate::strategic::dynamics::fictitious::Ties;

/// Best-response dynamics from the request's pure profile.
pub(super) fn run(input: &Input) -> Result<Answer> {
    let Input {
        game,
        a,
        b,
        req,
        points,
        rounds,
        limits,
    } = *input;
    let shape = [a.len(), a[0].len()];
    let start = pure_start(req, shape, "best-response dynamics")?;
    let run = best_response::run(a, b, start, rounds, req.ties, limits)?;
    let s = &game.strategies;
    let names = |p: [usize; 2]| [s[0][p[0]].clone(), s[1][p[1]].clone()];
    let ending = run.ending.as_ref().map(|e| match *e {
        Ended::Equilibrium { round } => Ending::Equilibrium {
            round,
            profile: names(run.at(round)),
        },
        Ended::Cycle { from, length } => Ending::Cycle {
            round: from,
            length,
            profiles: (from..from + length).map(|r| names(run.at(r))).collect(),
        },
    });
    let mut notes = Vec::new();
    if run.ending.is_none() {
        notes.push(if req.ties == Ties::First {
            format!("neither an equilibrium nor a cycle within {rounds} rounds")
        } else {
            format!(
                "no equilibrium within {rounds} rounds (with random ties a repeated profile \
                 proves no cycle)"
            )
        });
    }
    Ok(Answer {
        rule: Rule::BestResponse,
        described: format!(
            "best-response dynamics, both players at once, {rounds} rounds, ties to {}",
            match req.ties {
                Ties::First => "the first best reply".to_string(),
                Ties::Random(seed) => format!("a best reply drawn at random (seed {seed})"),
            }
        ),
        players: game.players.clone(),
        strategies: game.strategies.clone(),
        points: record_rounds(rounds, points)
            .into_iter()
            .map(|r| Point {
                at: r as f64,
                profile: pure_profile(run.at(r), shape),
                ..Point::default()
            })
            .collect(),
        ending,
        notes,
        ..Answer::default()
    })
}
