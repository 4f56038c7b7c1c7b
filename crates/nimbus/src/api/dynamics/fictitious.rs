//! Fictitious play, run and recorded.

use super::{check_start_shape, record_rounds, Answer, Input, Point, Request, Rule};
use crate::core::budget::check_memory;
use crate::core::error::{Error, Result};
use crate::exact::{show, to_f64, Q};
use crate::strategic::dynamics::fictitious::{self, Ties};
use num_traits::{Signed, ToPrimitive};

/// Fictitious play, exactly.
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
    let start = start_counts(req, [a.len(), a[0].len()])?;
    let wanted = record_rounds(rounds, points);
    let mut next = 0;
    let mut recorded: Vec<(u64, [Vec<u64>; 2])> = Vec::new();
    let mut last = start.clone();
    let mut plays: Vec<[usize; 2]> = Vec::new();
    if req.plays {
        check_memory(
            "the plays of fictitious play",
            rounds.saturating_mul(16),
            limits.max_memory,
        )?;
    }
    fictitious::run(
        a,
        b,
        start,
        rounds,
        req.ties,
        limits,
        |round, counts, play| {
            if let (true, Some(p)) = (req.plays, play) {
                plays.push(p);
            }
            while next < wanted.len() && wanted[next] < round {
                next += 1;
            }
            if next < wanted.len() && wanted[next] == round {
                recorded.push((round, counts.clone()));
            }
            if round == rounds {
                last = counts.clone();
            }
        },
    )?;
    recorded.dedup_by_key(|(r, _)| *r);
    let mut notes = Vec::new();
    let points: Vec<Point> = recorded
        .iter()
        .filter(|(_, c)| c.iter().all(|v| v.iter().sum::<u64>() > 0))
        .map(|(round, counts)| {
            let exact: Vec<Vec<Q>> = counts
                .iter()
                .map(|v| {
                    let total: u64 = v.iter().sum();
                    v.iter().map(|&c| Q::new(c.into(), total.into())).collect()
                })
                .collect();
            Point {
                at: *round as f64,
                profile: exact
                    .iter()
                    .map(|v| v.iter().map(to_f64).collect())
                    .collect(),
                exact: Some(exact.iter().map(|v| v.iter().map(show).collect()).collect()),
                counts: Some(counts.to_vec()),
                ..Point::default()
            }
        })
        .collect();
    if req.start.is_none() {
        notes.push(
            "no play before the first round, so every strategy ties there and the tie rule \
             chooses"
                .into(),
        );
    }
    Ok(Answer {
        rule: Rule::FictitiousPlay,
        described: format!(
            "fictitious play, {rounds} rounds, ties to {}",
            match req.ties {
                Ties::First => "the first best reply".to_string(),
                Ties::Random(seed) => format!("a best reply drawn at random (seed {seed})"),
            }
        ),
        players: game.players.clone(),
        strategies: game.strategies.clone(),
        points,
        counts: Some(last.to_vec()),
        plays: req.plays.then_some(plays),
        notes,
        ..Answer::default()
    })
}

/// Fictitious play's starting play counts: the request's (whole numbers from 0 to 2^40), or
/// none played.
pub(super) fn start_counts(req: &Request, shape: [usize; 2]) -> Result<[Vec<u64>; 2]> {
    Ok(match &req.start {
        None => [vec![0; shape[0]], vec![0; shape[1]]],
        Some(s) => {
            let mut out = [Vec::new(), Vec::new()];
            check_start_shape(s, &shape)?;
            for (k, v) in s.iter().enumerate() {
                for x in v {
                    let whole = x.is_integer() && !x.is_negative();
                    match x.to_integer().to_u64().filter(|_| whole) {
                        Some(c) if c <= 1 << 40 => out[k].push(c),
                        _ => {
                            return Err(Error::Invalid(format!(
                                "fictitious play starts from play counts, whole numbers from 0 \
                                 to 2^40, and {} is not one",
                                show(x)
                            )))
                        }
                    }
                }
            }
            out
        }
    })
}
