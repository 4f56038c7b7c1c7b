//! Games written as Python functions, played by the library's engines: an impartial game
//! (`moves(position)` gives the options) and a heap game (`moves(n)` gives what a heap of `n`
//! can become). They are the Python counterpart of the Rhai scripts: the engines cannot fail
//! in the middle of a search, so a callback's first error is kept, the game then has no more
//! moves, and the error is raised when the engine returns.

use crate::{answer_to_py, limits, to_py};
use nimbus::api;
use nimbus::api::custom::Impartial;
use nimbus::api::custom::Method;
use nimbus::api::custom::{describe_take, HeapMove, HeapRule, Heaps};
use nimbus::api::custom::{Component, Positioned, Ruleset};
use nimbus::api::custom::{PartizanRuleset, Played, Term};
use nimbus::api::sg::MisereRule;
use nimbus::api::Limits;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The misère rule named in Python (the API's names).
pub(crate) fn misere_rule(rule: Option<&str>) -> PyResult<Option<MisereRule>> {
    rule.map(nimbus::api::sg::misere_rule)
        .transpose()
        .map_err(crate::to_py)
}

/// The search method named in Python (the API's names).
pub(crate) fn search_method(method: Option<&str>) -> PyResult<Option<Method>> {
    nimbus::api::solve::search_method(method.unwrap_or("auto"))
        .map(Some)
        .map_err(crate::to_py)
}

/// What a callback game shares with its caller: the first error, and a count of calls for
/// checking Ctrl-C now and then.
pub(crate) struct Guard {
    error: RefCell<Option<PyErr>>,
    calls: Cell<u64>,
}

impl Guard {
    pub(crate) fn new() -> Self {
        Guard {
            error: RefCell::new(None),
            calls: Cell::new(0),
        }
    }

    pub(crate) fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }

    pub(crate) fn fail(&self, e: PyErr) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
            // The engines see a game without moves from now on; stopping them is faster.
            nimbus::api::host::interrupt();
        }
    }

    /// Every few thousand calls: Ctrl-C becomes the game's error.
    pub(crate) fn tick(&self, py: Python<'_>) {
        let n = self.calls.get() + 1;
        self.calls.set(n);
        if n % 2048 == 0 {
            if let Err(e) = py.check_signals() {
                self.fail(e);
            }
        }
    }

    /// The engine's answer, unless a callback failed first.
    pub(crate) fn finish<T>(&self, r: nimbus::api::Result<T>) -> PyResult<T> {
        nimbus::api::host::clear_interrupt();
        match self.error.borrow_mut().take() {
            Some(e) => Err(e),
            None => r.map_err(to_py),
        }
    }
}

/// A Python position: the object, with its hash taken once.
pub(crate) struct Pos {
    pub(crate) obj: Py<PyAny>,
    hash: isize,
}

impl Pos {
    pub(crate) fn new(obj: Bound<'_, PyAny>) -> PyResult<Self> {
        let hash = obj.hash().map_err(|_| {
            PyValueError::new_err(format!(
                "positions must be hashable (tuples, not lists): {}",
                repr(&obj)
            ))
        })?;
        Ok(Pos {
            obj: obj.unbind(),
            hash,
        })
    }
}

pub(crate) fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<position>".into())
}

impl Clone for Pos {
    fn clone(&self) -> Self {
        Python::attach(|py| Pos {
            obj: self.obj.clone_ref(py),
            hash: self.hash,
        })
    }
}

impl PartialEq for Pos {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
            && Python::attach(|py| self.obj.bind(py).eq(other.obj.bind(py)).unwrap_or(false))
    }
}

impl Eq for Pos {}

impl Hash for Pos {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_isize(self.hash);
    }
}

impl std::fmt::Debug for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&Python::attach(|py| repr(self.obj.bind(py))))
    }
}

/// An impartial game given by `moves(position)`.
struct Rules {
    name: String,
    moves: Py<PyAny>,
    guard: Rc<Guard>,
}

impl Rules {
    fn options(&self, py: Python<'_>, p: &Pos) -> PyResult<Vec<Pos>> {
        let list = self.moves.call1(py, (p.obj.clone_ref(py),))?;
        let mut out = Vec::new();
        for item in list.bind(py).try_iter()? {
            out.push(Pos::new(item?)?);
        }
        Ok(out)
    }
}

impl Impartial for Rules {
    type Position = Pos;

    fn moves(&self, p: &Pos, out: &mut Vec<Pos>) {
        if self.guard.failed() {
            return;
        }
        Python::attach(|py| {
            self.guard.tick(py);
            match self.options(py, p) {
                Ok(v) => out.extend(v),
                Err(e) => self.guard.fail(e),
            }
        });
    }

    fn show(&self, p: &Pos) -> String {
        format!("{p:?}")
    }
}

impl Ruleset for Rules {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn expression(&self, p: &Pos) -> String {
        format!("{} at {p:?}", self.name)
    }

    fn describe(&self, _from: &Pos, to: &Pos) -> String {
        format!("move to {to:?}")
    }

    /// Unknown until searched: the searches stop at the state limit, so the bound only has
    /// to let them start.
    fn size_hint(&self, _p: &Pos) -> u64 {
        Limits::DEFAULT_MAX_STATES
    }
}

/// A heap game given by `moves(n)`: each move is the heaps left, an int or a tuple of at most
/// two ints, all smaller than `n`.
struct HeapGame {
    name: String,
    moves: Py<PyAny>,
    guard: Rc<Guard>,
}

impl HeapGame {
    fn options(&self, py: Python<'_>, n: u64) -> PyResult<Vec<HeapMove>> {
        let list = self.moves.call1(py, (n,))?;
        let mut out = Vec::new();
        for item in list.bind(py).try_iter()? {
            let item = item?;
            let parts: Vec<u64> = if item.is_instance_of::<PyTuple>() {
                item.extract()?
            } else {
                vec![item.extract()?]
            };
            let total: u64 = parts.iter().sum();
            if parts.len() > 2 || parts.iter().any(|&h| h >= n) || total >= n {
                return Err(PyValueError::new_err(format!(
                    "{}: moves({n}) gave {}: a move leaves at most two heaps, smaller in all \
                     than {n}",
                    self.name,
                    repr(&item)
                )));
            }
            out.push(HeapMove::new(n - total, &parts));
        }
        Ok(out)
    }
}

impl HeapRule for HeapGame {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn heap_moves(&self, n: u64, out: &mut Vec<HeapMove>) {
        if self.guard.failed() {
            return;
        }
        Python::attach(|py| {
            self.guard.tick(py);
            match self.options(py, n) {
                Ok(v) => out.extend(v),
                Err(e) => self.guard.fail(e),
            }
        });
    }

    fn describe(&self, n: u64, heap: usize, heaps: usize, m: &HeapMove) -> String {
        describe_take(n, heap, heaps, m, "token")
    }

    /// The work budget needs the moves a heap has; a Python rule cannot say, so the largest
    /// heap's moves are counted (a subtraction game has a few, a take-and-break game about n).
    fn move_count(&self, n: u64) -> u64 {
        Python::attach(|py| match self.options(py, n) {
            Ok(v) => (v.len() as u64).max(1),
            Err(_) => n,
        })
    }

    /// Not known before the moves are listed: assumed, which is always sound (misère
    /// sequences are then searched, not read off the normal-play values).
    fn splits(&self) -> bool {
        true
    }
}

fn sg_request(
    misere: bool,
    rule: Option<&str>,
    max_moves: usize,
    limits: Limits,
) -> PyResult<api::sg::Request> {
    Ok(api::sg::Request {
        misere,
        rule: misere_rule(rule)?,
        max_moves,
        limits,
        ..Default::default()
    })
}

/// A sum of positions of the game `moves` (`nimbus::api::sg::analyse`).
#[pyfunction]
#[pyo3(signature = (moves, starts, name, misere=false, rule=None, max_moves=20, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn sg_positions(
    py: Python<'_>,
    moves: Py<PyAny>,
    starts: Vec<Bound<'_, PyAny>>,
    name: String,
    misere: bool,
    rule: Option<&str>,
    max_moves: usize,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let guard = Rc::new(Guard::new());
    let rules = Rc::new(Rules {
        name,
        moves,
        guard: guard.clone(),
    });
    let mut components: Vec<Box<dyn Component>> = Vec::new();
    for s in starts {
        components.push(Box::new(Positioned::new(rules.clone(), Pos::new(s)?)));
    }
    let req = sg_request(
        misere,
        rule,
        max_moves,
        limits(max_states, max_memory, max_work),
    )?;
    nimbus::api::host::clear_interrupt();
    let answer = guard.finish(api::sg::analyse(&components, &req))?;
    answer_to_py(py, &answer)
}

/// A position of the heap game `moves`: heaps of the given sizes.
#[pyfunction]
#[pyo3(signature = (moves, heaps, name, misere=false, rule=None, max_moves=20, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn sg_heaps(
    py: Python<'_>,
    moves: Py<PyAny>,
    heaps: Vec<u64>,
    name: String,
    misere: bool,
    rule: Option<&str>,
    max_moves: usize,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let guard = Rc::new(Guard::new());
    let game = Rc::new(Heaps::new(HeapGame {
        name,
        moves,
        guard: guard.clone(),
    }));
    let components: Vec<Box<dyn Component>> = vec![Box::new(Positioned::new(game, heaps))];
    let req = sg_request(
        misere,
        rule,
        max_moves,
        limits(max_states, max_memory, max_work),
    )?;
    nimbus::api::host::clear_interrupt();
    let answer = guard.finish(api::sg::analyse(&components, &req))?;
    answer_to_py(py, &answer)
}

/// The nim-sequence of the heap game `moves` (`nimbus::api::sequence::of_rule`).
#[pyfunction]
#[pyo3(signature = (moves, name, upto=100, misere=false, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn sequence_heaps(
    py: Python<'_>,
    moves: Py<PyAny>,
    name: String,
    upto: u64,
    misere: bool,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let guard = Rc::new(Guard::new());
    let game = HeapGame {
        name,
        moves,
        guard: guard.clone(),
    };
    let req = api::sequence::Request {
        upto,
        misere,
        limits: limits(max_states, max_memory, max_work),
        ..Default::default()
    };
    nimbus::api::host::clear_interrupt();
    let answer = guard.finish(api::sequence::of_rule(&game, &req))?;
    answer_to_py(py, &answer)
}

/// Adds the callback functions to the module.
/// A partizan game given by `left(position)` and `right(position)`, and optionally
/// `regions(position)`, the independent positions it splits into.
struct Partizan {
    left: Py<PyAny>,
    right: Py<PyAny>,
    regions: Option<Py<PyAny>>,
    guard: Rc<Guard>,
}

impl Partizan {
    /// What `f(p)` returns (options, or regions), or none once a call has failed (its error
    /// is kept by the guard and raised when the answer comes back).
    fn listed(&self, f: &Py<PyAny>, p: &Pos) -> Vec<Pos> {
        if self.guard.failed() {
            return Vec::new();
        }
        Python::attach(|py| {
            self.guard.tick(py);
            let listed = || -> PyResult<Vec<Pos>> {
                let list = f.call1(py, (p.obj.clone_ref(py),))?;
                let mut out = Vec::new();
                for item in list.bind(py).try_iter()? {
                    out.push(Pos::new(item?)?);
                }
                Ok(out)
            };
            listed().unwrap_or_else(|e| {
                self.guard.fail(e);
                Vec::new()
            })
        })
    }
}

impl PartizanRuleset for Partizan {
    type Position = Pos;

    fn left_moves(&self, p: &Pos) -> Vec<Pos> {
        self.listed(&self.left, p)
    }

    fn right_moves(&self, p: &Pos) -> Vec<Pos> {
        self.listed(&self.right, p)
    }

    fn regions(&self, p: &Pos) -> Vec<Pos> {
        match &self.regions {
            Some(f) => self.listed(f, p),
            None => vec![p.clone()],
        }
    }

    fn show(&self, p: &Pos) -> String {
        format!("{p:?}")
    }
}

/// The value of a sum of positions of the partizan game `left`, `right`
/// (`nimbus::api::cgt::analyse_terms`), with its thermograph drawn under `picture`.
#[pyfunction]
#[pyo3(signature = (left, right, starts, name, max_moves=20, incentives=false, regions=None, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn cgt_positions(
    py: Python<'_>,
    left: Py<PyAny>,
    right: Py<PyAny>,
    starts: Vec<Bound<'_, PyAny>>,
    name: String,
    max_moves: usize,
    incentives: bool,
    regions: Option<Py<PyAny>>,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let guard = Rc::new(Guard::new());
    let mut terms: Vec<Box<dyn Term>> = Vec::new();
    // One ruleset (and so one memo of values) for all the positions.
    let memo = Rc::default();
    for s in starts {
        let rules = Partizan {
            left: left.clone_ref(py),
            right: right.clone_ref(py),
            regions: regions.as_ref().map(|f| f.clone_ref(py)),
            guard: guard.clone(),
        };
        terms.push(Box::new(Played::sharing(
            name.clone(),
            rules,
            Pos::new(s)?,
            Rc::clone(&memo),
        )));
    }
    let req = api::cgt::Request {
        max_moves,
        incentives,
        limits: limits(max_states, max_memory, max_work),
    };
    nimbus::api::host::clear_interrupt();
    let answer = guard.finish(api::cgt::analyse_terms(&terms, &req))?;
    crate::cgt_to_py(py, &answer)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cgt_positions, m)?)?;
    m.add_function(wrap_pyfunction!(sg_positions, m)?)?;
    m.add_function(wrap_pyfunction!(sg_heaps, m)?)?;
    m.add_function(wrap_pyfunction!(sequence_heaps, m)?)?;
    Ok(())
}
