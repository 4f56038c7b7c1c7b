//! Built-in trees.
//!
//! Kuhn poker (Kuhn 1950), as everyone states it: a deck of three cards J < Q < K; each
//! player antes 1 and is dealt one card; the first player checks or bets 1; after a check
//! the second player checks (showdown for the antes) or bets 1, and the first player then
//! folds or calls; after a bet the second player folds or calls. At a showdown the higher card
//! wins the pot. The first player's value is −1/18.
//!
//! Leduc hold'em (Southey et al. 2005): a deck of six cards, J, Q and K in two suits; each
//! player antes 1 and is dealt one private card; a betting round; one public card is turned;
//! a second betting round; then a showdown, where a player whose card pairs the public card
//! wins, and otherwise the higher card (equal ranks split the pot). In each round the first
//! player acts first, a bet or raise is 2 in the first round and 4 in the second, and at most
//! two of them are made per round (bet and raise): check or bet; after a check, check (the
//! round ends) or bet; facing a bet, fold, call (the round ends) or raise; facing a raise,
//! fold or call. Suits matter only for pairs, so a player's information is the ranks of the
//! cards seen and the betting: 144 information sets each (936 in implementations that tell
//! suits apart, which is the same game up to relabelling).

use super::{Builder, Mover, Tree};
use crate::exact::Q;
use std::collections::HashMap;

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

/// Where a Leduc betting round stands: the actions so far in the round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Round {
    Open,
    Checked,
    Bet,
    CheckBet,
    Raised,
    CheckRaised,
}

impl Round {
    /// Who acts (0 or 1) and the actions open.
    fn turn(self) -> (usize, &'static [&'static str]) {
        match self {
            Round::Open => (0, &["check", "bet"]),
            Round::Checked => (1, &["check", "bet"]),
            Round::Bet => (1, &["fold", "call", "raise"]),
            Round::CheckBet => (0, &["fold", "call", "raise"]),
            Round::Raised => (0, &["fold", "call"]),
            Round::CheckRaised => (1, &["fold", "call"]),
        }
    }

    fn letters(self) -> &'static str {
        match self {
            Round::Open => "",
            Round::Checked => "c",
            Round::Bet => "b",
            Round::CheckBet => "cb",
            Round::Raised => "br",
            Round::CheckRaised => "cbr",
        }
    }
}

/// A Leduc node still to be built.
#[derive(Clone, Debug)]
struct Pending {
    parent: (usize, usize),
    cards: (usize, usize),
    public: Option<usize>,
    first_round: &'static str,
    round: Round,
    put: [i64; 2],
}

/// Leduc hold'em (see the module's rules).
// Kept as one function: the game's definition, the tree written out round by round: data more than
// logic.
pub fn leduc() -> Tree {
    const RANKS: [&str; 3] = ["J", "Q", "K"];
    let mut b = Builder::new("Leduc hold'em", &["Player 1", "Player 2"]);
    // The private deal by ranks: a pair of equal ranks has 2/6 · 1/5, of different ranks
    // 2/6 · 2/5.
    let deals: Vec<(usize, usize)> = (0..3).flat_map(|i| (0..3).map(move |j| (i, j))).collect();
    let names: Vec<String> = deals
        .iter()
        .map(|&(i, j)| format!("{}{}", RANKS[i], RANKS[j]))
        .collect();
    let labels: Vec<&str> = names.iter().map(String::as_str).collect();
    let probs = deals
        .iter()
        .map(|&(i, j)| Q::new(if i == j { 1 } else { 2 }.into(), 15.into()))
        .collect();
    let deal = b.infoset(Mover::Chance, "deal", &labels, probs);
    let root = b.node(None, Some(deal), None);
    let mut sets: HashMap<(usize, String), usize> = HashMap::new();
    let mut stack: Vec<Pending> = deals
        .iter()
        .enumerate()
        .rev()
        .map(|(d, &cards)| Pending {
            parent: (root, d),
            cards,
            public: None,
            first_round: "",
            round: Round::Open,
            put: [1, 1],
        })
        .collect();
    while let Some(p) = stack.pop() {
        let (who, actions) = p.round.turn();
        let own = if who == 0 { p.cards.0 } else { p.cards.1 };
        let key = match p.public {
            None => format!("{}:{}", RANKS[own], p.round.letters()),
            Some(c) => format!(
                "{}:{}/{}:{}",
                RANKS[own],
                p.first_round,
                RANKS[c],
                p.round.letters()
            ),
        };
        let h = *sets
            .entry((who, key.clone()))
            .or_insert_with(|| b.infoset(Mover::Player(who), &key, actions, Vec::new()));
        let v = b.node(Some(p.parent), Some(h), None);
        let size = if p.public.is_none() { 2 } else { 4 };
        let mut next = Vec::new();
        for (a, &action) in actions.iter().enumerate() {
            let mut put = p.put;
            let other = 1 - who;
            // What the round becomes, or None when it ends (with the call or the fold).
            let round = match (p.round, action) {
                (Round::Open, "check") => Some(Round::Checked),
                (Round::Checked, "check") => None,
                (_, "bet") => {
                    put[who] += size;
                    Some(if p.round == Round::Open {
                        Round::Bet
                    } else {
                        Round::CheckBet
                    })
                }
                (_, "raise") => {
                    put[who] = put[other] + size;
                    Some(if p.round == Round::Bet {
                        Round::Raised
                    } else {
                        Round::CheckRaised
                    })
                }
                (_, "call") => {
                    put[who] = put[other];
                    None
                }
                _ => {
                    // A fold: the folder loses what they put in.
                    let to_first = if who == 0 { -put[0] } else { put[1] };
                    next.push(Err((a, to_first)));
                    continue;
                }
            };
            next.push(match (round, p.public) {
                (Some(round), _) => Ok(Pending {
                    parent: (v, a),
                    round,
                    put,
                    ..p.clone()
                }),
                // The first round ended with equal stakes: the public card comes next.
                (None, None) => Ok(Pending {
                    parent: (v, a),
                    first_round: round_letters(p.round),
                    round: Round::Open,
                    put,
                    ..p.clone()
                }),
                (None, Some(c)) => Err((a, showdown(p.cards, c, put[0]))),
            });
        }
        // Children in action order: leaves now, subtrees on the stack (last pushed first
        // popped, so push in reverse); a public-card chance node is built here.
        let mut later = Vec::new();
        for item in next {
            match item {
                Err((a, to_first)) => {
                    b.node(Some((v, a)), None, Some(vec![q(to_first), q(-to_first)]));
                }
                Ok(pend)
                    if pend.public.is_none()
                        && pend.round == Round::Open
                        && !pend.first_round.is_empty() =>
                {
                    // Deal the public card below (v, a).
                    let (c1, c2) = pend.cards;
                    let ranks: Vec<usize> = (0..3)
                        .filter(|&r| 2 - usize::from(r == c1) - usize::from(r == c2) > 0)
                        .collect();
                    let names: Vec<&str> = ranks.iter().map(|&r| RANKS[r]).collect();
                    let probs = ranks
                        .iter()
                        .map(|&r| {
                            Q::new(
                                (2 - i64::from(r == c1) - i64::from(r == c2)).into(),
                                4.into(),
                            )
                        })
                        .collect();
                    // Gambit wants every set's label unique for its mover: name the deal and the bets.
                    let label = format!(
                        "public card after {}{} {}",
                        RANKS[c1], RANKS[c2], pend.first_round
                    );
                    let h = b.infoset(Mover::Chance, &label, &names, probs);
                    let c = b.node(Some(pend.parent), Some(h), None);
                    for (k, &r) in ranks.iter().enumerate() {
                        later.push(Pending {
                            parent: (c, k),
                            public: Some(r),
                            ..pend.clone()
                        });
                    }
                }
                Ok(pend) => later.push(pend),
            }
        }
        stack.extend(later.into_iter().rev());
    }
    b.finish().expect("Leduc hold'em is a well-formed tree")
}

/// The first round's actions as letters, once the player at `round` checks or calls.
fn round_letters(round: Round) -> &'static str {
    match round {
        Round::Checked => "cc",
        Round::Bet => "bc",
        Round::CheckBet => "cbc",
        Round::Raised => "brc",
        _ => "cbrc",
    }
}

/// The first player's gain at a showdown where each put in `stake`.
fn showdown(cards: (usize, usize), public: usize, stake: i64) -> i64 {
    let strength = |c: usize| if c == public { 10 + c } else { c };
    match strength(cards.0).cmp(&strength(cards.1)) {
        std::cmp::Ordering::Greater => stake,
        std::cmp::Ordering::Less => -stake,
        std::cmp::Ordering::Equal => 0,
    }
}
