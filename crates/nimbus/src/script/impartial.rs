//! Impartial games written in Rhai.
//!
//! The script defines `fn moves(p)`, returning the array of the options of `p`, and where play
//! starts: `fn heap(n)` for a game on heaps (each argument is a heap size and the heaps are a
//! sum; nim-sequences need this form) or `fn start(args)` for anything else (the arguments as
//! an array, integers where they parse as one). `fn show(p)` optionally writes a position.
//!
//! The script becomes a [`Ruleset`], so the generic engine, the sum rule, misère play and the
//! methods for games with cycles all apply unchanged.

use super::{arguments, display, Script, ScriptPos};
use crate::core::budget::Limits;
use crate::core::error::{Error, Result, Span};
use crate::impartial::component::{
    Component, ComponentMove, Explored, Listed, Positioned, Ruleset,
};
use crate::impartial::explicit::ExplicitGame;
use crate::impartial::grundy::Engine;
use crate::impartial::misere::Misere;
use crate::impartial::period::detect_period;
use crate::impartial::sequence::{MisereSequence, Sequence};
use crate::impartial::{Impartial, Outcome};
use rhai::Dynamic;
use std::rc::Rc;

/// A script's impartial rules.
#[derive(Debug, Clone)]
pub struct ScriptRules {
    /// The compiled script.
    pub script: Rc<Script>,
}

impl ScriptRules {
    /// The rules of `script`, which must define `fn moves(p)`.
    pub fn new(script: Rc<Script>) -> Result<Self> {
        if !script.has("moves", 1) {
            let why = if script.has("play", 2) {
                " (it defines play(p, m): a two-player game, to be solved as one)"
            } else {
                ""
            };
            return Err(Error::Script {
                span: Span {
                    source: script.path().into(),
                    line: 0,
                    column: 0,
                },
                message: format!("an impartial game needs fn moves(p){why}"),
            });
        }
        Ok(ScriptRules { script })
    }

    /// The options of `p`, or the script's error.
    pub fn options(&self, p: &ScriptPos) -> Result<Vec<ScriptPos>> {
        self.script.options("moves", p)
    }

    /// The start positions for the arguments after the script's path: one heap each with
    /// `fn heap(n)`, one position from all of them with `fn start(args)`.
    pub fn starts(&self, args: &[String], spans: &[Span]) -> Result<Vec<ScriptPos>> {
        let s = &self.script;
        if s.has("heap", 1) {
            if args.is_empty() {
                return Err(Error::Script {
                    span: span(s),
                    message: "give at least one heap size after the script's path, as in \
                              'script:game.rhai 20'"
                        .into(),
                });
            }
            let mut out = Vec::with_capacity(args.len());
            for (a, at) in args.iter().zip(spans) {
                let n = crate::core::number::parse_u64(a, at, "a heap size")?;
                out.push(self.heap(n)?);
            }
            Ok(out)
        } else if s.has("start", 1) {
            let values = Dynamic::from(arguments(args));
            let what = || format!("start({})", display(&values));
            let v = s.call("start", vec![values.clone()], &what)?;
            Ok(vec![s.position(v, &what)?])
        } else {
            Err(Error::Script {
                span: span(s),
                message: "the script says where play starts with fn heap(n) (a game on heaps) \
                          or fn start(args); it has neither"
                    .into(),
            })
        }
    }

    /// The position `heap(n)`.
    pub fn heap(&self, n: u64) -> Result<ScriptPos> {
        let s = &self.script;
        let i = rhai_heap(s, n)?;
        let what = || format!("heap({n})");
        let v = s.call("heap", vec![Dynamic::from(i)], &what)?;
        s.position(v, &what)
    }

    fn check<T>(&self, r: Result<T>) -> Result<T> {
        match self.script.error() {
            Some(e) => Err(e),
            None => r,
        }
    }
}

/// A heap size as a Rhai integer.
fn rhai_heap(s: &Script, n: u64) -> Result<i64> {
    i64::try_from(n).map_err(|_| Error::Script {
        span: span(s),
        message: format!("heap size {n} is larger than a Rhai integer"),
    })
}

fn span(s: &Script) -> Span {
    Span {
        source: s.path().into(),
        line: 0,
        column: 0,
    }
}

impl Impartial for ScriptRules {
    type Position = ScriptPos;

    fn moves(&self, p: &ScriptPos, out: &mut Vec<ScriptPos>) {
        if self.script.failed() {
            return;
        }
        match self.options(p) {
            Ok(v) => out.extend(v),
            Err(e) => self.script.fail(e),
        }
    }

    fn show(&self, p: &ScriptPos) -> String {
        self.script.show(p.value())
    }
}

impl Ruleset for ScriptRules {
    fn name(&self) -> String {
        format!("script:{}", self.script.path())
    }

    fn expression(&self, p: &ScriptPos) -> String {
        format!(
            "script:{} at {}",
            self.script.path(),
            self.script.show(p.value())
        )
    }

    fn describe(&self, _from: &ScriptPos, to: &ScriptPos) -> String {
        format!("move to {}", self.script.show(to.value()))
    }

    /// A script's space is unknown until searched: the searches run and stop at the state
    /// limit, so the bound only has to let them start.
    fn size_hint(&self, _p: &ScriptPos) -> u64 {
        Limits::DEFAULT_MAX_STATES
    }
}

/// A script's position as a component of a sum. Every answer is checked against the script's
/// error, because the engines see a failed call as a position without moves.
pub struct ScriptComponent {
    inner: Positioned<ScriptRules>,
}

impl ScriptComponent {
    /// The component of `rules` at `pos`.
    pub fn new(rules: Rc<ScriptRules>, pos: ScriptPos) -> Self {
        ScriptComponent {
            inner: Positioned::new(rules, pos),
        }
    }

    fn check<T>(&self, r: Result<T>) -> Result<T> {
        self.inner.rule.check(r)
    }
}

impl Component for ScriptComponent {
    fn expression(&self) -> String {
        self.inner.expression()
    }
    fn game(&self) -> String {
        self.inner.game()
    }
    fn grundy(&self, limits: Limits) -> Result<u64> {
        let r = self.inner.grundy(limits);
        self.check(r)
    }
    fn moves_to_value(
        &self,
        target: u64,
        limits: Limits,
        max: usize,
    ) -> Result<Listed<ComponentMove>> {
        let r = self.inner.moves_to_value(target, limits, max);
        self.check(r)
    }
    fn closed_outcome(&self) -> Option<Outcome> {
        None
    }
    fn closed_winning_moves(&self) -> Option<Vec<ComponentMove>> {
        None
    }
    fn size_hint(&self) -> u64 {
        self.inner.size_hint()
    }
    fn search_cost(&self) -> u64 {
        self.inner.search_cost()
    }
    fn closed_remoteness(&self) -> Option<u64> {
        None
    }
    fn explore(&self, limits: Limits) -> Result<ExplicitGame> {
        let r = self.inner.explore(limits);
        self.check(r)
    }
    fn explore_named(&self, limits: Limits) -> Result<Explored> {
        let r = self.inner.explore_named(limits);
        self.check(r)
    }
    fn atoms(&self) -> Vec<Box<dyn Component>> {
        vec![Box::new(ScriptComponent::new(
            self.inner.rule.clone(),
            self.inner.pos.clone(),
        ))]
    }
    fn sj_closed(&self) -> Option<bool> {
        None
    }

    fn heap(&self) -> Option<&dyn crate::impartial::component::HeapAtom> {
        None
    }
}

fn heap_rules(script: &Rc<Script>) -> Result<ScriptRules> {
    let rules = ScriptRules::new(script.clone())?;
    if !script.has("heap", 1) {
        return Err(Error::Script {
            span: span(script),
            message: "a nim-sequence needs fn heap(n), the position of one heap of n".into(),
        });
    }
    Ok(rules)
}

/// `G(heap(n))` for `n` in `0..=upto`, one memo shared by every `n`, with the period seen
/// (never proved: no periodicity test is known for an arbitrary script).
pub fn nim_sequence(script: &Rc<Script>, upto: u64, limits: Limits) -> Result<Sequence> {
    let rules = heap_rules(script)?;
    crate::impartial::games::heap::check_table(upto, 1, limits, &rules.name())?;
    let mut engine = Engine::hashed(&rules, limits, rules.name());
    let mut values = Vec::with_capacity(upto as usize + 1);
    for n in 0..=upto {
        let p = rules.heap(n)?;
        let g = engine.grundy(&p);
        values.push(rules.check(g)?);
    }
    let period = detect_period(&values);
    Ok(Sequence {
        game: rules.name(),
        values,
        period,
        proved: false,
    })
}

/// The misère values `G⁻(heap(n))` for `n` in `0..=upto` (a position without moves has
/// misère value 1), with their misère remoteness.
pub fn misere_sequence(script: &Rc<Script>, upto: u64, limits: Limits) -> Result<MisereSequence> {
    let rules = heap_rules(script)?;
    let name = rules.name();
    crate::impartial::games::heap::check_table(upto, 1, limits, &format!("{name} (misère)"))?;
    let game = Misere(rules);
    let mut engine = Engine::hashed(&game, limits, format!("the misère values of {name}"));
    let mut values = Vec::with_capacity(upto as usize + 1);
    let mut remoteness = Vec::with_capacity(upto as usize + 1);
    for n in 0..=upto {
        let p = game.0.heap(n)?;
        let e = engine.entry(&Some(p));
        let e = game.0.check(e)?;
        values.push(e.grundy);
        remoteness.push(e.remoteness - 1);
    }
    let period = detect_period(&values);
    Ok(MisereSequence {
        game: name,
        values,
        remoteness,
        period,
        proved: false,
        positions: engine.explored(),
    })
}

/// A take-and-break game written in Rhai as `fn heap_moves(n)`: the options of one heap of
/// `n`, each an array of the heaps it leaves (`[]` for none, `[3]`, `[2, 3]`; at most three,
/// each smaller than `n`). Such a game is a heap rule like `octal`: a sum is valued by the xor
/// of its heaps' values and the nim-sequence is one table, where a script written with
/// `fn moves(p)` over multisets of heaps needs a search of every multiset reachable.
#[derive(Debug, Clone)]
pub struct ScriptHeapRule {
    /// The compiled script.
    pub script: Rc<Script>,
}

impl ScriptHeapRule {
    /// The heap rule of `script`, when it defines `fn heap_moves(n)`.
    pub fn of(script: &Rc<Script>) -> Option<Self> {
        script.has("heap_moves", 1).then(|| ScriptHeapRule {
            script: script.clone(),
        })
    }

    /// The options of a heap of `n`, or the script's error.
    fn options(&self, n: u64) -> Result<Vec<crate::impartial::games::heap::HeapMove>> {
        use crate::impartial::games::heap::HeapMove;
        let s = &self.script;
        let i = rhai_heap(s, n)?;
        let what = || format!("heap_moves({n})");
        let bad = |k: usize, why: String| Error::Script {
            span: span(s),
            message: format!("{} (option {k}): {why}", what()),
        };
        let list = s
            .call("heap_moves", vec![Dynamic::from(i)], &what)?
            .into_array()
            .map_err(|t| bad(0, format!("returned a {t}, not an array of options")))?;
        let mut out = Vec::with_capacity(list.len());
        for (k, option) in list.into_iter().enumerate() {
            let heaps = option.into_array().map_err(|t| {
                bad(
                    k + 1,
                    format!("a {t}, not an array of the heaps the move leaves"),
                )
            })?;
            let mut parts = Vec::with_capacity(heaps.len());
            for h in heaps {
                let h = h
                    .as_int()
                    .ok()
                    .and_then(|h| u64::try_from(h).ok())
                    .ok_or_else(|| bad(k + 1, "a heap that is not a whole number".into()))?;
                if h >= n {
                    return Err(bad(
                        k + 1,
                        format!("leaves a heap of {h}, not smaller than the heap of {n}"),
                    ));
                }
                if h > 0 {
                    parts.push(h);
                }
            }
            if parts.len() > 3 {
                return Err(bad(k + 1, "leaves more than three non-empty heaps".into()));
            }
            let left: u64 = parts.iter().sum();
            out.push(HeapMove::new(n.saturating_sub(left), &parts));
        }
        Ok(out)
    }
}

impl crate::impartial::games::heap::HeapRule for ScriptHeapRule {
    fn name(&self) -> String {
        format!("script:{}", self.script.path())
    }

    fn heap_moves(&self, n: u64, out: &mut Vec<crate::impartial::games::heap::HeapMove>) {
        if self.script.failed() {
            return;
        }
        match self.options(n) {
            Ok(v) => out.extend(v),
            Err(e) => self.script.fail(e),
        }
    }

    fn table(&self, upto: u64, limits: Limits) -> Result<Vec<u64>> {
        // A failed call leaves a heap without moves: the table is only good without an error.
        let t = crate::impartial::games::heap::generic_table(self, upto, limits);
        match self.script.error() {
            Some(e) => Err(e),
            None => t,
        }
    }

    fn describe(
        &self,
        n: u64,
        heap: usize,
        heaps: usize,
        m: &crate::impartial::games::heap::HeapMove,
    ) -> String {
        let parts: Vec<String> = m.left().iter().map(u64::to_string).collect();
        match (m.take, parts.len()) {
            (0, _) => {
                let which = if heaps > 1 {
                    format!("heap {heap}")
                } else {
                    "the heap".into()
                };
                format!("split {which} of {n} into {}", parts.join(" + "))
            }
            _ => crate::impartial::games::heap::describe_take(n, heap, heaps, m, "token"),
        }
    }

    /// Unknown until the moves are listed; splitting is what the misère methods must allow for.
    fn splits(&self) -> bool {
        true
    }
}
