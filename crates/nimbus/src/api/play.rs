//! A game against the solver, one call a turn: [`view`] says what the position of a game being
//! played is (the board, whose turn, a forced move, the end), and [`reply`] gives the solver's
//! move there. The position is the moves played from the start, as in [`super::solve`], so a
//! front-end keeps no game state of its own: the command line's `nimbus play` and the web
//! page's board both append moves to a string and ask again.

use super::solve::{script_game, search_limits, side_name};
use super::ScriptOptions;
use crate::catalog::sequential::Builtin;
use crate::core::error::{Error, Result};
use crate::sequential::games::connect4::Connect4;
use crate::sequential::search::{search, Method};
use crate::sequential::{Notation, Value};

pub use crate::sequential::Player;
use serde::Serialize;
use std::hash::Hash;

/// A position of a game played against the solver.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The moves played from the start, in the game's notation, separated by spaces.
    pub position: String,
    /// For [`reply`]: search this many plies, then use the game's evaluation.
    pub depth: Option<u32>,
    /// For [`reply`]: think at most this many seconds.
    pub time_limit: Option<f64>,
    /// Limits on a script game (`script:FILE`).
    pub script: ScriptOptions,
    /// For [`reply`] in Connect Four: an opening book file (written by [`super::solve::solve`]
    /// with `book` and `save`) that answers the positions it holds without a search.
    pub db: Option<String>,
}

/// How a game ended.
#[derive(Debug, Clone, Serialize)]
pub struct End {
    /// The winner; none for a draw or a score game.
    pub winner: Option<Player>,
    /// For a score game: the first player's total over the moves played.
    pub first_total: Option<Value>,
}

/// What a position of a game being played is.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The board, drawn.
    pub board: String,
    /// Whose turn it is.
    pub to_move: Player,
    /// Whose turn it is, in words ("first player").
    pub side: &'static str,
    /// The one move the side to move has (a pass, in games where a player may move twice).
    pub forced: Option<String>,
    /// When no move is left: how the game ended.
    pub over: Option<End>,
}

/// The solver's move at a position.
#[derive(Debug, Clone, Serialize)]
pub struct Reply {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether the search finished: the move is then perfect play.
    pub exact: bool,
    /// With an exact search: what the position's value means ("wins in 5 plies").
    pub meaning: Option<String>,
    /// Seconds the search took.
    pub seconds: f64,
    /// Plies searched, when the search stopped early.
    pub depth: Option<u32>,
    /// Whether the move came from the opening book, without a search.
    pub book: bool,
}

/// The position `req.position` of `game` (a built-in name, or `script:FILE ARG…`).
pub fn view(game: &str, req: &Request) -> Result<View> {
    on_game(game, req, &ViewOf)
}

/// The solver's move at `req.position` of `game`, within `req`'s depth and time; an error
/// when the game is over there.
pub fn reply(game: &str, req: &Request) -> Result<Reply> {
    on_game(game, req, &ReplyAt)
}

/// A question about one position of any game.
trait Ask {
    type Answer;
    fn ask<G>(&self, g: &G, req: &Request) -> Result<Self::Answer>
    where
        G: Notation,
        G::Position: Hash + Eq;

    /// The question asked of Connect Four, which may have an opening book.
    fn ask_connect4(&self, g: &Connect4, req: &Request) -> Result<Self::Answer> {
        self.ask(g, req)
    }
}

/// Asks `question` of `game`; a script's failed call is the error, whatever the answer.
fn on_game<A: Ask>(game: &str, req: &Request, question: &A) -> Result<A::Answer> {
    if let Some(rest) = game.strip_prefix("script:") {
        let (g, _) = script_game(rest, &req.script)?;
        let answer = question.ask(&g, req);
        return match g.error() {
            Some(e) => Err(e),
            None => answer,
        };
    }
    match Builtin::parse(game)? {
        Builtin::TicTacToe(g) => question.ask(&g, req),
        Builtin::Connect4(g) => question.ask_connect4(&g, req),
        Builtin::Nim(g) => question.ask(&g, req),
        Builtin::CoinGrid(g) => question.ask(&g, req),
        Builtin::Carrot(_) => Err(Error::Invalid(
            "carrot is answered for every k at once by solving it; it has no board to play on"
                .into(),
        )),
    }
}

/// The position the moves reach, and the first player's total of rewards along them.
fn replay<G: Notation>(g: &G, moves: &str) -> Result<(G::Position, Value)> {
    let mut p = g.start();
    let mut total: Value = 0;
    for word in moves.split_whitespace() {
        let m = g.parse_move(&p, word)?;
        let r = g.reward(&p, m);
        total += if g.to_move(&p) == Player::First {
            r
        } else {
            -r
        };
        p = g.play(&p, m);
    }
    Ok((p, total))
}

struct ViewOf;

impl Ask for ViewOf {
    type Answer = View;
    fn ask<G>(&self, g: &G, req: &Request) -> Result<View>
    where
        G: Notation,
        G::Position: Hash + Eq,
    {
        let (p, total) = replay(g, &req.position)?;
        let mut moves = Vec::new();
        if g.outcome(&p).is_none() {
            g.moves(&p, &mut moves);
        }
        let mover = g.to_move(&p);
        let over = moves.is_empty().then(|| {
            if g.has_rewards() {
                End {
                    winner: None,
                    first_total: Some(total),
                }
            } else {
                let v = g.outcome(&p).unwrap_or(0);
                End {
                    winner: match v {
                        0 => None,
                        v if v > 0 => Some(mover),
                        _ => Some(mover.other()),
                    },
                    first_total: None,
                }
            }
        });
        Ok(View {
            board: g.show_position(&p),
            to_move: mover,
            side: side_name(g, &p),
            forced: if over.is_none() {
                g.forced(&p).map(|m| g.show_move(m))
            } else {
                None
            },
            over,
        })
    }
}

struct ReplyAt;

impl Ask for ReplyAt {
    type Answer = Reply;
    fn ask<G>(&self, g: &G, req: &Request) -> Result<Reply>
    where
        G: Notation,
        G::Position: Hash + Eq,
    {
        let (p, _) = replay(g, &req.position)?;
        let limits = search_limits(req.depth, req.time_limit, 22, &super::Limits::default())?;
        let r = search(g, &p, Method::Auto, &limits, u64::MAX)?;
        let Some(&m) = r.pv.first().or(r.best_moves.first()) else {
            return Err(Error::Invalid(
                "the game is over at this position: the solver has no move".into(),
            ));
        };
        Ok(Reply {
            mv: g.show_move(m),
            exact: r.exact,
            // An unfinished search's score is an estimate: never shown as a distance to a win.
            meaning: r.exact.then(|| g.explain(&p, r.value)),
            seconds: r.elapsed.as_secs_f64(),
            depth: r.depth,
            book: false,
        })
    }

    /// With a book that holds the scores of every move: its first best move (centre first
    /// among equals), exact; without one, or beyond it, the search's.
    fn ask_connect4(&self, g: &Connect4, req: &Request) -> Result<Reply> {
        let Some(path) = req.db.as_deref() else {
            return self.ask(g, req);
        };
        crate::core::input::may_read(path)?;
        let started = std::time::Instant::now();
        let book = super::solve::read_book(g, path, super::Limits::default().max_memory)?;
        let (p, _) = replay(g, &req.position)?;
        let Some((c, best)) = book.best_move(g, &p) else {
            return self.ask(g, req);
        };
        Ok(Reply {
            mv: g.show_move(c),
            exact: true,
            meaning: Some(g.explain(&p, best)),
            seconds: started.elapsed().as_secs_f64(),
            depth: None,
            book: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tic-tac-toe played through the calls reaches the same end as the game itself: the
    /// solver against itself draws, and a finished line is won by the player who made it.
    #[test]
    fn turns_through_the_api() {
        let mut req = Request::default();
        loop {
            let v = view("tictactoe", &req).unwrap();
            if let Some(end) = v.over {
                assert!(end.winner.is_none(), "perfect play draws: {}", req.position);
                break;
            }
            let r = reply("tictactoe", &req).unwrap();
            assert!(r.exact && r.meaning.is_some());
            req.position = format!("{} {}", req.position, r.mv).trim().to_string();
        }
        assert_eq!(req.position.split_whitespace().count(), 9);
        let won = Request {
            position: "1 4 2 5 3".into(),
            ..Request::default()
        };
        let end = view("tictactoe", &won).unwrap().over.unwrap();
        assert_eq!(end.winner, Some(Player::First));
        assert!(reply("tictactoe", &won).is_err());
        let illegal = Request {
            position: "1 1".into(),
            ..Request::default()
        };
        assert!(view("tictactoe", &illegal).is_err());
        assert!(view("carrot:1,2", &Request::default()).is_err());
    }
}
