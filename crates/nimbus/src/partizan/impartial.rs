//! An impartial game's position as a summand of a partizan sum: both sides have the same
//! moves, so its canonical form is a nimber, `*n` with `n` its Sprague–Grundy value. Any ruleset
//! of `nimbus sg` can then be added to Domineering or `^`, and the partizan engine checks the
//! impartial one (its forms are built from the moves alone, never from a Grundy value).

use super::form::{Forms, Id};
use super::term::Term;
use crate::core::error::{Error, Result};
use crate::impartial::component::{Component, Explored};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// The positions of one component, explored once, and the forms of those already valued.
struct Graph {
    explored: Explored,
    forms: RefCell<FxHashMap<u32, Id>>,
}

/// A position of an impartial component, written `sg 'EXPRESSION'`.
pub struct ImpartialTerm {
    graph: Rc<Graph>,
    vertex: u32,
    /// Its expression in the grammar of `nimbus sg`.
    text: String,
}

impl ImpartialTerm {
    /// The component's own position (its positions explored within `forms`' budgets).
    pub fn new(component: &dyn Component, forms: &Forms) -> Result<ImpartialTerm> {
        let explored = component.explore_named(forms.limits())?;
        Ok(ImpartialTerm {
            graph: Rc::new(Graph {
                explored,
                forms: RefCell::default(),
            }),
            vertex: 0,
            text: component.expression(),
        })
    }
}

impl Term for ImpartialTerm {
    fn expression(&self) -> String {
        format!("sg '{}'", self.text)
    }

    fn value(&self, forms: &mut Forms) -> Result<Id> {
        let mut known = self.graph.forms.borrow_mut();
        if let Some(&g) = known.get(&self.vertex) {
            return Ok(g);
        }
        let graph = &self.graph.explored.graph;
        // Depth first with an explicit stack; a position met again while still open is on a
        // cycle, and a game with cycles has no value as a short game.
        let mut open = rustc_hash::FxHashSet::default();
        let mut stack = vec![self.vertex];
        while let Some(&v) = stack.last() {
            if known.contains_key(&v) {
                stack.pop();
                continue;
            }
            if open.insert(v) {
                forms.charge(1 + graph.options(v).len() as u64)?;
                for &o in graph.options(v) {
                    if open.contains(&o) && !known.contains_key(&o) {
                        return Err(Error::Invalid(format!(
                            "{} can return to a position it left: a loopy game has no value \
                             as a short partizan game (nimbus sg analyses it)",
                            self.expression()
                        )));
                    }
                    if !known.contains_key(&o) {
                        stack.push(o);
                    }
                }
                continue;
            }
            stack.pop();
            let options: Vec<Id> = graph.options(v).iter().map(|o| known[o]).collect();
            let g = forms.canonical(&options, &options)?;
            known.insert(v, g);
        }
        Ok(known[&self.vertex])
    }

    fn options(&self, _left: bool, forms: &mut Forms) -> Result<Vec<Box<dyn Term>>> {
        let explored = &self.graph.explored;
        let next: Vec<(u32, String)> = if self.vertex == 0 {
            // The start's moves as the ruleset lists them (the graph's positions are
            // normalised, its start as written).
            explored
                .start_moves
                .iter()
                .map(|(m, v)| (*v, m.result.clone()))
                .collect()
        } else {
            explored
                .graph
                .options(self.vertex)
                .iter()
                .map(|&v| (v, (explored.name)(v)))
                .collect()
        };
        forms.charge(1 + next.len() as u64)?;
        Ok(next
            .into_iter()
            .map(|(vertex, text)| {
                Box::new(ImpartialTerm {
                    graph: self.graph.clone(),
                    vertex,
                    text,
                }) as Box<dyn Term>
            })
            .collect())
    }
}
