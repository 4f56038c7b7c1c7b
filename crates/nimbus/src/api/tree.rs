//! Extensive-form games: the equilibria of a tree ([`solve`]), what a tree is made of
//! ([`describe`]) and its conversion to Gambit's formats ([`convert`]).
//!
//! Method choice, the map from the reduced normal form back to behaviour strategies and the
//! exact check of every equilibrium on the tree itself happen here, so every front-end prints
//! the same answers.

use super::{nash, Limits};
use crate::core::error::{Error, Result};
use crate::core::hint;
use crate::exact::json;
use crate::exact::Q;
use crate::extensive::seqform::SequenceForm;
use crate::extensive::solvers::{
    agent, backward, cfr, lemke, lp, quasi_perfect, seqenum, sequential, tracing,
};
use crate::extensive::{draw as picture, reduced, Mover, Tree};
use crate::formats::efg;
use crate::formats::nfg;
use num_traits::{Signed, Zero};
use serde::Serialize;

pub use crate::extensive::solvers::cfr::Variant;

/// The algorithms for trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Backward induction for perfect information, the sequence-form LP for two-player
    /// zero-sum trees, sequence-form enumeration for other two-player trees, every
    /// equilibrium of the reduced normal form (enumpoly) for more players.
    #[default]
    Auto,
    /// The sequence-form linear program (two-player zero-sum): the value and optimal
    /// behaviour strategies.
    Lp,
    /// Backward induction (perfect information): the pure subgame-perfect equilibria.
    Spe,
    /// Every extreme equilibrium (two players), by vertex enumeration of the sequence-form
    /// polyhedra.
    Enum,
    /// One equilibrium (two players), by Lemke's algorithm on the sequence form.
    Lcp,
    /// Every extreme equilibrium, by vertex enumeration of the reduced normal form.
    Vertex,
    /// Support enumeration of the reduced normal form.
    Support,
    /// Lemke–Howson paths on the reduced normal form.
    LemkeHowson,
    /// Pure equilibria of the reduced normal form (any number of players).
    Pure,
    /// Pure equilibria of the agent form: no single information set's action can be changed
    /// to its player's gain (any number of players).
    Agent,
    /// Every equilibrium of the reduced normal form, any number of players (support
    /// enumeration with certified solutions).
    Enumpoly,
    /// The equilibrium the tracing procedure selects from the centroid prior (two players,
    /// on the sequence form): normal-form perfect.
    Tracing,
    /// A quasi-perfect equilibrium (two players): Lemke's algorithm on the sequence form with
    /// symbolically perturbed sequence weights (Miltersen and Sørensen); sequential, so its
    /// behaviour is rational at every information set, reached or not.
    QuasiPerfect,
}

impl Method {
    /// Every method with its names (Gambit's and the issue tracker's aliases too).
    pub const NAMES: &'static [(&'static str, Method)] = &[
        ("auto", Method::Auto),
        ("lp", Method::Lp),
        ("spe", Method::Spe),
        ("backward", Method::Spe),
        ("enum", Method::Enum),
        ("seqenum", Method::Enum),
        ("vertex", Method::Vertex),
        ("enummixed", Method::Vertex),
        ("support", Method::Support),
        ("lcp", Method::Lcp),
        ("lemke", Method::Lcp),
        ("lh", Method::LemkeHowson),
        ("pure", Method::Pure),
        ("enumpure", Method::Pure),
        ("agent", Method::Agent),
        ("enumpure-agent", Method::Agent),
        ("enumpoly", Method::Enumpoly),
        ("polynomial", Method::Enumpoly),
        ("lemke-howson", Method::LemkeHowson),
        ("vertex-enumeration", Method::Vertex),
        ("support-enumeration", Method::Support),
        ("tracing", Method::Tracing),
        ("linear-tracing", Method::Tracing),
        ("quasi-perfect", Method::QuasiPerfect),
        ("qpe", Method::QuasiPerfect),
    ];

    /// The method called `name` (see [`Method::NAMES`]).
    pub fn parse(name: &str) -> Result<Method> {
        if let Some(m) = super::named(Self::NAMES, name) {
            return Ok(m);
        }
        if name == "cfr" {
            return Err(Error::Invalid(
                "the method 'cfr' gives an approximate equilibrium: run CFR on the tree, with \
                 its own options"
                    .into(),
            ));
        }
        if super::named(super::nash::Method::NAMES, name).is_some() {
            return Err(Error::Invalid(format!(
                "the method '{name}' solves strategic-form games, not trees (a tree's reduced \
                 normal form is one)"
            )));
        }
        Err(Error::Invalid(format!(
            "unknown method '{name}' for a tree: use auto, lp, spe, enum, lcp, vertex \
             (enummixed), support, lh, pure, agent, enumpoly, tracing or quasi-perfect"
        )))
    }
}

/// The method and prior a request on a tree names, as every front-end passes them: a
/// method's name (`auto` when none is given) or an equilibrium selection, not both. The
/// selection is `tracing`, from the centroid prior, or `tracing:PRIOR` (as
/// [`nash::parse_select`] reads it), the prior a behaviour profile written as answers list
/// one: the players' information sets in the order of [`Answer::infosets`], each set's action
/// probabilities in turn.
pub fn choose(method: &str, select: Option<&str>) -> Result<(Method, Option<Vec<Q>>)> {
    match select {
        // The strategic form's rule for the two together, and its reading of the prior.
        Some(_) => match nash::choose(method, select)? {
            (nash::Method::RiskDominance, _) => Err(Error::Invalid(
                "risk dominance compares the pure equilibria of a game in strategic form; on a \
                 tree use tracing or tracing:PRIOR"
                    .into(),
            )),
            (_, prior) => Ok((Method::Tracing, prior)),
        },
        None => Ok((Method::parse(method)?, None)),
    }
}

/// The behaviour profile a flat prior names: every player's set in answer order, its
/// actions' probabilities each a distribution; chance's sets as the tree has them.
fn behaviour_prior(tree: &Tree, flat: &[Q]) -> Result<Vec<Vec<Q>>> {
    let sets = player_sets(tree);
    let want: usize = sets.iter().map(|(_, s)| s.actions.len()).sum();
    if flat.len() != want {
        return Err(Error::Invalid(format!(
            "the prior has {} probabilities; the players' information sets have {want} actions \
             in all (each set's in turn, in the order answers list the sets)",
            flat.len()
        )));
    }
    let mut prior: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
    let mut it = flat.iter().cloned();
    for (h, info) in &sets {
        let p: Vec<Q> = it.by_ref().take(info.actions.len()).collect();
        let place = format!(
            "the prior at {}'s information set {}",
            tree.players[info.player], info.number
        );
        if p.iter().any(Signed::is_negative) {
            return Err(Error::Invalid(format!(
                "{place} has a negative probability"
            )));
        }
        let total: Q = p.iter().sum();
        if total != Q::from_integer(1.into()) {
            return Err(Error::Invalid(format!(
                "{place} sums to {}, not 1",
                crate::exact::show(&total)
            )));
        }
        prior[*h] = p;
    }
    Ok(prior)
}

/// What to compute.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The algorithm.
    pub method: Method,
    /// For [`Method::Lcp`]: how many covering vectors to run Lemke's algorithm with (the
    /// first all ones, the others random and seeded); the distinct equilibria are listed. 0
    /// counts as 1.
    pub covering: usize,
    /// For [`Method::Enumpoly`] (on the reduced normal form): stop after this many seconds,
    /// answering with what was found, as the strategic form's enumeration does.
    pub time_limit: Option<f64>,
    /// For [`Method::Enumpoly`]: try at most this many supports.
    pub max_supports: Option<u64>,
    /// For [`Method::Tracing`]: the prior, a behaviour profile as [`choose`] reads one;
    /// the centroid when `None`.
    pub prior: Option<Vec<Q>>,
    /// Refinements to decide for each equilibrium listed: perfect (normal-form perfect, two
    /// players) is the one for trees ([`Answer::perfect`]).
    pub refine: Vec<nash::Refinement>,
}

/// A player's information set, as answers list them.
#[derive(Debug, Clone, Serialize)]
pub struct InfosetInfo {
    /// The player (0-based).
    pub player: usize,
    /// Its number in the file.
    pub number: usize,
    /// Its label.
    pub name: String,
    /// Its actions.
    pub actions: Vec<String>,
    /// How many nodes it has.
    pub nodes: usize,
    /// With the sequential refinement asked for: a name for each of its nodes, as beliefs
    /// list them — the node's own name, or else the actions that lead to it from the last
    /// node above them all (the first and the last [`LABEL_ACTIONS`]` / 2` of them around
    /// `…` when there are more; empty for a set of one node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_labels: Option<Vec<String>>,
}

/// One equilibrium, as behaviour strategies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Equilibrium {
    /// For each information set of [`Answer::infosets`], the probabilities of its actions.
    #[serde(serialize_with = "json::lists")]
    pub behaviour: Vec<Vec<Q>>,
    /// Each player's expected payoff.
    #[serde(serialize_with = "json::list")]
    pub payoffs: Vec<Q>,
    /// For backward induction: how many pure subgame-perfect equilibria have these payoffs
    /// (a decimal string: the count can be huge); this is one of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
    /// For backward induction: the value of every subtree under this equilibrium, the
    /// payoffs a play that reaches the node ends with (nodes in prefix order, 0-based, leaves
    /// included).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "optional_lists"
    )]
    pub node_values: Option<Vec<Vec<Q>>>,
    /// With the sequential refinement asked for, when the equilibrium is sequential:
    /// consistent beliefs under which it is sequentially rational, for each information set
    /// of [`Answer::infosets`] the probability of each of its nodes.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "optional_lists"
    )]
    pub beliefs: Option<Vec<Vec<Q>>>,
}

/// The equilibria of a tree.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The title.
    pub title: String,
    /// The players' names.
    pub players: Vec<String>,
    /// The players' information sets: by player, each player's in the order they first
    /// appear in the tree.
    pub infosets: Vec<InfosetInfo>,
    /// The method that ran (never `auto`).
    pub method: Method,
    /// What the method finds, in words.
    pub described: String,
    /// For two-player zero-sum trees solved by the LP: the first player's value.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "optional")]
    pub value: Option<Q>,
    /// For backward induction: how many pure subgame-perfect equilibria there are (a decimal
    /// string; `at least 2^128 - 1` when it overflows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spe_count: Option<String>,
    /// For the methods on the reduced normal form: its number of strategies per player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced_shape: Option<Vec<usize>>,
    /// The equilibria, each checked exactly on the tree: no player gains by deviating.
    pub equilibria: Vec<Equilibrium>,
    /// With the perfect refinement asked for: whether each equilibrium listed is normal-form
    /// perfect (perfect in the reduced normal form: each player's strategy a best reply to
    /// some completely mixed strategy of the other).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub perfect: Option<Vec<bool>>,
    /// With the sequential refinement asked for: whether each equilibrium listed, as the
    /// behaviour profile shown (every information set's moves, reached or not), is part of a
    /// sequential equilibrium ([`Equilibrium::beliefs`] gives the beliefs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequential: Option<Vec<bool>>,
    /// Remarks a reader needs.
    pub notes: Vec<String>,
}

fn optional_lists<S: serde::Serializer>(
    q: &Option<Vec<Vec<Q>>>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match q {
        Some(q) => json::lists(q, s),
        None => s.serialize_none(),
    }
}

fn optional<S: serde::Serializer>(q: &Option<Q>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match q {
        Some(q) => json::one(q, s),
        None => s.serialize_none(),
    }
}

/// The players' information sets in answer order: (tree index, info).
fn player_sets(tree: &Tree) -> Vec<(usize, InfosetInfo)> {
    (0..tree.players.len())
        .flat_map(|p| tree.infosets_of(p))
        .map(|h| {
            let set = &tree.infosets[h];
            let Mover::Player(player) = set.mover else {
                unreachable!("infosets_of lists players' sets")
            };
            (
                h,
                InfosetInfo {
                    player,
                    number: set.number,
                    name: set.name.clone(),
                    actions: set.actions.clone(),
                    nodes: set.nodes.len(),
                    node_labels: None,
                },
            )
        })
        .collect()
}

/// The method `auto` stands for on `tree`.
pub fn resolve(method: Method, tree: &Tree) -> Method {
    match method {
        Method::Auto if tree.perfect_information() => Method::Spe,
        Method::Auto if tree.players.len() == 2 && tree.constant_sum().is_some() => Method::Lp,
        Method::Auto if tree.players.len() == 2 => Method::Enum,
        Method::Auto => Method::Enumpoly,
        m => m,
    }
}

/// The equilibria of `tree` as `req` asks, each checked exactly on the tree.
// Kept as one function: one arm a method, each asking its solver and writing what it found into the
// same notes and profiles, which are then checked on the tree (`checked_on_tree`).
pub fn solve(tree: &Tree, req: &Request, limits: &Limits) -> Result<Answer> {
    tree.check()?;
    let method = resolve(req.method, tree);
    if let Some(r) = req
        .refine
        .iter()
        .find(|r| !matches!(r, nash::Refinement::Perfect | nash::Refinement::Sequential))
    {
        return Err(Error::Invalid(
            format!(
                "the refinement {r:?} is for strategic-form games; a tree's are perfect \
                 (normal-form perfect) and sequential"
            )
            .to_lowercase(),
        ));
    }
    if !req.refine.is_empty() && tree.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "the refinements of a tree are decided for two players (for three or more, \
             deciding whether a profile is sequential is NP-hard); this one has {}",
            tree.players.len()
        )));
    }
    if req.prior.is_some() && method != Method::Tracing {
        return Err(Error::Invalid(
            "a prior is for the tracing procedure".into(),
        ));
    }
    if method != Method::Enumpoly && (req.time_limit.is_some() || req.max_supports.is_some()) {
        return Err(Error::Invalid(format!(
            "{} and {} apply to the enumeration of every equilibrium (the method for trees of              three or more players), not to {method:?}",
            hint::setting("time_limit"),
            hint::setting("max_supports")
        )));
    }
    let sets = player_sets(tree);
    let mut notes = Vec::new();
    let mut value = None;
    let mut spe_count = None;
    let mut reduced_shape = None;
    // Behaviour profiles over all the tree's sets, with an optional count each.
    let mut found: Vec<(Vec<Vec<Q>>, Option<String>)> = Vec::new();
    let described: String;
    match method {
        Method::Auto => unreachable!("resolved above"),
        Method::Lp => {
            let s = lp::solve(tree, limits)?;
            described = format!(
                "the sequence-form linear program (two-player zero-sum): {} constraints, {} \
                 variables, {} pivots",
                s.size.0, s.size.1, s.pivots
            );
            value = Some(s.value);
            found.push((s.behaviour, None));
        }
        Method::Enum => {
            let e = seqenum::enumerate(tree, limits)?;
            described = format!(
                "every extreme equilibrium, by vertex enumeration of the sequence-form \
                 polyhedra: {} and {} vertices, {} bases",
                e.vertices[0], e.vertices[1], e.bases
            );
            let form = SequenceForm::new(tree)?;
            for [x, y] in &e.plans {
                found.push((form.profile_of(tree, [x, y]), None));
            }
            notes.push(
                "equilibria as behaviour strategies; at sets a player's own earlier moves never \
                 reach, the first action (any choice there gives the same play)"
                    .into(),
            );
        }
        Method::Agent => {
            described = "pure equilibria of the agent form: no information set's action can \
                         be changed alone to its player's gain"
                .into();
            found.extend(
                agent::pure_equilibria(tree, limits)?
                    .into_iter()
                    .map(|b| (b, None)),
            );
        }
        Method::Tracing => {
            let prior = match &req.prior {
                Some(flat) => behaviour_prior(tree, flat)?,
                None => tracing::centroid(tree),
            };
            let t = tracing::trace(tree, &prior, limits)?;
            let form = SequenceForm::new(tree)?;
            described = format!(
                "the tracing procedure on the sequence form from {}, {} pivots",
                if req.prior.is_some() {
                    "the prior given"
                } else {
                    "the centroid prior (every action of every information set equally likely): \
                     a normal-form perfect equilibrium"
                },
                t.pivots
            );
            let mixed = tree.infosets.iter().zip(&prior).all(|(h, p)| {
                !matches!(h.mover, Mover::Player(_)) || p.iter().all(Signed::is_positive)
            });
            if req.prior.is_some() && mixed {
                notes.push(
                    "the prior is completely mixed, so the equilibrium is normal-form perfect"
                        .into(),
                );
            } else if req.prior.is_some() {
                notes.push(
                    "the prior is not completely mixed: the equilibrium need not be normal-form \
                     perfect"
                        .into(),
                );
            }
            found.push((form.profile_of(tree, [&t.plans[0], &t.plans[1]]), None));
            notes.push(
                "equilibria as behaviour strategies; at sets a player's own earlier moves never \
                 reach, the first action (any choice there gives the same play)"
                    .into(),
            );
        }
        Method::QuasiPerfect => {
            let s = quasi_perfect::solve(tree, limits)?;
            described = format!(
                "a quasi-perfect equilibrium: Lemke's algorithm on the sequence form with every \
                 sequence's weight held above a symbolic epsilon to the power of its length \
                 (Miltersen and Sorensen), an LCP of size {}, {} pivots; the behaviour at every \
                 information set is the limit as epsilon vanishes, reached or not",
                s.size, s.pivots
            );
            found.push((s.behaviour, None));
        }
        Method::Lcp => {
            let runs = req.covering.max(1);
            let form = SequenceForm::new(tree)?;
            let (mut pivots, mut size, mut spent) = (0, 0, 0);
            for k in 0..runs {
                // The runs share one work budget.
                let l = lemke::solve_covering(tree, k as u64, limits, spent)?;
                (pivots, size, spent) = (pivots + l.pivots, l.size, l.work);
                let b = form.profile_of(tree, [&l.plans[0], &l.plans[1]]);
                if !found.iter().any(|(x, _)| *x == b) {
                    found.push((b, None));
                }
            }
            described = if runs == 1 {
                format!(
                    "Lemke's algorithm on the sequence form (covering vector of ones): one \
                     equilibrium, an LCP of size {size}, {pivots} pivots"
                )
            } else {
                format!(
                    "Lemke's algorithm on the sequence form with {runs} covering vectors (ones, \
                     then random): the distinct equilibria they end at, an LCP of size {size}, \
                     {pivots} pivots in all"
                )
            };
        }
        Method::Spe if !tree.perfect_information() => {
            let (profiles, d) = fold_subgames(tree, limits, &mut notes)?;
            described = d;
            found.extend(profiles.into_iter().map(|b| (b, None)));
        }
        Method::Spe => {
            let bi = backward::solve(tree, limits)?;
            described = "backward induction: the pure subgame-perfect equilibria, one for each \
                         payoff vector they reach"
                .into();
            spe_count = Some(if bi.count == u128::MAX {
                format!("at least {}", u128::MAX)
            } else {
                bi.count.to_string()
            });
            if bi.classes.len() > 1 || bi.count > 1 {
                notes.push(format!(
                    "{} pure subgame-perfect equilibria reach {} payoff vectors (ties: the mover \
                     is indifferent between moves); one of them is listed for each vector",
                    spe_count.as_deref().unwrap_or_default(),
                    bi.classes.len()
                ));
            }
            for (_, count, b) in bi.classes {
                found.push((b, Some(count.to_string())));
            }
        }
        Method::Vertex
        | Method::Support
        | Method::LemkeHowson
        | Method::Pure
        | Method::Enumpoly => {
            let (d, shape) = on_reduced_form(tree, method, req, limits, &mut notes, &mut found)?;
            described = d;
            reduced_shape = Some(shape);
        }
    }
    let perfect = if req.refine.contains(&nash::Refinement::Perfect) {
        let profiles: Vec<&Vec<Vec<Q>>> = found.iter().map(|(b, _)| b).collect();
        Some(perfect_marks(tree, &profiles, limits)?)
    } else {
        None
    };
    // Every method but these fills in the first action where a player's own moves never lead.
    let fills = !(matches!(method, Method::QuasiPerfect | Method::Agent)
        || method == Method::Spe && tree.perfect_information());
    let marked = if req.refine.contains(&nash::Refinement::Sequential) {
        Some(sequential_marks(
            tree, &sets, &found, fills, limits, &mut notes,
        )?)
    } else {
        None
    };
    let mut equilibria = checked_on_tree(tree, &sets, method, found, &mut notes)?;
    let mut sets = sets;
    let sequential = if let Some((marks, beliefs)) = marked {
        for (e, b) in equilibria.iter_mut().zip(beliefs) {
            e.beliefs = b;
        }
        // The labels walk each node up to its set's common node: at most the set's nodes times
        // the tree's depth, checked first.
        let depth = depths(tree);
        let steps = sets.iter().fold(0u64, |acc, (h, _)| {
            let nodes = &tree.infosets[*h].nodes;
            let deepest = nodes.iter().map(|&v| depth[v]).max().unwrap_or(0);
            acc.saturating_add((nodes.len() as u64).saturating_mul(deepest as u64 + 1))
        });
        crate::core::budget::check_work(
            "the labels of the beliefs' nodes",
            steps,
            limits.max_work,
        )?;
        for (h, info) in &mut sets {
            info.node_labels = Some(node_labels(tree, &depth, &tree.infosets[*h].nodes));
        }
        Some(marks)
    } else {
        None
    };
    Ok(Answer {
        perfect,
        sequential,
        title: tree.title.clone(),
        players: tree.players.clone(),
        infosets: sets.into_iter().map(|(_, i)| i).collect(),
        method,
        described,
        value,
        spe_count,
        reduced_shape,
        equilibria,
        notes,
    })
}

/// Whether each behaviour profile (a Nash equilibrium, or not) is a normal-form perfect
/// equilibrium of the two-player tree: an equilibrium whose players' reduced mixed
/// strategies (any that play their plans) are best replies to some completely mixed
/// strategy of the other, each decided by one exact LP on the reduced normal form (whose size
/// the limits bound).
fn perfect_marks(tree: &Tree, profiles: &[&Vec<Vec<Q>>], limits: &Limits) -> Result<Vec<bool>> {
    let r = reduced::reduce(tree, limits)?;
    let lp = crate::strategic::solvers::perfect::Perfection::of(&r.game);
    let mut marks = Vec::with_capacity(profiles.len());
    for behaviour in profiles {
        let nash = r.form.gains(tree, behaviour).iter().all(Zero::is_zero);
        let x = r.mixed_of_plan(tree, 0, &r.form.plan(tree, 0, behaviour));
        let y = r.mixed_of_plan(tree, 1, &r.form.plan(tree, 1, behaviour));
        marks.push(nash && lp.holds(&x, &y, limits)?);
    }
    Ok(marks)
}

/// For each profile, whether it is sequential; and for each that is, its beliefs.
type Marks = (Vec<bool>, Vec<Option<Vec<Vec<Q>>>>);

/// Whether each behaviour profile `found` is part of a sequential equilibrium, and the
/// beliefs of each that is (by the sets of `sets`), with a note for each that is not, naming
/// where it fails. `fills`: the method filled in the moves where a player's own moves never
/// lead (then a failure there is said to be perhaps the filling's).
fn sequential_marks(
    tree: &Tree,
    sets: &[(usize, InfosetInfo)],
    found: &[(Vec<Vec<Q>>, Option<String>)],
    fills: bool,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<Marks> {
    let mut marks = Vec::with_capacity(found.len());
    let mut all_beliefs = Vec::with_capacity(found.len());
    let form = SequenceForm::new(tree)?;
    // Whether a profile has a set its own player's moves never lead to.
    let unreached_own = |b: &[Vec<Q>]| {
        form.players.iter().enumerate().any(|(p, s)| {
            let plan = form.plan(tree, p, b);
            s.parent.iter().any(|&parent| plan[parent].is_zero())
        })
    };
    let mut filled_failed = false;
    for (k, (b, _)) in found.iter().enumerate() {
        match sequential::decide(tree, b, limits)? {
            sequential::Verdict::Sequential { beliefs, .. } => {
                all_beliefs.push(Some(
                    sets.iter().map(|(h, _)| beliefs[*h].clone()).collect(),
                ));
                marks.push(true);
            }
            sequential::Verdict::NotSequential { infoset } => {
                notes.push(format!(
                    "equilibrium {} is not sequential: at {} no consistent beliefs make its \
                     moves best replies",
                    k + 1,
                    tree.infoset_label(&tree.infosets[infoset])
                ));
                all_beliefs.push(None);
                marks.push(false);
                filled_failed |= fills && unreached_own(b);
            }
        }
    }
    if filled_failed {
        notes.push(
            "a profile's moves at sets its player's own moves never reach are part of it: \
             another choice there may be sequential (the quasi-perfect method's always is)"
                .into(),
        );
    }
    Ok((marks, all_beliefs))
}

/// The most actions a node's label shows (the first and the last half of them).
pub const LABEL_ACTIONS: usize = 12;

/// Each node's depth (the root's 0).
fn depths(tree: &Tree) -> Vec<usize> {
    let mut depth = vec![0usize; tree.nodes.len()];
    // Prefix order: a parent comes before its children.
    for v in 0..tree.nodes.len() {
        if let Some((p, _)) = tree.nodes[v].parent {
            depth[v] = depth[p] + 1;
        }
    }
    depth
}

/// Names for the nodes of one information set: each node's own name, or else the actions
/// from the deepest node above them all down to it (at most [`LABEL_ACTIONS`] of them shown).
/// A walk up from each node, no further than that common node: time in proportion to the
/// set's nodes times the tree's depth.
fn node_labels(tree: &Tree, depth: &[usize], nodes: &[usize]) -> Vec<String> {
    let up = |v: usize| tree.nodes[v].parent.map_or(v, |(p, _)| p);
    let mut common = nodes.first().copied().unwrap_or(0);
    for &v in nodes.iter().skip(1) {
        let (mut a, mut b) = (common, v);
        while depth[a] > depth[b] {
            a = up(a);
        }
        while depth[b] > depth[a] {
            b = up(b);
        }
        while a != b {
            (a, b) = (up(a), up(b));
        }
        common = a;
    }
    nodes
        .iter()
        .map(|&v| {
            if !tree.nodes[v].name.is_empty() {
                return tree.nodes[v].name.clone();
            }
            let mut moves = Vec::new();
            let mut at = v;
            while at != common {
                let (p, a) = tree.nodes[at].parent.expect("below the common node");
                moves.push((p, a));
                at = p;
            }
            moves.reverse();
            let name = |&(p, a): &(usize, usize)| {
                let h = tree.nodes[p].infoset.expect("a parent has a set");
                tree.infosets[h].actions[a].clone()
            };
            if moves.len() <= LABEL_ACTIONS {
                return moves.iter().map(name).collect::<Vec<_>>().join(" ");
            }
            // The first moves tell the nodes apart, the last say where they are.
            let half = LABEL_ACTIONS / 2;
            let first: Vec<String> = moves[..half].iter().map(name).collect();
            let last: Vec<String> = moves[moves.len() - half..].iter().map(name).collect();
            format!("{} … {}", first.join(" "), last.join(" "))
        })
        .collect()
}

/// The behaviour profiles `found`, each checked exactly on the tree itself (nothing is returned
/// that was not), with its payoffs, count and, for backward induction, every node's value.
fn checked_on_tree(
    tree: &Tree,
    sets: &[(usize, InfosetInfo)],
    method: Method,
    found: Vec<(Vec<Vec<Q>>, Option<String>)>,
    notes: &mut Vec<String>,
) -> Result<Vec<Equilibrium>> {
    let form = SequenceForm::new(tree)?;
    let mut equilibria = Vec::with_capacity(found.len());
    let mut agent_only = 0;
    for (b, count) in found {
        // The promise: nothing is returned that was not checked on the tree itself. An
        // agent-form equilibrium need not be a Nash equilibrium (a player may gain by changing
        // several of their sets at once): those are counted and said, the solver having
        // checked each set's deviations exactly.
        let nash = form.gains(tree, &b).iter().all(num_traits::Zero::is_zero);
        if !nash && method == Method::Agent {
            agent_only += 1;
        } else if !nash {
            return Err(Error::Invalid(
                "internal inconsistency: a computed profile is not an equilibrium of the tree"
                    .into(),
            ));
        }
        let payoffs = form.payoffs(tree, &b);
        let node_values = (method == Method::Spe).then(|| tree.node_values(&b));
        equilibria.push(Equilibrium {
            behaviour: sets.iter().map(|(h, _)| b[*h].clone()).collect(),
            payoffs,
            count,
            node_values,
            beliefs: None,
        });
    }
    if method == Method::Agent {
        notes.push(format!(
            "{} of these {} agent-form equilibria are Nash equilibria too; in the others a \
             player gains by changing several of their information sets at once",
            equilibria.len() - agent_only,
            equilibria.len()
        ));
    }
    Ok(equilibria)
}

/// The equilibria of `tree` by a strategic-form `method` on its reduced normal form, turned
/// back into behaviour strategies (distinct mixed strategies can be one behaviour strategy);
/// what the method is called there, and the reduced form's shape.
fn on_reduced_form(
    tree: &Tree,
    method: Method,
    req: &Request,
    limits: &Limits,
    notes: &mut Vec<String>,
    found: &mut Vec<(Vec<Vec<Q>>, Option<String>)>,
) -> Result<(String, Vec<usize>)> {
    let r = reduced::reduce(tree, limits)?;
    let inner = match method {
        Method::Vertex => nash::Method::Vertex,
        Method::Support => nash::Method::Support,
        Method::LemkeHowson => nash::Method::LemkeHowson,
        Method::Enumpoly => nash::Method::Enumpoly,
        _ => nash::Method::Pure,
    };
    let a = nash::solve(
        &r.game,
        &nash::Request {
            method: inner,
            time_limit: req.time_limit,
            max_supports: req.max_supports,
            ..Default::default()
        },
        limits,
    )?;
    let described = format!("{}, on the reduced normal form", a.described);
    // The tree's answer has no list of unresolved regions: say where to see them.
    let a_notes: Vec<String> = a
        .notes
        .iter()
        .map(|n| {
            n.replace(
                "see 'unresolved'",
                "one equilibrium of each is listed when found; the equilibria of the \
                 tree's reduced normal form show the regions",
            )
        })
        .collect();
    if let Some(e) = &a.enumeration {
        if !e.certified.is_empty() {
            notes.push(format!(
                "{} more equilibria of the reduced normal form have irrational \
                 probabilities; the equilibria of the reduced normal form list them \
                 as proved boxes",
                e.certified.len()
            ));
        }
        if !e.complete {
            notes.push(format!(
                "{} of {} support profiles of the reduced normal form examined",
                e.examined, e.supports
            ));
        }
    }
    let shape = r.game.shape();
    notes.extend(a_notes);
    for e in &a.equilibria {
        let b = r.behaviour(tree, &e.profile);
        // Distinct mixed strategies can be the same behaviour strategy.
        if !found.iter().any(|(x, _)| *x == b) {
            found.push((b, None));
        }
    }
    if method == Method::Vertex && tree.players.len() == 2 {
        notes.push(
            "the equilibria are the extreme equilibria of the reduced normal form, as \
             behaviour strategies (at sets no strategy reaches, the first action)"
                .into(),
        );
    }
    Ok((described, shape))
}

/// How many subgame-perfect profiles each subgame keeps while folding.
const MAX_SUBGAME_PROFILES: usize = 1000;

/// Subgame-perfect equilibria of a tree with imperfect information: its subgames solved from
/// the deepest up, each with the subgames below it replaced by leaves worth their equilibrium
/// values, by the method `auto` picks for it (the LP for zero-sum ones, sequence-form
/// enumeration for other two-player ones, backward induction where the subgame has perfect
/// information), and by pure equilibria for more players; every combination of the equilibria found
/// below is folded upward (up to [`MAX_SUBGAME_PROFILES`] a subgame). Returns the profiles
/// (over all the tree's information sets) and a description.
// Kept as one function: the odometer over the inner subgames' equilibria and the tables of the
// roots solved so far are one state, updated root by root from the last.
fn fold_subgames(
    tree: &Tree,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<(Vec<Vec<Vec<Q>>>, String)> {
    let mut roots = tree.subgame_roots();
    roots.sort_unstable();
    let is_root: std::collections::HashSet<usize> = roots.iter().copied().collect();
    // The nearest subgame root above each root (none for the tree's).
    let above = |r: usize| {
        let mut v = r;
        while let Some((p, _)) = tree.nodes[v].parent {
            if is_root.contains(&p) {
                return Some(p);
            }
            v = p;
        }
        None
    };
    let mut inner: std::collections::HashMap<usize, Vec<usize>> = Default::default();
    for &r in &roots {
        if let Some(a) = above(r) {
            inner.entry(a).or_default().push(r);
        }
    }
    // For each root solved: (behaviour over the tree's sets, filled inside the subgame; value).
    type Solved = Vec<(Vec<Vec<Q>>, Vec<Q>)>;
    let mut solved: std::collections::HashMap<usize, Solved> = Default::default();
    let mut methods = std::collections::BTreeSet::new();
    let mut capped = false;
    // Prefix order puts a subgame's inner roots after it: solve from the last.
    for &r in roots.iter().rev() {
        let kids = inner.remove(&r).unwrap_or_default();
        let lists: Vec<Solved> = kids
            .iter()
            .map(|k| solved.remove(k).unwrap_or_default())
            .collect();
        let mut out: Solved = Vec::new();
        // Every combination of the inner subgames' equilibria, as an odometer.
        let mut pick = vec![0usize; kids.len()];
        if lists.iter().all(|l| !l.is_empty()) {
            'combos: loop {
                crate::core::progress::check()?;
                let cut: Vec<(usize, Vec<Q>)> = kids
                    .iter()
                    .zip(&lists)
                    .zip(&pick)
                    .map(|((&k, l), &i)| (k, l[i].1.clone()))
                    .collect();
                let (sub, old_of) = tree.truncated(r, &cut)?;
                // Three or more players: pure equilibria of each subgame, as before every
                // equilibrium could be enumerated; enumerating every subgame's equilibria for
                // each of up to a thousand combinations below it would take hours.
                let method = if sub.players.len() > 2 && !sub.perfect_information() {
                    Method::Pure
                } else {
                    Method::Auto
                };
                let req = Request {
                    method,
                    ..Request::default()
                };
                let answer = solve(&sub, &req, limits)?;
                methods.insert(format!("{:?}", answer.method).to_lowercase());
                for n in &answer.notes {
                    if !notes.contains(n) {
                        notes.push(n.clone());
                    }
                }
                let order: Vec<usize> = (0..sub.players.len())
                    .flat_map(|p| sub.infosets_of(p))
                    .collect();
                for e in &answer.equilibria {
                    let mut b = vec![Vec::new(); tree.infosets.len()];
                    for (l, &i) in lists.iter().zip(&pick) {
                        for (h, probs) in l[i].0.iter().enumerate() {
                            if !probs.is_empty() {
                                b[h] = probs.clone();
                            }
                        }
                    }
                    for (&h, probs) in order.iter().zip(&e.behaviour) {
                        b[old_of[h]] = probs.clone();
                    }
                    if out.len() == MAX_SUBGAME_PROFILES {
                        capped = true;
                        break 'combos;
                    }
                    out.push((b, e.payoffs.clone()));
                }
                // The next combination.
                let mut j = 0;
                loop {
                    if j == pick.len() {
                        break 'combos;
                    }
                    pick[j] += 1;
                    if pick[j] < lists[j].len() {
                        break;
                    }
                    pick[j] = 0;
                    j += 1;
                }
            }
        }
        solved.insert(r, out);
    }
    if capped {
        notes.push(format!(
            "a subgame kept only its first {MAX_SUBGAME_PROFILES} subgame-perfect profiles; \
             there are more"
        ));
    }
    let top = solved.remove(&0).unwrap_or_default();
    if top.is_empty() {
        notes.push(
            "a subgame's method found no equilibrium (with three or more players only pure \
             equilibria are sought), so no subgame-perfect equilibrium is listed"
                .into(),
        );
    }
    let profiles = top
        .into_iter()
        .map(|(mut b, _)| {
            for (h, set) in tree.infosets.iter().enumerate() {
                if set.mover == Mover::Chance {
                    b[h] = set.probs.clone();
                }
            }
            b
        })
        .collect();
    let methods: Vec<String> = methods.into_iter().collect();
    Ok((
        profiles,
        format!(
            "subgame-perfect equilibria: {} subgames solved from the deepest up, each with the \
             ones below folded into their values ({})",
            roots.len(),
            methods.join(", ")
        ),
    ))
}

/// One player's share of a tree.
#[derive(Debug, Clone, Serialize)]
pub struct PlayerInfo {
    /// The name.
    pub name: String,
    /// How many information sets.
    pub infosets: usize,
    /// How many sequences (the empty one included); absent without perfect recall.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequences: Option<usize>,
    /// How many reduced pure strategies (a decimal string; absent without perfect recall).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reduced_strategies: Option<String>,
}

/// What a tree is made of.
#[derive(Debug, Clone, Serialize)]
pub struct Info {
    /// The title.
    pub title: String,
    /// The comment.
    pub comment: String,
    /// Each player.
    pub players: Vec<PlayerInfo>,
    /// How many nodes.
    pub nodes: usize,
    /// How many terminal nodes.
    pub leaves: usize,
    /// How many chance information sets.
    pub chance_infosets: usize,
    /// Every player's information sets.
    pub infosets: Vec<InfosetInfo>,
    /// Whether each player's information set has one node.
    pub perfect_information: bool,
    /// Why the tree lacks perfect recall; absent when it has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_perfect_recall: Option<String>,
    /// The constant every play's payoffs add up to, for constant-sum games.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "optional")]
    pub constant_sum: Option<Q>,
    /// The non-terminal nodes that root a subgame (0-based indices in prefix order; the root
    /// is one).
    pub subgame_roots: Vec<usize>,
}

/// What `tree` is made of: players, information sets, sequences, strategies, subgames.
pub fn describe(tree: &Tree) -> Result<Info> {
    tree.check()?;
    let recall = tree.perfect_recall().err().map(|e| e.to_string());
    let form = if recall.is_none() {
        Some(SequenceForm::new(tree)?)
    } else {
        None
    };
    let players = (0..tree.players.len())
        .map(|p| PlayerInfo {
            name: tree.players[p].clone(),
            infosets: tree.infosets_of(p).len(),
            sequences: form.as_ref().map(|f| f.players[p].count),
            reduced_strategies: form.as_ref().map(|f| {
                let c = reduced::count_strategies(f, tree, p);
                if c == u128::MAX {
                    format!("at least {c}")
                } else {
                    c.to_string()
                }
            }),
        })
        .collect();
    Ok(Info {
        title: tree.title.clone(),
        comment: tree.comment.clone(),
        players,
        nodes: tree.nodes.len(),
        leaves: tree.leaves().count(),
        chance_infosets: tree
            .infosets
            .iter()
            .filter(|h| h.mover == Mover::Chance)
            .count(),
        infosets: player_sets(tree).into_iter().map(|(_, i)| i).collect(),
        perfect_information: tree.perfect_information(),
        no_perfect_recall: recall,
        constant_sum: tree.constant_sum(),
        subgame_roots: tree.subgame_roots(),
    })
}

/// The formats a tree converts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Gambit's `.efg`.
    Efg,
    /// Gambit's `.nfg`, of the reduced normal form.
    Nfg,
}

/// `tree` written in `format`.
pub fn convert(tree: &Tree, format: Format, limits: &Limits) -> Result<String> {
    tree.check()?;
    Ok(match format {
        Format::Efg => efg::write(tree),
        Format::Nfg => nfg::write(&reduced::reduce(tree, limits)?.game),
    })
}

/// `tree` as an SVG picture (nodes, actions, information sets as dashed links, payoffs);
/// with `equilibrium`, the first equilibrium that method finds is drawn on it (its
/// probabilities on the edges, the edges it plays thick).
pub fn draw(tree: &Tree, equilibrium: Option<Method>, limits: &Limits) -> Result<String> {
    tree.check()?;
    let behaviour = match equilibrium {
        None => None,
        Some(method) => {
            let a = solve(
                tree,
                &Request {
                    method,
                    ..Default::default()
                },
                limits,
            )?;
            let first = a
                .equilibria
                .first()
                .ok_or_else(|| Error::Invalid("the method found no equilibrium to draw".into()))?;
            let mut b: Vec<Vec<Q>> = tree.infosets.iter().map(|h| h.probs.clone()).collect();
            for ((h, _), probs) in player_sets(tree).iter().zip(&first.behaviour) {
                b[*h] = probs.clone();
            }
            Some(b)
        }
    };
    picture::svg(tree, behaviour.as_deref(), limits.max_memory)
}

/// What a CFR run should do.
#[derive(Debug, Clone)]
pub struct CfrRequest {
    /// CFR+ or discounted CFR.
    pub variant: cfr::Variant,
    /// Most iterations.
    pub iterations: u64,
    /// Stop once the exploitability is at most this (checked at the reports).
    pub target: Option<f64>,
    /// Exact exploitability reports, spread in log scale.
    pub reports: usize,
    /// A file to keep the run's state in, resumed from when it exists (see
    /// [`cfr::Options::checkpoint`]).
    pub checkpoint: Option<std::path::PathBuf>,
    /// External-sampling Monte Carlo CFR with this seed, instead of whole-tree passes.
    pub sampling: Option<u64>,
}

impl Default for CfrRequest {
    fn default() -> Self {
        let o = cfr::Options::default();
        CfrRequest {
            variant: o.variant,
            iterations: o.iterations,
            target: o.target,
            reports: o.reports,
            checkpoint: None,
            sampling: None,
        }
    }
}

/// The answer of a CFR run: an approximate equilibrium (the average strategy) and how far
/// from one it is, computed exactly.
#[derive(Debug, Clone, Serialize)]
pub struct CfrAnswer {
    /// The title.
    pub title: String,
    /// The players' names.
    pub players: Vec<String>,
    /// The players' information sets, as in [`Answer::infosets`].
    pub infosets: Vec<InfosetInfo>,
    /// `cfr+` or `dcfr`.
    pub variant: &'static str,
    /// Present when the iterations sampled (external sampling) rather than walked the whole
    /// tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Sampling>,
    /// Iterations made.
    pub iterations: u64,
    /// The average strategy's exploitability (NashConv: the players' gains from best
    /// responses, added), computed exactly and written with 15 decimals.
    pub exploitability: String,
    /// The average strategy, for each information set of `infosets`.
    pub average: Vec<Vec<f64>>,
    /// Each player's expected payoff under it (exact, rounded to a double).
    pub payoffs: Vec<f64>,
    /// (iterations, exploitability) at each report.
    pub curve: Vec<(u64, f64)>,
    /// Seconds spent iterating (without the exact reports).
    pub seconds: f64,
    /// Iterations per second.
    pub iterations_per_second: f64,
}

/// How a CFR run sampled.
#[derive(Debug, Clone, Serialize)]
pub struct Sampling {
    /// `external`.
    pub kind: &'static str,
    /// The seed.
    pub seed: u64,
}

/// Runs CFR on `tree` as `req` asks.
pub fn cfr(tree: &Tree, req: &CfrRequest, limits: &Limits) -> Result<CfrAnswer> {
    use crate::core::number::{finite_at_least, in_range};
    in_range("iterations", req.iterations, 1, u64::MAX, "iterations")?;
    in_range(
        "reports",
        req.reports as u64,
        1,
        cfr::MOST_REPORTS as u64,
        "reports",
    )?;
    if let Some(t) = req.target {
        finite_at_least("target", t, 0.0)?;
    }
    let options = cfr::Options {
        variant: req.variant,
        iterations: req.iterations,
        target: req.target,
        reports: req.reports,
        checkpoint: req.checkpoint.as_ref().map(|path| cfr::CheckpointFile {
            path: path.clone(),
            game: crc32fast::hash(crate::formats::efg::write(tree).as_bytes()),
        }),
        sampling: req.sampling.is_some(),
        seed: req.sampling.unwrap_or(0),
        ..Default::default()
    };
    let run = cfr::run(tree, &options, limits)?;
    let sets = player_sets(tree);
    let f = |q: &Q| num_traits::ToPrimitive::to_f64(q).unwrap_or(f64::NAN);
    Ok(CfrAnswer {
        title: tree.title.clone(),
        players: tree.players.clone(),
        average: sets
            .iter()
            .map(|(h, _)| run.average[*h].iter().map(f).collect())
            .collect(),
        infosets: sets.into_iter().map(|(_, i)| i).collect(),
        variant: match req.variant {
            cfr::Variant::Plus => "cfr+",
            cfr::Variant::Discounted => "dcfr",
        },
        sampling: req.sampling.map(|seed| Sampling {
            kind: "external",
            seed,
        }),
        iterations: run.iterations,
        exploitability: crate::exact::show_decimal(&run.exploitability, 15),
        payoffs: run.payoffs.iter().map(f).collect(),
        curve: run.curve,
        iterations_per_second: run.iterations as f64 / run.seconds.max(1e-9),
        seconds: run.seconds,
    })
}
