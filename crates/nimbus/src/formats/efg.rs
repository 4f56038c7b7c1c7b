//! Gambit's `.efg` format (version 2), read and written.
//!
//! ```text
//! EFG 2 R "title" { "Player 1" "Player 2" }        header: title and players,
//! "comment"                                         an optional comment,
//! c "" 1 "" { "H" 1/2 "T" 1/2 } 0                   then the nodes in prefix order:
//! p "" 1 1 "" { "a" "b" } 0                         chance (set number, label, actions
//! t "" 1 "win" { 1, -1 }                            with probabilities), personal (player,
//! t "" 2 "lose" { -1, 1 }                           set number, label, actions) and terminal
//! p "" 1 1 { "a" "b" } 0 ...                        nodes, each with an outcome number (0:
//!                                                   none), its label and payoffs
//! ```
//!
//! An information set's label and actions, and an outcome's label and payoffs, may be left out
//! after their first appearance; when they are repeated they must agree. Payoffs and
//! probabilities may be integers, decimals or fractions and are kept exactly; commas between
//! list items are optional. Every error names the line and column of the offending token.

use crate::core::error::{Error, Result, Span};
use crate::exact::{show, Q};
use crate::extensive::{Infoset, Mover, Node, Outcome, Tree};
use crate::formats::gambit::{describe, quote, Reader, Tok};
use std::collections::HashMap;

/// Whether `text` looks like an `.efg` file (its first word is `EFG`).
pub fn is_efg(text: &str) -> bool {
    text.trim_start().starts_with("EFG")
}

fn skip_commas(r: &mut Reader) {
    while r.peek() == Some(&Tok::Comma) {
        r.skip();
    }
}

/// The header's fixed words.
fn header(r: &mut Reader) -> Result<()> {
    for (want, what) in [
        ("EFG", "an .efg file starts with 'EFG 2 R'"),
        ("2", "only version 2 of the .efg format is known"),
    ] {
        let span = r.span();
        match r.next(want)? {
            (Tok::Word(w), _) if w == want => {}
            (t, _) => {
                return Err(Error::parse(
                    span,
                    format!("{what}, found {}", describe(&t)),
                ))
            }
        }
    }
    r.precision()
}

/// What the parser remembers about an outcome number.
struct Seen {
    index: usize,
    defined: Option<Span>,
    first_use: Span,
}

struct Parser<'a> {
    r: Reader<'a>,
    tree: Tree,
    /// (mover, number) → index into `tree.infosets`, with where it was defined.
    sets: HashMap<(Mover, usize), (usize, Span)>,
    outcomes: HashMap<usize, Seen>,
}

impl Parser<'_> {
    /// An action list: names, with probabilities for chance.
    fn actions(&mut self, chance: bool) -> Result<(Vec<String>, Vec<Q>)> {
        self.r.expect(Tok::Open, "'{' before the actions")?;
        let (mut names, mut probs) = (Vec::new(), Vec::new());
        loop {
            skip_commas(&mut self.r);
            if self.r.peek() == Some(&Tok::Close) {
                self.r.skip();
                break;
            }
            names.push(self.r.text("an action's name")?);
            if chance {
                skip_commas(&mut self.r);
                probs.push(self.r.number("the action's probability")?);
            }
        }
        Ok((names, probs))
    }

    /// The information set of a chance or personal node: number, then optionally its label
    /// and actions.
    fn infoset(&mut self, mover: Mover) -> Result<usize> {
        let span = self.r.span();
        let number = self.r.count("an information set's number")?;
        if number == 0 {
            return Err(Error::parse(span, "information sets are numbered from 1"));
        }
        let name = match self.r.peek() {
            Some(Tok::Text(_)) => Some(self.r.text("a label")?),
            _ => None,
        };
        let list_span = self.r.span();
        let actions = match self.r.peek() {
            Some(Tok::Open) => Some(self.actions(mover == Mover::Chance)?),
            _ => None,
        };
        if let Some(&(h, ref defined)) = self.sets.get(&(mover, number)) {
            let set = &self.tree.infosets[h];
            if let Some((names, probs)) = actions {
                if names != set.actions || (mover == Mover::Chance && probs != set.probs) {
                    return Err(Error::parse(
                        list_span,
                        format!(
                            "{} was given the actions {{{}}} at {defined}; here they are {{{}}}",
                            self.tree.infoset_label(set),
                            list(&set.actions, &set.probs),
                            list(&names, &probs)
                        ),
                    ));
                }
            }
            if let Some(name) = name {
                if !name.is_empty() && self.tree.infosets[h].name.is_empty() {
                    self.tree.infosets[h].name = name;
                }
            }
            return Ok(h);
        }
        let Some((names, probs)) = actions else {
            return Err(Error::parse(
                list_span,
                format!(
                    "the first node of information set {number} of {} must list its actions \
                     in braces",
                    match mover {
                        Mover::Chance => "chance".to_string(),
                        Mover::Player(p) => format!("player {}", p + 1),
                    }
                ),
            ));
        };
        if names.is_empty() {
            return Err(Error::parse(list_span, "an information set needs actions"));
        }
        if mover == Mover::Chance {
            use num_traits::{One, Signed};
            if let Some(p) = probs.iter().find(|p| p.is_negative()) {
                return Err(Error::parse(
                    list_span,
                    format!("a chance probability is negative ({})", show(p)),
                ));
            }
            let sum: Q = probs.iter().sum();
            if !sum.is_one() {
                return Err(Error::parse(
                    list_span,
                    format!(
                        "the chance probabilities sum to {}, not 1",
                        crate::exact::show_brief(&sum)
                    ),
                ));
            }
        }
        self.tree.infosets.push(Infoset {
            mover,
            number,
            name: name.unwrap_or_default(),
            actions: names,
            probs,
            nodes: Vec::new(),
        });
        let h = self.tree.infosets.len() - 1;
        self.sets.insert((mover, number), (h, span));
        Ok(h)
    }

    /// An outcome number, then optionally its label and payoffs.
    fn outcome(&mut self) -> Result<Option<usize>> {
        let span = self.r.span();
        let number = self.r.count("an outcome number (0 for none)")?;
        let name = match self.r.peek() {
            Some(Tok::Text(_)) => Some(self.r.text("the outcome's label")?),
            _ => None,
        };
        let pay_span = self.r.span();
        let payoffs = match self.r.peek() {
            Some(Tok::Open) => {
                self.r.skip();
                let mut v = Vec::new();
                loop {
                    skip_commas(&mut self.r);
                    if self.r.peek() == Some(&Tok::Close) {
                        self.r.skip();
                        break;
                    }
                    v.push(self.r.number("a payoff")?);
                }
                if v.len() != self.tree.players.len() {
                    return Err(Error::parse(
                        pay_span,
                        format!(
                            "an outcome has {} payoffs for {} players",
                            v.len(),
                            self.tree.players.len()
                        ),
                    ));
                }
                Some(v)
            }
            _ => None,
        };
        if number == 0 {
            if payoffs.is_some() {
                return Err(Error::parse(
                    span,
                    "outcome 0 means no outcome, and cannot have payoffs",
                ));
            }
            return Ok(None);
        }
        let seen = self.outcomes.entry(number).or_insert_with(|| {
            self.tree.outcomes.push(Outcome {
                number,
                name: String::new(),
                payoffs: Vec::new(),
            });
            Seen {
                index: self.tree.outcomes.len() - 1,
                defined: None,
                first_use: span.clone(),
            }
        });
        let o = &mut self.tree.outcomes[seen.index];
        if let Some(name) = name {
            if o.name.is_empty() {
                o.name = name;
            }
        }
        if let Some(payoffs) = payoffs {
            match &seen.defined {
                Some(at) if o.payoffs != payoffs => {
                    return Err(Error::parse(
                        pay_span,
                        format!(
                            "outcome {number} was given the payoffs {{{}}} at {at}; here they \
                             are {{{}}}",
                            numbers(&o.payoffs),
                            numbers(&payoffs)
                        ),
                    ))
                }
                Some(_) => {}
                None => {
                    o.payoffs = payoffs;
                    seen.defined = Some(pay_span);
                }
            }
        }
        Ok(Some(seen.index))
    }
}

fn numbers(v: &[Q]) -> String {
    v.iter().map(show).collect::<Vec<_>>().join(", ")
}

fn list(names: &[String], probs: &[Q]) -> String {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| match probs.get(i) {
            Some(p) => format!("{} {}", quote(n), show(p)),
            None => quote(n),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses a game in `.efg` format; `source` names it in errors.
// Kept as one function: a parser reads the file's parts in the order they stand, each a few lines
// on the one token reader; split, the pieces would pass the reader and the half-built game along.
pub fn parse(text: &str, source: &str) -> Result<Tree> {
    parse_within(text, source, crate::core::budget::default_max_memory())
}

/// Bytes a tree's node, information set or outcome may take as read, with the reader's own
/// records of them (measured: a chain of 10^6 moves, each two nodes, a set and an outcome,
/// took 1.86 KB a move; these bound it with room to spare), and each action or payoff more.
const NODE_BYTES: u64 = 700;
const SET_BYTES: u64 = 600;
const OUTCOME_BYTES: u64 = 600;
const ENTRY_BYTES: u64 = 100;

/// [`parse`], refused with the memory budget named once the tree read so far would take more
/// than `max_memory` bytes (checked every 1 024 nodes, so a file of millions of nodes is
/// stopped before it takes the machine's memory).
// Kept as one function: the reader of a tree in prefix order; the nodes still missing
// children, the parent of the next node and the checks of each node's line carry from node to
// node; action lists, information sets and outcomes are functions of their own.
pub fn parse_within(text: &str, source: &str, max_memory: u64) -> Result<Tree> {
    let mut r = Reader::new(text, source)?;
    header(&mut r)?;
    let title = r.text("the title")?;
    r.expect(Tok::Open, "'{' before the players' names")?;
    let mut players = Vec::new();
    loop {
        skip_commas(&mut r);
        if r.peek() == Some(&Tok::Close) {
            r.skip();
            break;
        }
        players.push(r.text("a player's name")?);
    }
    if players.is_empty() {
        return Err(Error::parse(r.span(), "the game has no players"));
    }
    let comment = match r.peek() {
        Some(Tok::Text(_)) => r.text("the comment")?,
        _ => String::new(),
    };
    let mut p = Parser {
        r,
        tree: Tree {
            title,
            comment,
            players,
            nodes: Vec::new(),
            infosets: Vec::new(),
            outcomes: Vec::new(),
        },
        sets: HashMap::new(),
        outcomes: HashMap::new(),
    };
    // The nodes still missing children: (node, children it still needs).
    let mut open: Vec<(usize, usize)> = Vec::new();
    loop {
        let parent = match open.last_mut() {
            Some((v, missing)) => {
                let a = p.tree.nodes[*v].children.len();
                *missing -= 1;
                Some((*v, a))
            }
            None if p.tree.nodes.is_empty() => None,
            None => break,
        };
        let span = p.r.span();
        let kind = match p.r.next("a node ('c', 'p' or 't')")? {
            (Tok::Word(w), _) if w == "c" || w == "p" || w == "t" => w,
            (t, _) => {
                return Err(Error::parse(
                    span,
                    format!(
                        "expected a node ('c' chance, 'p' personal or 't' terminal), found {}",
                        describe(&t)
                    ),
                ))
            }
        };
        let name = p.r.text("the node's label")?;
        let infoset = match kind.as_str() {
            "t" => None,
            "c" => Some(p.infoset(Mover::Chance)?),
            _ => {
                let span = p.r.span();
                let player = p.r.count("a player's number")?;
                if player == 0 || player > p.tree.players.len() {
                    return Err(Error::parse(
                        span,
                        format!(
                            "player {player}: players are numbered 1 to {} (chance nodes are \
                             'c')",
                            p.tree.players.len()
                        ),
                    ));
                }
                Some(p.infoset(Mover::Player(player - 1))?)
            }
        };
        let outcome = p.outcome()?;
        let v = p.tree.nodes.len();
        if v % 1024 == 0 {
            let t = &p.tree;
            let entries: usize = t.infosets.iter().map(|h| h.actions.len()).sum::<usize>()
                + t.outcomes.iter().map(|o| o.payoffs.len()).sum::<usize>();
            let bytes = (t.nodes.len() as u64 + 1) * NODE_BYTES
                + t.infosets.len() as u64 * SET_BYTES
                + t.outcomes.len() as u64 * OUTCOME_BYTES
                + entries as u64 * ENTRY_BYTES;
            crate::core::budget::check_memory(
                &format!("the tree read from {source} (to node {})", v + 1),
                bytes,
                max_memory,
            )?;
        }
        p.tree.nodes.push(Node {
            name,
            infoset,
            children: Vec::new(),
            parent,
            outcome,
        });
        if let Some((u, _)) = parent {
            p.tree.nodes[u].children.push(v);
        }
        while open.last().is_some_and(|&(_, missing)| missing == 0) {
            open.pop();
        }
        if let Some(h) = infoset {
            p.tree.infosets[h].nodes.push(v);
            open.push((v, p.tree.infosets[h].actions.len()));
        }
        if open.is_empty() {
            break;
        }
    }
    if let Some((t, span)) = p.r.ahead() {
        return Err(Error::parse(
            span,
            format!(
                "unexpected {} after the last node of the tree (every node's children are \
                 already there)",
                describe(t)
            ),
        ));
    }
    for seen in p.outcomes.values() {
        if seen.defined.is_none() {
            let o = &p.tree.outcomes[seen.index];
            return Err(Error::parse(
                seen.first_use.clone(),
                format!(
                    "outcome {} is used but its payoffs are never given",
                    o.number
                ),
            ));
        }
    }
    p.tree.check()?;
    Ok(p.tree)
}

/// Writes `tree` in `.efg` format, every label, action list and payoff list in full on every
/// node (as Gambit writes them).
pub fn write(tree: &Tree) -> String {
    let mut s = format!("EFG 2 R {} {{", quote(&tree.title));
    for p in &tree.players {
        s.push(' ');
        s.push_str(&quote(p));
    }
    s.push_str(" }\n");
    s.push_str(&quote(&tree.comment));
    s.push_str("\n\n");
    if tree.nodes.is_empty() {
        return s;
    }
    let mut stack = vec![0usize];
    while let Some(v) = stack.pop() {
        let node = &tree.nodes[v];
        match node.infoset {
            None => s.push_str(&format!("t {} ", quote(&node.name))),
            Some(h) => {
                let set = &tree.infosets[h];
                match set.mover {
                    Mover::Chance => {
                        s.push_str(&format!("c {} {} ", quote(&node.name), set.number))
                    }
                    Mover::Player(p) => s.push_str(&format!(
                        "p {} {} {} ",
                        quote(&node.name),
                        p + 1,
                        set.number
                    )),
                }
                s.push_str(&format!(
                    "{} {{ {} }} ",
                    quote(&set.name),
                    list(&set.actions, &set.probs)
                ));
            }
        }
        match node.outcome {
            None => s.push('0'),
            Some(o) => {
                let o = &tree.outcomes[o];
                s.push_str(&format!(
                    "{} {} {{ {} }}",
                    o.number,
                    quote(&o.name),
                    numbers(&o.payoffs)
                ));
            }
        }
        s.push('\n');
        stack.extend(node.children.iter().rev());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const STOC: &str = r#"EFG 2 R "KMvS 1994" { "1" "2" }
""
c "" 1 "" { "1" 0.2 "2" 0.2 "3" 0.2 "4" 0.4 } 0
p "" 1 1 "0" { "l" "r" } 0
t "" 1 "l" { 5, -5 }
p "" 2 1 "01" { "p" "q" } 0
p "" 1 3 "010" { "L" "R" } 0
t "" 2 "rpL" { 10, -10 }
t "" 3 "rpR" { 15, -15 }
p "" 1 3 { "L" "R" } 0
t "" 4 "rqL" { 20, -20 }
t "" 5 "rqR" { -5, 5 }
p "" 1 2 "1" { "c" "d" } 0
t "" 6 "c" { 10, -10 }
t "" 7 "d" { 20, -20 }
p "" 1 2 0
p "" 2 2 "20" { "s" "t" } 0
t "" 8 "cs" { 20, -20 }
t "" 9 "ct" { 50, -50 }
p "" 2 2 "20" { "s" "t" } 0
t "" 10 "ds" { 30, -30 }
t "" 11 "dt" { 15, -15 }
t "" 12 "nothing" { 5, -5 }
"#;

    #[test]
    fn reads_and_round_trips() {
        let t = parse(STOC, "stoc").unwrap();
        assert_eq!(t.nodes.len(), 21);
        assert_eq!(t.infosets.len(), 6);
        assert_eq!(t.infosets[0].probs[3], Q::new(2.into(), 5.into()));
        assert_eq!(t.leaves().count(), 12);
        let again = parse(&write(&t), "written").unwrap();
        assert_eq!(again, t);
        t.perfect_recall().unwrap();
    }

    fn err(text: &str) -> String {
        parse(text, "f").unwrap_err().to_string()
    }

    #[test]
    fn bad_files_name_the_place() {
        let head = "EFG 2 R \"\" { \"A\" \"B\" } \"\"\n";
        assert!(err("NFG 1 R").contains("line 1, column 1"));
        let cut = format!("{head}p \"\" 1 1 \"\" {{ \"a\" \"b\" }} 0\nt \"\" 1 \"\" {{ 1, 2 }}\n");
        assert!(
            err(&cut).contains("the file ends where a node"),
            "{}",
            err(&cut)
        );
        let probs = format!("{head}c \"\" 1 \"\" {{ \"a\" 1/2 \"b\" 1/3 }} 0\n");
        assert!(err(&probs).contains("line 2, column 11: the chance probabilities sum to 5/6"));
        let mixed =
            format!("{head}p \"\" 1 1 \"\" {{ \"a\" \"b\" }} 0\np \"\" 1 1 \"\" {{ \"a\" }} 0\n");
        assert!(err(&mixed).contains("line 3, column 13"), "{}", err(&mixed));
        let outcomes = format!(
            "{head}p \"\" 1 1 \"\" {{ \"a\" \"b\" }} 0\nt \"\" 1 \"\" {{ 1, 2 }}\nt \"\" 1 \"\" {{ 1, 3 }}\n"
        );
        assert!(err(&outcomes).contains("line 4, column 11: outcome 1 was given"));
        let player = format!("{head}p \"\" 3 1 \"\" {{ \"a\" }} 0\nt \"\" 0\n");
        assert!(err(&player).contains("players are numbered 1 to 2"));
        let extra = format!("{head}t \"\" 0\nt \"\" 0\n");
        assert!(err(&extra).contains("line 3, column 1: unexpected 't'"));
        let undefined = format!("{head}t \"\" 4\n");
        assert!(err(&undefined).contains("outcome 4 is used but its payoffs are never given"));
    }
}
