//! Partizan games written in Rhai, for `nimbus cgt`.
//!
//! The script defines `fn left_moves(p)` and `fn right_moves(p)`, each returning the array of
//! one side's options of `p`, and `fn start(args)`, where play starts (the words after the
//! script's path, integers where they parse as one). `fn show(p)` optionally writes a position,
//! and `fn regions(p)` optionally splits it into independent positions whose values add up
//! (each region is then valued once, wherever it is met: what makes a game of many parts fast).
//! The script becomes a partizan [`Ruleset`], valued by the same engine as the built-in ones.

use super::{arguments, display, Script, ScriptPos};
use crate::core::error::{Error, Result, Span};
use crate::partizan::form::{Forms, Id};
use crate::partizan::term::{Played, Term};
use crate::partizan::Ruleset;
use rhai::Dynamic;
use std::rc::Rc;

/// A script's partizan rules.
#[derive(Debug, Clone)]
pub struct ScriptPartizan {
    script: Rc<Script>,
    /// Whether the script splits positions into regions (`fn regions(p)`).
    splits: bool,
}

fn span(s: &Script) -> Span {
    Span {
        source: s.path().into(),
        line: 0,
        column: 0,
    }
}

impl ScriptPartizan {
    /// The rules of `script`, which must define `left_moves(p)`, `right_moves(p)` and
    /// `start(args)`.
    pub fn new(script: Rc<Script>) -> Result<Self> {
        for (name, arity) in [("left_moves", 1), ("right_moves", 1), ("start", 1)] {
            if !script.has(name, arity) {
                let why = if script.has("moves", 1) {
                    " (it defines moves(p): an impartial game, for nimbus sg, or here as \
                     sg 'script:…')"
                } else {
                    ""
                };
                return Err(Error::Script {
                    span: span(&script),
                    message: format!(
                        "a partizan game needs fn left_moves(p), fn right_moves(p) and \
                         fn start(args); {name} is missing{why}"
                    ),
                });
            }
        }
        let splits = script.has("regions", 1);
        Ok(ScriptPartizan { script, splits })
    }

    /// The position `start(args)`.
    pub fn start(&self, args: &[String]) -> Result<ScriptPos> {
        let values = Dynamic::from(arguments(args));
        let what = || format!("start({})", display(&values));
        let v = self.script.call("start", vec![values.clone()], &what)?;
        self.script.position(v, &what)
    }

    /// What `function(p)` returns (options, or regions), or none once the script has failed
    /// (its error is kept in the script and returned by the summand that asked).
    fn moves(&self, function: &str, p: &ScriptPos) -> Vec<ScriptPos> {
        if self.script.failed() {
            return Vec::new();
        }
        self.script.options(function, p).unwrap_or_else(|e| {
            self.script.fail(e);
            Vec::new()
        })
    }
}

impl Ruleset for ScriptPartizan {
    type Position = ScriptPos;

    fn left_moves(&self, p: &ScriptPos) -> Vec<ScriptPos> {
        self.moves("left_moves", p)
    }

    fn right_moves(&self, p: &ScriptPos) -> Vec<ScriptPos> {
        self.moves("right_moves", p)
    }

    fn regions(&self, p: &ScriptPos) -> Vec<ScriptPos> {
        if !self.splits {
            return vec![p.clone()];
        }
        self.moves("regions", p)
    }

    fn show(&self, p: &ScriptPos) -> String {
        self.script.show(p.value())
    }
}

/// A script's position as a summand: the engine's answers, unless the script failed on the
/// way, whose error is then the answer.
pub struct ScriptTerm {
    term: Box<dyn Term>,
    script: Rc<Script>,
}

impl ScriptTerm {
    /// The start of the script at `path` for the words `args`, written `script:PATH`.
    pub fn new(script: Rc<Script>, args: &[String]) -> Result<ScriptTerm> {
        let rules = ScriptPartizan::new(script.clone())?;
        let start = rules.start(args)?;
        let name = format!("script:{}", script.path());
        Ok(ScriptTerm {
            term: Box::new(Played::new(name, rules, start)),
            script,
        })
    }

    fn checked<T>(&self, r: Result<T>) -> Result<T> {
        match self.script.error() {
            Some(e) => Err(e),
            None => r,
        }
    }
}

impl Term for ScriptTerm {
    fn expression(&self) -> String {
        self.term.expression()
    }

    fn value(&self, forms: &mut Forms) -> Result<Id> {
        let v = self.term.value(forms);
        self.checked(v)
    }

    fn options(&self, left: bool, forms: &mut Forms) -> Result<Vec<Box<dyn Term>>> {
        let next = self.term.options(left, forms);
        let next = self.checked(next)?;
        Ok(next
            .into_iter()
            .map(|term| {
                Box::new(ScriptTerm {
                    term,
                    script: self.script.clone(),
                }) as Box<dyn Term>
            })
            .collect())
    }
}
