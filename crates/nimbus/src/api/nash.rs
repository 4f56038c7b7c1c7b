//! The Nash equilibria of a strategic-form game: method choice, dominance, lifting back to
//! the game as given, exact verification of every equilibrium, and the components.

use super::Limits;
use crate::core::error::{Error, Result};
use crate::core::hint;
use crate::exact::json;
use crate::exact::{show, show_decimal, Q};
use crate::strategic::bimatrix::{Bimatrix, Equilibrium as Raw};
use crate::strategic::game::{confirms, expected_payoffs, verify, NormalForm};
use crate::strategic::solvers::pure::{eliminate, pure_equilibria, Dominator, Reduction};
use crate::strategic::solvers::risk_dominance::Outcome;
use crate::strategic::solvers::{
    enumpoly, envelope, ess, gnm, lemke, logit, perfect, proper, risk_dominance, simpdiv, support,
    tracing, two_by_two, vertex,
};
use serde::Serialize;

/// The algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Indifference for 2 × 2 games, vertex enumeration for other two-player games, pure
    /// equilibria for more players.
    #[default]
    Auto,
    /// Vertex enumeration (Gambit's enummixed): every extreme equilibrium and the components.
    Vertex,
    /// Support enumeration.
    Support,
    /// Lemke–Howson (Gambit's lcp): every equilibrium its paths reach, or one path.
    LemkeHowson,
    /// Pure equilibria (Gambit's enumpure), any number of players.
    Pure,
    /// The indifference conditions of a 2 × 2 game, with its best-reply correspondences.
    Indifference,
    /// Every equilibrium of a game with any number of players: support enumeration with
    /// certified solutions of the indifference equations (Gambit's enumpoly, done exactly).
    Enumpoly,
    /// One equilibrium of a game with any number of players: the end of the logit
    /// quantal-response path from the uniform profile, solved exactly on its support.
    Logit,
    /// One equilibrium of a game with any number of players: simplicial subdivision (a
    /// piecewise-linear path on ever finer grids from the uniform profile), its end solved
    /// exactly on its support.
    Simpdiv,
    /// One equilibrium of a game with any number of players: Govindan and Wilson's global
    /// Newton method (the equilibria of the game with a vanishing bonus, followed from a pure
    /// profile), its end solved exactly on its support.
    Gnm,
    /// The one equilibrium Harsanyi and Selten's linear tracing procedure selects from a
    /// prior ([`Request::prior`], uniform when not given): exact complementary pivoting for
    /// two players (van den Elzen and Talman), the global Newton method's path with the
    /// prior's payoffs as its bonus for more, its end solved exactly on its support.
    Tracing,
    /// Harsanyi and Selten's risk dominance among a two-player game's pure equilibria: for
    /// each pair, the tracing procedure from their bicentric prior; the equilibrium that
    /// risk-dominates every other, when one does. A selection ([`parse_select`]), not a
    /// method's name.
    RiskDominance,
}

impl Method {
    /// Every method with its names: ours first, then the aliases users of Gambit and nashpy
    /// know.
    pub const NAMES: &'static [(&'static str, Method)] = &[
        ("auto", Method::Auto),
        ("vertex", Method::Vertex),
        ("support", Method::Support),
        ("lh", Method::LemkeHowson),
        ("pure", Method::Pure),
        ("indifference", Method::Indifference),
        ("enumpoly", Method::Enumpoly),
        ("polynomial", Method::Enumpoly),
        ("logit", Method::Logit),
        ("simpdiv", Method::Simpdiv),
        ("gnm", Method::Gnm),
        ("global-newton", Method::Gnm),
        ("tracing", Method::Tracing),
        ("linear-tracing", Method::Tracing),
        ("enummixed", Method::Vertex),
        ("vertex-enumeration", Method::Vertex),
        ("support-enumeration", Method::Support),
        ("lcp", Method::LemkeHowson),
        ("lemke-howson", Method::LemkeHowson),
        ("enumpure", Method::Pure),
        // The tree methods that have a strategic-form counterpart mean it here.
        ("enum", Method::Vertex),
        ("seqenum", Method::Vertex),
        ("lemke", Method::LemkeHowson),
    ];

    /// The method called `name` (see [`Method::NAMES`]).
    pub fn parse(name: &str) -> Result<Method> {
        if let Some(m) = super::named(Self::NAMES, name) {
            return Ok(m);
        }
        if super::named(super::tree::Method::NAMES, name).is_some() || name == "cfr" {
            return Err(Error::Invalid(format!(
                "the method '{name}' solves game trees (.efg files), not strategic-form games; \
                 a matrix game's linear program is the zero-sum solver's"
            )));
        }
        Err(Error::Invalid(format!(
            "unknown method '{name}': use auto, vertex, support, lh, pure, indifference, \
             enumpoly, logit, simpdiv, gnm or tracing (or Gambit's enummixed, lcp, enumpure)"
        )))
    }
}

/// An equilibrium selection, as every front-end writes it: `tracing` (from the uniform prior),
/// `tracing:PRIOR` with the prior's probabilities written as a profile is
/// (`1/2,1/2,1/3,2/3`: every player's in turn), or `risk-dominance`. Returns the method and
/// the prior.
pub fn parse_select(text: &str) -> Result<(Method, Option<Vec<Q>>)> {
    let (name, prior) = match text.split_once(':') {
        Some((name, prior)) => (name.trim(), Some(prior)),
        None => (text.trim(), None),
    };
    if name.eq_ignore_ascii_case("risk-dominance") {
        if prior.is_some() {
            return Err(Error::Invalid(
                "risk dominance takes no prior: each pair of pure equilibria has its own \
                 (their bicentric prior)"
                    .into(),
            ));
        }
        return Ok((Method::RiskDominance, None));
    }
    if !["tracing", "linear-tracing"]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
    {
        return Err(Error::Invalid(format!(
            "unknown selection '{name}': use tracing, tracing:PRIOR (the prior's \
             probabilities, every player's in turn: 1/2,1/2,1/3,2/3) or risk-dominance"
        )));
    }
    let prior = match prior {
        None => None,
        Some(p) => Some(
            p.split(',')
                .map(|w| {
                    crate::exact::parse_q(w.trim()).ok_or_else(|| {
                        Error::Invalid(format!(
                            "the prior's '{}' is not a probability (write 1/3 or 0.25)",
                            w.trim()
                        ))
                    })
                })
                .collect::<Result<Vec<Q>>>()?,
        ),
    };
    Ok((Method::Tracing, prior))
}

/// The method and prior a request names, as every front-end passes them: a method's name
/// (`auto` when none is given) or an equilibrium selection ([`parse_select`]), not both.
pub fn choose(method: &str, select: Option<&str>) -> Result<(Method, Option<Vec<Q>>)> {
    match select {
        Some(_) if !method.eq_ignore_ascii_case("auto") => Err(Error::Invalid(format!(
            "choose a method or a selection, not both: {} chooses the method itself, so drop {}",
            hint::setting("select"),
            hint::setting("method")
        ))),
        Some(text) => parse_select(text),
        None => Ok((Method::parse(method)?, None)),
    }
}

/// Which dominated strategies to remove before solving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dominance {
    /// None: the game as it is.
    #[default]
    None,
    /// Strictly dominated strategies, by pure strategies and by mixtures, iterated: no
    /// equilibrium is lost.
    Strict,
    /// Weakly dominated ones too: some equilibria may be lost.
    Weak,
}

impl Dominance {
    /// Every dominance with its name.
    pub const NAMES: &'static [(&'static str, Dominance)] = &[
        ("none", Dominance::None),
        ("strict", Dominance::Strict),
        ("weak", Dominance::Weak),
    ];

    /// The dominance called `name`: none, strict or weak.
    pub fn parse(name: &str) -> Result<Dominance> {
        super::named(Self::NAMES, name)
            .ok_or_else(|| Error::Invalid(format!("dominance '{name}': use none, strict or weak")))
    }
}

/// A refinement: which of the equilibria found are of a stricter kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Refinement {
    /// Trembling-hand perfect (Selten): for two players, each strategy a best reply to some
    /// completely mixed strategy of the other.
    Perfect,
    /// Proper (Myerson): the limit of profiles in which a strategy that does worse than
    /// another is played infinitely less often; two players, decided exactly where the game's
    /// ties leave few orderings of the strategies to examine.
    Proper,
    /// Evolutionarily stable (Maynard Smith and Price), for symmetric two-player games: a
    /// symmetric equilibrium `(x, x)` whose `x` does better against every other best reply
    /// `y` than `y` does against itself.
    Ess,
    /// Sequential (Kreps and Wilson), for two-player trees: some consistent beliefs (the limit
    /// of those trembles give) make every move at every information set a best reply.
    Sequential,
}

impl Refinement {
    /// Every refinement with its name.
    pub const NAMES: &'static [(&'static str, Refinement)] = &[
        ("perfect", Refinement::Perfect),
        ("trembling-hand", Refinement::Perfect),
        ("proper", Refinement::Proper),
        ("ess", Refinement::Ess),
        ("evolutionarily-stable", Refinement::Ess),
        ("sequential", Refinement::Sequential),
    ];

    /// The refinements named in `text`, separated by commas.
    pub fn parse_list(text: &str) -> Result<Vec<Refinement>> {
        let mut out = Vec::new();
        for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match super::named(Self::NAMES, word) {
                Some(r) if !out.contains(&r) => out.push(r),
                Some(_) => {}
                None => {
                    return Err(Error::Invalid(format!(
                    "unknown refinement '{word}': use perfect, proper, ess or sequential (trees)"
                )))
                }
            }
        }
        Ok(out)
    }
}

/// What to compute.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The algorithm.
    pub method: Method,
    /// For Lemke–Howson: the one label to start from, 1-based as every front-end writes it
    /// (rows `1..=m`, then columns `m+1..=m+n`); every label when `None`. Checked here, so
    /// that 0 or a label past `m + n` is refused the same way in the CLI, Python and the web.
    pub label: Option<usize>,
    /// Dominated strategies to remove first.
    pub dominance: Dominance,
    /// For the indifference method: draw the best-reply correspondences as SVG; for logit,
    /// the path.
    pub plot: bool,
    /// For enumpoly: support profiles to examine at most (the rest are reported as not
    /// covered).
    pub max_supports: Option<u64>,
    /// For enumpoly: seconds to run at most (what was covered is reported).
    pub time_limit: Option<f64>,
    /// For enumpoly: irrational equilibria are boxed to this many decimal digits (default 16).
    pub digits: Option<u32>,
    /// For logit: the points of the path in the answer ([`Answer::logit_path`]).
    pub path: bool,
    /// Refinements to decide for each equilibrium listed ([`Answer::perfect`],
    /// [`Answer::ess`]).
    pub refine: Vec<Refinement>,
    /// For the tracing procedure: the prior, every player's probabilities in turn (each
    /// player's summing to 1); uniform when `None`.
    pub prior: Option<Vec<Q>>,
}

/// One equilibrium of the game as given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Equilibrium {
    /// Each player's mixed strategy, over all the game's strategies.
    #[serde(serialize_with = "json::lists")]
    pub profile: Vec<Vec<Q>>,
    /// Each player's expected payoff.
    #[serde(serialize_with = "json::list")]
    pub payoffs: Vec<Q>,
}

/// A removed strategy.
#[derive(Debug, Clone, Serialize)]
pub struct Elimination {
    /// The player's index.
    pub player: usize,
    /// The strategy's index in the game as given.
    pub strategy: usize,
    /// The strategies that dominate it, with their probabilities (one, at 1, when pure).
    pub dominated_by: Vec<(usize, String)>,
    /// Whether the domination is weak.
    pub weak: bool,
}

/// A maximal convex set of equilibria: every listed row strategy against every listed
/// column strategy (indices into [`Answer::equilibria`], by the strategy they use).
#[derive(Debug, Clone, Serialize)]
pub struct Clique {
    /// Equilibria whose row strategies span the set.
    pub rows: Vec<usize>,
    /// Equilibria whose column strategies span the set.
    pub cols: Vec<usize>,
}

/// A connected set of equilibria.
#[derive(Debug, Clone, Serialize)]
pub struct Component {
    /// Indices into [`Answer::equilibria`] of the component's extreme equilibria.
    pub equilibria: Vec<usize>,
    /// Its maximal convex subsets.
    pub cliques: Vec<Clique>,
}

/// The whole answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The game's title.
    pub title: String,
    /// The players' names.
    pub players: Vec<String>,
    /// Each player's strategy names.
    pub strategies: Vec<Vec<String>>,
    /// The method that ran (never `auto`).
    pub method: Method,
    /// What the method finds, in words.
    pub described: String,
    /// The strategies removed by dominance, in order.
    pub eliminated: Vec<Elimination>,
    /// The equilibria, each checked exactly against the game as given.
    pub equilibria: Vec<Equilibrium>,
    /// The connected sets of equilibria, for the methods that find every extreme one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub components: Option<Vec<Component>>,
    /// Remarks a reader needs (degeneracy, continua, what was not computed).
    pub notes: Vec<String>,
    /// The best-reply plot (SVG) when asked for.
    #[serde(skip)]
    pub plot: Option<String>,
    /// For enumpoly: the equilibria that are not rational, as certified boxes, the regions
    /// not resolved, and what part of the support space was covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enumeration: Option<Enumeration>,
    /// For logit, when asked for: the points of the path followed, from λ = 0 to its end
    /// (the probabilities in floating point, as the path is computed; over the game's
    /// strategies as given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logit_path: Option<Vec<PathPoint>>,
    /// With the perfect refinement asked for: whether each equilibrium listed (in the order
    /// of `equilibria`) is trembling-hand perfect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perfect: Option<Vec<bool>>,
    /// With the proper refinement asked for: whether each equilibrium listed is proper;
    /// `None` for one not decided (its ties leave more orderings than the work budget covers,
    /// which a note says).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proper: Option<Vec<Option<bool>>>,
    /// With the ess refinement asked for (a symmetric game): whether each equilibrium listed
    /// is `(x, x)` with `x` evolutionarily stable. Every ESS is an extreme equilibrium, so
    /// the methods that list every extreme equilibrium list every ESS.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ess: Option<Vec<bool>>,
    /// For the tracing procedure: where it started and how far it went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tracing: Option<Tracing>,
}

/// The tracing procedure's run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tracing {
    /// The prior, each player's probabilities.
    #[serde(serialize_with = "json::lists")]
    pub prior: Vec<Vec<Q>>,
    /// Each player's best reply to the prior (the first when several), where the path
    /// starts.
    pub start: Vec<usize>,
    /// Pivots (two players) or predictor–corrector steps (more) along the path.
    pub steps: u64,
}

/// A point of the logit quantal-response path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PathPoint {
    /// The precision λ (on payoffs scaled to [0, 1]).
    pub lambda: f64,
    /// Each player's quantal-response probabilities at λ.
    pub profile: Vec<Vec<f64>>,
}

/// An isolated equilibrium with an irrational probability: a box proved to hold exactly one
/// solution of its support's indifference equations, and that solution an equilibrium.
#[derive(Debug, Clone, Serialize)]
pub struct Certified {
    /// Each player's support (strategy indices in the game as given).
    pub support: Vec<Vec<usize>>,
    /// Lower bounds of every probability, exact (zero off the support).
    #[serde(serialize_with = "json::lists")]
    pub lower: Vec<Vec<Q>>,
    /// Upper bounds of every probability, exact.
    #[serde(serialize_with = "json::lists")]
    pub upper: Vec<Vec<Q>>,
    /// The probabilities as decimals, to the digits asked for (the box's midpoint).
    pub decimals: Vec<Vec<String>>,
    /// Lower bounds of each player's payoff.
    #[serde(serialize_with = "json::list")]
    pub payoffs_lower: Vec<Q>,
    /// Upper bounds of each player's payoff.
    #[serde(serialize_with = "json::list")]
    pub payoffs_upper: Vec<Q>,
    /// A rigorous upper bound on what any player gains by deviating, at any profile in the box.
    #[serde(serialize_with = "json::one")]
    pub regret_bound: Q,
}

/// A region of one support's equations not resolved into isolated solutions.
#[derive(Debug, Clone, Serialize)]
pub struct Unresolved {
    /// Each player's support.
    pub support: Vec<Vec<usize>>,
    /// Lower bounds of the region's probabilities.
    #[serde(serialize_with = "json::lists")]
    pub lower: Vec<Vec<Q>>,
    /// Upper bounds.
    #[serde(serialize_with = "json::lists")]
    pub upper: Vec<Vec<Q>>,
    /// The index in [`Answer::equilibria`] of an exact equilibrium in the region, if one was
    /// found.
    pub equilibrium: Option<usize>,
    /// Why it is unresolved.
    pub reason: String,
}

/// What the enumeration of n-player equilibria found and covered.
#[derive(Debug, Clone, Serialize)]
pub struct Enumeration {
    /// Support profiles in the game (saturating at 2^64 - 1).
    pub supports: u64,
    /// Support profiles examined completely, smallest and most balanced first.
    pub examined: u64,
    /// Of those, the ones skipped because a strategy in a support is beaten against every
    /// profile of the others' supports.
    pub pruned: u64,
    /// Boxes of the subdivision examined.
    pub boxes: u64,
    /// Whether every support profile was examined (then every equilibrium is listed, in
    /// `equilibria`, `certified` or `unresolved`).
    pub complete: bool,
    /// Why the enumeration stopped early, if it did.
    pub stopped: Option<String>,
    /// Equilibria with irrational probabilities.
    pub certified: Vec<Certified>,
    /// Regions not resolved.
    pub unresolved: Vec<Unresolved>,
}

/// The method `auto` stands for on a game of this shape.
pub fn resolve(method: Method, shape: &[usize]) -> Method {
    match method {
        Method::Auto if shape == [2, 2] => Method::Indifference,
        Method::Auto if shape.len() == 2 => Method::Vertex,
        Method::Auto if shape.len() == 1 => Method::Pure,
        Method::Auto => Method::Enumpoly,
        m => m,
    }
}

/// Components as indices into the list of equilibria.
fn components_of(pairs: &[(usize, usize)], comps: &[vertex::Component]) -> Vec<Component> {
    let eq_of = |r: usize, c: usize| pairs.iter().position(|&p| p == (r, c));
    comps
        .iter()
        .map(|c| Component {
            equilibria: c
                .rows
                .iter()
                .flat_map(|&r| c.cols.iter().filter_map(move |&k| eq_of(r, k)))
                .collect(),
            cliques: c
                .cliques
                .iter()
                .map(|(rs, cs)| Clique {
                    rows: rs.iter().filter_map(|&r| eq_of(r, cs[0])).collect(),
                    cols: cs.iter().filter_map(|&k| eq_of(rs[0], k)).collect(),
                })
                .collect(),
        })
        .collect()
}

/// The equilibria of the reduced game by one method, with components and notes.
struct Found {
    equilibria: Vec<Raw>,
    enumeration: Option<enumpoly::Report>,
    components: Option<Vec<Component>>,
    described: &'static str,
    plot: Option<String>,
    path: Option<logit::Path>,
    tracing: Option<Tracing>,
}

fn run_method(
    g: &NormalForm,
    method: Method,
    req: &Request,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<Found> {
    let mut found = Found {
        equilibria: Vec::new(),
        components: None,
        described: "",
        plot: None,
        path: None,
        enumeration: None,
        tracing: None,
    };
    match method {
        Method::Enumpoly => every_equilibrium(g, req, limits, notes, &mut found)?,
        Method::Logit => logit_end(g, req, limits, notes, &mut found)?,
        Method::Simpdiv => simpdiv_end(g, req, limits, notes, &mut found)?,
        Method::Gnm => gnm_end(g, req, limits, notes, &mut found)?,
        Method::Tracing => traced(g, req, limits, notes, &mut found)?,
        Method::RiskDominance => risk_dominant(g, limits, notes, &mut found)?,
        Method::Pure | Method::Auto => {
            found.described = "pure-strategy equilibria (every pure profile checked)";
            if g.players.len() > 2 {
                notes.push(
                    "only pure equilibria: the method enumpoly (the default) lists the mixed \
                     ones too"
                        .into(),
                );
            }
            found.equilibria = pure_equilibria(g).iter().map(|p| Raw::pure(g, p)).collect();
        }
        Method::Indifference => {
            let s = two_by_two::solve(g)?;
            found.described = "the indifference conditions of a 2 x 2 game";
            if req.plot {
                found.plot = Some(two_by_two::plot(g, &s));
            }
            for pc in s.pieces.iter().filter(|pc| !pc.is_point()) {
                notes.push(format!(
                    "a continuum of equilibria: p in [{}, {}], q in [{}, {}] (p, q: the \
                     probabilities of the first row and the first column); its ends are listed",
                    show(&pc.p.0),
                    show(&pc.p.1),
                    show(&pc.q.0),
                    show(&pc.q.1)
                ));
            }
            found.equilibria = s.equilibria;
        }
        Method::Vertex => {
            let e = vertex::enumerate_within(
                &Bimatrix::new(g)?,
                limits.max_states,
                limits.max_memory,
                limits.max_work,
            )?;
            found.described = "vertex enumeration: every extreme equilibrium";
            found.components = Some(components_of(&e.pairs, &e.components));
            found.equilibria = e.equilibria;
        }
        Method::Support => {
            let s = support::enumerate_within(&Bimatrix::new(g)?, limits.max_work)?;
            found.described = "support enumeration";
            if s.degenerate {
                notes.push(
                    "the game is degenerate (a strategy with more best replies than its \
                     support): the extreme equilibria are listed, and the components show \
                     which of them mix"
                        .into(),
                );
            }
            found.components = Some(components_of(&s.pairs, &s.components));
            found.equilibria = s.equilibria;
        }
        Method::LemkeHowson => {
            let bm = Bimatrix::new(g)?;
            found.equilibria = match req.label {
                Some(k) => {
                    found.described = "Lemke-Howson from one label";
                    // The solver counts labels from 0.
                    vec![lemke::lemke_howson(&bm, k - 1)?.equilibrium]
                }
                None => {
                    found.described =
                        "Lemke-Howson paths from every equilibrium found, with every label";
                    lemke::enumerate(&bm, limits.max_work)?
                }
            };
        }
    }
    Ok(found)
}

/// Every equilibrium of a game of any number of players, by support enumeration with certified
/// solutions ([`enumpoly`]); a stop at a budget, and regions left unresolved, become notes.
fn every_equilibrium(
    g: &NormalForm,
    req: &Request,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Found,
) -> Result<()> {
    let opts = enumpoly::Options {
        max_supports: req.max_supports,
        deadline: match req.time_limit {
            Some(t) => {
                Some(std::time::Instant::now() + crate::core::number::seconds("time_limit", t)?)
            }
            None => None,
        },
        max_work: limits.max_work,
        digits: crate::core::number::in_range(
            "digits",
            u64::from(req.digits.unwrap_or(16)),
            1,
            crate::exact::MOST_DIGITS as u64,
            "digits",
        )? as u32,
    };
    let r = enumpoly::enumerate(g, &opts)?;
    found.described = "support enumeration with certified solutions of the \
                       indifference equations: every equilibrium";
    found.equilibria = r
        .exact
        .iter()
        .map(|p| {
            Ok(Raw {
                profile: p.clone(),
                payoffs: expected_payoffs(g, p)?,
            })
        })
        .collect::<Result<_>>()?;
    if r.stopped.is_some() {
        // A game too large to enumerate within the budget still has an equilibrium
        // that the path-following methods find quickly: say which.
        notes.push(format!(
            "stopped after {} of {} support profiles ({}): equilibria on the others \
             are not listed; raise the limit to cover them, or for one equilibrium of \
             a game this large use the method gnm, logit or simpdiv",
            r.examined,
            r.supports,
            r.stopped.as_deref().unwrap_or("")
        ));
    }
    if !r.unresolved.is_empty() {
        notes.push(format!(
            "{} region(s) of the indifference equations were not resolved into \
             isolated equilibria (a continuum, or a singular solution): see \
             'unresolved'",
            r.unresolved.len()
        ));
    }
    found.enumeration = Some(r);
    Ok(())
}

/// One equilibrium at the end of the logit path, settled exactly on its support.
fn logit_end(
    g: &NormalForm,
    req: &Request,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Found,
) -> Result<()> {
    let path = logit::path(
        g,
        &logit::Options {
            max_work: limits.max_work,
            max_memory: limits.max_memory,
            ..logit::Options::default()
        },
    )?;
    let end = path
        .points
        .last()
        .map(|p| p.profile.clone())
        .unwrap_or_default();
    let lambda = path.points.last().map_or(0.0, |p| p.lambda);
    found.described = "the end of the logit quantal-response path, solved exactly on \
                       its support";
    notes.push(format!(
        "logit path: {} steps to lambda = {lambda:.4e} (payoffs scaled to [0, 1]); {}",
        path.points.len() - 1,
        path.ended
    ));
    settle(
        g,
        &end,
        1e-3,
        req.digits.unwrap_or(16),
        limits,
        notes,
        found,
    )?;
    if req.plot {
        found.plot = Some(logit::plot(g, &path));
    }
    if req.path {
        found.path = Some(path);
    }
    Ok(())
}

/// One equilibrium by simplicial subdivision on finer grids until Newton's method settles its
/// end exactly.
fn simpdiv_end(
    g: &NormalForm,
    req: &Request,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Found,
) -> Result<()> {
    let opts = simpdiv::Options {
        max_work: limits.max_work,
        ..simpdiv::Options::default()
    };
    let digits = req.digits.unwrap_or(16);
    // A grid of mesh 1/m places its end a few cells from the equilibrium it found.
    let reach = |end: &simpdiv::End| (4.0 / end.mesh as f64).max(1e-3);
    let mut search = simpdiv::Search::new(g, &opts);
    let mut best: Option<simpdiv::End> = None;
    // Finer grids only until Newton's method on the support the path found settles on
    // an equilibrium: the grid's own accuracy improves only in proportion to its mesh.
    while let Some(end) = search.follow_path()? {
        let done = end.regret <= opts.tolerance
            || (end.regret <= 1e-2 && solved_near(g, &end.profile, digits, reach(&end))?);
        if done || best.as_ref().is_none_or(|b| end.regret < b.regret) {
            best = Some(end);
        }
        if done {
            break;
        }
    }
    let end = best.expect("simplicial subdivision follows at least one path");
    found.described = "simplicial subdivision (restarted on finer grids), its end \
                       solved exactly on its support";
    notes.push(format!(
        "simplicial subdivision: {} paths, {} pivots, to a grid of mesh 1/{} (payoffs \
         scaled to [0, 1]; largest gain from deviating at the end {:.1e})",
        end.paths, end.steps, end.mesh, end.regret
    ));
    settle(g, &end.profile, reach(&end), digits, limits, notes, found)?;
    Ok(())
}

/// One equilibrium at the end of the global Newton path, settled exactly on its support.
fn gnm_end(
    g: &NormalForm,
    req: &Request,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Found,
) -> Result<()> {
    let opts = gnm::Options {
        max_work: limits.max_work,
        max_memory: limits.max_memory,
        ..gnm::Options::default()
    };
    let end = gnm::equilibrium(g, &opts)?;
    found.described = "the global Newton method (Govindan and Wilson), its end solved \
                       exactly on its support";
    notes.push(format!(
        "global Newton path: {} steps from lambda = {:.4} (payoffs scaled to [0, 1]), \
         turning back {} times{}",
        end.steps,
        end.start,
        end.turns,
        if end.tries > 1 {
            format!(
                "; the paths of {} other bonus vectors met degenerate points",
                end.tries - 1
            )
        } else {
            String::new()
        }
    ));
    settle(
        g,
        &end.profile,
        1e-3,
        req.digits.unwrap_or(16),
        limits,
        notes,
        found,
    )?;
    Ok(())
}

/// The prior a request names over the strategies of `g`, each player's a probability vector;
/// uniform when none is given.
fn prior_of(g: &NormalForm, req: &Request) -> Result<Vec<Vec<Q>>> {
    let shape = g.shape();
    let Some(flat) = &req.prior else {
        return Ok(shape.iter().map(|&k| tracing::uniform(k)).collect());
    };
    let want: usize = shape.iter().sum();
    if flat.len() != want {
        return Err(Error::Invalid(format!(
            "the prior has {} probabilities; the game's players have {} strategies ({want} \
             in all), each player's probabilities in turn",
            flat.len(),
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" + ")
        )));
    }
    let mut it = flat.iter().cloned();
    let mut prior = Vec::with_capacity(shape.len());
    for (player, &k) in shape.iter().enumerate() {
        let p: Vec<Q> = it.by_ref().take(k).collect();
        if let Some(x) = p.iter().find(|x| *x < &Q::from_integer(0.into())) {
            return Err(Error::Invalid(format!(
                "the prior of player {} has the negative probability {}",
                player + 1,
                show(x)
            )));
        }
        if p.iter().any(|x| *x > Q::from_integer(1.into())) {
            return Err(Error::Invalid(format!(
                "the prior of player {} has a probability above 1",
                player + 1
            )));
        }
        let total: Q = p.iter().sum();
        if total != Q::from_integer(1.into()) {
            return Err(Error::Invalid(format!(
                "the prior of player {} sums to {}, not 1",
                player + 1,
                show(&total)
            )));
        }
        prior.push(p);
    }
    Ok(prior)
}

/// Harsanyi and Selten's risk dominance among the pure equilibria of a two-player game: for
/// each pair, the tracing procedure from their bicentric prior reaches one of the two (it
/// risk-dominates the other) or neither. The answer is the equilibrium that risk-dominates
/// every other when there is one, else every pure equilibrium; the notes say each pair's
/// outcome.
fn risk_dominant(
    g: &NormalForm,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Found,
) -> Result<()> {
    found.described = "risk dominance (Harsanyi and Selten): the tracing procedure from the \
                       bicentric prior of each pair of pure equilibria";
    let pure = pure_equilibria(g);
    let bimatrix = Bimatrix::new(g)?;
    let name = |p: &[usize]| format!("({}, {})", g.strategies[0][p[0]], g.strategies[1][p[1]]);
    if pure.len() < 2 {
        notes.push(format!(
            "{} pure equilibri{}: risk dominance compares two or more",
            pure.len(),
            if pure.len() == 1 { "um" } else { "a" }
        ));
        found.equilibria = pure.iter().map(|p| Raw::pure(g, p)).collect();
        return Ok(());
    }
    let listed: Vec<[usize; 2]> = pure.iter().map(|p| [p[0], p[1]]).collect();
    let (pairs, dominant) = risk_dominance::rank(&bimatrix, &listed, limits)?;
    let shown = |v: &[Q]| v.iter().map(show).collect::<Vec<_>>().join(" ");
    for pair in &pairs {
        let [a, b] = pair.equilibria.map(|k| name(&pure[k]));
        let from = format!(
            "from their bicentric prior ({}; {})",
            shown(&pair.prior[0]),
            shown(&pair.prior[1])
        );
        notes.push(match pair.outcome {
            Outcome::First => {
                format!("{a} risk-dominates {b}: the tracing procedure {from} reaches it")
            }
            Outcome::Second => {
                format!("{b} risk-dominates {a}: the tracing procedure {from} reaches it")
            }
            Outcome::Tie => format!(
                "neither of {a} and {b} risk-dominates the other: against their bicentric \
                 prior ({}; {}) a player's best replies tie",
                shown(&pair.prior[0]),
                shown(&pair.prior[1])
            ),
            Outcome::Neither => format!(
                "neither of {a} and {b} risk-dominates the other: the tracing procedure \
                 {from} reaches another equilibrium"
            ),
        });
    }
    match dominant {
        Some(k) => found.equilibria = vec![Raw::pure(g, &pure[k])],
        None => {
            notes.push("no pure equilibrium risk-dominates every other: all are listed".into());
            found.equilibria = pure.iter().map(|p| Raw::pure(g, p)).collect();
        }
    }
    Ok(())
}

/// The equilibrium the linear tracing procedure selects from the request's prior: exactly by
/// complementary pivoting for two players, by the global Newton method's path (the prior's
/// payoffs as its bonus) settled exactly for more.
fn traced(
    g: &NormalForm,
    req: &Request,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Found,
) -> Result<()> {
    let prior = prior_of(g, req)?;
    if g.players.len() == 2 {
        let r = tracing::trace(&Bimatrix::new(g)?, &prior[0], &prior[1], limits)?;
        found.described = if r.guided {
            "the linear tracing procedure (Harsanyi and Selten) from the prior, by \
             complementary pivoting (van den Elzen and Talman) in floating point, its end \
             solved and checked exactly"
        } else {
            "the linear tracing procedure (Harsanyi and Selten) from the prior, by exact \
             complementary pivoting (van den Elzen and Talman)"
        };
        found.tracing = Some(Tracing {
            prior,
            start: r.start.to_vec(),
            steps: r.pivots as u64,
        });
        found.equilibria = vec![r.equilibrium];
        return Ok(());
    }
    let floats: Vec<Vec<f64>> = prior
        .iter()
        .map(|p| {
            p.iter()
                .map(|x| num_traits::ToPrimitive::to_f64(x).unwrap_or(0.0))
                .collect()
        })
        .collect();
    // A prior against which some player is indifferent at the top (the uniform prior of a
    // symmetric game) starts the path at a degenerate point, where the linear procedure is
    // not defined; it is then followed from priors moved slightly toward a fixed completely
    // mixed one, the first that works, and the note says how far.
    let mut last = None;
    let mut end = None;
    for moved in [0.0, 1e-6, 1e-4, 1e-2] {
        let nearby = nudged(&floats, moved);
        let opts = gnm::Options {
            max_work: limits.max_work,
            max_memory: limits.max_memory,
            prior: Some(nearby.clone()),
            ..gnm::Options::default()
        };
        match gnm::equilibrium(g, &opts) {
            Ok(e) => {
                end = Some((e, moved, nearby));
                break;
            }
            Err(e @ Error::Invalid(_)) => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    let Some((end, moved, used)) = end else {
        return Err(last.expect("at least one try"));
    };
    found.described = "the linear tracing procedure (Harsanyi and Selten) from the prior, by \
                       the global Newton method's path, its end solved exactly on its support";
    notes.push(format!(
        "tracing path: {} steps, turning back {} times",
        end.steps, end.turns
    ));
    if moved > 0.0 {
        notes.push(format!(
            "the path from the prior itself meets a degenerate point (a player indifferent \
             where it starts or turns); it was followed from the prior moved by {moved:e} \
             toward a fixed completely mixed profile"
        ));
    }
    let start = end_start(g, &used);
    found.tracing = Some(Tracing {
        prior,
        start,
        steps: end.steps,
    });
    settle(
        g,
        &end.profile,
        1e-3,
        req.digits.unwrap_or(16),
        limits,
        notes,
        found,
    )
}

/// `prior` moved by the fraction `moved` toward a fixed completely mixed profile whose
/// probabilities are all different, within a player and between players (so neither a tie
/// of the prior nor a symmetry between players survives).
fn nudged(prior: &[Vec<f64>], moved: f64) -> Vec<Vec<f64>> {
    prior
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let weights: Vec<f64> = (0..p.len())
                .map(|a| 1.0 + ((7 * i + 3 * a + 1) as f64 * 0.618_034).fract())
                .collect();
            let total: f64 = weights.iter().sum();
            p.iter()
                .zip(&weights)
                .map(|(x, w)| (1.0 - moved) * x + moved * w / total)
                .collect()
        })
        .collect()
}

/// Each player's first best reply to the prior (floating point, as the path starts there).
fn end_start(g: &NormalForm, prior: &[Vec<f64>]) -> Vec<usize> {
    let scaled = logit::scaled_payoffs(g);
    logit::values(g, &scaled, prior)
        .value
        .iter()
        .map(|row| {
            let top = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            row.iter().position(|&x| x >= top - 1e-12).unwrap_or(0)
        })
        .collect()
}

/// Whether Newton's method, from `end`, settles on an equilibrium (exact or certified) on a
/// support `end` may have, within `reach` of it (largest coordinate difference): the test
/// [`settle`] passes first.
fn solved_near(g: &NormalForm, end: &[Vec<f64>], digits: u32, reach: f64) -> Result<bool> {
    for support in simpdiv::supports_near(g, end) {
        let r = enumpoly::near(g, &support, end, digits)?;
        if nearest(end, &r).is_some_and(|(d, _, _)| d < reach) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// A solution's distance from a path's end, and the solution: exact, or a certified box.
type Nearest = (f64, Option<Vec<Vec<Q>>>, Option<enumpoly::Certified>);

/// The solution of a report nearest `end`: its distance (largest coordinate difference), and
/// the solution, exact or certified.
fn nearest(end: &[Vec<f64>], r: &enumpoly::Report) -> Option<Nearest> {
    let distance = |p: &[Vec<f64>]| {
        p.iter()
            .flatten()
            .zip(end.iter().flatten())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
    };
    let to_f = |v: &[Vec<Q>]| -> Vec<Vec<f64>> {
        v.iter()
            .map(|p| p.iter().map(crate::exact::to_f64).collect())
            .collect()
    };
    r.exact
        .iter()
        .map(|e| (distance(&to_f(e)), Some(e.clone()), None))
        .chain(
            r.certified
                .iter()
                .map(|c| (distance(&to_f(&c.lower)), None, Some(c.clone()))),
        )
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// An equilibrium found exactly next to `end`, the floating-point end of a path (logit,
/// simplicial subdivision): the support it plays solved as in the enumeration, and the solution
/// nearest the end taken if it is within `reach` (exact when rational, a certified box
/// otherwise); failing that, the end
/// rounded to simple fractions and checked; failing that, a note with the end's exact regret.
fn settle(
    g: &NormalForm,
    end: &[Vec<f64>],
    reach: f64,
    digits: u32,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Found,
) -> Result<()> {
    // The supports the end may have (the strategies it still plays, from the most inclusive
    // cut down, since far along a path the losers' probabilities are tiny but not zero; the
    // strategies nearly best replies): the first on which Newton's method settles next to it.
    let candidates = simpdiv::supports_near(g, end);
    let mut settled = None;
    for support in &candidates {
        let r = enumpoly::near(g, support, end, digits)?;
        if nearest(end, &r).is_some_and(|(d, _, _)| d < reach) {
            settled = Some(r);
            break;
        }
    }
    let mut r = match settled {
        Some(r) => r,
        None => {
            // Newton's method did not settle next to the end: every solution on the
            // support it plays, within the work budget.
            let opts = enumpoly::Options {
                max_work: limits.max_work.min(200_000_000),
                digits,
                ..enumpoly::Options::default()
            };
            enumpoly::on_support(g, &candidates[0], &opts)?
        }
    };
    // The solution on that support nearest the path's end.
    let exact = nearest(end, &r);
    r.exact.clear();
    r.certified.clear();
    match exact {
        Some((d, e, c)) if d < reach => {
            if let Some(e) = e {
                found.equilibria = vec![Raw {
                    payoffs: verify(g, &e)?.payoffs,
                    profile: e,
                }];
            }
            r.certified.extend(c);
        }
        _ => match [1e-6, 1e-4, 1e-3, 1e-2]
            .iter()
            .map(|&cut| logit::round_end(g, end, &logit::support_of(end, cut)))
            .find_map(|r| r.transpose())
            .transpose()?
        {
            // The support's equations do not isolate the end (a continuum, or a
            // singular solution): a simple rational point next to it may still be one.
            Some(e) => {
                notes.push(
                    "the path's end is not an isolated solution on its support; the \
                     equilibrium is the end rounded to simple fractions, checked exactly"
                        .into(),
                );
                found.equilibria = vec![Raw {
                    payoffs: verify(g, &e)?.payoffs,
                    profile: e,
                }];
            }
            None => notes.push(format!(
                "no equilibrium with the support the path reached lies near its end; \
                 the end's largest gain from deviating is {} (exact, for the doubles it \
                 holds)",
                show_decimal(&logit::exact_regret(g, end)?, 12)
            )),
        },
    }
    r.unresolved.clear();
    found.enumeration = Some(r);
    Ok(())
}

fn shape_text(shape: &[usize]) -> String {
    shape
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(" x ")
}

/// Checks that the request fits the game before anything runs.
fn check_request(
    req: &Request,
    method: Method,
    given: &[usize],
    reduced: &[usize],
    reduced_any: bool,
) -> Result<()> {
    if req.path && method != Method::Logit {
        return Err(Error::Invalid(format!(
            "{} asks for the logit path: use it with {}",
            hint::setting("path"),
            hint::setting_value("method", "logit")
        )));
    }
    if req.plot && !matches!(method, Method::Indifference | Method::Logit) && !envelope_fits(given)
    {
        return Err(Error::Invalid(format!(
            "the plot draws 2 x 2 games (by the indifference method), the upper envelope of \
             two-player games in which one player has two strategies, or the logit path \
             ({}); this game is {}{}",
            hint::setting_value("method", "logit"),
            shape_text(reduced),
            if reduced_any {
                " after elimination"
            } else {
                ""
            }
        )));
    }
    if method != Method::LemkeHowson && req.label.is_some() {
        return Err(Error::Invalid(
            "a starting label is for the Lemke-Howson method".into(),
        ));
    }
    if method == Method::Indifference && reduced != [2, 2] {
        return Err(Error::Invalid(format!(
            "the indifference method solves 2 x 2 games; this game is {}",
            shape_text(reduced)
        )));
    }
    if req.prior.is_some() && method != Method::Tracing {
        return Err(Error::Invalid(
            "a prior is for the tracing procedure".into(),
        ));
    }
    if matches!(method, Method::Tracing | Method::RiskDominance) && req.dominance != Dominance::None
    {
        return Err(Error::Invalid(format!(
            "the tracing procedure runs on the game as given, whose prior it is: drop {}",
            hint::setting("dominance")
        )));
    }
    if !matches!(
        method,
        Method::Pure
            | Method::Enumpoly
            | Method::Logit
            | Method::Simpdiv
            | Method::Gnm
            | Method::Tracing
    ) && reduced.len() != 2
    {
        return Err(Error::Invalid(format!(
            "this method needs a two-player game; this game has {} players (use enumpoly or \
             pure)",
            reduced.len()
        )));
    }
    if matches!(
        method,
        Method::Enumpoly | Method::Logit | Method::Simpdiv | Method::Gnm | Method::Tracing
    ) && reduced.len() < 2
    {
        return Err(Error::Invalid(
            "enumpoly, logit, simpdiv, gnm and tracing need two or more players (a one-player \
             game: use pure)"
                .into(),
        ));
    }
    if method != Method::Enumpoly && (req.max_supports.is_some() || req.time_limit.is_some()) {
        return Err(Error::Invalid(format!(
            "{} and {} are for the enumpoly method",
            hint::setting("max_supports"),
            hint::setting("time_limit")
        )));
    }
    if let (Some(k), [m, n]) = (req.label, reduced) {
        if k == 0 || k > m + n {
            return Err(Error::Invalid(format!(
                "label {k}: labels run from 1 to {} (rows, then columns)",
                m + n
            )));
        }
    }
    Ok(())
}

/// Whether a game of `shape` has an upper envelope to draw ([`envelope`]): two players, one of
/// them with two strategies.
fn envelope_fits(shape: &[usize]) -> bool {
    matches!(shape, [2, _] | [_, 2])
}

/// The Nash equilibria of `game` as `req` asks: each one lifted back to the game as given
/// and checked exactly there (no player gains by deviating to any pure strategy).
pub fn solve(game: &NormalForm, req: &Request, limits: &Limits) -> Result<Answer> {
    if req.refine.contains(&Refinement::Sequential) {
        return Err(Error::Invalid(
            "sequential equilibria are a refinement for game trees (an .efg file); a \
             strategic-form game has perfect, proper and ess"
                .into(),
        ));
    }
    let mut notes = Vec::new();
    let reduction = match req.dominance {
        Dominance::None => Reduction::none(game),
        Dominance::Strict => eliminate(game, true, false)?,
        Dominance::Weak => eliminate(game, true, true)?,
    };
    if req.dominance == Dominance::Weak && !reduction.steps.is_empty() {
        notes.push(
            "weak dominance was used: equilibria of the original game that use a removed \
             strategy are not listed"
                .into(),
        );
    }
    let g = &reduction.game;
    let method = resolve(req.method, &g.shape());
    check_request(
        req,
        method,
        &game.shape(),
        &g.shape(),
        !reduction.steps.is_empty(),
    )?;
    let mut found = run_method(g, method, req, limits, &mut notes)?;
    let shape = game.shape();
    let mut equilibria = Vec::with_capacity(found.equilibria.len());
    for e in std::mem::take(&mut found.equilibria) {
        let e = reduction.lift_owned(e, &shape);
        // The promise: nothing is returned that was not checked against the game as given.
        if !confirms(game, &e.profile, &e.payoffs)? {
            return Err(Error::Invalid(
                "internal inconsistency: a computed profile failed the equilibrium check".into(),
            ));
        }
        equilibria.push(Equilibrium {
            profile: e.profile,
            payoffs: e.payoffs,
        });
    }
    let enumeration = found
        .enumeration
        .as_ref()
        .map(|r| enumeration_of(r, &reduction, &shape, &equilibria, req.digits.unwrap_or(16)));
    let eliminated = reduction
        .steps
        .iter()
        .map(|st| Elimination {
            player: st.player,
            strategy: st.strategy,
            dominated_by: match &st.by {
                Dominator::Pure(t) => vec![(*t, "1".into())],
                Dominator::Mixed(mix) => mix.iter().map(|(t, p)| (*t, show(p))).collect(),
            },
            weak: st.weak,
        })
        .collect();
    let perfect = if req.refine.contains(&Refinement::Perfect) {
        Some(perfect_marks(game, &equilibria, limits)?)
    } else {
        None
    };
    let proper = if req.refine.contains(&Refinement::Proper) {
        Some(proper_marks(game, &equilibria, limits, &mut notes)?)
    } else {
        None
    };
    let ess = if req.refine.contains(&Refinement::Ess) {
        Some(ess_marks(game, &equilibria, limits)?)
    } else {
        None
    };
    Ok(Answer {
        title: game.title.clone(),
        players: game.players.clone(),
        strategies: game.strategies.clone(),
        method,
        described: found.described.into(),
        eliminated,
        equilibria,
        components: found.components,
        notes,
        // Methods without a picture of their own draw the envelope of the game as given.
        plot: match found.plot {
            None if req.plot => Some(envelope::plot(game, &envelope::envelope(game)?)),
            drawn => drawn,
        },
        enumeration,
        logit_path: found.path.map(|path| {
            // Over the strategies as given: zero for those dominance removed.
            path.points
                .into_iter()
                .map(|point| PathPoint {
                    lambda: point.lambda,
                    profile: reduction.spread(&point.profile, &shape, 0.0),
                })
                .collect()
        }),
        perfect,
        proper,
        ess,
        tracing: found.tracing,
    })
}

/// Whether each equilibrium of a symmetric two-player game is `(x, x)` with `x` an ESS.
///
/// Every ESS is an extreme equilibrium, so listing the extreme ones lists every ESS: were
/// `(x, x)` inside a segment of equilibria, the set of equilibria being a union of products of
/// faces, `(x, x ± t z)` would be equilibria for a direction `z` into the best replies to `x`
/// and a small `t`; then `x` is a best reply to `x + t z` and to `x − t z`, so `A z` is
/// constant on the strategies `x` plays and on the other best replies alike, and
/// `zᵀA z = c · Σ z = 0`, which the ESS condition (`zᵀA z < 0`) forbids.
fn ess_marks(game: &NormalForm, equilibria: &[Equilibrium], limits: &Limits) -> Result<Vec<bool>> {
    if game.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "evolutionary stability is decided for symmetric two-player games, and this game \
             has {} players",
            game.players.len()
        )));
    }
    let a = game.matrix(0);
    let b = game.matrix(1);
    let (m, n) = (a.len(), a[0].len());
    if m != n {
        return Err(Error::Invalid(format!(
            "evolutionary stability is decided for symmetric games, and this one is {m} × {n}"
        )));
    }
    for i in 0..n {
        for j in 0..n {
            if b[i][j] != a[j][i] {
                return Err(Error::Invalid(format!(
                    "evolutionary stability is decided for symmetric games, where the column \
                     player's payoff at row {}, column {} is the row player's at row {}, column \
                     {}; here they are {} and {}",
                    i + 1,
                    j + 1,
                    j + 1,
                    i + 1,
                    show(&b[i][j]),
                    show(&a[j][i])
                )));
            }
        }
    }
    equilibria
        .iter()
        .map(|e| {
            Ok(e.profile[0] == e.profile[1] && ess::invader(&a, &e.profile[0], limits)?.is_none())
        })
        .collect()
}

/// Whether each equilibrium of a two-player game is perfect: each player's strategy a best
/// reply to a completely mixed strategy of the other (van Damme's characterisation).
fn perfect_marks(
    game: &NormalForm,
    equilibria: &[Equilibrium],
    limits: &Limits,
) -> Result<Vec<bool>> {
    if game.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "perfect equilibria are decided for two-player games, and this game has {} players",
            game.players.len()
        )));
    }
    let lp = perfect::Perfection::of(game);
    equilibria
        .iter()
        .map(|e| lp.holds(&e.profile[0], &e.profile[1], limits))
        .collect()
}

/// Whether each equilibrium of a two-player game is proper, where the game's ties leave few
/// enough orderings to examine; a note for each one that is not decided.
fn proper_marks(
    game: &NormalForm,
    equilibria: &[Equilibrium],
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<Vec<Option<bool>>> {
    if game.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "proper equilibria are decided for two-player games, and this game has {} players",
            game.players.len()
        )));
    }
    let (a, b) = (game.matrix(0), game.matrix(1));
    let mut marks = Vec::with_capacity(equilibria.len());
    // One work budget for all the equilibria, each given an equal share of what is left, so
    // that one with many ties does not leave the others undecided.
    let mut spent = 0u128;
    let budget = u128::from(limits.max_work);
    // Progress by equilibrium: with many ties one can take its whole share, seconds.
    crate::core::progress::phase("the proper marks", equilibria.len() as u64);
    for (k, e) in equilibria.iter().enumerate() {
        crate::core::progress::tick(k as u64)?;
        let share = budget.saturating_sub(spent) / (equilibria.len() - k) as u128;
        let within = Limits {
            max_work: u64::try_from(spent + share).unwrap_or(u64::MAX),
            ..*limits
        };
        marks.push(
            match proper::decide(&a, &b, &e.profile[0], &e.profile[1], &within, &mut spent)? {
                proper::Verdict::Proper(_) => Some(true),
                proper::Verdict::NotProper => Some(false),
                proper::Verdict::Undecided { pairs } => {
                    notes.push(format!(
                        "whether equilibrium {} is proper is not decided: its ties leave {pairs} \
                         pair{} of orderings of the strategies to examine, more than {} covers",
                        k + 1,
                        if pairs == 1 { "" } else { "s" },
                        crate::core::hint::setting("max_work")
                    ));
                    None
                }
            },
        );
    }
    Ok(marks)
}

/// The enumeration's report on the game as given (before any dominance step).
fn enumeration_of(
    r: &enumpoly::Report,
    reduction: &Reduction,
    shape: &[usize],
    equilibria: &[Equilibrium],
    digits: u32,
) -> Enumeration {
    let lift_vec = |v: &[Vec<Q>]| reduction.spread(v, shape, Q::from_integer(0.into()));
    let lift_support = |s: &[Vec<usize>]| -> Vec<Vec<usize>> {
        s.iter()
            .zip(&reduction.kept)
            .map(|(s, k)| s.iter().map(|&i| k[i]).collect())
            .collect()
    };
    Enumeration {
        supports: r.supports,
        examined: r.examined,
        pruned: r.pruned,
        boxes: r.boxes,
        complete: r.stopped.is_none() && r.examined == r.supports,
        stopped: r.stopped.clone(),
        certified: r
            .certified
            .iter()
            .map(|c| {
                let (lower, upper) = (lift_vec(&c.lower), lift_vec(&c.upper));
                let decimals = lower
                    .iter()
                    .zip(&upper)
                    .map(|(l, h)| {
                        l.iter()
                            .zip(h)
                            .map(|(a, b)| {
                                // Not reduced: the decimals need one division, and the bounds'
                                // long denominators made the gcd most of the work here.
                                let mid = Q::new_raw(
                                    a.numer() * b.denom() + b.numer() * a.denom(),
                                    a.denom() * b.denom() * 2,
                                );
                                show_decimal(&mid, digits as usize)
                            })
                            .collect()
                    })
                    .collect();
                Certified {
                    support: lift_support(&c.support),
                    lower,
                    upper,
                    decimals,
                    payoffs_lower: c.payoffs_lower.clone(),
                    payoffs_upper: c.payoffs_upper.clone(),
                    regret_bound: c.regret_bound.clone(),
                }
            })
            .collect(),
        unresolved: r
            .unresolved
            .iter()
            .map(|u| {
                let point = u.point.as_ref().map(|p| lift_vec(p));
                Unresolved {
                    support: lift_support(&u.support),
                    lower: lift_vec(&u.lower),
                    upper: lift_vec(&u.upper),
                    equilibrium: point.and_then(|p| equilibria.iter().position(|e| e.profile == p)),
                    reason: u.reason.clone(),
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::matrix::parse_matrix;

    fn game(a: &str, b: &str) -> NormalForm {
        NormalForm::bimatrix(
            &parse_matrix(a, "A").unwrap(),
            &parse_matrix(b, "B").unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn names_and_aliases() {
        assert_eq!(Method::parse("enummixed").unwrap(), Method::Vertex);
        assert_eq!(Method::parse("LCP").unwrap(), Method::LemkeHowson);
        assert_eq!(
            Method::parse("support_enumeration").unwrap(),
            Method::Support
        );
        assert!(Method::parse("magic").is_err());
    }

    /// Every method's equilibria are among vertex enumeration's (which finds all extreme
    /// ones) on a non-degenerate game, and auto picks by shape.
    #[test]
    fn methods_agree() {
        let g = game("3 0 2; 1 4 0; 0 2 5", "2 1 0; 0 3 1; 1 0 4");
        let limits = Limits::default();
        let all = solve(
            &g,
            &Request {
                method: Method::Vertex,
                ..Request::default()
            },
            &limits,
        )
        .unwrap();
        assert_eq!(
            solve(&g, &Request::default(), &limits).unwrap().method,
            Method::Vertex
        );
        for m in [Method::Support, Method::LemkeHowson, Method::Pure] {
            let r = solve(
                &g,
                &Request {
                    method: m,
                    ..Request::default()
                },
                &limits,
            )
            .unwrap();
            assert!(!r.equilibria.is_empty() || m == Method::Pure);
            for e in &r.equilibria {
                assert!(all.equilibria.contains(e), "{m:?} found {e:?}");
            }
        }
        let two = game("2 0; 0 1", "1 0; 0 2");
        let r = solve(
            &two,
            &Request {
                plot: true,
                ..Request::default()
            },
            &limits,
        )
        .unwrap();
        assert_eq!(r.method, Method::Indifference);
        assert_eq!(r.equilibria.len(), 3);
        assert!(r.plot.unwrap().starts_with("<svg"));
    }

    #[test]
    fn requests_that_do_not_fit_are_refused() {
        let g = game("3 0 2; 1 4 0; 0 2 5", "2 1 0; 0 3 1; 1 0 4");
        let limits = Limits::default();
        let plot = Request {
            plot: true,
            ..Request::default()
        };
        assert!(solve(&g, &plot, &limits).is_err());
        let label = Request {
            method: Method::LemkeHowson,
            label: Some(7),
            ..Request::default()
        };
        assert!(solve(&g, &label, &limits).is_err());
        let label = Request {
            label: Some(0),
            ..Request::default()
        };
        assert!(solve(&g, &label, &limits).is_err());
    }
}
