//! Regret matching, run and recorded.

use super::{pure_start, record_rounds, Answer, Input, Point, Rule};
use crate::core::error::Result;
use crate::exact::{show, to_f64, Q};
use crate::strategic::dynamics::regret;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// Regret matching from the request's pure profile (played in round 1).
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
    let (m, n) = (a.len(), a[0].len());
    let first = pure_start(req, [m, n], "regret matching")?;
    let wanted: Vec<u64> = record_rounds(rounds, points)
        .into_iter()
        .map(|r| r.max(1))
        .collect();
    let mut next = 0;
    let mut out = Vec::with_capacity(wanted.len());
    let mut joint_end = Vec::new();
    let mut rng = XorShiftRng::seed_from_u64(req.seed);
    regret::run(a, b, first, rounds, &mut rng, limits, |t, rec| {
        let recorded = next < wanted.len() && wanted[next] == t;
        while next < wanted.len() && wanted[next] <= t {
            next += 1;
        }
        if !recorded && t != rounds {
            return;
        }
        let total = Q::from_integer(t.into());
        let share = |c: u64| Q::from_integer(c.into()) / &total;
        let rows: Vec<Q> = (0..m)
            .map(|i| share((0..n).map(|j| rec.joint[i * n + j]).sum()))
            .collect();
        let cols: Vec<Q> = (0..n)
            .map(|j| share((0..m).map(|i| rec.joint[i * n + j]).sum()))
            .collect();
        if recorded {
            out.push(Point {
                at: t as f64,
                profile: vec![
                    rows.iter().map(to_f64).collect(),
                    cols.iter().map(to_f64).collect(),
                ],
                exact: Some(vec![
                    rows.iter().map(show).collect(),
                    cols.iter().map(show).collect(),
                ]),
                regret: Some(show(&rec.regret())),
                ..Point::default()
            });
        }
        if t == rounds {
            joint_end = (0..m)
                .map(|i| (0..n).map(|j| show(&share(rec.joint[i * n + j]))).collect())
                .collect();
        }
    })?;
    Ok(Answer {
        rule: Rule::RegretMatching,
        described: format!(
            "regret matching (Hart and Mas-Colell), {rounds} rounds, seed {}",
            req.seed
        ),
        players: game.players.clone(),
        strategies: game.strategies.clone(),
        points: out,
        joint: Some(joint_end),
        notes: vec![
            "the profile is each player's empirical frequencies; the regret is the most a \
             player would have gained on average by always switching one strategy for another: \
             at most 0 exactly when the empirical joint distribution is a correlated equilibrium"
                .into(),
        ],
        ..Answer::default()
    })
}
