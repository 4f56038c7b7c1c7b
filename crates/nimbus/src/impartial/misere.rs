//! Misère play: the player who cannot move wins.
//!
//! Sprague–Grundy values do not add up under misère play, so Nimbus answers by one of two
//! methods, and says which:
//!
//! - **The SJ rule** (Jia Zhihao's anti-SG, or SJ, theorem, 2009; for Nim heaps it is
//!   Bouton's misère Nim rule): with `g_i` the normal-play values of the atoms (single heaps,
//!   single tokens) and `s` their xor, the player to move wins iff (every `g_i <= 1` and
//!   `s = 0`) or (some `g_i >= 2` and `s != 0`). Its proof (the case analysis of Bouton's
//!   misère Nim) fails in one case only: all atoms of value 0 but not all terminal. It is
//!   therefore used only after checking, on every position reachable in every atom, the
//!   theorem's precondition: *every non-terminal position of value 0 has an option of value 1*. Nim heaps and Bash games satisfy it by a
//!   closed form; other atoms are explored.
//! - **Exact search**: misère play of a finite game is normal play of the same game in which
//!   every terminal position gets one extra move to an end state. The sum is searched as the
//!   multiset of its atoms' positions (equal atoms are interchangeable, so their positions are
//!   sorted); equal atoms are never cancelled, which would be unsound in misère play.
//!
//! When an atom has cycles, the exact search becomes a retrograde analysis of the same
//! multiset graph, and a position may be a draw.
//!
//! Asked to use the SJ rule where its precondition fails, Nimbus refuses and shows a smallest
//! position where the rule gives the wrong answer — such a position always lies inside the
//! failing atom: the rule calls its value-0 position N, and if every option is N by the rule
//! and the rule is right about them, that position is really P.

use super::analysis::{move_in_sum, ComponentReport, WinningMove};
use super::component::{Component, ComponentMove, Explored};
use super::explicit::{explore_positions, ExplicitGame};
use super::grundy::Engine;
use super::loopy::{retrograde, Wld};
use super::quotient::Quotient;
use super::{Impartial, Outcome};
use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use serde::Serialize;

/// Misère play of `G` as normal play: a terminal position of `G` gets one move, to `None`.
pub struct Misere<G>(pub G);

impl<G: Impartial> Impartial for Misere<G> {
    type Position = Option<G::Position>;

    fn cost(&self, p: &Self::Position) -> u64 {
        p.as_ref().map_or(1, |p| self.0.cost(p))
    }

    fn moves(&self, p: &Self::Position, out: &mut Vec<Self::Position>) {
        let Some(p) = p else { return };
        let mut inner = Vec::new();
        self.0.moves(p, &mut inner);
        if inner.is_empty() {
            out.push(None);
        } else {
            out.extend(inner.into_iter().map(Some));
        }
    }
}

/// The method that decided a misère position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MisereRule {
    /// Bouton's misère Nim rule: every atom is a Nim heap.
    AntiNim,
    /// The SJ rule, its precondition checked on every atom.
    Sj,
    /// Exact search of the sum's positions.
    Search,
    /// The product of the heaps' elements in the game's misère quotient.
    Quotient,
}

impl std::fmt::Display for MisereRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MisereRule::AntiNim => "anti-Nim rule",
            MisereRule::Sj => "SJ rule",
            MisereRule::Search => "exact misère search",
            MisereRule::Quotient => "misère quotient",
        })
    }
}

/// The answer for a misère position.
#[derive(Debug, Clone, Serialize)]
pub struct MisereAnalysis {
    /// N, P or (with cycles) D under misère play.
    pub outcome: Outcome,
    /// The method that decided it.
    pub rule: MisereRule,
    /// Why that method applies (or why the rules do not).
    pub explanation: Vec<String>,
    /// The atoms, with their normal-play values (what the SJ rule reads).
    pub components: Vec<ComponentReport>,
    /// The winning moves (at most the requested number).
    pub winning_moves: Vec<WinningMove>,
    /// How many winning moves there are.
    pub winning_moves_total: usize,
    /// False when some atom had too many moves to list.
    pub winning_moves_complete: bool,
    /// Moves until the game ends under optimal misère play, when the search was small enough
    /// (none for a draw).
    pub remoteness: Option<u64>,
    /// For a drawn position (a game with cycles): the moves that keep the draw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub drawing_moves: Vec<WinningMove>,
}

/// A position where a rule gives the wrong misère outcome.
#[derive(Debug, Clone, Serialize)]
pub struct Counterexample {
    /// The position, in the expression grammar.
    pub position: String,
    /// What the rule says.
    pub rule_says: Outcome,
    /// The true misère outcome.
    pub truth: Outcome,
}

/// A refusal to use a rule whose precondition fails.
#[derive(Debug, Clone, Serialize)]
pub struct Refusal {
    /// The rule asked for.
    pub rule: MisereRule,
    /// Why it does not apply.
    pub reason: String,
    /// A smallest position where it is wrong, when one was found.
    pub counterexample: Option<Counterexample>,
}

/// What [`analyze_misere`] returns.
#[derive(Debug, Clone)]
pub enum MisereResult {
    /// The position was decided.
    Answer(MisereAnalysis),
    /// The rule asked for does not apply.
    Refused(Refusal),
}

/// The SJ rule's verdict on atoms of normal-play values `values`.
pub fn sj_rule(values: &[u64]) -> Outcome {
    let s = values.iter().fold(0, |a, &g| a ^ g);
    let big = values.iter().filter(|&&g| g >= 2).count();
    sj_verdict(s, big)
}

/// The SJ rule from the xor `s` of the values and how many values are at least 2.
pub(crate) fn sj_verdict(s: u64, big: usize) -> Outcome {
    if (big == 0 && s == 0) || (big > 0 && s != 0) {
        Outcome::N
    } else {
        Outcome::P
    }
}

/// What is known of one atom.
struct Atom {
    component: Box<dyn Component>,
    /// Which user component it belongs to.
    parent: usize,
    grundy: Option<u64>,
    explored: Option<Explored>,
    /// The SJ precondition: Some(true) holds, Some(false) fails, None unknown.
    sj: Option<bool>,
    /// A position of the atom where the precondition fails.
    sj_witness: Option<String>,
    /// The atom has cycles: no rule for finite games applies.
    cyclic: bool,
}

/// Normal-play values of every position of an explored atom.
fn values_of(graph: &ExplicitGame, limits: Limits) -> Result<Vec<u64>> {
    let mut e = Engine::indexed(graph, limits, "an atom")?;
    (0..graph.len() as u32).map(|v| e.grundy(&v)).collect()
}

/// The first position (in exploration order) where the SJ precondition fails.
fn sj_failure(graph: &ExplicitGame, values: &[u64]) -> Option<u32> {
    (0..graph.len() as u32).find(|&v| {
        let opts = graph.options(v);
        values[v as usize] == 0
            && !opts.is_empty()
            && !opts.iter().any(|&w| values[w as usize] == 1)
    })
}

impl Atom {
    /// An atom with its value and its SJ precondition; it is explored only when no closed form
    /// settles the precondition (a sum of a million Nim heaps explores nothing).
    fn new(component: Box<dyn Component>, parent: usize, limits: Limits) -> Self {
        let grundy = component.grundy(limits).ok();
        let mut atom = Atom {
            component,
            parent,
            grundy,
            explored: None,
            sj: None,
            sj_witness: None,
            cyclic: false,
        };
        atom.sj = atom.component.sj_closed();
        if atom.sj.is_none() {
            atom.explore(limits);
            if let Some(ex) = &atom.explored {
                match values_of(&ex.graph, limits) {
                    Ok(values) => {
                        let bad = sj_failure(&ex.graph, &values);
                        atom.sj = Some(bad.is_none());
                        atom.sj_witness = bad.map(|v| (ex.name)(v));
                    }
                    Err(Error::Cycle { .. }) => {
                        atom.sj = Some(false);
                        atom.cyclic = true;
                    }
                    Err(_) => {}
                }
            }
        }
        atom
    }

    /// Explores the atom if that is feasible and not done yet.
    fn explore(&mut self, limits: Limits) {
        let c = &self.component;
        let feasible = c.size_hint() <= limits.max_states.saturating_mul(64)
            && c.search_cost() <= limits.max_states.saturating_mul(64);
        if self.explored.is_none() && feasible {
            self.explored = c.explore_named(limits).ok();
        }
    }
}

/// The number of multisets of `k` elements from `n` (saturating).
fn multisets(n: u64, k: u64) -> u64 {
    if n == 0 {
        return u64::from(k == 0);
    }
    // C(n + k - 1, k), built up so that every partial result is itself a binomial coefficient.
    let mut c: u128 = 1;
    for i in 0..k {
        c = match c.checked_mul(u128::from(n) + u128::from(i)) {
            Some(x) => x / u128::from(i + 1),
            None => return u64::MAX,
        };
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// How many positions the sum of the atoms can have at most (saturating).
fn product_hint(atoms: &[Atom]) -> u64 {
    atoms
        .iter()
        .fold(1u64, |a, x| a.saturating_mul(x.component.size_hint()))
}

/// Largest number of positions searched only to find a remoteness.
const REMOTENESS_LIMIT: u64 = 2_000_000;

/// The multiset of atoms' positions under misère play, as normal play with an end move.
struct MisereSum<'a> {
    parts: Vec<&'a ExplicitGame>,
    /// Atoms with the same expression, whose positions are interchangeable.
    groups: Vec<Vec<usize>>,
}

impl MisereSum<'_> {
    fn normalize(&self, p: &mut [u32]) {
        for g in self.groups.iter().filter(|g| g.len() > 1) {
            let mut vals: Vec<u32> = g.iter().map(|&i| p[i]).collect();
            vals.sort_unstable();
            for (&i, v) in g.iter().zip(vals) {
                p[i] = v;
            }
        }
    }
}

impl Impartial for MisereSum<'_> {
    /// The atoms' positions; the empty vector is the end state after the last move.
    type Position = Vec<u32>;

    fn cost(&self, p: &Self::Position) -> u64 {
        crate::impartial::parts_cost(p.len())
    }

    fn moves(&self, p: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if p.is_empty() {
            return;
        }
        let before = out.len();
        for (i, part) in self.parts.iter().enumerate() {
            for &q in part.options(p[i]) {
                let mut next = p.clone();
                next[i] = q;
                self.normalize(&mut next);
                out.push(next);
            }
        }
        if out.len() == before {
            out.push(Vec::new());
        }
    }
}

/// Options for [`analyze_misere`].
#[derive(Debug, Clone, Copy)]
pub struct MisereOptions {
    /// Limits for values and searches.
    pub limits: Limits,
    /// At most this many winning moves are listed.
    pub max_moves: usize,
    /// The rule the user insists on, if any.
    pub rule: Option<MisereRule>,
}

/// Analyses the sum of `components` under misère play.
// Kept as one function: the rules are tried in order on the same atoms, notes and limits, each
// falling through to the next (anti-Nim, SJ, search); the rules' own work is in the functions it
// calls.
pub fn analyze_misere(
    components: &[Box<dyn Component>],
    opts: &MisereOptions,
) -> Result<MisereResult> {
    if components.is_empty() {
        return Err(Error::Invalid("the sum has no components".into()));
    }
    let limits = opts.limits;
    let mut atoms: Vec<Atom> = components
        .iter()
        .enumerate()
        .flat_map(|(i, c)| c.atoms().into_iter().map(move |a| (i, a)))
        .map(|(i, a)| Atom::new(a, i, limits))
        .collect();
    let all_nim = atoms.iter().all(|a| a.component.game() == "nim");
    // Written once: a listed move rewrites the whole sum from them.
    let names: Vec<String> = atoms.iter().map(|a| a.component.expression()).collect();
    let sj_holds = atoms.iter().all(|a| a.sj == Some(true));
    let values: Option<Vec<u64>> = atoms.iter().map(|a| a.grundy).collect();
    let mut explanation = Vec::new();

    let rule = match (opts.rule, sj_holds && values.is_some()) {
        (Some(asked @ (MisereRule::Search | MisereRule::Quotient)), _) => asked,
        (_, true) if all_nim => MisereRule::AntiNim,
        (_, true) => MisereRule::Sj,
        (Some(asked @ (MisereRule::AntiNim | MisereRule::Sj)), false) => {
            return Ok(MisereResult::Refused(refusal(asked, &atoms, limits)))
        }
        (None, false) => MisereRule::Quotient,
    };
    if rule == MisereRule::Quotient {
        match by_quotient(&atoms, &names, components, opts)? {
            Ok(answer) => return Ok(MisereResult::Answer(answer)),
            // Asked for, the quotient is refused with the reason; otherwise the sum is
            // searched.
            Err(reason) if opts.rule == Some(MisereRule::Quotient) => {
                return Ok(MisereResult::Refused(Refusal {
                    rule: MisereRule::Quotient,
                    reason,
                    counterexample: None,
                }))
            }
            Err(_) => {}
        }
    }
    let rule = if rule == MisereRule::Quotient {
        MisereRule::Search
    } else {
        rule
    };
    if rule == MisereRule::AntiNim {
        explanation.push(
            "every atom is a Nim heap, so Bouton's misère rule applies: the player to move wins \
             iff (every heap is at most 1 and the xor is 0) or (some heap is at least 2 and the \
             xor is not 0)"
                .to_string(),
        );
    } else if rule == MisereRule::Sj {
        let checked: Vec<String> = atoms
            .iter()
            .map(|a| match (&a.explored, a.component.sj_closed()) {
                (_, Some(true)) => format!("{} (closed form)", a.component.expression()),
                (Some(ex), _) => format!(
                    "{} ({} positions)",
                    a.component.expression(),
                    ex.graph.len()
                ),
                (None, _) => a.component.expression(),
            })
            .collect();
        explanation.push(format!(
            "the SJ rule applies: in every atom, every non-terminal position of value 0 has a \
             move to value 1 (checked: {})",
            checked.join(", ")
        ));
        explanation.push(
            "so the player to move wins iff (every atom's value is at most 1 and their xor is \
             0) or (some atom's value is at least 2 and the xor is not 0)"
                .to_string(),
        );
    } else {
        for a in &atoms {
            if a.cyclic {
                explanation.push(format!(
                    "the SJ rule does not apply: {} has cycles (the rule is for games that \
                     end), so the sum is decided by retrograde analysis and may be a draw",
                    a.component.expression()
                ));
                continue;
            }
            match (a.sj, &a.sj_witness) {
                (Some(false), Some(w)) => explanation.push(format!(
                    "the SJ rule does not apply: in {}, the position {w} has value 0, is not \
                     terminal, and has no move to value 1",
                    a.component.expression()
                )),
                (None, _) => explanation.push(format!(
                    "the SJ precondition could not be checked on {} within the limits",
                    a.component.expression()
                )),
                _ => {}
            }
        }
        if opts.rule == Some(MisereRule::Search) {
            explanation.push("exact search, as asked".to_string());
        }
    }

    let reports = reports_of(&atoms, &names);
    // The search decides the position when no rule applies; otherwise it only gives the
    // remoteness, and is tried only when the sum is small.
    let required = rule == MisereRule::Search;
    let search_limits = if required {
        limits
    } else {
        Limits {
            max_states: limits.max_states.min(REMOTENESS_LIMIT),
            ..limits
        }
    };
    if required || product_hint(&atoms) <= search_limits.max_states {
        for a in &mut atoms {
            a.explore(search_limits);
        }
    }
    let search = exact_search(&atoms, search_limits, required)?;
    let answer = match rule {
        MisereRule::AntiNim | MisereRule::Sj => {
            let values = values.expect("rule chosen only with every value known");
            let outcome = sj_rule(&values);
            let (moves, total, complete) = rule_moves(&atoms, &names, &values, components, opts)?;
            if let Some(s) = &search {
                explanation.push(format!(
                    "misère remoteness from a search of {} positions",
                    s.positions
                ));
            }
            MisereAnalysis {
                outcome,
                rule,
                explanation,
                components: reports,
                winning_moves: moves,
                winning_moves_total: total,
                winning_moves_complete: complete,
                remoteness: search.as_ref().and_then(|s| s.remoteness),
                drawing_moves: Vec::new(),
            }
        }
        // The quotient answered above, or the rule fell back to Search.
        MisereRule::Search | MisereRule::Quotient => {
            let s = search.ok_or_else(|| Error::StateLimit {
                explored: 0,
                limit: limits.max_states,
                what: "the exact misère search of the sum (an atom is too large to explore)".into(),
            })?;
            explanation.push(format!(
                "decided by an exact search of {} positions of the sum",
                s.positions
            ));
            let total = s.winning.len();
            let listed = |found: Vec<(usize, ComponentMove)>| -> Vec<WinningMove> {
                found
                    .into_iter()
                    .take(opts.max_moves)
                    .map(|(i, m)| winning_move(&atoms, &names, components, i, m))
                    .collect()
            };
            let moves = listed(s.winning);
            let drawing_moves = listed(s.drawing);
            MisereAnalysis {
                outcome: s.outcome,
                rule,
                explanation,
                components: reports,
                winning_moves: moves,
                winning_moves_total: total,
                winning_moves_complete: true,
                remoteness: s.remoteness,
                drawing_moves,
            }
        }
    };
    Ok(MisereResult::Answer(answer))
}

/// The atoms as reported: their names and normal-play values.
fn reports_of(atoms: &[Atom], names: &[String]) -> Vec<ComponentReport> {
    atoms
        .iter()
        .zip(names)
        .map(|(a, name)| ComponentReport {
            game: name.clone(),
            grundy: a.grundy,
            remoteness: None,
            gamma: None,
        })
        .collect()
}

/// The work a misère quotient may take before the sum is searched instead: a few seconds.
const QUOTIENT_WORK: u64 = 100_000_000;

/// The largest heap whose quotient is tried.
const QUOTIENT_HEAP: u64 = 300;

/// The answer from the misère quotient of the heaps' game, when every atom is a heap of one
/// heap game and the quotient of its heaps up to the largest is found within
/// [`QUOTIENT_WORK`] steps; otherwise why not (the sum is then searched, or, when the quotient
/// was asked for, the reason is the refusal's).
fn by_quotient(
    atoms: &[Atom],
    names: &[String],
    components: &[Box<dyn Component>],
    opts: &MisereOptions,
) -> Result<std::result::Result<MisereAnalysis, String>> {
    let Some(heaps) = atoms
        .iter()
        .map(|a| a.component.heap())
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(Err(
            "a misère quotient is computed for heaps of one heap game (octal, subtraction, \
             Kayles, ...), and this sum has a component that is not a heap"
                .into(),
        ));
    };
    let game = heaps[0].rule_name();
    let sizes: Vec<u64> = heaps.iter().map(|h| h.size()).collect();
    let upto = sizes.iter().copied().max().unwrap_or(0);
    if heaps.iter().any(|h| h.rule_name() != game) {
        return Ok(Err(format!(
            "a misère quotient is of one game's heaps, and this sum mixes {game} with {}",
            heaps
                .iter()
                .map(|h| h.rule_name())
                .find(|g| *g != game)
                .unwrap_or_default()
        )));
    }
    if upto == 0 || upto > QUOTIENT_HEAP {
        return Ok(Err(format!(
            "the quotient is tried for heaps from 1 to {QUOTIENT_HEAP}, and the largest heap \
             here is {upto}"
        )));
    }
    let limits = Limits {
        max_work: opts.limits.max_work.min(QUOTIENT_WORK),
        ..opts.limits
    };
    let moves = |n: u64, out: &mut Vec<Vec<u64>>| heaps[0].parts(n, out);
    let q = match Quotient::of_moves(&moves, upto, limits) {
        Ok(q) => q,
        Err(Error::Interrupted) => return Err(Error::Interrupted),
        Err(e) => {
            return Ok(Err(format!(
                "the misère quotient of {game} for heaps 1 to {upto} was not found: {e}"
            )))
        }
    };
    let outcome = q.outcome(&sizes);
    let mut parts = |n: u64, out: &mut Vec<Vec<u64>>| heaps[0].parts(n, out);
    let found = q.winning_moves(&sizes, &mut parts);
    let total = found.len();
    let mut winning_moves = Vec::new();
    for (i, p) in found {
        if winning_moves.len() == opts.max_moves {
            break;
        }
        if let Some(m) = heaps[i].to_parts(&p) {
            winning_moves.push(winning_move(atoms, names, components, i, m));
        }
    }
    let explanation = vec![format!(
        "decided by the misère quotient of {game} for heaps 1 to {upto} ({} elements, proved on \
         every position of those heaps): the product of the heaps' elements is {}in its \
         P-portion",
        q.order(),
        if outcome == Outcome::P { "" } else { "not " }
    )];
    let components = reports_of(atoms, names);
    Ok(Ok(MisereAnalysis {
        outcome,
        rule: MisereRule::Quotient,
        explanation,
        components,
        winning_moves,
        winning_moves_total: total,
        winning_moves_complete: true,
        remoteness: None,
        drawing_moves: Vec::new(),
    }))
}

struct Search {
    outcome: Outcome,
    /// None for a draw.
    remoteness: Option<u64>,
    positions: u64,
    /// Winning moves: the atom and its move.
    winning: Vec<(usize, ComponentMove)>,
    /// From a drawn position, the moves that keep the draw.
    drawing: Vec<(usize, ComponentMove)>,
}

/// The exact misère answer by searching the multiset of atom positions; `None` when an atom
/// could not be explored, or (unless `required`) when the search outgrows the limit.
fn exact_search(atoms: &[Atom], limits: Limits, required: bool) -> Result<Option<Search>> {
    let Some(explored) = atoms
        .iter()
        .map(|a| a.explored.as_ref())
        .collect::<Option<Vec<_>>>()
    else {
        return Ok(None);
    };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, a) in atoms.iter().enumerate() {
        let key = a.component.expression();
        match groups
            .iter_mut()
            .find(|g| atoms[g[0]].component.expression() == key)
        {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    // Atoms move independently, so the sum reaches every combination of its atoms' positions:
    // the count is exact (multisets within a group of interchangeable atoms), and a search
    // that cannot fit is refused before it starts.
    let positions = groups.iter().fold(1u64, |acc, g| {
        let n = explored[g[0]].graph.len() as u64;
        acc.saturating_mul(multisets(n, g.len() as u64))
    });
    let what = "the misère search of the sum";
    let admitted = limits.admit(
        &format!("{what} ({positions} positions)"),
        positions,
        (8 * atoms.len() as u64 + 40) * 3,
        0,
    );
    match admitted {
        Err(e) if required => return Err(e),
        Err(_) => return Ok(None),
        Ok(()) => {}
    }
    let game = MisereSum {
        parts: explored.iter().map(|e| &e.graph).collect(),
        groups,
    };
    let mut engine = Engine::hashed(&game, limits, what);
    let start = vec![0u32; atoms.len()];
    let entry = match engine.entry(&start) {
        Ok(e) => e,
        Err(e @ (Error::StateLimit { .. } | Error::Budget { .. })) if required => return Err(e),
        Err(Error::StateLimit { .. } | Error::Budget { .. }) => return Ok(None),
        Err(Error::Cycle { .. }) => {
            drop(engine);
            return loopy_search(&game, &explored, limits).map(Some);
        }
        Err(e) => return Err(e),
    };
    let mut winning = Vec::new();
    for (i, ex) in explored.iter().enumerate() {
        for (m, target) in &ex.start_moves {
            let mut next = start.clone();
            next[i] = *target;
            game.normalize(&mut next);
            if engine.entry(&next)?.grundy == 0 {
                winning.push((i, m.clone()));
            }
        }
    }
    Ok(Some(Search {
        outcome: Outcome::from_grundy(entry.grundy),
        // The end move is not a real move.
        remoteness: Some(entry.remoteness - 1),
        positions: engine.explored(),
        winning,
        drawing: Vec::new(),
    }))
}

/// The exact misère answer when some atom has cycles: retrograde analysis (win, loss or draw)
/// of the whole multiset graph, explored breadth-first.
fn loopy_search(game: &MisereSum, explored: &[&Explored], limits: Limits) -> Result<Search> {
    let start = vec![0u32; explored.len()];
    let (graph, positions) =
        explore_positions(game, &start, limits, "the misère search of the sum")?;
    let retro = retrograde(&graph);
    let ids: rustc_hash::FxHashMap<&Vec<u32>, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| (p, i as u32))
        .collect();
    let here = retro.outcome[0];
    let (mut winning, mut drawing) = (Vec::new(), Vec::new());
    for (i, ex) in explored.iter().enumerate() {
        for (m, target) in &ex.start_moves {
            let mut next = start.clone();
            next[i] = *target;
            game.normalize(&mut next);
            match (here, retro.outcome[ids[&next] as usize]) {
                (Wld::Win, Wld::Loss) => winning.push((i, m.clone())),
                (Wld::Draw, Wld::Draw) => drawing.push((i, m.clone())),
                _ => {}
            }
        }
    }
    Ok(Search {
        outcome: here.into(),
        // The end move is not a real move.
        remoteness: (here != Wld::Draw).then(|| retro.remoteness[0] - 1),
        positions: graph.len() as u64,
        winning,
        drawing,
    })
}

/// Winning moves under the SJ rule: a move of atom `i` to value `t` wins when the rule calls
/// the result P; only `t` in {0, 1, g_i xor s} can do that.
fn rule_moves(
    atoms: &[Atom],
    names: &[String],
    values: &[u64],
    components: &[Box<dyn Component>],
    opts: &MisereOptions,
) -> Result<(Vec<WinningMove>, usize, bool)> {
    let s = values.iter().fold(0, |a, &g| a ^ g);
    let big = values.iter().filter(|&&g| g >= 2).count();
    let (mut moves, mut total, mut complete) = (Vec::new(), 0, true);
    for (i, a) in atoms.iter().enumerate() {
        let g = values[i];
        let mut targets = vec![0, 1, g ^ s];
        targets.sort_unstable();
        targets.dedup();
        for t in targets {
            if t == g {
                continue;
            }
            let big_after = big - usize::from(g >= 2) + usize::from(t >= 2);
            if sj_verdict(s ^ g ^ t, big_after) != Outcome::P {
                continue;
            }
            let room = opts.max_moves.saturating_sub(moves.len());
            match a.component.moves_to_value(t, opts.limits, room) {
                Ok(listed) => {
                    total += listed.total;
                    moves.extend(
                        listed
                            .items
                            .into_iter()
                            .map(|m| winning_move(atoms, names, components, i, m)),
                    );
                }
                Err(Error::StateLimit { .. }) => complete = false,
                Err(e) => return Err(e),
            }
        }
    }
    Ok((moves, total, complete))
}

/// [`move_in_sum`] for misère atoms.
fn winning_move(
    atoms: &[Atom],
    names: &[String],
    components: &[Box<dyn Component>],
    i: usize,
    m: ComponentMove,
) -> WinningMove {
    let parents: Vec<usize> = atoms.iter().map(|a| a.parent).collect();
    move_in_sum(&parents, names, components, i, m)
}

/// Why `asked` does not apply, with a smallest counterexample inside a failing atom.
fn refusal(asked: MisereRule, atoms: &[Atom], limits: Limits) -> Refusal {
    let failing = atoms.iter().find(|a| a.sj == Some(false));
    let Some(atom) = failing else {
        let unknown: Vec<String> = atoms
            .iter()
            .filter(|a| a.sj.is_none() || a.grundy.is_none())
            .map(|a| a.component.expression())
            .collect();
        return Refusal {
            rule: asked,
            reason: format!(
                "the precondition of the {asked} could not be checked within the limits on {}",
                unknown.join(", ")
            ),
            counterexample: None,
        };
    };
    if atom.cyclic {
        return Refusal {
            rule: asked,
            reason: format!(
                "the {asked} is for games that end, and {} has cycles",
                atom.component.expression()
            ),
            counterexample: None,
        };
    }
    let ex = atom.explored.as_ref().expect("a failing atom was explored");
    let reason = format!(
        "the {asked} needs every non-terminal position of value 0 to have a move to value 1, \
         but in {} the position {} has none",
        atom.component.expression(),
        atom.sj_witness.clone().unwrap_or_default()
    );
    Refusal {
        rule: asked,
        reason,
        counterexample: smallest_counterexample(&ex.graph, &*ex.name, limits),
    }
}

/// Among the positions of one atom, one where the SJ rule is wrong, with the smallest misère
/// remoteness (then the first found).
fn smallest_counterexample(
    graph: &ExplicitGame,
    name: &dyn Fn(u32) -> String,
    limits: Limits,
) -> Option<Counterexample> {
    let values = values_of(graph, limits).ok()?;
    let wrapped = Misere(IndexedRef(graph));
    let mut engine = Engine::hashed(&wrapped, limits, "an atom in misère play");
    let mut best: Option<(u64, u32, Outcome, Outcome)> = None;
    for v in 0..graph.len() as u32 {
        let e = engine.entry(&Some(v)).ok()?;
        let truth = Outcome::from_grundy(e.grundy);
        let says = sj_rule(&[values[v as usize]]);
        if truth != says && best.is_none_or(|b| e.remoteness < b.0) {
            best = Some((e.remoteness, v, says, truth));
        }
    }
    best.map(|(_, v, rule_says, truth)| Counterexample {
        position: name(v),
        rule_says,
        truth,
    })
}

/// A borrowed explicit game, so that [`Misere`] can wrap it without a copy.
struct IndexedRef<'a>(&'a ExplicitGame);

impl Impartial for IndexedRef<'_> {
    type Position = u32;
    fn moves(&self, p: &u32, out: &mut Vec<u32>) {
        out.extend_from_slice(self.0.options(*p));
    }
}
