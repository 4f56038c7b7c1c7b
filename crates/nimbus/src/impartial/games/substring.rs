//! The substring game: given a string `S` and strings `t_1 … t_n`, each a substring
//! of `S`, a move appends one letter to one `t_i` so that it stays a substring of `S`.
//!
//! The positions of one string are the states of the suffix automaton of `S` (Blumer et al.
//! 1985): every substring lies in exactly one state, appending a letter follows a transition,
//! and two substrings in the same state have the same extensions, so they are the same game.
//! Transitions always lead to states with a longer longest string, so the automaton is a DAG
//! and one pass over the states by decreasing length gives every Grundy value (at most 26
//! options, so every value is at most 26), the normal-play remoteness and whether the SJ
//! precondition holds everywhere below a state.
//!
//! A substring is kept as `(state, length)`: its text is the `length` letters ending where the
//! state's strings first end in `S`.

use super::super::component::Ruleset;
use super::super::explicit::{explore_numbered, ExplicitGame};
use super::super::grundy::Engine;
use super::super::misere::{sj_verdict, Misere};
use super::super::{Impartial, Outcome};
use crate::core::budget::Limits;
use crate::core::error::{Error, Result, Span};
use serde::Serialize;

const NONE: u32 = u32::MAX;

/// The suffix automaton of a string over `a`–`z`.
#[derive(Debug, Clone)]
pub struct SuffixAutomaton {
    /// Transitions by letter (`u32::MAX`: none).
    next: Vec<[u32; 26]>,
    /// Suffix links (`u32::MAX` for the root).
    link: Vec<u32>,
    /// Length of each state's longest string.
    len: Vec<u32>,
    /// Where each state's strings first end in `S` (exclusive index).
    first_end: Vec<u32>,
}

impl SuffixAutomaton {
    /// The automaton of `s`, whose bytes must be `a`–`z` (checked by the caller).
    fn build(s: &[u8]) -> Self {
        let cap = 2 * s.len() + 1;
        let mut a = SuffixAutomaton {
            next: Vec::with_capacity(cap),
            link: Vec::with_capacity(cap),
            len: Vec::with_capacity(cap),
            first_end: Vec::with_capacity(cap),
        };
        a.push([NONE; 26], NONE, 0, 0);
        let mut last = 0u32;
        for (i, &b) in s.iter().enumerate() {
            let c = (b - b'a') as usize;
            let cur = a.push([NONE; 26], NONE, a.len[last as usize] + 1, i as u32 + 1);
            let mut p = last;
            while p != NONE && a.next[p as usize][c] == NONE {
                a.next[p as usize][c] = cur;
                p = a.link[p as usize];
            }
            if p == NONE {
                a.link[cur as usize] = 0;
            } else {
                let q = a.next[p as usize][c];
                if a.len[p as usize] + 1 == a.len[q as usize] {
                    a.link[cur as usize] = q;
                } else {
                    let clone = a.push(
                        a.next[q as usize],
                        a.link[q as usize],
                        a.len[p as usize] + 1,
                        a.first_end[q as usize],
                    );
                    while p != NONE && a.next[p as usize][c] == q {
                        a.next[p as usize][c] = clone;
                        p = a.link[p as usize];
                    }
                    a.link[q as usize] = clone;
                    a.link[cur as usize] = clone;
                }
            }
            last = cur;
        }
        a
    }

    fn push(&mut self, next: [u32; 26], link: u32, len: u32, first_end: u32) -> u32 {
        self.next.push(next);
        self.link.push(link);
        self.len.push(len);
        self.first_end.push(first_end);
        (self.len.len() - 1) as u32
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.len.len()
    }

    /// Whether the automaton has no states (never: the root is always there).
    pub fn is_empty(&self) -> bool {
        self.len.is_empty()
    }

    /// The state reached from `v` by letter `c` (0 for `a`).
    pub fn step(&self, v: u32, c: usize) -> Option<u32> {
        let w = self.next[v as usize][c];
        (w != NONE).then_some(w)
    }

    /// The letters and targets of the transitions of `v`.
    pub fn transitions(&self, v: u32) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.next[v as usize]
            .iter()
            .enumerate()
            .filter(|(_, &w)| w != NONE)
            .map(|(c, &w)| (c, w))
    }

    /// The length of the shortest string of state `v`.
    pub fn min_len(&self, v: u32) -> u32 {
        match self.link[v as usize] {
            NONE => 0,
            l => self.len[l as usize] + 1,
        }
    }
}

/// The substring game on one string `S`, with every state's values computed once.
#[derive(Debug, Clone)]
pub struct SubstringGame {
    text: Vec<u8>,
    sam: SuffixAutomaton,
    grundy: Vec<u8>,
    remoteness: Vec<u32>,
    /// The SJ precondition holds at every state reachable from this one.
    sj_ok: Vec<bool>,
}

/// A substring of `S`: its automaton state and its length.
pub type Sub = (u32, u32);

impl SubstringGame {
    /// The game on `s`; `source` names where `s` came from, for errors.
    pub fn new(s: &str, source: &str) -> Result<Self> {
        if let Some((col, ch)) = s.chars().enumerate().find(|(_, c)| !c.is_ascii_lowercase()) {
            return Err(Error::parse(
                Span {
                    source: source.to_string(),
                    line: 1,
                    column: col + 1,
                },
                format!("'{ch}' is not a letter a-z: the string S may have only lowercase letters"),
            ));
        }
        if s.len() >= (u32::MAX / 2) as usize {
            return Err(Error::Invalid(format!(
                "the string S has {} letters; at most {} are supported",
                s.len(),
                u32::MAX / 2 - 1
            )));
        }
        let text = s.as_bytes().to_vec();
        let sam = SuffixAutomaton::build(&text);
        let n = sam.len();
        // States by decreasing length: every transition leads to a longer state, so its
        // target is done before it.
        let max_len = text.len();
        let mut count = vec![0u32; max_len + 2];
        for &l in &sam.len {
            count[l as usize] += 1;
        }
        let mut start = vec![0u32; max_len + 2];
        for l in (0..=max_len).rev() {
            start[l] = start[l + 1] + count[l + 1];
        }
        let mut order = vec![0u32; n];
        for (v, &l) in sam.len.iter().enumerate() {
            order[start[l as usize] as usize] = v as u32;
            start[l as usize] += 1;
        }
        let mut grundy = vec![0u8; n];
        let mut remoteness = vec![0u32; n];
        let mut sj_ok = vec![true; n];
        for &v in &order {
            let (mut seen, mut any, mut ok) = (0u32, false, true);
            let (mut fastest_win, mut slowest) = (u32::MAX, 0u32);
            for (_, w) in sam.transitions(v) {
                let (g, r) = (grundy[w as usize], remoteness[w as usize]);
                seen |= 1 << g;
                any = true;
                ok &= sj_ok[w as usize];
                slowest = slowest.max(r);
                if g == 0 {
                    fastest_win = fastest_win.min(r);
                }
            }
            let g = (!seen).trailing_zeros() as u8;
            grundy[v as usize] = g;
            remoteness[v as usize] = match (any, g) {
                (false, _) => 0,
                (true, 0) => slowest + 1,
                _ => fastest_win + 1,
            };
            // A state of value 0 with moves needs a move to value 1 (the SJ precondition).
            sj_ok[v as usize] = ok && !(any && g == 0 && seen & 2 == 0);
        }
        Ok(SubstringGame {
            text,
            sam,
            grundy,
            remoteness,
            sj_ok,
        })
    }

    /// The string `S`.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.text).expect("S is ASCII")
    }

    /// The suffix automaton of `S`.
    pub fn automaton(&self) -> &SuffixAutomaton {
        &self.sam
    }

    /// The substring `t` as a position, or `None` when `t` is not a substring of `S` (or has a
    /// character outside `a`–`z`).
    pub fn locate(&self, t: &str) -> Option<Sub> {
        let mut v = 0u32;
        for b in t.bytes() {
            if !b.is_ascii_lowercase() {
                return None;
            }
            v = self.sam.step(v, (b - b'a') as usize)?;
        }
        Some((v, t.len() as u32))
    }

    /// The text of a substring.
    pub fn text_of(&self, (v, len): Sub) -> &str {
        let end = self.sam.first_end[v as usize] as usize;
        std::str::from_utf8(&self.text[end - len as usize..end]).expect("S is ASCII")
    }

    /// The Grundy value of a substring.
    pub fn grundy_of(&self, (v, _): Sub) -> u64 {
        self.grundy[v as usize] as u64
    }

    /// Moves left in the game of this one substring under optimal normal play.
    pub fn remoteness_of(&self, (v, _): Sub) -> u64 {
        self.remoteness[v as usize] as u64
    }

    /// Whether every position reachable from this substring satisfies the SJ precondition.
    pub fn sj_holds(&self, (v, _): Sub) -> bool {
        self.sj_ok[v as usize]
    }

    /// The substrings one letter longer: the letter and the new substring.
    pub fn extensions(&self, (v, len): Sub) -> impl Iterator<Item = (char, Sub)> + '_ {
        self.sam
            .transitions(v)
            .map(move |(c, w)| ((b'a' + c as u8) as char, (w, len + 1)))
    }

    /// How many states can be reached from this substring (itself included), or `None` once
    /// more than `cap` have been found.
    pub fn reachable_states(&self, (v, _): Sub, cap: u64) -> Option<u64> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![v];
        seen.insert(v);
        while let Some(x) = stack.pop() {
            for (_, w) in self.sam.transitions(x) {
                if seen.insert(w) {
                    if seen.len() as u64 > cap {
                        return None;
                    }
                    stack.push(w);
                }
            }
        }
        Some(seen.len() as u64)
    }
}

/// How a substring is written: quoted, so that the empty string shows.
pub fn quoted(t: &str) -> String {
    format!("'{t}'")
}

impl Impartial for SubstringGame {
    /// The substrings, one per string of the sum.
    type Position = Vec<Sub>;
    fn moves(&self, p: &Vec<Sub>, out: &mut Vec<Vec<Sub>>) {
        for (i, &s) in p.iter().enumerate() {
            for (_, t) in self.extensions(s) {
                let mut q = p.clone();
                q[i] = t;
                out.push(q);
            }
        }
    }
    fn show(&self, p: &Vec<Sub>) -> String {
        self.expression(p)
    }
}

impl Ruleset for SubstringGame {
    fn name(&self) -> String {
        "substring".to_string()
    }
    fn expression(&self, p: &Vec<Sub>) -> String {
        let words: Vec<String> = p.iter().map(|&s| quoted(self.text_of(s))).collect();
        format!("substring {}", words.join(" "))
    }
    fn describe(&self, from: &Vec<Sub>, to: &Vec<Sub>) -> String {
        let i = (0..from.len()).find(|&i| from[i] != to[i]).unwrap_or(0);
        let (a, b) = (self.text_of(from[i]), self.text_of(to[i]));
        let letter = b.chars().last().unwrap_or('?');
        let which = if from.len() > 1 {
            format!("string {}", i + 1)
        } else {
            "the string".to_string()
        };
        format!(
            "append '{letter}' to {which} ({} -> {})",
            quoted(a),
            quoted(b)
        )
    }
    fn closed_grundy(&self, p: &Vec<Sub>, _limits: Limits) -> Result<Option<u64>> {
        Ok(Some(p.iter().fold(0, |a, &s| a ^ self.grundy_of(s))))
    }
    /// Two substrings in one state are the same game: keep the shortest of the state.
    fn normalize(&self, p: &Vec<Sub>) -> Vec<Sub> {
        p.iter().map(|&(v, _)| (v, self.sam.min_len(v))).collect()
    }
    fn size_hint(&self, p: &Vec<Sub>) -> u64 {
        (0..p.len()).fold(1u64, |a, _| a.saturating_mul(self.sam.len() as u64))
    }
    fn search_cost(&self, p: &Vec<Sub>) -> u64 {
        self.size_hint(p).saturating_mul(26)
    }
    fn explore_fast(
        &self,
        p: &Vec<Sub>,
        limits: Limits,
    ) -> Result<Option<(ExplicitGame, Vec<Vec<Sub>>)>> {
        let &[(start, _)] = p.as_slice() else {
            return Ok(None);
        };
        let (graph, order) = explore_numbered(
            start,
            |v, out| out.extend(self.sam.transitions(v).map(|(_, w)| w)),
            limits,
            "the substrings reachable from one string",
        )?;
        let positions = order
            .into_iter()
            .map(|v| vec![(v, self.sam.min_len(v))])
            .collect();
        Ok(Some((graph, positions)))
    }
    fn atoms(&self, p: &Vec<Sub>) -> Vec<Vec<Sub>> {
        p.iter().map(|&s| vec![s]).collect()
    }
    fn sj_closed(&self, p: &Vec<Sub>) -> Option<bool> {
        Some(p.iter().all(|&s| self.sj_holds(s)))
    }
}

/// One winning move of the substring game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubstringMove {
    /// Which string moves (1-based).
    pub string: usize,
    /// The letter appended.
    pub letter: char,
    /// The string before the move.
    pub from: String,
    /// The string after the move.
    pub to: String,
}

/// One string of the position, with its value.
#[derive(Debug, Clone, Serialize)]
pub struct StringReport {
    /// The string.
    pub string: String,
    /// Its normal-play Sprague–Grundy value.
    pub grundy: u64,
    /// Its normal-play remoteness when played alone.
    pub remoteness: u64,
}

/// The answer for a position of the substring game.
#[derive(Debug, Clone, Serialize)]
pub struct SubstringAnalysis {
    /// N or P.
    pub outcome: Outcome,
    /// "normal" or "misere".
    pub play: &'static str,
    /// The xor of the strings' normal-play values (in misère play, what the SJ rule reads).
    pub grundy: u64,
    /// How the answer was found.
    pub rule: String,
    /// Why that method applies.
    pub explanation: Vec<String>,
    /// Every string, at most the first `max_strings` listed.
    pub strings: Vec<StringReport>,
    /// The winning moves listed (at most the requested number).
    pub winning_moves: Vec<SubstringMove>,
    /// How many winning moves there are.
    pub winning_moves_total: usize,
    /// Moves left under optimal play, where known: one string alone, or an exact misère
    /// search.
    pub remoteness: Option<u64>,
}

/// Options for [`analyze_substrings`].
#[derive(Debug, Clone, Copy)]
pub struct SubstringOptions {
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
    /// Bounds the exact misère search.
    pub limits: Limits,
    /// At most this many winning moves are listed (all are counted).
    pub max_moves: usize,
    /// At most this many strings are reported one by one.
    pub max_strings: usize,
}

/// Analyses the sum of the substrings `strings` of the game's `S`.
///
/// Normal play: the xor of the states' Grundy values. Misère play: the SJ rule when its
/// precondition holds at every state reachable from every string (known per state from the
/// one pass over the automaton); otherwise an exact search over the sorted multiset of states,
/// refused at once, with the reason, when that multiset space is larger than the limit.
// Kept as one function: the analysis in the order its answer is written (values of each string, the
// sum, winning moves, remoteness), every step reading the same automaton and limits; the search it
// calls is a function of its own.
pub fn analyze_substrings(
    game: &SubstringGame,
    strings: &[Sub],
    opts: &SubstringOptions,
) -> Result<SubstringAnalysis> {
    let values: Vec<u64> = strings.iter().map(|&s| game.grundy_of(s)).collect();
    let s = values.iter().fold(0, |a, &g| a ^ g);
    let reports = strings
        .iter()
        .zip(&values)
        .take(opts.max_strings)
        .map(|(&t, &g)| StringReport {
            string: game.text_of(t).to_string(),
            grundy: g,
            remoteness: game.remoteness_of(t),
        })
        .collect();
    let mut moves = Vec::new();
    let mut total = 0;
    let mut consider = |i: usize, letter: char, to: Sub| {
        total += 1;
        if moves.len() < opts.max_moves {
            moves.push(SubstringMove {
                string: i + 1,
                letter,
                from: game.text_of(strings[i]).to_string(),
                to: game.text_of(to).to_string(),
            });
        }
    };
    let single = (strings.len() == 1).then(|| game.remoteness_of(strings[0]));
    if !opts.misere {
        if s != 0 {
            for (i, &t) in strings.iter().enumerate() {
                for (c, u) in game.extensions(t) {
                    if game.grundy_of(u) == values[i] ^ s {
                        consider(i, c, u);
                    }
                }
            }
        }
        return Ok(SubstringAnalysis {
            outcome: Outcome::from_grundy(s),
            play: "normal",
            grundy: s,
            rule: "Sprague-Grundy".to_string(),
            explanation: vec![format!(
                "each string's value is the mex over its one-letter extensions in the suffix \
                 automaton of S ({} states); the sum's value is their xor",
                game.sam.len()
            )],
            strings: reports,
            winning_moves: moves,
            winning_moves_total: total,
            remoteness: single,
        });
    }
    let failing = strings.iter().position(|&t| !game.sj_holds(t));
    let Some(bad) = failing else {
        let big = values.iter().filter(|&&g| g >= 2).count();
        for (i, &t) in strings.iter().enumerate() {
            let g = values[i];
            for (c, u) in game.extensions(t) {
                let h = game.grundy_of(u);
                let big_after = big - usize::from(g >= 2) + usize::from(h >= 2);
                if sj_verdict(s ^ g ^ h, big_after) == Outcome::P {
                    consider(i, c, u);
                }
            }
        }
        return Ok(SubstringAnalysis {
            outcome: sj_verdict(s, big),
            play: "misere",
            grundy: s,
            rule: "SJ rule".to_string(),
            explanation: vec![
                "the SJ rule applies: from every string, every reachable substring of value 0 \
                 that can still grow has an extension of value 1 (checked on the suffix \
                 automaton)"
                    .to_string(),
                "so the player to move wins iff (every string's value is at most 1 and their xor \
                 is 0) or (some value is at least 2 and the xor is not 0)"
                    .to_string(),
            ],
            strings: reports,
            winning_moves: moves,
            winning_moves_total: total,
            remoteness: None,
        });
    };
    let witness = game.sj_witness(strings[bad]);
    let why = format!(
        "the SJ rule does not apply: from {}, the substring {} has value 0, can grow, and has no \
         extension of value 1",
        quoted(game.text_of(strings[bad])),
        quoted(&witness)
    );
    // The multiset space is the product of the strings' reachable state counts (strings with
    // no move add nothing); refuse at once when that is past the limit.
    let cap = opts.limits.max_states;
    let mut size = 1u64;
    for &t in strings {
        let n = game.reachable_states(t, cap).unwrap_or(u64::MAX);
        size = size.saturating_mul(n);
        if size > cap {
            return Err(Error::StateLimit {
                explored: 0,
                limit: cap,
                what: format!(
                    "the misère outcome of these {} strings cannot be decided within the \
                     limits: {why}, so only an exact search of the sum could decide it, and it",
                    strings.len()
                ),
            });
        }
    }
    let misere = Misere(MisereStates { game });
    let sum = &misere.0;
    let mut engine = Engine::hashed(&misere, opts.limits, "the exact misère search");
    let start = sum.normal(strings.iter().map(|&(v, _)| v).collect());
    let entry = engine.entry(&Some(start.clone()))?;
    for (i, &t) in strings.iter().enumerate() {
        for (c, u) in game.extensions(t) {
            let mut next: Vec<u32> = strings.iter().map(|&(v, _)| v).collect();
            next[i] = u.0;
            if engine.grundy(&Some(sum.normal(next)))? == 0 {
                consider(i, c, u);
            }
        }
    }
    Ok(SubstringAnalysis {
        outcome: Outcome::from_grundy(entry.grundy),
        play: "misere",
        grundy: s,
        rule: "exact misère search".to_string(),
        explanation: vec![
            why,
            format!(
                "decided by an exact search of {} sums of states",
                engine.explored()
            ),
        ],
        strings: reports,
        winning_moves: moves,
        winning_moves_total: total,
        // The end move of the misère transform is not a real move.
        remoteness: Some(entry.remoteness - 1),
    })
}

impl SubstringGame {
    /// A substring reachable from `t` where the SJ precondition fails (value 0, an extension,
    /// none of value 1), found breadth-first, so one of the shortest.
    fn sj_witness(&self, (v, len): Sub) -> String {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut queue = std::collections::VecDeque::from([(v, len)]);
        seen.insert(v);
        while let Some(x) = queue.pop_front() {
            let g = self.grundy[x.0 as usize];
            let mut ext = self.extensions(x).peekable();
            let has = ext.peek().is_some();
            if g == 0 && has && !self.extensions(x).any(|(_, u)| self.grundy_of(u) == 1) {
                return self.text_of(x).to_string();
            }
            for (_, u) in ext {
                if seen.insert(u.0) {
                    queue.push_back(u);
                }
            }
        }
        String::new()
    }
}

/// Sums of substrings as the sorted multiset of their states, strings that cannot grow left
/// out (they are the empty game, which changes no sum, even in misère play).
struct MisereStates<'a> {
    game: &'a SubstringGame,
}

impl MisereStates<'_> {
    fn normal(&self, mut states: Vec<u32>) -> Vec<u32> {
        states.retain(|&v| self.game.sam.transitions(v).next().is_some());
        states.sort_unstable();
        states
    }
}

impl Impartial for MisereStates<'_> {
    type Position = Vec<u32>;
    fn cost(&self, p: &Self::Position) -> u64 {
        crate::impartial::parts_cost(p.len())
    }

    fn moves(&self, p: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        for i in 0..p.len() {
            if i > 0 && p[i] == p[i - 1] {
                continue;
            }
            for (_, w) in self.game.sam.transitions(p[i]) {
                let mut q = p.clone();
                q[i] = w;
                out.push(self.normal(q));
            }
        }
    }
}

/// The words of an input text with their places: whitespace separates words, and the line
/// and column of each are kept for errors.
pub fn words_of(text: &str, source: &str) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let mut col = 0usize;
        for piece in line.split_inclusive(char::is_whitespace) {
            let word = piece.trim_end();
            if !word.is_empty() {
                out.push((
                    word.to_string(),
                    Span {
                        source: source.to_string(),
                        line: ln + 1,
                        column: col + 1,
                    },
                ));
            }
            col += piece.chars().count();
        }
    }
    out
}

/// Reads a position from words: first `S`, then optionally the number of strings (as in a
/// contest's input), then the strings; `''` is the empty string.
pub fn parse_position(words: &[(String, Span)]) -> Result<(SubstringGame, Vec<Sub>)> {
    let Some((s, s_span)) = words.first() else {
        return Err(Error::Invalid(
            "no string S given: write S, then the strings, as in 'abcab ab b'".to_string(),
        ));
    };
    let game = SubstringGame::new(s, &s_span.source).map_err(|e| match e {
        Error::Parse {
            span,
            message,
            hint,
        } => Error::Parse {
            span: Span {
                column: s_span.column + span.column - 1,
                ..s_span.clone()
            },
            message,
            hint,
        },
        other => other,
    })?;
    let mut rest = &words[1..];
    if let Some((count, span)) = rest.first() {
        if !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()) {
            let n: usize = count.parse().map_err(|_| {
                Error::parse(span.clone(), format!("'{count}' is too large a count"))
            })?;
            if n != rest.len() - 1 {
                return Err(Error::parse(
                    span.clone(),
                    format!(
                        "the count says {n} strings, but {} follow it",
                        rest.len() - 1
                    ),
                ));
            }
            rest = &rest[1..];
        }
    }
    if rest.is_empty() {
        return Err(Error::Invalid(
            "no strings given after S: the game needs at least one".to_string(),
        ));
    }
    let mut strings = Vec::with_capacity(rest.len());
    for (word, span) in rest {
        let t = if word == "''" { "" } else { word.as_str() };
        if let Some(bad) = t.chars().position(|c| !c.is_ascii_lowercase()) {
            return Err(Error::parse(
                Span {
                    column: span.column + bad,
                    ..span.clone()
                },
                format!(
                    "'{}' in '{t}' is not a letter a-z",
                    t.chars().nth(bad).unwrap_or('?')
                ),
            ));
        }
        let pos = game
            .locate(t)
            .ok_or_else(|| Error::parse(span.clone(), format!("'{t}' is not a substring of S")))?;
        strings.push(pos);
    }
    Ok((game, strings))
}
