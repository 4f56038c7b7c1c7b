//! Rulesets with their positions, erased behind one object-safe interface.
//!
//! A sum such as `kayles 7 + wythoff 3 5` mixes position types; [`Component`] hides the type
//! so that the sum analysis ([`super::sum`]) can treat every part alike. A ruleset implements
//! [`Ruleset`] (its moves, how to write positions and moves for people, and its closed forms
//! where it has them) and [`Positioned`] turns it into a component, using the closed forms when
//! present and the generic engine otherwise.

use super::explicit::{explore, explore_positions, ExplicitGame};
use super::grundy::{Engine, HashStore};
use super::{Impartial, Outcome};
use crate::core::budget::Limits;
use crate::core::error::Result;
use std::cell::RefCell;
use std::rc::Rc;

/// One move of a component, for people and for the expression grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentMove {
    /// The move as a person would say it ("take 2 from heap 1").
    pub description: String,
    /// The component after the move, in the expression grammar.
    pub result: String,
}

/// Up to a requested number of items, and how many there are in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed<T> {
    /// The first items, at most as many as requested.
    pub items: Vec<T>,
    /// How many items there are in all.
    pub total: usize,
}

impl<T> Listed<T> {
    /// An empty list.
    pub fn new() -> Self {
        Listed {
            items: Vec::new(),
            total: 0,
        }
    }

    /// Counts an item, keeping it only while fewer than `max` are kept; `make` runs only for
    /// kept items, so huge positions are not copied just to be counted.
    pub fn push_with(&mut self, max: usize, make: impl FnOnce() -> T) {
        if self.items.len() < max {
            self.items.push(make());
        }
        self.total += 1;
    }

    /// The list of all of `items`, keeping at most `max`.
    pub fn from_all(items: Vec<T>, max: usize) -> Self {
        let total = items.len();
        let mut items = items;
        items.truncate(max);
        Listed { items, total }
    }
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A ruleset that can appear in an expression: moves, names, and optional closed forms.
///
/// The closed-form methods return `Ok(None)` when they have nothing to say for a position; the
/// caller then falls back on the generic engine. Tests check every closed form against the
/// engine.
pub trait Ruleset: Impartial {
    /// The ruleset's name as written in expressions ("kayles", "subtract{1,3,4}").
    fn name(&self) -> String;
    /// A position written in the expression grammar ("kayles 7").
    fn expression(&self, p: &Self::Position) -> String;
    /// A move from `from` to `to` as a person would say it.
    fn describe(&self, from: &Self::Position, to: &Self::Position) -> String;

    /// The Grundy value from a closed form or a ruleset-specific fast method.
    fn closed_grundy(&self, _p: &Self::Position, _limits: Limits) -> Result<Option<u64>> {
        Ok(None)
    }
    /// The options of `p` whose value is `target` (at most `max` of them, all counted),
    /// without enumerating every option.
    fn closed_moves_to_value(
        &self,
        _p: &Self::Position,
        _target: u64,
        _limits: Limits,
        _max: usize,
    ) -> Result<Option<Listed<Self::Position>>> {
        Ok(None)
    }
    /// The outcome from a closed form that does not give the Grundy value (Wythoff, Fibonacci
    /// Nim): used when the value itself is out of reach.
    fn closed_outcome(&self, _p: &Self::Position) -> Option<Outcome> {
        None
    }
    /// Every winning move from a closed form, for the same case as [`Ruleset::closed_outcome`].
    fn closed_winning_moves(&self, _p: &Self::Position) -> Option<Vec<Self::Position>> {
        None
    }
    /// A position equivalent to `p` written canonically (heaps sorted, say), so that
    /// exhaustive searches store each position once.
    fn normalize(&self, p: &Self::Position) -> Self::Position {
        p.clone()
    }
    /// An upper bound on the number of positions reachable from `p` (saturating), used to skip
    /// optional exhaustive searches that could not finish.
    fn size_hint(&self, p: &Self::Position) -> u64;
    /// Every position reachable from the normalised position `p`, numbered from `p` as 0, by
    /// a method faster than hashing positions; `Ok(None)` when the ruleset has none.
    #[allow(clippy::type_complexity)]
    fn explore_fast(
        &self,
        _p: &Self::Position,
        _limits: Limits,
    ) -> Result<Option<(ExplicitGame, Vec<Self::Position>)>> {
        Ok(None)
    }
    /// The atoms of `p` (see [`Component::atoms`]); `p` itself by default.
    fn atoms(&self, p: &Self::Position) -> Vec<Self::Position> {
        vec![p.clone()]
    }
    /// Whether the SJ precondition is known to hold for every position reachable from `p`.
    fn sj_closed(&self, _p: &Self::Position) -> Option<bool> {
        None
    }
    /// An upper bound on the steps of a full search from `p`: positions times options per
    /// position (saturating). Games with many options per position override it.
    fn search_cost(&self, p: &Self::Position) -> u64 {
        self.size_hint(p)
    }
    /// The remoteness of `p` from a closed form, when there is one.
    fn closed_remoteness(&self, _p: &Self::Position) -> Option<u64> {
        None
    }
    /// An upper bound on the bytes the list of `p`'s options takes, when one is known: a
    /// position with very many options (a heap of 10^8) is refused before they are listed.
    fn options_bytes(&self, _p: &Self::Position) -> Option<u64> {
        None
    }
    /// For a heap game: the size of `p` when it is one heap (misère sums of such heaps can be
    /// answered by the game's misère quotient).
    fn heap_size(&self, _p: &Self::Position) -> Option<u64> {
        None
    }
    /// For a heap game: the heaps each move of a heap of `n` leaves.
    fn heap_parts(&self, _n: u64, _out: &mut Vec<Vec<u64>>) {}
    /// For a heap game: the position of the heaps `parts`.
    fn heap_position(&self, _parts: &[u64]) -> Option<Self::Position> {
        None
    }
}

/// One heap of a heap game in a sum: what a misère quotient needs of it.
pub trait HeapAtom {
    /// The ruleset's name: heaps of the same name play by the same rules.
    fn rule_name(&self) -> String;
    /// The heap's size.
    fn size(&self) -> u64;
    /// The heaps each move of a heap of `n` leaves.
    fn parts(&self, n: u64, out: &mut Vec<Vec<u64>>);
    /// The move of this heap that leaves `parts`.
    fn to_parts(&self, parts: &[u64]) -> Option<ComponentMove>;
}

/// A component's positions, explored: the graph, a way to write each position in the
/// grammar, and the component's own moves with the number of the position each leads to.
pub struct Explored {
    /// Every reachable position (position 0 is the component's own).
    pub graph: ExplicitGame,
    /// Writes position `v` in the expression grammar (on demand: a graph of millions of
    /// positions rarely needs more than a few names).
    pub name: Box<dyn Fn(u32) -> String>,
    /// The moves from position 0, in the ruleset's order, with their targets in `graph`.
    pub start_moves: Vec<(ComponentMove, u32)>,
}

/// A part of a disjunctive sum, with its ruleset and position fixed.
pub trait Component {
    /// The component in the expression grammar.
    fn expression(&self) -> String;
    /// The ruleset's name.
    fn game(&self) -> String;
    /// The exact Sprague–Grundy value.
    fn grundy(&self, limits: Limits) -> Result<u64>;
    /// The moves of this component to a position of value `target`: at most `max` listed,
    /// all counted.
    fn moves_to_value(
        &self,
        target: u64,
        limits: Limits,
        max: usize,
    ) -> Result<Listed<ComponentMove>>;
    /// The outcome from a closed form that does not need the Grundy value.
    fn closed_outcome(&self) -> Option<Outcome>;
    /// The winning moves that go with [`Component::closed_outcome`].
    fn closed_winning_moves(&self) -> Option<Vec<ComponentMove>>;
    /// An upper bound on the number of reachable positions.
    fn size_hint(&self) -> u64;
    /// An upper bound on the steps of a full search (positions times options).
    fn search_cost(&self) -> u64;
    /// The remoteness from a closed form, when there is one.
    fn closed_remoteness(&self) -> Option<u64>;
    /// Every reachable position, numbered, with the component's position as 0.
    fn explore(&self, limits: Limits) -> Result<ExplicitGame>;
    /// [`Component::explore`] with names for the positions and the start's moves.
    fn explore_named(&self, limits: Limits) -> Result<Explored>;
    /// The smallest parts that are sums of nothing smaller: one component per heap of a heap
    /// game, per token of a graph game; the component itself otherwise. Misère play needs
    /// them, because there the value of a sum is not the xor of its parts'.
    fn atoms(&self) -> Vec<Box<dyn Component>>;
    /// Whether the SJ precondition (every non-terminal position of value 0 has an option of
    /// value 1) is known from a closed form to hold for every position reachable from this one.
    fn sj_closed(&self) -> Option<bool>;
    /// The component as one heap of a heap game, when it is one.
    fn heap(&self) -> Option<&dyn HeapAtom>;
}

impl<R: Ruleset> HeapAtom for Positioned<R> {
    fn rule_name(&self) -> String {
        self.rule.name()
    }

    fn size(&self) -> u64 {
        self.rule.heap_size(&self.pos).unwrap_or(0)
    }

    fn parts(&self, n: u64, out: &mut Vec<Vec<u64>>) {
        self.rule.heap_parts(n, out);
    }

    fn to_parts(&self, parts: &[u64]) -> Option<ComponentMove> {
        let to = self.rule.heap_position(parts)?;
        Some(self.to_move(&to))
    }
}

/// A ruleset together with a position: the standard [`Component`].
pub struct Positioned<R: Ruleset> {
    /// The ruleset, shared between the components that use it.
    pub rule: Rc<R>,
    /// The position.
    pub pos: R::Position,
    /// The engine's memo, kept between calls so that the winning moves reuse the values found
    /// for the Grundy value.
    memo: RefCell<Option<HashStore<R::Position>>>,
}

impl<R: Ruleset> Positioned<R> {
    /// A component at `pos`.
    pub fn new(rule: Rc<R>, pos: R::Position) -> Self {
        Positioned {
            rule,
            pos,
            memo: RefCell::new(None),
        }
    }

    fn with_engine<T>(
        &self,
        limits: Limits,
        f: impl FnOnce(&mut Engine<'_, R, HashStore<R::Position>>) -> Result<T>,
    ) -> Result<T> {
        let store = self.memo.borrow_mut().take();
        let mut engine = match store {
            Some(s) => Engine::with_store(&*self.rule, s, limits, self.rule.name()),
            None => Engine::hashed(&*self.rule, limits, self.rule.name()),
        };
        let out = f(&mut engine);
        // A failed search leaves positions marked as in progress: start afresh next time.
        if out.is_ok() {
            *self.memo.borrow_mut() = Some(engine.into_store());
        }
        out
    }

    /// Refuses, before it starts, a full search from `p` that the limits could not hold:
    /// listing the options of a huge position could itself exhaust memory, and a search with
    /// very many options per position could run for hours. The bounds can be far above what
    /// is reachable (a graph game's bound counts every placement of the tokens), so only the
    /// memory and work they imply are refused up front; the search itself stops at the
    /// position limit and says how far it got.
    fn admit(&self, p: &R::Position, limits: Limits) -> Result<()> {
        let (size, cost) = (self.rule.size_hint(p), self.rule.search_cost(p));
        limits.admit(
            &format!(
                "the search of {} (up to {} positions, {} moves)",
                self.rule.expression(p),
                crate::core::show::show_count(size),
                crate::core::show::show_count(cost)
            ),
            size.min(limits.max_states),
            64,
            cost,
        )
    }

    fn value_of(&self, p: &R::Position, limits: Limits) -> Result<u64> {
        if let Some(g) = self.rule.closed_grundy(p, limits)? {
            return Ok(g);
        }
        self.admit(p, limits)?;
        self.with_engine(limits, |e| e.grundy(p))
    }

    fn to_move(&self, to: &R::Position) -> ComponentMove {
        ComponentMove {
            description: self.rule.describe(&self.pos, to),
            result: self.rule.expression(to),
        }
    }
}

/// The ruleset seen through [`Ruleset::normalize`], so that exhaustive searches see each
/// position once.
pub struct Normalized<'a, R>(pub &'a R);

impl<R: Ruleset> Impartial for Normalized<'_, R> {
    type Position = R::Position;
    fn moves(&self, p: &R::Position, out: &mut Vec<R::Position>) {
        let from = out.len();
        self.0.moves(p, out);
        for q in &mut out[from..] {
            *q = self.0.normalize(q);
        }
    }
}

impl<R: Ruleset + 'static> Component for Positioned<R> {
    fn expression(&self) -> String {
        self.rule.expression(&self.pos)
    }

    fn game(&self) -> String {
        self.rule.name()
    }

    fn grundy(&self, limits: Limits) -> Result<u64> {
        self.value_of(&self.pos, limits)
    }

    fn moves_to_value(
        &self,
        target: u64,
        limits: Limits,
        max: usize,
    ) -> Result<Listed<ComponentMove>> {
        if let Some(v) = self
            .rule
            .closed_moves_to_value(&self.pos, target, limits, max)?
        {
            return Ok(Listed {
                items: v.items.iter().map(|q| self.to_move(q)).collect(),
                total: v.total,
            });
        }
        if let Some(bytes) = self.rule.options_bytes(&self.pos) {
            crate::core::budget::check_memory(
                &format!("the moves of {}", self.rule.expression(&self.pos)),
                bytes,
                limits.max_memory,
            )?;
        }
        let mut opts = Vec::new();
        self.rule.moves(&self.pos, &mut opts);
        let mut out = Listed::new();
        for q in &opts {
            if self.value_of(q, limits)? == target {
                out.push_with(max, || self.to_move(q));
            }
        }
        Ok(out)
    }

    fn closed_outcome(&self) -> Option<Outcome> {
        self.rule.closed_outcome(&self.pos)
    }

    fn closed_winning_moves(&self) -> Option<Vec<ComponentMove>> {
        self.rule
            .closed_winning_moves(&self.pos)
            .map(|v| v.iter().map(|q| self.to_move(q)).collect())
    }

    fn size_hint(&self) -> u64 {
        self.rule.size_hint(&self.pos)
    }

    fn search_cost(&self) -> u64 {
        self.rule.search_cost(&self.pos)
    }

    fn closed_remoteness(&self) -> Option<u64> {
        self.rule.closed_remoteness(&self.pos)
    }

    fn explore(&self, limits: Limits) -> Result<ExplicitGame> {
        self.admit(&self.pos, limits)?;
        let start = self.rule.normalize(&self.pos);
        explore(&Normalized(&*self.rule), &start, limits, &self.expression())
    }

    fn explore_named(&self, limits: Limits) -> Result<Explored> {
        self.admit(&self.pos, limits)?;
        let start = self.rule.normalize(&self.pos);
        let (graph, positions) = match self.rule.explore_fast(&start, limits)? {
            Some(found) => found,
            None => {
                explore_positions(&Normalized(&*self.rule), &start, limits, &self.expression())?
            }
        };
        let ids: rustc_hash::FxHashMap<&R::Position, u32> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| (p, i as u32))
            .collect();
        let mut raw = Vec::new();
        self.rule.moves(&self.pos, &mut raw);
        let start_moves = raw
            .iter()
            .map(|q| (self.to_move(q), ids[&self.rule.normalize(q)]))
            .collect();
        drop(ids);
        let rule = self.rule.clone();
        Ok(Explored {
            graph,
            name: Box::new(move |v| rule.expression(&positions[v as usize])),
            start_moves,
        })
    }

    fn atoms(&self) -> Vec<Box<dyn Component>> {
        self.rule
            .atoms(&self.pos)
            .into_iter()
            .map(|p| Box::new(Positioned::new(self.rule.clone(), p)) as Box<dyn Component>)
            .collect()
    }

    fn sj_closed(&self) -> Option<bool> {
        self.rule.sj_closed(&self.pos)
    }

    fn heap(&self) -> Option<&dyn HeapAtom> {
        self.rule
            .heap_size(&self.pos)
            .map(|_| self as &dyn HeapAtom)
    }
}
