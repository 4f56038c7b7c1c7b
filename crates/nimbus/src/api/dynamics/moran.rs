//! The Moran process, run and recorded, with the probability that each strategy takes over.

use super::{record_rounds, Answer, Fixation, Input, Mutation, Point, Request, Rule};
use crate::api::Limits;
use crate::core::budget::{check_memory, check_work};
use crate::core::error::{Error, Result};
use crate::exact::{show, to_f64, Q};
use crate::strategic::dynamics::{moran, moran_graph};
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
    let generations = input.rounds;
    let (counts, size, mutation) = settings(a, req)?;
    let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(to_f64).collect()).collect();
    let k = a.len() as u64;
    let graph = match &req.graph {
        Some(edges) => Some(adjacency(edges, size, limits)?),
        None => None,
    };
    // On a graph: the first `counts[0]` individuals play the first strategy, and so on.
    let kinds: Vec<usize> = match graph {
        Some(_) => counts
            .iter()
            .enumerate()
            .flat_map(|(s, &c)| std::iter::repeat_n(s, c as usize))
            .collect(),
        None => Vec::new(),
    };
    let mut one_run =
        |cap: u64, rng: &mut XorShiftRng, record: &mut dyn FnMut(u64, &[u64])| match &graph {
            Some(g) => {
                moran_graph::simulate(&af, g, &kinds, mutation, cap, rng, |t, c| record(t, c))
            }
            None => moran::simulate(&af, &counts, mutation, cap, rng, |t, c| record(t, c)),
        };
    let mut rng = XorShiftRng::seed_from_u64(req.seed);
    check_work(
        "the Moran process",
        generations.saturating_mul(k * k + 8),
        limits.max_work,
    )?;
    let wanted = record_rounds(generations, points);
    let (states, at, every) =
        recorded(&mut one_run, &mut rng, &counts, &wanted, req.plays, limits)?;
    let mut notes = Vec::new();
    let fixation = if mutation > 0.0 {
        notes.push("with mutation no strategy takes over for good: no fixation".into());
        None
    } else {
        let exact = if graph.is_some() {
            notes.push(format!(
                "on a graph the offspring replaces a neighbour (Lieberman, Hauert and Nowak): \
                 fixation is estimated from {} simulated runs",
                req.runs
            ));
            None
        } else {
            exact_fixation(game, a, &counts, limits, &mut notes)?
        };
        match exact {
            Some(f) => Some(f),
            None => Some(simulated(
                game,
                a,
                &counts,
                req,
                generations,
                &mut rng,
                limits,
                &mut notes,
                &mut one_run,
            )?),
        }
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

/// The probability that each strategy takes over, exactly, with at most two present (`None`
/// with more, or past the work budget: then with a note).
fn exact_fixation(
    game: &NormalForm,
    a: &[Vec<Q>],
    counts: &[u64],
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<Option<Vec<Fixation>>> {
    let names = &game.strategies[0];
    match moran::fixation(a, counts, limits) {
        Ok(Some(p)) => Ok(Some(
            p.iter()
                .zip(names)
                .map(|(p, s)| Fixation {
                    strategy: s.clone(),
                    exact: Some(show(p)),
                    probability: to_f64(p),
                })
                .collect(),
        )),
        Ok(None) => {
            notes.push(
                "more than two strategies present: fixation estimated from simulated runs".into(),
            );
            Ok(None)
        }
        // The run stands without them: say why they are missing.
        Err(Error::Budget { .. }) => {
            notes.push(format!(
                "the exact fixation probabilities are past the work budget (raise {}): \
                 estimated from simulated runs instead",
                crate::core::hint::setting("max_work")
            ));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// One simulated run: up to a number of generations, each generation's counts handed on;
/// the strategy that took over, if one did, and the generations run.
type OneRun<'a> =
    dyn FnMut(u64, &mut XorShiftRng, &mut dyn FnMut(u64, &[u64])) -> (Option<usize>, u64) + 'a;

/// The share of `req.runs` simulated runs that each strategy took over, the runs' lengths
/// counted against the work budget as they go.
#[allow(clippy::too_many_arguments)]
fn simulated(
    game: &NormalForm,
    a: &[Vec<Q>],
    counts: &[u64],
    req: &Request,
    generations: u64,
    rng: &mut XorShiftRng,
    limits: &Limits,
    notes: &mut Vec<String>,
    one_run: &mut OneRun,
) -> Result<Vec<Fixation>> {
    let runs = req.runs;
    let per_generation = (a.len() * a.len()) as u64 + 8;
    let mut fixed = vec![0u64; counts.len()];
    let (mut open, mut spent) = (0u64, 0u64);
    crate::core::progress::phase("the Moran process (runs)", runs);
    for run in 1..=runs {
        // The runs' lengths are not known beforehand: each may take what the budget has left.
        let left = limits.max_work.saturating_sub(spent) / per_generation;
        let cap = generations.min(left);
        let (took, used) = one_run(cap, rng, &mut |_, _| {});
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
        crate::core::progress::tick(run)?;
    }
    if open > 0 {
        notes.push(format!(
            "{open} of the {runs} runs had not fixed after {generations} generations (raise {})",
            crate::core::hint::setting("rounds")
        ));
    }
    Ok(fixed
        .iter()
        .zip(&game.strategies[0])
        .map(|(&f, s)| Fixation {
            strategy: s.clone(),
            exact: None,
            probability: f as f64 / runs as f64,
        })
        .collect())
}

/// The graph's adjacency lists over `n` individuals, checked: every edge between two of them
/// (no loops), and the graph connected (else no strategy could take over).
fn adjacency(edges: &[(usize, usize)], n: u64, limits: &Limits) -> Result<Vec<Vec<usize>>> {
    check_memory(
        "the Moran process's graph",
        (edges.len() as u64)
            .saturating_mul(32)
            .saturating_add(n.saturating_mul(32)),
        limits.max_memory,
    )?;
    let n = n as usize;
    let mut near = vec![Vec::new(); n];
    for &(x, y) in edges {
        if x >= n || y >= n {
            return Err(Error::Invalid(format!(
                "the graph joins {x} and {y}, and the population's individuals are 0 to {}",
                n - 1
            )));
        }
        if x == y {
            return Err(Error::Invalid(format!(
                "the graph joins {x} to itself: an individual does not play or replace itself"
            )));
        }
        near[x].push(y);
        near[y].push(x);
    }
    for v in &mut near {
        v.sort_unstable();
        v.dedup();
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for &j in &near[i] {
            if !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    if let Some(lost) = seen.iter().position(|&s| !s) {
        return Err(Error::Invalid(format!(
            "the graph is not connected (individual {lost} cannot be reached from 0): no \
             strategy could take over"
        )));
    }
    Ok(near)
}

/// One run, recorded at the generations `wanted` (the last state kept past fixation), and at
/// every generation too when `every` is asked for: the states, their generations, and every
/// generation's counts.
type Recorded = (Vec<Vec<u64>>, Vec<u64>, Vec<Vec<u64>>);

fn recorded(
    one_run: &mut OneRun,
    rng: &mut XorShiftRng,
    counts: &[u64],
    wanted: &[u64],
    every: bool,
    limits: &Limits,
) -> Result<Recorded> {
    let generations = *wanted.last().expect("two records at least");
    let mut states = vec![counts.to_vec()];
    let mut at = vec![0u64];
    let mut next = 1;
    let mut last = counts.to_vec();
    let mut all = Vec::new();
    if every {
        check_memory(
            "the Moran process's generations",
            generations.saturating_mul(counts.len() as u64 * 8 + 24),
            limits.max_memory,
        )?;
        all.push(counts.to_vec());
    }
    one_run(generations, rng, &mut |g, c| {
        last = c.to_vec();
        if every {
            all.push(c.to_vec());
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
    Ok((states, at, all))
}

/// The request's settings for the Moran process, checked: the population's counts and size,
/// and the mutation probability.
fn settings(a: &[Vec<Q>], req: &Request) -> Result<(Vec<u64>, u64, f64)> {
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
    Ok((counts, size, mutation))
}
