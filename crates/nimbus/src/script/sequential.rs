//! Two-player zero-sum games written in Rhai.
//!
//! The script defines `fn start()` (or `fn start(args)`, given the arguments after the path),
//! `fn to_move(p)` (0 for the first player, 1 for the second), `fn moves(p)` (an array of
//! moves, any Rhai values), `fn play(p, m)` (the position after `m`) and `fn result(p)` (the
//! payoff for the first player at a terminal position, `()` while play goes on). Optional:
//! `fn reward(p, m)`, what the first player gains by the move `m` (score games, the
//! sum-of-rewards model), and `fn evaluate(p)`, a heuristic value for the first player.
//!
//! The engines count values for the side to move and expect the turn to pass at every move.
//! A script may give the same player several moves in a row (Choosing Carrot's extra moves):
//! there a forced pass of the other player is put in between, shown as `(pass)`; it changes no
//! value, only adds a ply to remoteness and principal variations.
//!
//! Moves are interned: each distinct move value gets a number once, so a move is a `Copy`
//! number for the engines and can be written back without its position.

use super::{arguments, display, Script, ScriptPos};
use crate::core::error::{Error, Result, Span};
use crate::sequential::{Game, Notation, Player, Value};
use rhai::Dynamic;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The move that passes the turn (see the module notes).
pub const PASS: u32 = u32::MAX;

/// A position of a sequential script: the script's value, whose turn it is, its result, and
/// whether the other player must first pass.
#[derive(Clone, Debug)]
pub struct SeqPos {
    /// The script's position.
    pub pos: ScriptPos,
    /// True when the other player must pass before `pos` is played.
    pub pass: bool,
    mover: Player,
    result: Option<Value>,
}

impl PartialEq for SeqPos {
    fn eq(&self, other: &Self) -> bool {
        self.pass == other.pass && self.pos == other.pos
    }
}

impl Eq for SeqPos {}

impl Hash for SeqPos {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pos.hash(state);
        self.pass.hash(state);
    }
}

/// A script's two-player game.
pub struct ScriptGame {
    script: Rc<Script>,
    start: Option<SeqPos>,
    moves: RefCell<Interned>,
    /// Whose turn it is and the result, by position: most moves of a game reach positions
    /// seen before, and these two calls are most of what a script costs per move.
    facts: RefCell<FxHashMap<ScriptPos, (Player, Option<Value>)>>,
    rewards: bool,
}

/// The facts cache is cleared when it grows past this many positions.
const FACTS_CAP: usize = 1 << 22;

#[derive(Default)]
struct Interned {
    ids: FxHashMap<ScriptPos, u32>,
    values: Vec<ScriptPos>,
}

const REQUIRED: [(&str, usize); 4] = [("to_move", 1), ("moves", 1), ("play", 2), ("result", 1)];

impl ScriptGame {
    /// The game of `script`, started from `start()` or `start(args)`.
    pub fn new(script: Rc<Script>, args: &[String]) -> Result<Self> {
        let missing: Vec<String> = REQUIRED
            .iter()
            .filter(|(f, n)| !script.has(f, *n))
            .map(|(f, n)| format!("fn {f}({})", ["p", "p, m"][n - 1]))
            .collect();
        if !missing.is_empty() || !(script.has("start", 0) || script.has("start", 1)) {
            let hint = if script.has("moves", 1) && !script.has("play", 2) {
                " (with only fn moves(p) it is an impartial game: analyse it as one)"
            } else {
                ""
            };
            let mut need = missing;
            if !(script.has("start", 0) || script.has("start", 1)) {
                need.insert(0, "fn start()".into());
            }
            return Err(Error::Script {
                span: place(&script),
                message: format!("a two-player game needs {} as well{hint}", need.join(", ")),
            });
        }
        let rewards = script.has("reward", 2);
        let mut g = ScriptGame {
            script,
            start: None,
            moves: RefCell::new(Interned::default()),
            facts: RefCell::new(FxHashMap::default()),
            rewards,
        };
        let s = &g.script;
        let value = if s.has("start", 1) {
            let values = arguments(args);
            s.call("start", vec![Dynamic::from(values.clone())], &|| {
                format!("start({})", display(&Dynamic::from(values.clone())))
            })?
        } else {
            if !args.is_empty() {
                return Err(Error::Script {
                    span: place(s),
                    message: format!(
                        "the script's fn start() takes no arguments, but {} were given (define \
                         fn start(args) to use them)",
                        args.len()
                    ),
                });
            }
            s.call("start", vec![], &|| "start()".into())?
        };
        let pos = s.position(value, &|| "start".into())?;
        let start = g.make(pos)?;
        g.start = Some(start);
        Ok(g)
    }

    /// The script.
    pub fn script(&self) -> &Rc<Script> {
        &self.script
    }

    fn make(&self, pos: ScriptPos) -> Result<SeqPos> {
        if let Some(&(mover, result)) = self.facts.borrow().get(&pos) {
            return Ok(SeqPos {
                pos,
                pass: false,
                mover,
                result,
            });
        }
        let s = &self.script;
        let v = pos.value();
        let who = s.call("to_move", vec![v.clone()], &|| {
            format!("to_move({})", display(v))
        })?;
        let mover = match (who.as_int(), who.clone().into_string()) {
            (Ok(0), _) => Player::First,
            (Ok(1), _) => Player::Second,
            (_, Ok(t)) if t == "first" => Player::First,
            (_, Ok(t)) if t == "second" => Player::Second,
            _ => {
                return Err(Error::Script {
                    span: place(s),
                    message: format!(
                        "to_move({}) returned {}: it must be 0 (the first player) or 1 (the \
                         second)",
                        display(v),
                        display(&who)
                    ),
                })
            }
        };
        let r = s.call("result", vec![v.clone()], &|| {
            format!("result({})", display(v))
        })?;
        let result = if r.is_unit() {
            None
        } else {
            Some(self.number(r, &|| format!("result({})", display(v)))?)
        };
        let mut facts = self.facts.borrow_mut();
        if facts.len() >= FACTS_CAP {
            facts.clear();
        }
        facts.insert(pos.clone(), (mover, result));
        Ok(SeqPos {
            pos,
            pass: false,
            mover,
            result,
        })
    }

    fn number(&self, r: Dynamic, what: &dyn Fn() -> String) -> Result<Value> {
        let bound = crate::sequential::MAX_RESULT;
        match r.as_int() {
            Ok(x) if crate::sequential::result_in_range(x) => Ok(x),
            Ok(x) => Err(Error::Script {
                span: place(&self.script),
                message: format!("{} is {x}: values must stay below {bound} in size", what()),
            }),
            Err(t) => Err(Error::Script {
                span: place(&self.script),
                message: format!("{} returned a {t}: it must be an integer", what()),
            }),
        }
    }

    fn try_moves(&self, p: &SeqPos, out: &mut Vec<u32>) -> Result<()> {
        if p.pass {
            out.push(PASS);
            return Ok(());
        }
        let s = &self.script;
        let v = p.pos.value();
        let what = || format!("moves({})", display(v));
        let list = s
            .call("moves", vec![v.clone()], &what)?
            .into_array()
            .map_err(|t| Error::Script {
                span: place(s),
                message: format!("{} returned a {t}, not an array of moves", what()),
            })?;
        let mut interned = self.moves.borrow_mut();
        for (i, m) in list.into_iter().enumerate() {
            let m = s.position(m, &|| format!("{} (move {})", what(), i + 1))?;
            let next = interned.values.len() as u32;
            let id = *interned.ids.entry(m.clone()).or_insert(next);
            if id == next {
                if next == PASS {
                    return Err(Error::Invalid("more than 2^32 - 1 distinct moves".into()));
                }
                interned.values.push(m);
            }
            out.push(id);
        }
        Ok(())
    }

    fn move_value(&self, m: u32) -> Dynamic {
        self.moves.borrow().values[m as usize].value().clone()
    }

    fn try_play(&self, p: &SeqPos, m: u32) -> Result<SeqPos> {
        if m == PASS {
            return self.make(p.pos.clone());
        }
        let s = &self.script;
        let (v, mv) = (p.pos.value(), self.move_value(m));
        let what = || format!("play({}, {})", display(v), display(&mv));
        let q = s.call("play", vec![v.clone(), mv.clone()], &what)?;
        let q = self.make(s.position(q, &what)?)?;
        Ok(if q.mover == p.mover {
            SeqPos { pass: true, ..q }
        } else {
            q
        })
    }

    /// A stand-in position after an error: terminal, so that the engines stop soon.
    fn dead(&self, p: &SeqPos) -> SeqPos {
        SeqPos {
            pos: p.pos.clone(),
            pass: false,
            mover: p.mover,
            result: Some(0),
        }
    }

    /// The first error the script raised.
    pub fn error(&self) -> Option<Error> {
        self.script.error()
    }
}

fn place(s: &Script) -> Span {
    Span {
        source: s.path().into(),
        line: 0,
        column: 0,
    }
}

fn signed(mover: Player, first: Value) -> Value {
    match mover {
        Player::First => first,
        Player::Second => -first,
    }
}

impl Game for ScriptGame {
    type Position = SeqPos;
    type Move = u32;

    fn start(&self) -> SeqPos {
        self.start.clone().expect("set by new")
    }

    fn moves(&self, p: &SeqPos, out: &mut Vec<u32>) {
        if self.script.failed() {
            return;
        }
        if let Err(e) = self.try_moves(p, out) {
            out.clear();
            self.script.fail(e);
        }
    }

    fn play(&self, p: &SeqPos, m: u32) -> SeqPos {
        if self.script.failed() {
            return self.dead(p);
        }
        match self.try_play(p, m) {
            Ok(q) => q,
            Err(e) => {
                self.script.fail(e);
                self.dead(p)
            }
        }
    }

    fn outcome(&self, p: &SeqPos) -> Option<Value> {
        if self.script.failed() {
            return Some(0);
        }
        if p.pass {
            return None;
        }
        p.result.map(|r| signed(p.mover, r))
    }

    fn to_move(&self, p: &SeqPos) -> Player {
        if p.pass {
            p.mover.other()
        } else {
            p.mover
        }
    }

    fn has_rewards(&self) -> bool {
        self.rewards
    }

    fn reward(&self, p: &SeqPos, m: u32) -> Value {
        if !self.rewards || m == PASS || self.script.failed() {
            return 0;
        }
        let s = &self.script;
        let (v, mv) = (p.pos.value(), self.move_value(m));
        let what = || format!("reward({}, {})", display(v), display(&mv));
        let r = s
            .call("reward", vec![v.clone(), mv.clone()], &what)
            .and_then(|r| self.number(r, &what));
        match r {
            Ok(x) => signed(p.mover, x),
            Err(e) => {
                s.fail(e);
                0
            }
        }
    }

    fn evaluate(&self, p: &SeqPos) -> Value {
        let s = &self.script;
        if !s.has("evaluate", 1) || s.failed() {
            return 0;
        }
        let v = p.pos.value();
        let what = || format!("evaluate({})", display(v));
        match s
            .call("evaluate", vec![v.clone()], &what)
            .and_then(|r| self.number(r, &what))
        {
            Ok(x) => signed(self.to_move(p), x),
            Err(e) => {
                s.fail(e);
                0
            }
        }
    }
}

impl Notation for ScriptGame {
    /// Moves separated by spaces, each written as [`Notation::show_move`] writes it (spaces
    /// inside a move left out: `[1,2]` for the array `[1, 2]`).
    fn parse_position(&self, text: &str) -> Result<SeqPos> {
        let mut p = self.start();
        for (i, token) in text.split_whitespace().enumerate() {
            let m = self.parse_move(&p, token).map_err(|e| match e {
                Error::Invalid(m) => Error::Invalid(format!("move {} '{token}': {m}", i + 1)),
                e => e,
            })?;
            p = self.play(&p, m);
            if let Some(e) = self.error() {
                return Err(e);
            }
            // A forced pass is not typed.
            if p.pass {
                p = self.play(&p, PASS);
            }
        }
        Ok(p)
    }

    fn parse_move(&self, p: &SeqPos, text: &str) -> Result<u32> {
        if p.pass {
            return Ok(PASS);
        }
        if p.result.is_some() {
            return Err(Error::Invalid("the game is over".into()));
        }
        let mut moves = Vec::new();
        self.moves(p, &mut moves);
        if let Some(e) = self.error() {
            return Err(e);
        }
        let want: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let shown: Vec<String> = moves.iter().map(|&m| self.show_move(m)).collect();
        for (&m, s) in moves.iter().zip(&shown) {
            let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
            if s == want {
                return Ok(m);
            }
        }
        Err(Error::Invalid(format!(
            "not a legal move here; the legal moves are {}",
            if shown.is_empty() {
                "none".to_string()
            } else {
                shown.join(" ")
            }
        )))
    }

    fn show_move(&self, m: u32) -> String {
        if m == PASS {
            return "(pass)".into();
        }
        self.move_value(m).to_string()
    }

    fn show_position(&self, p: &SeqPos) -> String {
        self.script.show(p.pos.value())
    }

    fn forced(&self, p: &SeqPos) -> Option<u32> {
        p.pass.then_some(PASS)
    }

    fn explain(&self, p: &SeqPos, v: Value) -> String {
        let first = signed(self.to_move(p), v);
        format!(
            "{} for the side to move; {first} for the first player",
            crate::sequential::result_word(v)
        )
    }
}
