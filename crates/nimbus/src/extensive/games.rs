//! Built-in trees.
//!
//! Kuhn poker (Kuhn 1950), as everyone states it: a deck of three cards J < Q < K; each
//! player antes 1 and is dealt one card; the first player checks or bets 1; after a check
//! the second player checks (showdown for the antes) or bets 1, and the first player then
//! folds or calls; after a bet the second player folds or calls. At a showdown the higher card
//! wins the pot. The first player's value is −1/18.

use super::{Builder, Mover, Tree};
use crate::strategic::Q;
use std::collections::HashMap;

/// The names of the built-in trees.
pub const NAMES: &[&str] = &["kuhn"];

/// The built-in tree called `name`, if there is one.
pub fn builtin(name: &str) -> Option<Tree> {
    match name.trim().to_ascii_lowercase().as_str() {
        "kuhn" | "kuhn-poker" => Some(kuhn()),
        _ => None,
    }
}

fn q(n: i64) -> Q {
    Q::from_integer(n.into())
}

/// Kuhn poker (see the module's rules).
pub fn kuhn() -> Tree {
    const CARDS: [&str; 3] = ["J", "Q", "K"];
    let mut b = Builder::new("Kuhn poker", &["Player 1", "Player 2"]);
    let deals: Vec<(usize, usize)> = (0..3)
        .flat_map(|i| (0..3).filter(move |&j| j != i).map(move |j| (i, j)))
        .collect();
    let names: Vec<String> = deals
        .iter()
        .map(|&(i, j)| format!("{}{}", CARDS[i], CARDS[j]))
        .collect();
    let labels: Vec<&str> = names.iter().map(String::as_str).collect();
    let deal = b.infoset(
        Mover::Chance,
        "deal",
        &labels,
        vec![Q::new(1.into(), 6.into()); 6],
    );
    let root = b.node(None, Some(deal), None);
    // Information sets by (player, what they know: own card and the betting so far).
    let mut sets: HashMap<(usize, String), usize> = HashMap::new();
    let mut set = |b: &mut Builder, p: usize, key: String, actions: &[&str]| -> usize {
        *sets
            .entry((p, key.clone()))
            .or_insert_with(|| b.infoset(Mover::Player(p), &key, actions, Vec::new()))
    };
    for (d, &(c1, c2)) in deals.iter().enumerate() {
        // The showdown payoff to player 1 when the pot holds `stake` from each.
        let show = |stake: i64| if c1 > c2 { stake } else { -stake };
        let leaf = |b: &mut Builder, parent: (usize, usize), p1: i64| {
            b.node(Some(parent), None, Some(vec![q(p1), q(-p1)]));
        };
        let h = set(&mut b, 0, CARDS[c1].to_string(), &["check", "bet"]);
        let first = b.node(Some((root, d)), Some(h), None);
        // Check.
        let h = set(&mut b, 1, format!("{}c", CARDS[c2]), &["check", "bet"]);
        let after_check = b.node(Some((first, 0)), Some(h), None);
        leaf(&mut b, (after_check, 0), show(1));
        let h = set(&mut b, 0, format!("{}cb", CARDS[c1]), &["fold", "call"]);
        let facing = b.node(Some((after_check, 1)), Some(h), None);
        leaf(&mut b, (facing, 0), -1);
        leaf(&mut b, (facing, 1), show(2));
        // Bet.
        let h = set(&mut b, 1, format!("{}b", CARDS[c2]), &["fold", "call"]);
        let after_bet = b.node(Some((first, 1)), Some(h), None);
        leaf(&mut b, (after_bet, 0), 1);
        leaf(&mut b, (after_bet, 1), show(2));
    }
    b.finish().expect("Kuhn poker is a well-formed tree")
}
