//! How play evolves when players learn: fictitious play, exactly, and the replicator equation
//! (one population or two), recorded at evenly spaced rounds or times, with a picture.

use super::Limits;
use crate::core::error::{Error, Result};
use crate::core::number::{finite_at_least, in_range};
use crate::exact::{show, to_f64, Q};
use crate::strategic::dynamics::rest_points::rest_points;
use crate::strategic::dynamics::{fictitious, plot, replicator, simplex};
use crate::strategic::game::NormalForm;
use num_traits::{Signed, ToPrimitive};
use serde::Serialize;

pub use crate::strategic::dynamics::fictitious::Ties;
pub use crate::strategic::dynamics::rest_points::Stability;

/// The learning rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Fictitious play: each round, a best reply to the other's empirical play so far.
    #[default]
    FictitiousPlay,
    /// The replicator equation.
    Replicator,
}

impl Rule {
    /// Every rule with its names.
    pub const NAMES: &'static [(&'static str, Rule)] = &[
        ("fictitious-play", Rule::FictitiousPlay),
        ("fictitious", Rule::FictitiousPlay),
        ("fp", Rule::FictitiousPlay),
        ("replicator", Rule::Replicator),
    ];

    /// The rule called `name`.
    pub fn parse(name: &str) -> Result<Rule> {
        super::named(Self::NAMES, name).ok_or_else(|| {
            Error::Invalid(format!(
                "unknown rule '{name}': use fictitious-play or replicator"
            ))
        })
    }
}

/// Reads a tie rule: `first`, or `random` with an optional seed (`random:7`).
pub fn parse_ties(text: &str) -> Result<Ties> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("first") {
        return Ok(Ties::First);
    }
    if t.eq_ignore_ascii_case("random") {
        return Ok(Ties::Random(0));
    }
    if let Some(seed) = t.strip_prefix("random:") {
        return seed
            .trim()
            .parse()
            .map(Ties::Random)
            .map_err(|_| Error::Invalid(format!("the seed '{seed}' is not a whole number")));
    }
    Err(Error::Invalid(format!(
        "the tie rule '{t}': use first or random[:SEED]"
    )))
}

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// The rule.
    pub rule: Rule,
    /// Fictitious play: the rounds to play (default 1000).
    pub rounds: u64,
    /// The replicator equation: the time to integrate to (default 10).
    pub time: f64,
    /// The records kept, evenly spaced from the start to the end (at least 2).
    pub points: u64,
    /// Where to start, a vector a player: fictitious play's play counts (whole numbers;
    /// none played by default), the replicator's shares (each summing to 1; uniform by
    /// default).
    pub start: Option<Vec<Vec<Q>>>,
    /// Fictitious play: how ties between best replies are broken.
    pub ties: Ties,
    /// The replicator equation on a symmetric game: two populations instead of one.
    pub two_populations: bool,
    /// Draw the time series (SVG) into [`Answer::plot`].
    pub plot: bool,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            rule: Rule::FictitiousPlay,
            rounds: 1000,
            time: 10.0,
            points: 11,
            start: None,
            ties: Ties::First,
            two_populations: false,
            plot: false,
        }
    }
}

/// One record of the run.
#[derive(Debug, Clone, Serialize)]
pub struct Point {
    /// The round (fictitious play) or the time (the replicator equation).
    pub at: f64,
    /// Each player's (or the population's) mixed strategy: the empirical frequencies, or the
    /// shares.
    pub profile: Vec<Vec<f64>>,
    /// Fictitious play: the frequencies exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Vec<Vec<String>>>,
}

/// A rest point of the replicator equation.
#[derive(Debug, Clone, Serialize)]
pub struct Rest {
    /// The shares, exactly.
    pub shares: Vec<String>,
    /// The average payoff there.
    pub payoff: String,
    /// Whether no other strategy earns more there (a symmetric Nash equilibrium).
    pub nash: bool,
    /// stable (asymptotically), unstable, or undecided (by the linearisation).
    pub stability: Stability,
}

/// The run.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The rule that ran.
    pub rule: Rule,
    /// What ran, in words.
    pub described: String,
    /// The players (one name when one population plays).
    pub players: Vec<String>,
    /// Each player's strategy names.
    pub strategies: Vec<Vec<String>>,
    /// The records.
    pub points: Vec<Point>,
    /// Fictitious play's play counts at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<Vec<u64>>>,
    /// The integrator's steps (the replicator equation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// The one-population replicator equation: every isolated rest point, exactly, with its
    /// stability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest_points: Option<Vec<Rest>>,
    /// Remarks.
    pub notes: Vec<String>,
    /// The time series, when asked for.
    #[serde(skip)]
    pub plot: Option<String>,
}

/// Runs the request's rule on a two-player game.
pub fn solve(game: &NormalForm, req: &Request, limits: &Limits) -> Result<Answer> {
    if game.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "the dynamics are run on two-player games, and this game has {} players",
            game.players.len()
        )));
    }
    let points = in_range("points", req.points, 2, 100_000, "records")?;
    let a = game.matrix(0);
    let b = game.matrix(1);
    let mut answer = match req.rule {
        Rule::FictitiousPlay => fictitious_play(game, &a, &b, req, points, limits)?,
        Rule::Replicator => replicator_run(game, &a, &b, req, points, limits)?,
    };
    if req.plot && answer.plot.is_none() {
        let at: Vec<f64> = answer.points.iter().map(|p| p.at).collect();
        let profiles: Vec<Vec<Vec<f64>>> =
            answer.points.iter().map(|p| p.profile.clone()).collect();
        let axis = match req.rule {
            Rule::FictitiousPlay => "round",
            Rule::Replicator => "time",
        };
        answer.plot = Some(plot::time_series(
            &at,
            &profiles,
            &answer.players,
            &answer.strategies,
            axis,
        ));
    }
    Ok(answer)
}

fn fictitious_play(
    game: &NormalForm,
    a: &[Vec<Q>],
    b: &[Vec<Q>],
    req: &Request,
    points: u64,
    limits: &Limits,
) -> Result<Answer> {
    let rounds = in_range("rounds", req.rounds, 1, 1 << 40, "rounds")?;
    let shape = [a.len(), a[0].len()];
    let start: [Vec<u64>; 2] = match &req.start {
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
    };
    // The rounds recorded: evenly spaced from 0 to the last.
    let wanted: Vec<u64> = (0..points)
        .map(|k| (rounds as u128 * k as u128 / (points - 1) as u128) as u64)
        .collect();
    let mut next = 0;
    let mut recorded: Vec<(u64, [Vec<u64>; 2])> = Vec::new();
    let mut last = start.clone();
    fictitious::run(a, b, start, rounds, req.ties, limits, |round, counts| {
        while next < wanted.len() && wanted[next] < round {
            next += 1;
        }
        if next < wanted.len() && wanted[next] == round {
            recorded.push((round, counts.clone()));
        }
        if round == rounds {
            last = counts.clone();
        }
    })?;
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
        steps: None,
        rest_points: None,
        notes,
        plot: None,
    })
}

fn check_start_shape(start: &[Vec<Q>], shape: &[usize]) -> Result<()> {
    if start.len() != shape.len() || start.iter().zip(shape).any(|(v, &n)| v.len() != n) {
        return Err(Error::Invalid(format!(
            "the start gives {} numbers, and the game needs {} (a vector a player: {})",
            start
                .iter()
                .map(|v| v.len().to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            shape.len(),
            shape
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" and ")
        )));
    }
    Ok(())
}

fn replicator_run(
    game: &NormalForm,
    a: &[Vec<Q>],
    b: &[Vec<Q>],
    req: &Request,
    points: u64,
    limits: &Limits,
) -> Result<Answer> {
    let time = finite_at_least("time", req.time, 0.0)?;
    if time == 0.0 || time > 1e6 {
        return Err(Error::Invalid(format!(
            "{} is {time}: give a positive time, at most 1e6",
            crate::core::hint::setting("time")
        )));
    }
    let (m, n) = (a.len(), a[0].len());
    let symmetric = m == n && (0..m).all(|i| (0..n).all(|j| b[i][j] == a[j][i]));
    let two = req.two_populations || !symmetric;
    let shape: Vec<usize> = if two { vec![m, n] } else { vec![m] };
    let start: Vec<Vec<f64>> = match &req.start {
        None => shape.iter().map(|&k| vec![1.0 / k as f64; k]).collect(),
        Some(s) => {
            check_start_shape(s, &shape)?;
            for v in s {
                let total: Q = v.iter().sum();
                if v.iter().any(Signed::is_negative) || total != Q::from_integer(1.into()) {
                    return Err(Error::Invalid(format!(
                        "the replicator starts from shares, non-negative and summing to 1; \
                         these sum to {}",
                        show(&total)
                    )));
                }
            }
            s.iter().map(|v| v.iter().map(to_f64).collect()).collect()
        }
    };
    let float = |x: &[Vec<Q>]| -> Vec<Vec<f64>> {
        x.iter().map(|r| r.iter().map(to_f64).collect()).collect()
    };
    let times: Vec<f64> = (0..points)
        .map(|k| time * k as f64 / (points - 1) as f64)
        .collect();
    let (profiles, steps) = replicator::run(&float(a), &float(b), &start, &times, limits)?;
    let mut notes = Vec::new();
    let (rests, picture) = if two {
        (None, None)
    } else {
        let drawn = req.plot && m == 3;
        let (rests, picture) = one_population(game, a, &start, time, drawn, limits, &mut notes)?;
        (Some(rests), picture)
    };
    notes.push(format!(
        "integrated by the Dormand–Prince method, local errors within 1e-8 relative, 1e-10 \
         absolute ({steps} steps)"
    ));
    Ok(Answer {
        rule: Rule::Replicator,
        described: format!(
            "the replicator equation, {} population{}, to time {}",
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
                profile,
                exact: None,
            })
            .collect(),
        counts: None,
        steps: Some(steps),
        rest_points: rests,
        notes,
        plot: picture,
    })
}

/// The rest points of the one-population equation (continua named in `notes`) and, when
/// `drawn`, the portrait on the simplex of three strategies with the run from `start`.
fn one_population(
    game: &NormalForm,
    a: &[Vec<Q>],
    start: &[Vec<f64>],
    time: f64,
    drawn: bool,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<(Vec<Rest>, Option<String>)> {
    let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(to_f64).collect()).collect();
    let (found, continua) = rest_points(a, limits)?;
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
        // The run drawn finely, whatever the records asked for.
        let fine: Vec<f64> = (0..=400).map(|k| time * k as f64 / 400.0).collect();
        let (path, _) = replicator::run(&af, &af, start, &fine, limits)?;
        let run: Vec<Vec<f64>> = path.into_iter().map(|mut p| p.remove(0)).collect();
        Some(simplex::portrait(
            &af,
            &game.strategies[0],
            &run,
            &found,
            time,
            limits,
        )?)
    } else {
        None
    };
    let rests = found
        .iter()
        .map(|r| Rest {
            shares: r.shares.iter().map(show).collect(),
            payoff: show(&r.payoff),
            nash: r.nash,
            stability: r.stability,
        })
        .collect();
    Ok((rests, picture))
}
