//! The Moran process, run and recorded, with the probability that each strategy takes over.

use super::{record_rounds, Answer, Fixation, Input, Mutation, Point, Request, Rule};
use crate::api::Limits;
use crate::core::budget::{check_memory, check_work};
use crate::core::error::{Error, Result};
use crate::core::number::in_range;
use crate::exact::{show, to_f64, Q};
use crate::strategic::dynamics::moran;
use crate::strategic::game::NormalForm;
use rand_core::SeedableRng;
use rand_xorshift::XorShiftRng;

/// The Moran process on the row player's payoffs (the game as a symmetric one, as nashpy
/// takes it), from the request's population.
pub(super) fn run(input: &Input) -> Result<Answer> {
    let Input {
        game,
        a,
        req,
        points,
        limits,
        ..
    } = *input;
    let generations = in_range("rounds", req.rounds, 1, 1 << 40, "generations")?;
    let counts = req.population.clone().ok_or_else(|| {
        Error::Invalid(format!(
            "the Moran process needs {}: how many individuals play each strategy",
            crate::core::hint::setting("population")
        ))
    })?;
    if a.len() != a[0].len() {
        return Err(Error::Invalid(
            "the Moran process plays a symmetric game: the row player's payoffs must be square"
                .into(),
        ));
    }
    let size = moran::check(a, &counts)?;
    let mutation = match &req.mutation {
        None => 0.0,
        Some(Mutation::Rate(r)) => to_f64(r),
        Some(Mutation::Matrix(_)) => {
            return Err(Error::Invalid(
                "the Moran process takes a mutation probability, one number".into(),
            ))
        }
    };
    let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(to_f64).collect()).collect();
    let k = a.len() as u64;
    let mut rng = XorShiftRng::seed_from_u64(req.seed);
    // One run, recorded at evenly spaced generations (the last state kept past fixation).
    check_work(
        "the Moran process",
        generations.saturating_mul(k * k + 8),
        limits.max_work,
    )?;
    let wanted = record_rounds(generations, points);
    let mut states = vec![counts.clone()];
    let mut at = vec![0u64];
    let mut next = 1;
    let mut last = counts.clone();
    let mut every = Vec::new();
    if req.plays {
        check_memory(
            "the Moran process's generations",
            generations.saturating_mul(k * 8 + 24),
            limits.max_memory,
        )?;
        every.push(counts.clone());
    }
    moran::simulate(&af, &counts, mutation, generations, &mut rng, |g, c| {
        last = c.to_vec();
        if req.plays {
            every.push(c.to_vec());
        }
        while next < wanted.len() && wanted[next] <= g {
            if wanted[next] == g {
                states.push(c.to_vec());
                at.push(g);
            }
            next += 1;
        }
    });
    for &g in &wanted[next.min(wanted.len())..] {
        states.push(last.clone());
        at.push(g);
    }
    let mut notes = Vec::new();
    let fixation = if mutation > 0.0 {
        notes.push("with mutation no strategy takes over for good: no fixation".into());
        None
    } else {
        fixation(
            game,
            a,
            &af,
            &counts,
            req,
            generations,
            &mut rng,
            limits,
            &mut notes,
        )?
    };
    Ok(Answer {
        rule: Rule::Moran,
        described: format!(
            "the Moran process, {size} individuals, {}at most {generations} generations a run, \
             seed {}",
            if mutation > 0.0 {
                format!("mutation {mutation}, ")
            } else {
                String::new()
            },
            req.seed
        ),
        players: vec!["the population".into()],
        strategies: vec![game.strategies[0].clone()],
        points: states
            .into_iter()
            .zip(at)
            .map(|(c, g)| Point {
                at: g as f64,
                profile: vec![c.iter().map(|&v| v as f64 / size as f64).collect()],
                counts: Some(vec![c]),
                ..Point::default()
            })
            .collect(),
        fixation,
        generations: req.plays.then_some(every),
        notes,
        ..Answer::default()
    })
}

/// The probability that each strategy takes over: exact with two present (unless past the
/// work budget: then none, with a note), else the share of `req.runs` simulated runs.
#[allow(clippy::too_many_arguments)]
fn fixation(
    game: &NormalForm,
    a: &[Vec<Q>],
    af: &[Vec<f64>],
    counts: &[u64],
    req: &Request,
    generations: u64,
    rng: &mut XorShiftRng,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<Fixation>>> {
    let names = &game.strategies[0];
    match moran::fixation(a, counts, limits) {
        Ok(Some(p)) => {
            return Ok(Some(
                p.iter()
                    .zip(names)
                    .map(|(p, s)| Fixation {
                        strategy: s.clone(),
                        exact: Some(show(p)),
                        probability: to_f64(p),
                    })
                    .collect(),
            ))
        }
        Ok(None) => {}
        // The run stands without them: say why they are missing.
        Err(Error::Budget { .. }) => {
            notes.push(format!(
                "the exact fixation probabilities are past the work budget (raise {})",
                crate::core::hint::setting("max_work")
            ));
            return Ok(None);
        }
        Err(e) => return Err(e),
    }
    let runs = in_range("runs", req.runs, 1, 1 << 32, "runs")?;
    let per_generation = (a.len() * a.len()) as u64 + 8;
    let mut fixed = vec![0u64; counts.len()];
    let (mut open, mut spent) = (0u64, 0u64);
    for _ in 0..runs {
        // The runs' lengths are not known beforehand: each may take what the budget has left.
        let left = limits.max_work.saturating_sub(spent) / per_generation;
        let cap = generations.min(left);
        let (took, used) = moran::simulate(af, counts, 0.0, cap, rng, |_, _| {});
        spent = spent.saturating_add(used.saturating_mul(per_generation));
        match took {
            Some(s) => fixed[s] += 1,
            None if cap < generations => {
                check_work(
                    "the Moran process's runs",
                    spent.saturating_add(per_generation),
                    limits.max_work,
                )?;
            }
            None => open += 1,
        }
        crate::core::progress::check()?;
    }
    notes.push(format!(
        "more than two strategies present: fixation estimated from {runs} simulated runs"
    ));
    if open > 0 {
        notes.push(format!(
            "{open} of the runs had not fixed after {generations} generations (raise {})",
            crate::core::hint::setting("rounds")
        ));
    }
    Ok(Some(
        fixed
            .iter()
            .zip(names)
            .map(|(&f, s)| Fixation {
                strategy: s.clone(),
                exact: None,
                probability: f as f64 / runs as f64,
            })
            .collect(),
    ))
}
