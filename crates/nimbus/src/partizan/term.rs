//! A summand of an expression: a ruleset's position, a value written out, or the negative of
//! either, behind one trait so that a sum can mix them.

use super::engine::{value_with, Memo};
use super::form::{Forms, Id};
use super::show::show;
use super::Ruleset;
use crate::core::error::Result;
use std::cell::RefCell;
use std::rc::Rc;

/// A summand.
pub trait Term {
    /// How it is written in the expression grammar.
    fn expression(&self) -> String;
    /// Its value in canonical form.
    fn value(&self, forms: &mut Forms) -> Result<Id>;
    /// What Left (`left`) or Right may move it to.
    fn options(&self, left: bool, forms: &mut Forms) -> Result<Vec<Box<dyn Term>>>;
}

/// A position of a ruleset, with the values of the ruleset's regions remembered across the
/// position and the positions it leads to.
pub struct Played<R: Ruleset> {
    name: Rc<str>,
    rules: Rc<R>,
    position: R::Position,
    memo: Rc<RefCell<Memo<R::Position>>>,
}

impl<R: Ruleset> Played<R> {
    /// `position` of `rules`, written `name 'position'`.
    pub fn new(name: impl Into<Rc<str>>, rules: R, position: R::Position) -> Played<R> {
        Played::sharing(name, rules, position, Rc::default())
    }

    /// The same, remembering values in `memo`, which other positions of the same ruleset
    /// share (the entries of a table).
    pub fn sharing(
        name: impl Into<Rc<str>>,
        rules: R,
        position: R::Position,
        memo: Rc<RefCell<Memo<R::Position>>>,
    ) -> Played<R> {
        Played {
            name: name.into(),
            rules: Rc::new(rules),
            position,
            memo,
        }
    }
}

impl<R: Ruleset + 'static> Term for Played<R> {
    fn expression(&self) -> String {
        format!("{} '{}'", self.name, self.rules.show(&self.position))
    }

    fn value(&self, forms: &mut Forms) -> Result<Id> {
        value_with(
            &*self.rules,
            &self.position,
            forms,
            &mut self.memo.borrow_mut(),
        )
    }

    fn options(&self, left: bool, forms: &mut Forms) -> Result<Vec<Box<dyn Term>>> {
        let next = if left {
            self.rules.left_moves(&self.position)
        } else {
            self.rules.right_moves(&self.position)
        };
        forms.charge(1 + next.len() as u64)?;
        Ok(next
            .into_iter()
            .map(|position| {
                Box::new(Played {
                    name: self.name.clone(),
                    rules: self.rules.clone(),
                    position,
                    memo: self.memo.clone(),
                }) as Box<dyn Term>
            })
            .collect())
    }
}

/// A value written out (`{1|-1}`, `3/4`, `*2`, `^`).
pub struct Literal {
    id: Id,
    text: String,
}

impl Literal {
    /// The value `id`, written `text`.
    pub fn new(id: Id, text: String) -> Literal {
        Literal { id, text }
    }
}

impl Term for Literal {
    fn expression(&self) -> String {
        self.text.clone()
    }

    fn value(&self, _: &mut Forms) -> Result<Id> {
        Ok(self.id)
    }

    fn options(&self, left: bool, forms: &mut Forms) -> Result<Vec<Box<dyn Term>>> {
        let opts = if left {
            forms.left(self.id).to_vec()
        } else {
            forms.right(self.id).to_vec()
        };
        opts.into_iter()
            .map(|o| Ok(Box::new(Literal::new(o, show(forms, o)?)) as Box<dyn Term>))
            .collect()
    }
}

/// The negative of a summand: Left's moves are Right's in it.
pub struct Negated(pub Box<dyn Term>);

impl Term for Negated {
    fn expression(&self) -> String {
        format!("-({})", self.0.expression())
    }

    fn value(&self, forms: &mut Forms) -> Result<Id> {
        let v = self.0.value(forms)?;
        forms.neg(v)
    }

    fn options(&self, left: bool, forms: &mut Forms) -> Result<Vec<Box<dyn Term>>> {
        Ok(self
            .0
            .options(!left, forms)?
            .into_iter()
            .map(|t| Box::new(Negated(t)) as Box<dyn Term>)
            .collect())
    }
}
