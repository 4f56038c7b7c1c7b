//! How play evolves when players learn: fictitious play, exactly, and the replicator equation
//! (one population or two), recorded at evenly spaced rounds or times, with a picture.

use super::Limits;
use crate::core::budget::check_memory;
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

/// Reads a start: a vector a player, separated by `;`, the numbers by spaces or commas
/// (`"1/2 1/4 1/4"`, `"3 1; 0 2"`).
pub fn parse_start(text: &str) -> Result<Vec<Vec<Q>>> {
    text.split(';')
        .map(|part| {
            part.split([' ', ','])
                .filter(|w| !w.is_empty())
                .map(|w| {
                    crate::exact::parse_number(w)
                        .map_err(|why| Error::Invalid(format!("the start: '{w}': {why}")))
                })
                .collect()
        })
        .collect()
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
    /// The replicator equation: the times to record instead (non-decreasing; the run starts
    /// at the first, as SciPy's `odeint` does, and `time` and `points` are not used).
    pub times: Option<Vec<f64>>,
    /// Where to start, a vector a player: fictitious play's play counts (whole numbers;
    /// none played by default), the replicator's shares (each summing to 1; uniform by
    /// default).
    pub start: Option<Vec<Vec<Q>>>,
    /// Fictitious play: how ties between best replies are broken.
    pub ties: Ties,
    /// Fictitious play: keep the strategies played in every round ([`Answer::plays`]).
    pub plays: bool,
    /// The replicator equation on a symmetric game: two populations instead of one.
    pub two_populations: bool,
    /// Draw the time series (SVG) into [`Answer::plot`].
    pub plot: bool,
    /// The one-population replicator equation: list the rest points too (when the work
    /// budget admits the search of every support; otherwise a note says why not).
    pub rest_points: bool,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            rule: Rule::FictitiousPlay,
            rounds: 1000,
            time: 10.0,
            points: 11,
            times: None,
            start: None,
            ties: Ties::First,
            plays: false,
            two_populations: false,
            plot: false,
            rest_points: true,
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
    /// Fictitious play: the play counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<Vec<u64>>>,
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
    /// Fictitious play, when asked for: the strategies played in each round, from the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plays: Option<Vec<[usize; 2]>>,
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
    let points = in_range("points", req.points, 2, 1_000_001, "records")?;
    let records = req.times.as_ref().map_or(points, |t| t.len() as u64);
    let cells: usize = game.strategies.iter().map(Vec::len).sum();
    // A record keeps a float, a fraction and a count for each strategy.
    check_memory(
        "the records of the dynamics",
        records.saturating_mul(cells as u64 * 96 + 64),
        limits.max_memory,
    )?;
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
    let start = start_counts(req, [a.len(), a[0].len()])?;
    // The rounds recorded: evenly spaced from 0 to the last.
    let wanted: Vec<u64> = (0..points)
        .map(|k| (rounds as u128 * k as u128 / (points - 1) as u128) as u64)
        .collect();
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
        steps: None,
        rest_points: None,
        notes,
        plot: None,
    })
}

/// Fictitious play's starting play counts: the request's (whole numbers from 0 to 2^40), or
/// none played.
fn start_counts(req: &Request, shape: [usize; 2]) -> Result<[Vec<u64>; 2]> {
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
    let (time, times) = record_times(req, points)?;
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
    let from_zero: Vec<f64> = times.iter().map(|t| t - times[0]).collect();
    let (profiles, steps) = replicator::run(&float(a), &float(b), &start, &from_zero, limits)?;
    let mut notes = Vec::new();
    let (rests, picture) = if two || !(req.rest_points || req.plot) {
        (None, None)
    } else {
        let drawn = req.plot && m == 3;
        let (rests, picture) = one_population(game, a, &start, time, drawn, limits, &mut notes)?;
        (rests.filter(|_| req.rest_points), picture)
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
                counts: None,
            })
            .collect(),
        counts: None,
        plays: None,
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
) -> Result<(Option<Vec<Rest>>, Option<String>)> {
    let af: Vec<Vec<f64>> = a.iter().map(|r| r.iter().map(to_f64).collect()).collect();
    let (found, continua) = match rest_points(a, limits) {
        Ok((found, continua)) => (Some(found), continua),
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
        // The run drawn finely, whatever the records asked for.
        let fine: Vec<f64> = (0..=400).map(|k| time * k as f64 / 400.0).collect();
        let (path, _) = replicator::run(&af, &af, start, &fine, limits)?;
        let run: Vec<Vec<f64>> = path.into_iter().map(|mut p| p.remove(0)).collect();
        Some(simplex::portrait(
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
