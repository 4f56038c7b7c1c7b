//! Gambit's `.nfg` format (version 1), read and written.
//!
//! ```text
//! NFG 1 R "title" { "Player 1" "Player 2" } { 3 2 }        payoff form: the number of
//! "optional comment"                                         strategies of each player, then
//! 1 1 0 2 ...                                                every profile's payoffs, the
//!                                                            first player's strategy fastest
//! NFG 1 R "title" { "P1" "P2" }                              outcome form: strategy names,
//! { { "U" "D" } { "L" "R" } } ""                             named outcomes with payoffs,
//! { { "o1" 1, 1 } { "o2" 0, 2 } }                            then the outcome number of each
//! 1 2 0 1                                                    profile (0: every payoff 0)
//! ```
//!
//! Payoffs may be integers, decimals or fractions, and are kept exactly. Every error names the
//! line and column of the offending token.

use super::gambit::{describe, quote, Reader, Tok};
use crate::core::error::{Error, Result};
use crate::exact::{show, Q};
use crate::strategic::game::{profile_count, NormalForm};
use num_traits::Zero;

/// Parses a game in `.nfg` format; `source` names it in errors.
// Kept as one function: a parser reads the file's parts in the order they stand, each a few lines
// on the one token reader; split, the pieces would pass the reader and the half-built game along.
pub fn parse(text: &str, source: &str) -> Result<NormalForm> {
    let mut r = Reader::new(text, source)?;
    let span = r.span();
    match r.next("'NFG'")? {
        (Tok::Word(w), _) if w == "NFG" => {}
        (t, _) => {
            return Err(Error::parse(
                span,
                format!("a .nfg file starts with 'NFG 1 R', found {}", describe(&t)),
            ))
        }
    }
    let span = r.span();
    match r.next("the version 1")? {
        (Tok::Word(w), _) if w == "1" => {}
        (t, _) => {
            return Err(Error::parse(
                span,
                format!(
                    "only version 1 of the format is known, found {}",
                    describe(&t)
                ),
            ))
        }
    }
    r.precision()?;
    let title = r.text("the title")?;
    r.expect(Tok::Open, "'{' before the players' names")?;
    let players = r.names("a player's name")?;
    if players.is_empty() {
        return Err(Error::parse(r.span(), "the game has no players"));
    }
    let dims_span = r.span();
    r.expect(Tok::Open, "'{' before the strategies")?;
    if r.peek() == Some(&Tok::Open) {
        // Outcome form: strategy names per player.
        let mut strategies = Vec::new();
        for (i, player) in players.iter().enumerate() {
            let span = r.span();
            r.expect(Tok::Open, "'{' before a player's strategy names")?;
            let names = r.names("a strategy name")?;
            if names.is_empty() {
                return Err(Error::parse(
                    span,
                    format!("player {} ({player}) has no strategies", i + 1),
                ));
            }
            strategies.push(names);
        }
        r.expect(Tok::Close, "'}' after the strategy lists")?;
        r.skip_comment();
        let shape: Vec<usize> = strategies.iter().map(Vec::len).collect();
        if r.peek() != Some(&Tok::Open) {
            // Named strategies followed by a plain payoff list (as in Gambit's own files).
            let payoffs = payoff_list(&mut r, &shape, players.len())?;
            return NormalForm::new(title, players, strategies, payoffs);
        }
        r.expect(Tok::Open, "'{' before the outcomes")?;
        let mut outcomes: Vec<Vec<Q>> = Vec::new();
        while r.peek() == Some(&Tok::Open) {
            r.skip();
            r.text("the outcome's name")?;
            let mut pay = Vec::new();
            for i in 0..players.len() {
                if i > 0 && r.peek() == Some(&Tok::Comma) {
                    r.skip();
                }
                pay.push(r.number("a payoff")?);
            }
            r.expect(
                Tok::Close,
                &format!("'}}' after the outcome's {} payoffs", players.len()),
            )?;
            outcomes.push(pay);
        }
        r.expect(Tok::Close, "'}' after the outcomes")?;
        let count = profile_count(&shape)? as usize;
        // Room for what the file can hold, not for what its header claims: a short file
        // declaring millions of profiles is an error after a few tokens, not an allocation
        // of gigabytes.
        let mut payoffs = Vec::with_capacity(count.min(r.most_left()));
        for k in 0..count {
            let span = r.span();
            let o = r.count(&format!("the outcome of profile {} of {count}", k + 1))?;
            payoffs.push(match o {
                0 => vec![Q::zero(); players.len()],
                o if o <= outcomes.len() => outcomes[o - 1].clone(),
                o => {
                    return Err(Error::parse(
                        span,
                        format!(
                            "there is no outcome {o}: the file defines {}",
                            outcomes.len()
                        ),
                    ))
                }
            });
        }
        extra(&mut r)?;
        return NormalForm::new(title, players, strategies, payoffs);
    }
    let mut shape = Vec::new();
    while r.peek() != Some(&Tok::Close) {
        let span = r.span();
        let n = r.count("a number of strategies")?;
        if n == 0 {
            return Err(Error::parse(span, "a player has no strategies (0)"));
        }
        shape.push(n);
    }
    r.skip();
    if shape.len() != players.len() {
        return Err(Error::parse(
            dims_span,
            format!(
                "{} players but {} numbers of strategies",
                players.len(),
                shape.len()
            ),
        ));
    }
    r.skip_comment();
    let payoffs = payoff_list(&mut r, &shape, players.len())?;
    let strategies = shape
        .iter()
        .map(|&n| (1..=n).map(|s| s.to_string()).collect())
        .collect();
    NormalForm::new(title, players, strategies, payoffs)
}

/// Every profile's payoffs, first player fastest, to the end of the file.
fn payoff_list(r: &mut Reader, shape: &[usize], players: usize) -> Result<Vec<Vec<Q>>> {
    let count = profile_count(shape)? as usize;
    let want = count * players;
    // As for outcomes: room for the numbers the file holds, not the header's claim.
    let mut flat = Vec::with_capacity(want.min(r.most_left()));
    while r.peek().is_some() && flat.len() < want {
        flat.push(r.number("a payoff")?);
    }
    if flat.len() < want {
        return Err(Error::parse(
            r.span(),
            format!(
                "the payoff list has {} numbers, but {count} profiles of {players} players need \
                 {want}",
                flat.len(),
            ),
        ));
    }
    extra(r)?;
    Ok(flat.chunks(players).map(<[Q]>::to_vec).collect())
}

fn extra(r: &mut Reader) -> Result<()> {
    match r.ahead() {
        None => Ok(()),
        Some((t, span)) => Err(Error::parse(
            span,
            format!(
                "unexpected {} after the end of the game (too many payoffs?)",
                describe(t)
            ),
        )),
    }
}

/// Writes `game` in the outcome form, which keeps the strategy names: one outcome per
/// profile, numbered in profile order.
pub fn write(game: &NormalForm) -> String {
    let mut s = format!("NFG 1 R {} {{", quote(&game.title));
    for p in &game.players {
        s.push(' ');
        s.push_str(&quote(p));
    }
    s.push_str(" }\n\n{\n");
    for names in &game.strategies {
        s.push_str("{ ");
        for n in names {
            s.push_str(&quote(n));
            s.push(' ');
        }
        s.push_str("}\n");
    }
    s.push_str("}\n\"\"\n\n{\n");
    for k in 0..game.profiles() {
        let pay: Vec<String> = game.payoffs_at(k).iter().map(show).collect();
        s.push_str(&format!("{{ \"\" {} }}\n", pay.join(", ")));
    }
    s.push_str("}\n");
    let numbers: Vec<String> = (1..=game.profiles()).map(|k| k.to_string()).collect();
    s.push_str(&numbers.join(" "));
    s.push('\n');
    s
}
