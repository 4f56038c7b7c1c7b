//! How play evolves when players learn, recorded at evenly spaced rounds or times, with a
//! picture: fictitious play and best-response dynamics (exact), stochastic fictitious play,
//! regret matching (exact regrets), the replicator equation (one population or two, with or
//! without mutation), the logit dynamics, and the Moran process (exact fixation probabilities,
//! or simulation).

mod best_response;
mod continuous;
mod fictitious;
mod moran;
mod regret;
mod stochastic;

use super::Limits;
use crate::core::budget::check_memory;
use crate::core::error::{Error, Result};
use crate::core::number::{finite_at_least, in_range};
use crate::exact::{show, Q};
use crate::strategic::dynamics::plot;
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
    /// Best-response dynamics: each round, a best reply to the other's last strategy.
    BestResponse,
    /// Stochastic fictitious play: a logit reply to perturbed beliefs, drawn.
    StochasticFictitiousPlay,
    /// Regret matching (Hart and Mas-Colell): switch in proportion to the regrets.
    RegretMatching,
    /// The replicator equation (with mutation: the replicator–mutator equation).
    Replicator,
    /// The logit dynamics.
    Logit,
    /// The Moran process on a finite population.
    Moran,
}

impl Rule {
    /// Every rule with its names.
    pub const NAMES: &'static [(&'static str, Rule)] = &[
        ("fictitious-play", Rule::FictitiousPlay),
        ("fictitious", Rule::FictitiousPlay),
        ("fp", Rule::FictitiousPlay),
        ("best-response", Rule::BestResponse),
        ("br", Rule::BestResponse),
        ("stochastic-fictitious-play", Rule::StochasticFictitiousPlay),
        ("sfp", Rule::StochasticFictitiousPlay),
        ("regret-matching", Rule::RegretMatching),
        ("regret", Rule::RegretMatching),
        ("replicator", Rule::Replicator),
        ("logit", Rule::Logit),
        ("moran", Rule::Moran),
    ];

    /// The rule called `name`.
    pub fn parse(name: &str) -> Result<Rule> {
        super::named(Self::NAMES, name).ok_or_else(|| {
            Error::Invalid(format!(
                "unknown rule '{name}': use fictitious-play, best-response, \
                 stochastic-fictitious-play, regret-matching, replicator, logit or moran"
            ))
        })
    }

    /// What the records' horizontal axis counts.
    pub fn axis(self) -> &'static str {
        match self {
            Rule::Replicator | Rule::Logit => "time",
            Rule::Moran => "generation",
            _ => "round",
        }
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

/// Mutation: the replicator–mutator equation's matrix, or the Moran process's probability.
#[derive(Debug, Clone, PartialEq)]
pub enum Mutation {
    /// Each offspring mutates with this probability, to each other strategy alike.
    Rate(Q),
    /// `Q_ij`, the chance that an offspring of `i` plays `j` (rows summing to 1).
    Matrix(Vec<Vec<Q>>),
}

/// Reads mutation: one number (a rate from 0 to 1) or a matrix, rows separated by `;`
/// (`"0.01"`, `"9/10 1/10; 0 1"`).
pub fn parse_mutation(text: &str) -> Result<Mutation> {
    let rows = parse_start(text)
        .map_err(|e| Error::Invalid(e.to_string().replace("the start", "the mutation")))?;
    let bad = |why: String| Err(Error::Invalid(format!("the mutation: {why}")));
    if rows.iter().flatten().any(|x| x.is_negative()) {
        return bad("probabilities cannot be negative".into());
    }
    if let [row] = &rows[..] {
        if let [rate] = &row[..] {
            if *rate > Q::from_integer(1.into()) {
                return bad(format!("the rate {} is above 1", show(rate)));
            }
            return Ok(Mutation::Rate(rate.clone()));
        }
    }
    if rows.iter().any(|r| r.len() != rows.len()) {
        return bad("give one rate, or a square matrix (rows separated by ';')".into());
    }
    for (i, r) in rows.iter().enumerate() {
        let total: Q = r.iter().sum();
        if total != Q::from_integer(1.into()) {
            return bad(format!("row {} sums to {}, not 1", i + 1, show(&total)));
        }
    }
    Ok(Mutation::Matrix(rows))
}

/// Reads a population: how many individuals play each strategy (`"10 1"`).
pub fn parse_population(text: &str) -> Result<Vec<u64>> {
    text.split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<u64>().map_err(|_| {
                Error::Invalid(format!(
                    "the population: '{w}' is not a count (a whole number from 0)"
                ))
            })
        })
        .collect()
}

/// Reads a graph for the Moran process: an edge a line, two individuals numbered from 0
/// (`"0 1"`), separated by spaces or a comma; `#` starts a comment.
pub fn parse_graph(text: &str) -> Result<Vec<(usize, usize)>> {
    let mut edges = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let ends: Vec<&str> = line
            .split([' ', ',', '\t'])
            .filter(|w| !w.is_empty())
            .collect();
        let node = |w: &str| {
            w.parse::<usize>().map_err(|_| {
                Error::Invalid(format!(
                    "the graph, line {}: '{w}' is not an individual (a whole number from 0)",
                    k + 1
                ))
            })
        };
        match ends[..] {
            [x, y] => edges.push((node(x)?, node(y)?)),
            _ => {
                return Err(Error::Invalid(format!(
                    "the graph, line {}: give an edge as two individuals, '0 1'",
                    k + 1
                )))
            }
        }
    }
    Ok(edges)
}

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// The rule.
    pub rule: Rule,
    /// The discrete rules: the rounds to play (default 1000); the Moran process: the most
    /// generations a run may take.
    pub rounds: u64,
    /// The continuous rules: the time to integrate to (default 10).
    pub time: f64,
    /// The records kept, evenly spaced from the start to the end (at least 2).
    pub points: u64,
    /// The continuous rules: the times to record instead (non-decreasing; the run starts at
    /// the first, as SciPy's `odeint` does, and `time` and `points` are not used).
    pub times: Option<Vec<f64>>,
    /// Where to start, a vector a player: play counts for fictitious play (whole numbers;
    /// none played by default), a pure profile for best-response dynamics and regret matching
    /// (each vector one 1, the rest 0; the first strategies by default), shares for the
    /// continuous rules (each summing to 1; uniform by default).
    pub start: Option<Vec<Vec<Q>>>,
    /// Fictitious play and best-response dynamics: how ties between best replies are broken.
    pub ties: Ties,
    /// Fictitious play: keep the strategies played in every round ([`Answer::plays`]); the
    /// Moran process: keep the run's every generation ([`Answer::generations`]).
    pub plays: bool,
    /// The replicator equation or the logit dynamics on a symmetric game: two populations
    /// instead of one.
    pub two_populations: bool,
    /// Draw the run (SVG) into [`Answer::plot`].
    pub plot: bool,
    /// The one-population replicator equation: list the rest points too (when the work
    /// budget admits the search of every support; otherwise a note says why not).
    pub rest_points: bool,
    /// The logit dynamics and stochastic fictitious play: the noise `η` (positive; default
    /// 1/10, as nashpy's `etha`).
    pub noise: f64,
    /// Stochastic fictitious play: the largest perturbation of a payoff, `ε̄` (default 1/100,
    /// as nashpy's `epsilon_bar`).
    pub perturbation: f64,
    /// The replicator equation (one population) or the Moran process: mutation.
    pub mutation: Option<Mutation>,
    /// The Moran process: how many individuals play each strategy at the start.
    pub population: Option<Vec<u64>>,
    /// The Moran process: runs simulated to estimate fixation when more than two strategies
    /// are present (default 1000).
    pub runs: u64,
    /// The random rules' seed (stochastic fictitious play, regret matching, the Moran
    /// process).
    pub seed: u64,
    /// The Moran process on a graph: its edges between individuals (numbered from 0; the
    /// first `population[0]` play the first strategy, and so on).
    pub graph: Option<Vec<(usize, usize)>>,
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
            noise: 0.1,
            perturbation: 0.01,
            mutation: None,
            population: None,
            runs: 1000,
            seed: 0,
            graph: None,
        }
    }
}

/// One record of the run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Point {
    /// The round, time or generation.
    pub at: f64,
    /// Each player's (or the population's) mixed strategy: the empirical frequencies, the
    /// shares, or the strategy played.
    pub profile: Vec<Vec<f64>>,
    /// The exact rules: the frequencies exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<Vec<Vec<String>>>,
    /// Fictitious play: the play counts; the Moran process: the population's counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<Vec<u64>>>,
    /// Stochastic fictitious play: the mixed strategies the players drew from in that round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distributions: Option<Vec<Vec<f64>>>,
    /// Regret matching: the largest average regret so far, exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regret: Option<String>,
}

/// A rest point of the replicator equation.
#[derive(Debug, Clone, Serialize)]
pub struct Rest {
    /// The shares (two populations: the first population's), exactly.
    pub shares: Vec<String>,
    /// The average payoff there (two populations: the first population's).
    pub payoff: String,
    /// Two populations: the second population's shares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<Vec<String>>,
    /// Two populations: the second population's average payoff.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_payoff: Option<String>,
    /// Whether no other strategy earns more there (a Nash equilibrium).
    pub nash: bool,
    /// stable (asymptotically), unstable, or undecided (by the linearisation).
    pub stability: Stability,
}

/// How best-response dynamics ended.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Ending {
    /// At a pure Nash equilibrium, kept from `round` on.
    Equilibrium {
        /// The first round there.
        round: u64,
        /// The strategies.
        profile: [String; 2],
    },
    /// In a cycle of profiles from `round`, repeating every `length` rounds.
    Cycle {
        /// The cycle's first round.
        round: u64,
        /// Its length.
        length: u64,
        /// The profiles in it, in order.
        profiles: Vec<[String; 2]>,
    },
}

/// The Moran process: the probability that a strategy takes over.
#[derive(Debug, Clone, Serialize)]
pub struct Fixation {
    /// The strategy.
    pub strategy: String,
    /// Exactly, when at most two strategies are present and there is no mutation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
    /// The probability (or, simulated, the share of runs it took over).
    pub probability: f64,
}

/// The run.
#[derive(Debug, Clone, Default, Serialize)]
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
    /// The integrator's steps (the continuous rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// The replicator equation (one population, or two on a 2 × 2 game): every isolated rest
    /// point, exactly, with its stability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest_points: Option<Vec<Rest>>,
    /// Best-response dynamics: the equilibrium or cycle it ended in, if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// Regret matching: the empirical distribution of joint play at the end, exactly
    /// (`joint[i][j]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joint: Option<Vec<Vec<String>>>,
    /// The Moran process: the probability that each strategy takes over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixation: Option<Vec<Fixation>>,
    /// The Moran process, when asked for ([`Request::plays`]): the recorded run's counts at
    /// every generation, from the start until it fixed or ran out of generations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generations: Option<Vec<Vec<u64>>>,
    /// Remarks.
    pub notes: Vec<String>,
    /// The picture, when asked for.
    #[serde(skip)]
    pub plot: Option<String>,
}

/// Whether the run is brief for certain: a continuous rule (the replicator or logit
/// dynamics) on a game of at most 400 profiles, to a time that the payoffs' range times does
/// not make long (at most 10⁴, a few thousand adaptive steps), with at most 10⁴ records. A
/// front-end may run such a call where it is, without the worker thread that lets a long one
/// be interrupted: at a fraction of a millisecond, the thread would be most of the cost.
pub fn is_brief(game: &NormalForm, req: &Request) -> bool {
    if !matches!(req.rule, Rule::Replicator | Rule::Logit) || game.profiles() > 400 {
        return false;
    }
    let records = req.times.as_ref().map_or(req.points, |t| t.len() as u64);
    let end = req
        .times
        .as_ref()
        .and_then(|t| t.last().copied())
        .unwrap_or(req.time);
    let range = (0..game.profiles())
        .flat_map(|k| game.payoffs_at(k).iter())
        .filter_map(|q| q.abs().to_f64())
        .fold(0.0f64, f64::max);
    records <= 10_000 && end.is_finite() && (end.abs() * range.max(1.0)) <= 1e4
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
    // Every setting is checked, whichever rule reads it.
    let noise = finite_at_least("noise", req.noise, 0.0)?;
    if noise == 0.0 {
        return Err(Error::Invalid(format!(
            "{} must be positive (with no noise the logit reply is the best reply: use \
             fictitious play or best response)",
            crate::core::hint::setting("noise")
        )));
    }
    finite_at_least("perturbation", req.perturbation, 0.0)?;
    in_range("runs", req.runs, 1, 1 << 32, "runs")?;
    let unit = if req.rule == Rule::Moran {
        "generations"
    } else {
        "rounds"
    };
    let rounds = in_range("rounds", req.rounds, 1, 1 << 40, unit)?;
    let a = game.matrix(0);
    let b = game.matrix(1);
    if req.mutation.is_some() && !matches!(req.rule, Rule::Replicator | Rule::Moran) {
        return Err(Error::Invalid(
            "mutation belongs to the replicator equation and the Moran process".into(),
        ));
    }
    let input = Input {
        game,
        a: &a,
        b: &b,
        req,
        points,
        rounds,
        limits,
    };
    let mut answer = match req.rule {
        Rule::FictitiousPlay => fictitious::run(&input)?,
        Rule::BestResponse => best_response::run(&input)?,
        Rule::StochasticFictitiousPlay => stochastic::run(&input)?,
        Rule::RegretMatching => regret::run(&input)?,
        Rule::Replicator | Rule::Logit => continuous::run(&input)?,
        Rule::Moran => moran::run(&input)?,
    };
    if req.plot && answer.plot.is_none() {
        let at: Vec<f64> = answer.points.iter().map(|p| p.at).collect();
        let profiles: Vec<Vec<Vec<f64>>> =
            answer.points.iter().map(|p| p.profile.clone()).collect();
        answer.plot = Some(plot::time_series(
            &at,
            &profiles,
            &answer.players,
            &answer.strategies,
            req.rule.axis(),
        ));
    }
    Ok(answer)
}

/// What every rule's run reads: the game, its payoff matrices, the request, the number of
/// records and of rounds (or generations), both checked, and the budgets.
#[derive(Clone, Copy)]
struct Input<'a> {
    game: &'a NormalForm,
    a: &'a [Vec<Q>],
    b: &'a [Vec<Q>],
    req: &'a Request,
    points: u64,
    rounds: u64,
    limits: &'a Limits,
}

/// The rounds to record: `points` evenly spaced from 0 to `rounds`.
fn record_rounds(rounds: u64, points: u64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..points)
        .map(|k| (rounds as u128 * k as u128 / (points - 1) as u128) as u64)
        .collect();
    v.dedup();
    v
}

/// Checks that the start has a vector of the right length a player.
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

/// A pure starting profile: each vector a single 1 among 0s (the first strategies when no
/// start is given).
fn pure_start(req: &Request, shape: [usize; 2], rule: &str) -> Result<[usize; 2]> {
    let Some(s) = &req.start else {
        return Ok([0, 0]);
    };
    check_start_shape(s, &shape)?;
    let mut out = [0, 0];
    for (k, v) in s.iter().enumerate() {
        let ones: Vec<usize> = (0..v.len())
            .filter(|&i| v[i] == Q::from_integer(1.into()))
            .collect();
        let zeros = v.iter().filter(|x| x.to_i64() == Some(0)).count();
        if ones.len() != 1 || zeros + 1 != v.len() {
            return Err(Error::Invalid(format!(
                "{rule} starts from a pure profile: each player's vector one 1 and the rest 0"
            )));
        }
        out[k] = ones[0];
    }
    Ok(out)
}

/// The profile of pure strategies `[i, j]` as probability vectors.
fn pure_profile(ij: [usize; 2], shape: [usize; 2]) -> Vec<Vec<f64>> {
    (0..2)
        .map(|k| {
            (0..shape[k])
                .map(|s| if s == ij[k] { 1.0 } else { 0.0 })
                .collect()
        })
        .collect()
}
