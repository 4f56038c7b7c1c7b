//! The continuous rules: the replicator equation (one population or two, with or without
//! mutation) and the logit dynamics, integrated and recorded, with their rest points where
//! they are exact and their phase portraits.

use super::{check_start_shape, Answer, Input, Mutation, Point, Request, Rest, Rule};
use crate::api::Limits;
use crate::core::error::{Error, Result};
use crate::core::number::finite_at_least;
use crate::exact::{show, to_f64, Q};
use crate::strategic::dynamics::field::{self, Field};
use crate::strategic::dynamics::rest_points::rest_points;
use crate::strategic::dynamics::simplex;
use crate::strategic::dynamics::square::{self, Shown};
use crate::strategic::dynamics::square_rest::{square_rest_points, Side};
use crate::strategic::game::NormalForm;
use num_traits::{One, Signed};

/// The field the request asks for on `m` strategies (one population), checked.
fn field_of(req: &Request, m: usize, two: bool) -> Result<Field> {
    Ok(match (req.rule, &req.mutation) {
        // The noise was checked positive and finite with the other settings.
        (Rule::Logit, _) => Field::Logit(req.noise),
        (_, None) => Field::Replicator,
        (_, Some(_)) if two => {
            return Err(Error::Invalid(
                "mutation is for one population: a symmetric game without two populations".into(),
            ))
        }
        (_, Some(Mutation::Rate(r))) => {
            let r = to_f64(r);
            let other = if m > 1 { r / (m - 1) as f64 } else { 0.0 };
            Field::Mutator(
                (0..m)
                    .map(|i| {
                        (0..m)
                            .map(|j| if i == j { 1.0 - r } else { other })
                            .collect()
                    })
                    .collect(),
            )
        }
        (_, Some(Mutation::Matrix(q))) => {
            if q.len() != m {
                return Err(Error::Invalid(format!(
                    "the mutation matrix is {} x {}, and the game has {m} strategies",
                    q.len(),
                    q.len()
                )));
            }
            Field::Mutator(q.iter().map(|r| r.iter().map(to_f64).collect()).collect())
        }
    })
}

/// What the field is called, in words.
fn named(field: &Field) -> String {
    match field {
        Field::Replicator => "the replicator equation".into(),
        Field::Mutator(_) => "the replicator-mutator equation".into(),
        Field::Logit(eta) => format!("the logit dynamics (noise {eta})"),
    }
}

/// The replicator equation or the logit dynamics, recorded.
pub(super) fn run(input: &Input) -> Result<Answer> {
    let Input {
        game,
        a,
        b,
        req,
        points,
        limits,
        ..
    } = *input;
    let (time, times) = record_times(req, points)?;
    let (m, n) = (a.len(), a[0].len());
    let symmetric = m == n && (0..m).all(|i| (0..n).all(|j| b[i][j] == a[j][i]));
    let two = req.two_populations || !symmetric;
    let field = field_of(req, m, two)?;
    let shape: Vec<usize> = if two { vec![m, n] } else { vec![m] };
    let start: Vec<Vec<f64>> = match &req.start {
        None => shape.iter().map(|&k| vec![1.0 / k as f64; k]).collect(),
        Some(s) => {
            check_start_shape(s, &shape)?;
            for v in s {
                let total: Q = v.iter().sum();
                if v.iter().any(Signed::is_negative) || total != Q::one() {
                    return Err(Error::Invalid(format!(
                        "the continuous dynamics start from shares, non-negative and summing \
                         to 1; these sum to {}",
                        show(&total)
                    )));
                }
            }
            s.iter().map(|v| v.iter().map(to_f64).collect()).collect()
        }
    };
    let (af, bf) = (float(a), float(b));
    let from_zero: Vec<f64> = times.iter().map(|t| t - times[0]).collect();
    let (profiles, steps) = field::run(&field, &af, &bf, &start, &from_zero, limits)?;
    let mut notes = Vec::new();
    let context = Context {
        field: &field,
        game,
        a,
        b,
        start: &start,
        time,
        req,
        limits,
    };
    let (rests, picture) = if two {
        two_populations(&context, &mut notes)?
    } else if req.rest_points || req.plot {
        let drawn = req.plot && m == 3;
        let (rests, picture) = one_population(&context, drawn, &mut notes)?;
        (rests.filter(|_| req.rest_points), picture)
    } else {
        (None, None)
    };
    if matches!(field, Field::Mutator(_)) && a.iter().flatten().any(Signed::is_negative) {
        notes.push(
            "with negative payoffs the replicator-mutator's offspring counts can be negative, \
             and shares can leave the simplex (as in nashpy's equation): shift the payoffs by \
             a constant to keep them fitnesses"
                .into(),
        );
    }
    if !matches!(field, Field::Replicator) && req.rest_points {
        notes.push(format!(
            "the rest points of {} are not computed exactly; the run shows where it settles",
            named(&field)
        ));
    }
    notes.push(format!(
        "integrated by the Dormand–Prince method, local errors within 1e-8 relative, 1e-10 \
         absolute ({steps} steps)"
    ));
    Ok(Answer {
        rule: req.rule,
        described: format!(
            "{}, {} population{}, to time {}",
            named(&field),
            shape.len(),
            if two { "s" } else { "" },
            time
        ),
        players: if two {
            game.players.clone()
        } else {
            vec!["the population".into()]
        },
        strategies: if two {
            game.strategies.clone()
        } else {
            vec![game.strategies[0].clone()]
        },
        points: times
            .iter()
            .zip(profiles)
            .map(|(&t, profile)| Point {
                at: t,
                // A share that dies out may come out a little below 0 (the tolerance is 1e-10
                // absolute near zero): shown as 0. (The replicator-mutator with negative
                // payoffs can truly leave the simplex, as nashpy's does; that is kept.)
                profile: profile
                    .into_iter()
                    .map(|v| {
                        v.into_iter()
                            .map(|x| if x < 0.0 && x > -1e-9 { 0.0 } else { x })
                            .collect()
                    })
                    .collect(),
                ..Point::default()
            })
            .collect(),
        steps: Some(steps),
        rest_points: rests,
        notes,
        plot: picture,
        ..Answer::default()
    })
}

/// The run drawn finely (401 points to `time`), whatever the records asked for.
fn fine_run(
    field: &Field,
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    start: &[Vec<f64>],
    time: f64,
    limits: &Limits,
) -> Result<Vec<Vec<Vec<f64>>>> {
    let fine: Vec<f64> = (0..=400).map(|k| time * k as f64 / 400.0).collect();
    Ok(field::run(field, a, b, start, &fine, limits)?.0)
}

fn float(x: &[Vec<Q>]) -> Vec<Vec<f64>> {
    x.iter().map(|r| r.iter().map(to_f64).collect()).collect()
}

/// What the rest points and the pictures of a run need.
#[derive(Clone, Copy)]
struct Context<'a> {
    field: &'a Field,
    game: &'a NormalForm,
    a: &'a [Vec<Q>],
    b: &'a [Vec<Q>],
    start: &'a [Vec<f64>],
    time: f64,
    req: &'a Request,
    limits: &'a Limits,
}

/// Two populations: on a 2 × 2 game, the replicator's rest points exactly (resting sides
/// named in `notes`) and, when asked, the portrait on the unit square.
fn two_populations(
    c: &Context,
    notes: &mut Vec<String>,
) -> Result<(Option<Vec<Rest>>, Option<String>)> {
    let Context {
        field,
        game,
        a,
        b,
        start,
        time,
        req,
        limits,
    } = *c;
    let square = a.len() == 2 && a[0].len() == 2;
    if !square {
        return Ok((None, None));
    }
    let exact = matches!(field, Field::Replicator);
    let (found, sides) = if exact {
        square_rest_points(a, b)
    } else {
        (Vec::new(), Vec::new())
    };
    let s = &game.strategies;
    for side in &sides {
        notes.push(match side {
            Side::Row(f) => format!(
                "every point with {} playing only {} rests: {} is indifferent there",
                game.players[0],
                s[0][if *f { 0 } else { 1 }],
                game.players[1]
            ),
            Side::Column(f) => format!(
                "every point with {} playing only {} rests: {} is indifferent there",
                game.players[1],
                s[1][if *f { 0 } else { 1 }],
                game.players[0]
            ),
            Side::Everywhere => "a population is indifferent whatever the other plays: no \
                                 rest point is isolated"
                .into(),
        });
    }
    let picture = if req.plot {
        let (af, bf) = (float(a), float(b));
        let path = fine_run(field, &af, &bf, start, time, limits)?;
        let run: Vec<(f64, f64)> = path.iter().map(|p| (p[0][0], p[1][0])).collect();
        let shown = Shown {
            players: &game.players,
            first: [&s[0][0], &s[1][0]],
            run: &run,
            time,
            rests: &found,
            sides: &sides,
        };
        Some(square::portrait(field, &af, &bf, &shown, limits)?)
    } else {
        None
    };
    let pair = |x: &Q| vec![show(x), show(&(Q::one() - x))];
    let rests = (exact && req.rest_points).then(|| {
        found
            .iter()
            .map(|r| Rest {
                shares: pair(&r.x),
                payoff: show(&r.payoffs[0]),
                second: Some(pair(&r.y)),
                second_payoff: Some(show(&r.payoffs[1])),
                nash: r.nash,
                stability: r.stability,
            })
            .collect()
    });
    Ok((rests, picture))
}

/// The rest points of the one-population equation (continua named in `notes`) and, when
/// `drawn`, the portrait on the simplex of three strategies with the run from `start`.
fn one_population(
    c: &Context,
    drawn: bool,
    notes: &mut Vec<String>,
) -> Result<(Option<Vec<Rest>>, Option<String>)> {
    let Context {
        field,
        game,
        a,
        start,
        time,
        limits,
        ..
    } = *c;
    let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(to_f64).collect()).collect();
    let exact = matches!(field, Field::Replicator);
    let (found, continua) = match exact.then(|| rest_points(a, limits)).transpose() {
        Ok(None) => (None, Vec::new()),
        Ok(Some((found, continua))) => (Some(found), continua),
        // The run stands without them: say why they are missing.
        Err(Error::Budget { .. }) => {
            notes.push(format!(
                "the rest points are not listed: searching the 2^{} - 1 supports is past the \
                 work budget (raise {})",
                a.len(),
                crate::core::hint::setting("max_work")
            ));
            (None, Vec::new())
        }
        Err(e) => return Err(e),
    };
    for s in continua {
        notes.push(format!(
            "a continuum of rest points inside the face of strategies {}",
            s.iter()
                .map(|&i| game.strategies[0][i].clone())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let picture = if drawn {
        let path = fine_run(field, &af, &af, start, time, limits)?;
        let run: Vec<Vec<f64>> = path.into_iter().map(|mut p| p.remove(0)).collect();
        Some(simplex::portrait(
            field,
            &af,
            &game.strategies[0],
            &run,
            found.as_deref().unwrap_or_default(),
            time,
            limits,
        )?)
    } else {
        None
    };
    let rests = found.map(|found| {
        found
            .iter()
            .map(|r| Rest {
                shares: r.shares.iter().map(show).collect(),
                payoff: show(&r.payoff),
                second: None,
                second_payoff: None,
                nash: r.nash,
                stability: r.stability,
            })
            .collect()
    });
    Ok((rests, picture))
}

/// The times to record at, and the run's length: the request's own list (non-decreasing,
/// finite, spanning at most 10^6), or `points` evenly spaced to `time`.
fn record_times(req: &Request, points: u64) -> Result<(f64, Vec<f64>)> {
    if let Some(times) = &req.times {
        let bad = times.is_empty()
            || times.iter().any(|t| !t.is_finite())
            || times.windows(2).any(|w| w[1] < w[0])
            || times[times.len() - 1] - times[0] > 1e6;
        if bad {
            return Err(Error::Invalid(format!(
                "{} must be finite, non-decreasing and span at most 1e6",
                crate::core::hint::setting("times")
            )));
        }
        let span = times[times.len() - 1] - times[0];
        return Ok((span, times.clone()));
    }
    let time = finite_at_least("time", req.time, 0.0)?;
    if time == 0.0 || time > 1e6 {
        return Err(Error::Invalid(format!(
            "{} is {time}: give a positive time, at most 1e6",
            crate::core::hint::setting("time")
        )));
    }
    let times = (0..points)
        .map(|k| time * k as f64 / (points - 1) as f64)
        .collect();
    Ok((time, times))
}
