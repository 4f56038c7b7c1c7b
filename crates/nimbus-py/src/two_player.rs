//! Two-player games written as Python functions, as the Rhai scripts are: `start`, `to_move(p)`
//! (0 for the first player, 1 for the second), `moves(p)`, `play(p, m)`, and `result(p)`
//! (None while play goes on, else the value for the first player). When a player moves twice
//! in a row the other is given a forced pass, so that the engines' alternation holds.

use crate::callbacks::{repr, Guard, Pos};
use crate::{answer_to_py, limits};
use nimbus::api;
use nimbus::api::custom::{Game, Notation, Player, Value};
use nimbus::api::Error;
use pyo3::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

const PASS: u32 = u32::MAX;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct SeqPos {
    pos: Pos,
    /// The other player must pass before `pos` is played on.
    pass: bool,
    mover: bool,
    result: Option<Value>,
}

struct TwoPlayer {
    name: String,
    start: Option<SeqPos>,
    to_move: Py<PyAny>,
    moves: Py<PyAny>,
    play: Py<PyAny>,
    result: Py<PyAny>,
    guard: Rc<Guard>,
    interned: RefCell<(HashMap<Pos, u32>, Vec<Pos>)>,
}

impl TwoPlayer {
    fn make(&self, py: Python<'_>, pos: Pos) -> PyResult<SeqPos> {
        let mover: u8 = self
            .to_move
            .call1(py, (pos.obj.clone_ref(py),))?
            .extract(py)?;
        let result: Option<Value> = self
            .result
            .call1(py, (pos.obj.clone_ref(py),))?
            .extract(py)?;
        if let Some(r) = result.filter(|&r| !nimbus::api::custom::result_in_range(r)) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{}: result({}) is {r}: results must stay below {} in size",
                self.name,
                repr(pos.obj.bind(py)),
                nimbus::api::custom::MAX_RESULT
            )));
        }
        if mover > 1 {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{}: to_move({}) gave {mover}: use 0 for the first player, 1 for the second",
                self.name,
                repr(pos.obj.bind(py))
            )));
        }
        Ok(SeqPos {
            pos,
            pass: false,
            mover: mover == 1,
            result,
        })
    }

    fn intern(&self, m: Pos) -> u32 {
        let mut t = self.interned.borrow_mut();
        if let Some(&id) = t.0.get(&m) {
            return id;
        }
        let id = t.1.len() as u32;
        t.1.push(m.clone());
        t.0.insert(m, id);
        id
    }

    fn try_moves(&self, py: Python<'_>, p: &SeqPos) -> PyResult<Vec<u32>> {
        let list = self.moves.call1(py, (p.pos.obj.clone_ref(py),))?;
        let mut out = Vec::new();
        for m in list.bind(py).try_iter()? {
            out.push(self.intern(Pos::new(m?)?));
        }
        Ok(out)
    }

    fn try_play(&self, py: Python<'_>, p: &SeqPos, m: u32) -> PyResult<SeqPos> {
        let mv = self.interned.borrow().1[m as usize].obj.clone_ref(py);
        let next = self.play.call1(py, (p.pos.obj.clone_ref(py), mv))?;
        let q = self.make(py, Pos::new(next.into_bound(py))?)?;
        // The same player again: the other passes first.
        Ok(SeqPos {
            pass: q.mover == p.mover,
            ..q
        })
    }

    fn dead(&self, p: &SeqPos) -> SeqPos {
        SeqPos {
            pass: false,
            result: Some(0),
            ..p.clone()
        }
    }
}

impl Game for TwoPlayer {
    type Position = SeqPos;
    type Move = u32;

    fn start(&self) -> SeqPos {
        self.start.clone().expect("set when made")
    }

    fn moves(&self, p: &SeqPos, out: &mut Vec<u32>) {
        if self.guard.failed() {
            return;
        }
        if p.pass {
            out.push(PASS);
            return;
        }
        Python::attach(|py| {
            self.guard.tick(py);
            match self.try_moves(py, p) {
                Ok(v) => out.extend(v),
                Err(e) => self.guard.fail(e),
            }
        });
    }

    fn play(&self, p: &SeqPos, m: u32) -> SeqPos {
        if self.guard.failed() {
            return self.dead(p);
        }
        if m == PASS {
            return SeqPos {
                pass: false,
                ..p.clone()
            };
        }
        Python::attach(|py| match self.try_play(py, p, m) {
            Ok(q) => q,
            Err(e) => {
                self.guard.fail(e);
                self.dead(p)
            }
        })
    }

    fn outcome(&self, p: &SeqPos) -> Option<Value> {
        if self.guard.failed() {
            return Some(0);
        }
        if p.pass {
            return None;
        }
        // `result` is the first player's; the engines want the side to move's.
        p.result.map(|r| if p.mover { -r } else { r })
    }

    fn to_move(&self, p: &SeqPos) -> Player {
        match p.mover != p.pass {
            false => Player::First,
            true => Player::Second,
        }
    }
}

impl Notation for TwoPlayer {
    fn parse_position(&self, text: &str) -> nimbus::api::Result<SeqPos> {
        let mut p = self.start();
        for word in text.split_whitespace() {
            if p.pass {
                p = self.play(&p, PASS);
            }
            let m = self.parse_move(&p, word)?;
            p = self.play(&p, m);
        }
        Ok(p)
    }

    fn parse_move(&self, p: &SeqPos, text: &str) -> nimbus::api::Result<u32> {
        let mut legal = Vec::new();
        self.moves(p, &mut legal);
        let shown: Vec<String> = legal.iter().map(|&m| self.show_move(m)).collect();
        match shown.iter().position(|s| s == text) {
            Some(i) => Ok(legal[i]),
            None => Err(Error::Invalid(format!(
                "`{text}` is not a legal move here; the moves are: {}",
                shown.join(" ")
            ))),
        }
    }

    fn show_move(&self, m: u32) -> String {
        if m == PASS {
            return "pass".into();
        }
        let t = self.interned.borrow();
        Python::attach(|py| {
            let obj = t.1[m as usize].obj.bind(py);
            obj.str()
                .map(|s| s.to_string())
                .unwrap_or_else(|_| repr(obj))
        })
    }

    fn show_position(&self, p: &SeqPos) -> String {
        Python::attach(|py| repr(p.pos.obj.bind(py)))
    }

    fn forced(&self, p: &SeqPos) -> Option<u32> {
        p.pass.then_some(PASS)
    }
}

/// A two-player game written in Python, solved by the library's engines
/// (`nimbus::api::solve::solve_explored`).
#[pyfunction]
#[pyo3(signature = (start, to_move, moves, play, result, name, position=None, all=false, method=None, depth=None, time_limit=None, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn solve_callbacks(
    py: Python<'_>,
    start: Bound<'_, PyAny>,
    to_move: Py<PyAny>,
    moves: Py<PyAny>,
    play: Py<PyAny>,
    result: Py<PyAny>,
    name: String,
    position: Option<String>,
    all: bool,
    method: Option<&str>,
    depth: Option<u32>,
    time_limit: Option<f64>,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let guard = Rc::new(Guard::new());
    let mut game = TwoPlayer {
        name: name.clone(),
        start: None,
        to_move,
        moves,
        play,
        result,
        guard: guard.clone(),
        interned: RefCell::new((HashMap::new(), Vec::new())),
    };
    game.start = Some(game.make(py, Pos::new(start)?)?);
    let req = api::solve::Request {
        position,
        method: crate::callbacks::search_method(method)?,
        depth,
        time_limit,
        all,
        limits: limits(max_states, max_memory, max_work),
        ..Default::default()
    };
    nimbus::api::host::clear_interrupt();
    let answer = guard.finish(api::solve::solve_explored(&game, &name, &req))?;
    answer_to_py(py, &answer)
}

/// Adds the function to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve_callbacks, m)?)
}
