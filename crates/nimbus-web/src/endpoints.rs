//! One handler per question: read the JSON body, build the library's request, call the one
//! `nimbus::api` function, answer with its JSON.

use crate::{compute, failure, json, AppState, Config};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use nimbus::api;
use nimbus::api::game::NormalForm;
use nimbus::api::parse_number;
use nimbus::api::verify::parse_profile;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::sync::Arc;

type Shared = State<Arc<AppState>>;
type Body = Result<Bytes, BytesRejection>;

/// The request's JSON, or the response that says why it could not be read: too large (413),
/// not JSON or not the fields the endpoint takes (400).
// The error is the response itself, returned at once by the handler: boxing it would only
// add an allocation on the error path.
#[allow(clippy::result_large_err)]
fn read<T: DeserializeOwned>(body: Body) -> Result<T, Response> {
    let bytes = body.map_err(|r| {
        let status = r.status();
        let (kind, error) = if status == StatusCode::PAYLOAD_TOO_LARGE {
            (
                "too_large",
                "the request body is larger than this server accepts (start `nimbus serve` \
                 with a higher --max-body)"
                    .to_string(),
            )
        } else {
            ("parse", format!("the request body: {}", r.body_text()))
        };
        failure(status, kind, error)
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        failure(
            StatusCode::BAD_REQUEST,
            "parse",
            format!("the request body: {e}"),
        )
    })
}

fn svg(text: String) -> Response {
    ([(header::CONTENT_TYPE, "image/svg+xml")], text).into_response()
}

/// A strategic-form game, as the command line takes it: a .nfg file's text, or the row
/// player's matrix (and the column player's; zero-sum without it), with strategy names.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameIn {
    #[serde(default)]
    nfg: Option<String>,
    #[serde(default)]
    row: Option<String>,
    #[serde(default)]
    col: Option<String>,
    #[serde(default)]
    row_names: Option<String>,
    #[serde(default)]
    col_names: Option<String>,
}

impl GameIn {
    fn load(&self) -> nimbus::api::Result<(NormalForm, Vec<String>)> {
        let source = match (&self.nfg, &self.row) {
            (Some(text), None) if self.col.is_none() => api::game::Source::Nfg {
                text,
                label: "the .nfg file",
            },
            (None, Some(row)) => api::game::Source::Matrices {
                row: (row, "the row player's matrix"),
                col: self
                    .col
                    .as_deref()
                    .map(|c| (c, "the column player's matrix")),
            },
            (Some(_), _) | (None, None) => {
                return Err(nimbus::api::Error::Invalid(
                    "give the game as `nfg` (a .nfg file's text) or as `row` (and `col`) \
                     matrices, not both"
                        .into(),
                ))
            }
        };
        let names = api::game::StrategyNames {
            row: self.row_names.as_deref().map(|n| (n, "row_names")),
            col: self.col_names.as_deref().map(|n| (n, "col_names")),
        };
        api::game::strategic(source, names)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NashIn {
    #[serde(default)]
    game: Option<GameIn>,
    /// A game tree (.efg text) instead of a strategic-form game.
    #[serde(default)]
    efg: Option<String>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    dominance: Option<String>,
    #[serde(default)]
    label: Option<usize>,
    /// Refinements to decide, separated by commas ("perfect"; "sequential" for a tree).
    #[serde(default)]
    refine: Option<String>,
    /// An equilibrium selection ("tracing" or "tracing:PRIOR"), instead of a method.
    #[serde(default)]
    select: Option<String>,
}

fn nash_request(n: &NashIn, plot: bool) -> nimbus::api::Result<api::nash::Request> {
    let dominance = api::nash::Dominance::parse(n.dominance.as_deref().unwrap_or("none"))?;
    let (method, prior) =
        api::nash::choose(n.method.as_deref().unwrap_or("auto"), n.select.as_deref())?;
    Ok(api::nash::Request {
        method,
        prior,
        label: n.label,
        dominance,
        plot,
        refine: match &n.refine {
            Some(list) => api::nash::Refinement::parse_list(list)?,
            None => Vec::new(),
        },
        ..Default::default()
    })
}

fn solve_nash(n: &NashIn, plot: bool, c: &Config) -> nimbus::api::Result<api::nash::Answer> {
    let req = nash_request(n, plot)?;
    let (game, notes) = match &n.game {
        Some(g) => g.load()?,
        None => {
            return Err(nimbus::api::Error::Invalid(
                "give the game: `game` (a strategic-form game) or `efg` (a tree)".into(),
            ))
        }
    };
    let mut answer = api::nash::solve(&game, &req, &c.limits)?;
    answer.notes = answer.notes.iter().map(|n| crate::note(n)).collect();
    answer.notes.extend(notes);
    Ok(answer)
}

/// `POST /api/nash`: the equilibria of a strategic-form game or a tree.
pub async fn nash(State(s): Shared, body: Body) -> Response {
    let n: NashIn = match read(body) {
        Ok(n) => n,
        Err(r) => return r,
    };
    if let Some(efg) = n.efg {
        let (method, select, refine) = (n.method.clone(), n.select.clone(), n.refine.clone());
        return compute(
            &s,
            move |c| {
                let tree = nimbus::api::game::tree(&efg, "the .efg file")?;
                let (method, prior) =
                    api::tree::choose(method.as_deref().unwrap_or("auto"), select.as_deref())?;
                let req = api::tree::Request {
                    method,
                    prior,
                    refine: match refine.as_deref() {
                        Some(list) => api::nash::Refinement::parse_list(list)?,
                        None => Vec::new(),
                    },
                    covering: 0,
                    ..Default::default()
                };
                api::tree::solve(&tree, &req, &c.limits)
            },
            |a| json(StatusCode::OK, &a),
        )
        .await;
    }
    compute(
        &s,
        move |c| solve_nash(&n, false, c),
        |a| json(StatusCode::OK, &a),
    )
    .await
}

/// `POST /api/nash/plot`: the best-reply diagram of a 2 × 2 game, or the upper envelope of a
/// game in which one player has two strategies, as SVG.
pub async fn nash_plot(State(s): Shared, body: Body) -> Response {
    let n: NashIn = match read(body) {
        Ok(n) => n,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            solve_nash(&n, true, c)?
                .plot
                .ok_or_else(|| nimbus::api::Error::Invalid("no picture was drawn".into()))
        },
        svg,
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RepeatedIn {
    game: GameIn,
    /// The discount factor, strictly between 0 and 1.
    discount: String,
    #[serde(default)]
    tolerance: Option<String>,
}

fn run_repeated(
    q: &RepeatedIn,
    plot: bool,
    c: &Config,
) -> nimbus::api::Result<api::repeated::Answer> {
    let (game, read) = q.game.load()?;
    let mut req = api::repeated::Request {
        discount: api::repeated::parse_discount(&q.discount)?,
        plot,
        ..Default::default()
    };
    if let Some(t) = &q.tolerance {
        req.tolerance = api::repeated::parse_tolerance(t)?;
    }
    let mut answer = api::repeated::solve(&game, &req, &c.limits)?;
    answer.notes.extend(read);
    Ok(answer)
}

/// `POST /api/repeated`: the payoffs of subgame-perfect equilibria of a two-player game
/// repeated with discounting, between proven bounds.
pub async fn repeated(State(s): Shared, body: Body) -> Response {
    let q: RepeatedIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| run_repeated(&q, false, c),
        |a| json(StatusCode::OK, &a),
    )
    .await
}

/// `POST /api/repeated/plot`: the folk-theorem picture (SVG).
pub async fn repeated_plot(State(s): Shared, body: Body) -> Response {
    let q: RepeatedIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            run_repeated(&q, true, c)?
                .plot
                .ok_or_else(|| nimbus::api::Error::Invalid("no picture was drawn".into()))
        },
        svg,
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CorrelatedIn {
    game: GameIn,
    /// welfare, player:K or weights:W1,W2,...
    #[serde(default)]
    maximize: Option<String>,
    #[serde(default)]
    coarse: bool,
    #[serde(default)]
    vertices: bool,
}

fn run_correlated(
    q: &CorrelatedIn,
    plot: bool,
    c: &Config,
) -> nimbus::api::Result<api::correlated::Answer> {
    let (game, read) = q.game.load()?;
    let req = api::correlated::Request {
        maximize: api::correlated::Target::parse(q.maximize.as_deref().unwrap_or("welfare"))?,
        coarse: q.coarse,
        vertices: q.vertices,
        plot,
    };
    let mut answer = api::correlated::solve(&game, &req, &c.limits)?;
    answer.notes.extend(read);
    Ok(answer)
}

/// `POST /api/correlated`: the correlated (or coarse correlated) equilibrium that maximises an
/// objective.
pub async fn correlated(State(s): Shared, body: Body) -> Response {
    let q: CorrelatedIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| run_correlated(&q, false, c),
        |a| json(StatusCode::OK, &a),
    )
    .await
}

/// `POST /api/correlated/plot`: a two-player game's equilibria's payoffs in the payoff plane
/// (SVG).
pub async fn correlated_plot(State(s): Shared, body: Body) -> Response {
    let q: CorrelatedIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            run_correlated(&q, true, c)?
                .plot
                .ok_or_else(|| nimbus::api::Error::Invalid("no picture was drawn".into()))
        },
        svg,
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DynamicsIn {
    game: GameIn,
    /// fictitious-play, best-response, stochastic-fictitious-play, regret-matching,
    /// replicator, logit or moran.
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    rounds: Option<u64>,
    #[serde(default)]
    time: Option<f64>,
    #[serde(default)]
    points: Option<u64>,
    /// A vector a player, separated by ';' ("1/2 1/2" or "3 1; 0 2").
    #[serde(default)]
    start: Option<String>,
    /// first or random[:SEED].
    #[serde(default)]
    ties: Option<String>,
    #[serde(default)]
    two_populations: bool,
    /// The logit noise (logit dynamics, stochastic fictitious play).
    #[serde(default)]
    noise: Option<f64>,
    /// Stochastic fictitious play's largest perturbation.
    #[serde(default)]
    perturbation: Option<f64>,
    /// A mutation rate, or a matrix with rows separated by ';'.
    #[serde(default)]
    mutation: Option<String>,
    /// The Moran process: how many play each strategy ("9 1").
    #[serde(default)]
    population: Option<String>,
    #[serde(default)]
    runs: Option<u64>,
    #[serde(default)]
    seed: Option<u64>,
    /// The Moran process on a graph: edges a line, "0 1".
    #[serde(default)]
    graph: Option<String>,
}

fn run_dynamics(
    q: &DynamicsIn,
    plot: bool,
    c: &Config,
) -> nimbus::api::Result<api::dynamics::Answer> {
    let (game, read) = q.game.load()?;
    let defaults = api::dynamics::Request::default();
    let req = api::dynamics::Request {
        rule: api::dynamics::Rule::parse(q.rule.as_deref().unwrap_or("fictitious-play"))?,
        rounds: q.rounds.unwrap_or(defaults.rounds),
        time: q.time.unwrap_or(defaults.time),
        points: q.points.unwrap_or(defaults.points),
        start: q
            .start
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(api::dynamics::parse_start)
            .transpose()?,
        ties: api::dynamics::parse_ties(q.ties.as_deref().unwrap_or("first"))?,
        two_populations: q.two_populations,
        plot,
        noise: q.noise.unwrap_or(defaults.noise),
        perturbation: q.perturbation.unwrap_or(defaults.perturbation),
        mutation: q
            .mutation
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(api::dynamics::parse_mutation)
            .transpose()?,
        population: q
            .population
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(api::dynamics::parse_population)
            .transpose()?,
        runs: q.runs.unwrap_or(defaults.runs),
        seed: q.seed.unwrap_or(defaults.seed),
        graph: q
            .graph
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(api::dynamics::parse_graph)
            .transpose()?,
        ..defaults
    };
    let mut answer = api::dynamics::solve(&game, &req, &c.limits)?;
    answer.notes.extend(read);
    Ok(answer)
}

/// `POST /api/dynamics`: how play evolves under a learning rule.
pub async fn dynamics(State(s): Shared, body: Body) -> Response {
    let q: DynamicsIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| run_dynamics(&q, false, c),
        |a| json(StatusCode::OK, &a),
    )
    .await
}

/// `POST /api/dynamics/plot`: the run's picture as SVG (the phase portrait on the simplex for
/// one population of three strategies, the time series otherwise).
pub async fn dynamics_plot(State(s): Shared, body: Body) -> Response {
    let q: DynamicsIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            run_dynamics(&q, true, c)?
                .plot
                .ok_or_else(|| nimbus::api::Error::Invalid("no picture was drawn".into()))
        },
        svg,
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NfgIn {
    game: GameIn,
    #[serde(default)]
    title: Option<String>,
}

/// `POST /api/nfg`: the game as a .nfg file (Gambit's format), to download.
pub async fn nfg(State(s): Shared, body: Body) -> Response {
    let q: NfgIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |_| {
            let (mut game, _) = q.game.load()?;
            if let Some(t) = q.title {
                game.title = t;
            }
            Ok(nimbus::api::game::nfg_text(&game))
        },
        |text| {
            (
                [
                    (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                    (
                        header::CONTENT_DISPOSITION,
                        "attachment; filename=\"game.nfg\"",
                    ),
                ],
                text,
            )
                .into_response()
        },
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ZerosumIn {
    game: GameIn,
    #[serde(default)]
    float: bool,
}

/// `POST /api/zerosum`: a matrix game's value and optimal strategies.
pub async fn zerosum(State(s): Shared, body: Body) -> Response {
    let z: ZerosumIn = match read(body) {
        Ok(z) => z,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            let (game, read) = z.game.load()?;
            let (a, notes) = api::zerosum::matrix_of(&game, "the game")?;
            let mut answer =
                api::zerosum::solve(&a, &api::zerosum::Request { float: z.float }, &c.limits)?;
            for n in read.into_iter().chain(notes) {
                answer.note(n);
            }
            Ok(answer)
        },
        |a| json(StatusCode::OK, &a),
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StochasticIn {
    /// The game in the stochastic-game format of the README.
    game: String,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    tolerance: Option<String>,
}

/// `POST /api/stochastic`: a two-player zero-sum stochastic game's values and stationary
/// strategies.
pub async fn stochastic(State(s): Shared, body: Body) -> Response {
    let q: StochasticIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            let mut req = api::stochastic::Request::default();
            if let Some(m) = &q.method {
                req.method = api::stochastic::parse_method(m)?;
            }
            if let Some(t) = &q.tolerance {
                req.tolerance = api::stochastic::parse_tolerance(t)?;
            }
            api::stochastic::solve(&q.game, "the game", &req, &c.limits)
        },
        |a| json(StatusCode::OK, &a),
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VerifyIn {
    game: GameIn,
    /// Every player's probabilities in turn, separated by commas ("1/2,1/2,1/3,2/3").
    profile: String,
    #[serde(default)]
    tolerance: Option<String>,
}

/// `POST /api/verify`: whether a mixed profile is an equilibrium.
pub async fn verify(State(s): Shared, body: Body) -> Response {
    let v: VerifyIn = match read(body) {
        Ok(v) => v,
        Err(r) => return r,
    };
    compute(
        &s,
        move |_| {
            let (game, _) = v.game.load()?;
            let tolerance = match &v.tolerance {
                Some(t) => parse_number(t.trim())
                    .map_err(|why| nimbus::api::Error::Invalid(format!("tolerance: {why}")))?,
                None => nimbus::api::Q::default(),
            };
            let profile = parse_profile(&game, &v.profile, "the profile")?;
            api::verify::check(&game, &profile, &tolerance, v.profile.contains('.'))
        },
        |a| json(StatusCode::OK, &a),
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SgIn {
    expression: String,
    #[serde(default)]
    misere: bool,
}

/// `POST /api/sg`: a sum of impartial games, its outcome, values and winning moves.
pub async fn sg(State(s): Shared, body: Body) -> Response {
    let g: SgIn = match read(body) {
        Ok(g) => g,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            let req = api::sg::Request {
                misere: g.misere,
                limits: c.limits,
                ..Default::default()
            };
            api::sg::solve(&g.expression, "the expression", &req)
        },
        |a| json(StatusCode::OK, &a),
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CgtIn {
    expression: String,
    #[serde(default)]
    max_moves: Option<usize>,
    #[serde(default)]
    incentives: bool,
}

fn solve_cgt(g: &CgtIn, c: &Config) -> nimbus::api::Result<api::cgt::Analysis> {
    let req = api::cgt::Request {
        max_moves: g
            .max_moves
            .unwrap_or(api::cgt::Request::default().max_moves),
        incentives: g.incentives,
        limits: c.limits,
    };
    api::cgt::solve(&g.expression, "the expression", &req)
}

/// `POST /api/cgt`: a sum of partizan games, its canonical form, outcome, stops, temperature,
/// thermograph and each side's winning moves.
pub async fn cgt(State(s): Shared, body: Body) -> Response {
    let g: CgtIn = match read(body) {
        Ok(g) => g,
        Err(r) => return r,
    };
    compute(&s, move |c| solve_cgt(&g, c), |a| json(StatusCode::OK, &a)).await
}

/// `POST /api/cgt/thermograph`: the thermograph of a sum of partizan games as SVG (the page
/// sends the canonical form it was given, which is read again at once).
pub async fn cgt_thermograph(State(s): Shared, body: Body) -> Response {
    let g: CgtIn = match read(body) {
        Ok(g) => g,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            let quiet = CgtIn {
                max_moves: Some(0),
                incentives: false,
                ..g
            };
            Ok(api::cgt::thermograph_picture(&solve_cgt(&quiet, c)?))
        },
        svg,
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SequenceIn {
    ruleset: String,
    #[serde(default)]
    upto: Option<u64>,
    #[serde(default)]
    misere: bool,
}

fn solve_sequence(
    q: &SequenceIn,
    plot: bool,
    c: &Config,
) -> nimbus::api::Result<api::sequence::Answer> {
    let req = api::sequence::Request {
        upto: q.upto.unwrap_or(100),
        misere: q.misere,
        until_proved: q.upto.is_none(),
        plot,
        limits: c.limits,
        ..Default::default()
    };
    let mut answer = api::sequence::solve(&q.ruleset, &req)?;
    answer.notes = answer.notes.iter().map(|n| crate::note(n)).collect();
    Ok(answer)
}

/// `POST /api/sequence`: the nim-sequence of a heap game and its period.
pub async fn sequence(State(s): Shared, body: Body) -> Response {
    let q: SequenceIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| solve_sequence(&q, false, c),
        |a| json(StatusCode::OK, &a),
    )
    .await
}

/// `POST /api/sequence/plot`: the nim-sequence as an SVG scatter plot, its period marked.
pub async fn sequence_plot(State(s): Shared, body: Body) -> Response {
    let q: SequenceIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            solve_sequence(&q, true, c)?
                .plot
                .ok_or_else(|| nimbus::api::Error::Invalid("no plot was drawn".into()))
        },
        svg,
    )
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveIn {
    game: String,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    scores: bool,
    #[serde(default)]
    reply: bool,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    time_limit: Option<f64>,
}

/// `POST /api/solve`: a position of a two-player game: its value, best moves, and on request
/// every move's score or the solver's reply.
pub async fn solve(State(s): Shared, body: Body) -> Response {
    let q: SolveIn = match read(body) {
        Ok(q) => q,
        Err(r) => return r,
    };
    compute(
        &s,
        move |c| {
            if q.game.trim().starts_with("script:") {
                return Err(nimbus::api::Error::Invalid(
                    "this server runs no scripts: script games are answered by the `nimbus` \
                     command"
                        .into(),
                ));
            }
            // A search thinks for the time asked, within the server's budget: with scores
            // it may take twice that.
            let cap = c.time_budget / 2.5;
            let time_limit = q.time_limit.unwrap_or(c.search_seconds).min(cap);
            let req = api::solve::Request {
                position: q.position.clone(),
                depth: q.depth,
                time_limit: Some(time_limit),
                scores: q.scores,
                reply: q.reply,
                limits: c.limits,
                host_book: c.book.clone(),
                ..Default::default()
            };
            api::solve::solve(&q.game, &req)
        },
        |a| json(StatusCode::OK, &a),
    )
    .await
}

/// `GET /api/health`: answered at once, whatever the computation slots are doing.
pub async fn health(State(s): Shared) -> Response {
    #[derive(serde::Serialize)]
    struct Health {
        status: &'static str,
        slots: usize,
        free: usize,
        version: &'static str,
    }
    json(
        StatusCode::OK,
        &Health {
            status: "ok",
            slots: s.config.slots,
            free: s.slots.available_permits(),
            version: env!("CARGO_PKG_VERSION"),
        },
    )
}
