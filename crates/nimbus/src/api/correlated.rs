//! Correlated and coarse correlated equilibria: the one that maximises a linear objective (the
//! players' total payoff, one player's, or weights), exactly, and on request every vertex of
//! their polytope.

use super::Limits;
use crate::core::error::{Error, Result};
use crate::exact::{parse_number, show, to_f64, Q};
use crate::strategic::game::NormalForm;
use crate::strategic::solvers::correlated::{maximize_objective, profile_of, Objective};
use crate::strategic::solvers::{correlated_picture, correlated_vertices};
use num_traits::{One, Zero};
use serde::Serialize;

/// What to maximise.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Target {
    /// The players' total payoff.
    #[default]
    Welfare,
    /// One player's payoff (from 1).
    Player(usize),
    /// Weights, one a player, times their payoffs.
    Weights(Vec<Q>),
}

impl Target {
    /// Reads `welfare`, `player:K` (K from 1) or `weights:W1,W2,…` (numbers, fractions).
    pub fn parse(text: &str) -> Result<Target> {
        let t = text.trim();
        let bad = |why: String| {
            Error::Invalid(format!(
                "the objective '{t}': {why} (use welfare, player:K or weights:W1,W2,...)"
            ))
        };
        if t.eq_ignore_ascii_case("welfare") {
            return Ok(Target::Welfare);
        }
        if let Some(k) = t.strip_prefix("player:") {
            let k: usize = k
                .trim()
                .parse()
                .map_err(|_| bad(format!("'{k}' is not a player's number")))?;
            if k == 0 {
                return Err(bad("players are numbered from 1".into()));
            }
            return Ok(Target::Player(k));
        }
        if let Some(w) = t.strip_prefix("weights:") {
            let weights = w
                .split(',')
                .map(|x| parse_number(x.trim()).map_err(|why| bad(format!("'{x}': {why}"))))
                .collect::<Result<Vec<Q>>>()?;
            return Ok(Target::Weights(weights));
        }
        Err(bad("not an objective".into()))
    }

    fn weights(&self, game: &NormalForm) -> Result<Vec<Q>> {
        let n = game.players.len();
        match self {
            Target::Welfare => Ok(vec![Q::one(); n]),
            Target::Player(k) if *k <= n => {
                let mut w = vec![Q::zero(); n];
                w[k - 1] = Q::one();
                Ok(w)
            }
            Target::Player(k) => Err(Error::Invalid(format!(
                "the objective names player {k}, and the game has {n}"
            ))),
            Target::Weights(w) if w.len() == n => Ok(w.clone()),
            Target::Weights(w) => Err(Error::Invalid(format!(
                "the objective has {} weights, and the game has {n} players",
                w.len()
            ))),
        }
    }

    fn describe(&self, game: &NormalForm) -> String {
        match self {
            Target::Welfare => "the players' total payoff".into(),
            Target::Player(k) => format!("{}'s payoff", game.players[k - 1]),
            Target::Weights(w) => format!(
                "the payoffs weighted by {}",
                w.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

/// What to compute.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The objective.
    pub maximize: Target,
    /// Coarse correlated equilibria instead (no player gains by committing to a strategy
    /// before the draw).
    pub coarse: bool,
    /// Every vertex of the polytope too ([`Answer::vertices`]).
    pub vertices: bool,
    /// A two-player game: draw the equilibria's payoffs in the payoff plane into
    /// [`Answer::plot`] (the vertices are computed for it, listed only when asked for).
    pub plot: bool,
}

/// A pure profile the distribution gives weight to.
#[derive(Debug, Clone, Serialize)]
pub struct Cell {
    /// Each player's strategy.
    pub profile: Vec<String>,
    /// Its probability, exactly.
    pub probability: String,
}

/// The equilibrium found.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// "correlated" or "coarse correlated".
    pub kind: String,
    /// What was maximised, in words.
    pub objective: String,
    /// Its value, exactly.
    pub value: String,
    /// The players.
    pub players: Vec<String>,
    /// Each player's expected payoff.
    pub payoffs: Vec<String>,
    /// The profiles with positive probability, in the game's order.
    pub distribution: Vec<Cell>,
    /// With [`Request::vertices`]: every vertex of the polytope of (coarse) correlated
    /// equilibria, in decreasing lexicographic order of their distributions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<Vec<Vertex>>,
    /// Remarks.
    pub notes: Vec<String>,
    /// The picture, when asked for.
    #[serde(skip)]
    pub plot: Option<String>,
}

/// A vertex of the polytope of correlated equilibria.
#[derive(Debug, Clone, Serialize)]
pub struct Vertex {
    /// Each player's expected payoff.
    pub payoffs: Vec<String>,
    /// Whether the players' draws are independent, so the vertex is a Nash equilibrium (every
    /// extreme Nash equilibrium of a two-player game is a vertex).
    pub nash: bool,
    /// The profiles with positive probability.
    pub distribution: Vec<Cell>,
}

/// The profiles `distribution` gives weight to, named.
fn cells(game: &NormalForm, distribution: &[Q]) -> Vec<Cell> {
    let shape = game.shape();
    distribution
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.is_zero())
        .map(|(k, p)| Cell {
            profile: profile_of(&shape, k)
                .iter()
                .enumerate()
                .map(|(i, &s)| game.strategies[i][s].clone())
                .collect(),
            probability: show(p),
        })
        .collect()
}

/// Whether `distribution` is the product of its marginals.
fn independent(game: &NormalForm, distribution: &[Q]) -> bool {
    let shape = game.shape();
    let mut marginals: Vec<Vec<Q>> = shape.iter().map(|&n| vec![Q::zero(); n]).collect();
    for (k, p) in distribution.iter().enumerate() {
        for (i, &s) in profile_of(&shape, k).iter().enumerate() {
            marginals[i][s] += p;
        }
    }
    distribution.iter().enumerate().all(|(k, p)| {
        let product = profile_of(&shape, k)
            .iter()
            .enumerate()
            .fold(Q::one(), |acc, (i, &s)| acc * &marginals[i][s]);
        *p == product
    })
}

/// The correlated equilibrium of `game` that maximises the request's objective.
pub fn solve(game: &NormalForm, req: &Request, limits: &Limits) -> Result<Answer> {
    let objective = Objective {
        weights: req.maximize.weights(game)?,
    };
    let found = maximize_objective(game, &objective, req.coarse, limits)?;
    if req.plot && game.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "the picture is of a two-player game's payoffs, and this game has {} players",
            game.players.len()
        )));
    }
    let listed = if req.vertices || req.plot {
        let list = correlated_vertices::vertices(game, req.coarse, limits)?;
        Some(
            list.iter()
                .map(|p| {
                    let mut payoffs = vec![Q::zero(); game.players.len()];
                    for (k, pk) in p.iter().enumerate().filter(|(_, pk)| !pk.is_zero()) {
                        for (i, u) in game.payoffs_at(k).iter().enumerate() {
                            payoffs[i] += u * pk;
                        }
                    }
                    (payoffs, independent(game, p), cells(game, p))
                })
                .collect::<Vec<_>>(),
        )
    } else {
        None
    };
    let plot = match (&listed, req.plot) {
        (Some(list), true) => {
            let pair = |v: &[Q]| (to_f64(&v[0]), to_f64(&v[1]));
            let outcomes: Vec<(f64, f64)> = (0..game.profiles())
                .map(|k| pair(game.payoffs_at(k)))
                .collect();
            let vertices: Vec<((f64, f64), bool)> =
                list.iter().map(|(p, nash, _)| (pair(p), *nash)).collect();
            let shown = correlated_picture::Payoffs {
                players: [&game.players[0], &game.players[1]],
                outcomes: &outcomes,
                vertices: &vertices,
                best: pair(&found.payoffs),
            };
            Some(correlated_picture::picture(&shown).0)
        }
        _ => None,
    };
    let vertices = listed.filter(|_| req.vertices).map(|list| {
        list.into_iter()
            .map(|(payoffs, nash, distribution)| Vertex {
                payoffs: payoffs.iter().map(show).collect(),
                nash,
                distribution,
            })
            .collect()
    });
    Ok(Answer {
        kind: if req.coarse {
            "coarse correlated"
        } else {
            "correlated"
        }
        .into(),
        objective: req.maximize.describe(game),
        value: show(&found.value),
        players: game.players.clone(),
        payoffs: found.payoffs.iter().map(show).collect(),
        distribution: cells(game, &found.distribution),
        vertices,
        notes: Vec::new(),
        plot,
    })
}
