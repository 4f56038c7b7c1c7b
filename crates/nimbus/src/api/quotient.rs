//! The misère quotient of a heap game: its elements, presentation, P-portion and pretending
//! function, and positions of many heaps answered by multiplying.

use super::Limits;
use crate::catalog::impartial::parse_rule;
use crate::core::error::{Error, Result};
use crate::impartial::quotient::present::present;
use crate::impartial::quotient::Quotient;
use crate::impartial::Outcome;
use serde::Serialize;

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// The largest heap: the quotient of the positions made of heaps `1..=upto`.
    pub upto: u64,
    /// Positions to answer with the quotient, each a list of heap sizes up to `upto`.
    pub positions: Vec<Vec<u64>>,
    /// Budgets.
    pub limits: Limits,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            upto: 20,
            positions: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// A generator: the image of a heap that smaller heaps do not generate.
#[derive(Debug, Clone, Serialize)]
pub struct Generator {
    /// Its name: `a`, `b`, …
    pub name: String,
    /// The heap whose image it is.
    pub heap: u64,
}

/// A relation `word = element`.
#[derive(Debug, Clone, Serialize)]
pub struct Relation {
    /// A word in the generators.
    pub word: String,
    /// The element it equals, as its least word.
    pub equals: String,
}

/// A position answered with the quotient.
#[derive(Debug, Clone, Serialize)]
pub struct Position {
    /// The heaps.
    pub heaps: Vec<u64>,
    /// The product of their elements.
    pub element: String,
    /// The misère outcome: P when the element is in the P-portion.
    pub outcome: Outcome,
    /// The moves to a P-position, as the heaps they leave.
    pub winning_moves: Vec<Vec<u64>>,
}

/// A pretending function proved periodic for every heap: heap `n` has the element of heap
/// `n - period` for every `n >= preperiod + period`.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Forever {
    /// The first heap of the periodic part.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
}

/// The whole answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The ruleset, in the expression grammar.
    pub game: String,
    /// The largest heap.
    pub upto: u64,
    /// How many elements.
    pub order: usize,
    /// The elements, each as its least word in the generators (`1` is the identity).
    pub elements: Vec<String>,
    /// The elements of P-positions.
    pub p_portion: Vec<String>,
    /// The generators.
    pub generators: Vec<Generator>,
    /// Relations that, with the generators, present the quotient (a complete rewriting
    /// system: every word rewrites to its element's least word).
    pub relations: Vec<Relation>,
    /// The pretending function: the element of each heap `0..=upto`.
    pub pretending: Vec<String>,
    /// `table[i][j]`: the index in `elements` of `elements[i] · elements[j]`.
    pub table: Vec<Vec<u32>>,
    /// The order of the quotient of heaps `1..=k`, for `k = 1..=upto`.
    pub growth: Vec<u64>,
    /// The quotients of heaps `1..=k` for every `k` from this one to `upto` are the same
    /// monoid (each further heap is an element already there).
    pub stable_from: u64,
    /// Positions of sums decided by exact search while learning the quotient.
    pub searched: usize,
    /// When the heaps computed prove the pretending function periodic for every heap, and so
    /// this quotient the quotient of all heaps: its preperiod and period.
    pub forever: Option<Forever>,
    /// The answered positions.
    pub positions: Vec<Position>,
}

/// The quotient of `game` (a heap ruleset: `kayles`, `octal 0.75`, `subtract{1,3}`, …).
pub fn solve(game: &str, req: &Request) -> Result<Answer> {
    let rule = parse_rule(game, "the ruleset")?;
    if req.upto == 0 {
        return Err(Error::Invalid(format!(
            "a quotient is of the heaps 1 to {}: give {} of 1 or more",
            crate::core::hint::setting("upto"),
            crate::core::hint::setting("upto")
        )));
    }
    for p in &req.positions {
        if let Some(&h) = p.iter().find(|&&h| h > req.upto) {
            return Err(Error::Invalid(format!(
                "heap {h} is larger than the quotient's heaps (raise {} to {h})",
                crate::core::hint::setting("upto")
            )));
        }
    }
    let q = Quotient::of(rule.as_ref(), req.upto, req.limits)?;
    let pres = present(&q.monoid, q.identity, &q.image);
    let mut index = vec![0u32; q.order()];
    for (i, &x) in pres.order.iter().enumerate() {
        index[x as usize] = i as u32;
    }
    let name = |x: u32| pres.names[x as usize].clone();
    let positions = req
        .positions
        .iter()
        .map(|heaps| answer_position(rule.as_ref(), &q, heaps, &name))
        .collect();
    Ok(Answer {
        game: rule.name(),
        upto: req.upto,
        order: q.order(),
        elements: pres.order.iter().map(|&x| name(x)).collect(),
        p_portion: pres
            .order
            .iter()
            .filter(|&&x| q.p[x as usize])
            .map(|&x| name(x))
            .collect(),
        generators: pres
            .generators
            .iter()
            .map(|(name, heap)| Generator {
                name: name.clone(),
                heap: *heap,
            })
            .collect(),
        relations: pres
            .relations
            .iter()
            .map(|(word, equals)| Relation {
                word: word.clone(),
                equals: equals.clone(),
            })
            .collect(),
        pretending: q.image.iter().map(|&x| name(x)).collect(),
        table: pres
            .order
            .iter()
            .map(|&x| {
                pres.order
                    .iter()
                    .map(|&y| index[q.monoid.mul(x, y) as usize])
                    .collect()
            })
            .collect(),
        growth: q.growth.clone(),
        stable_from: q.stable_from(),
        searched: q.searched,
        forever: q.forever.map(|f| Forever {
            preperiod: f.preperiod,
            period: f.period,
        }),
        positions,
    })
}

/// A position's element, outcome and winning moves, by multiplying.
fn answer_position(
    rule: &dyn crate::impartial::games::heap::HeapRule,
    q: &Quotient,
    heaps: &[u64],
    name: &dyn Fn(u32) -> String,
) -> Position {
    let element = q.element(heaps);
    let mut listed = Vec::new();
    let mut parts = |n: u64, out: &mut Vec<Vec<u64>>| {
        listed.clear();
        rule.heap_moves(n, &mut listed);
        out.extend(listed.iter().map(|m| m.left().to_vec()));
    };
    // Each position reached once, however many equal heaps lead to it.
    let mut winning_moves: Vec<Vec<u64>> = Vec::new();
    for (i, m) in q.winning_moves(heaps, &mut parts) {
        let mut after: Vec<u64> = heaps[..i].to_vec();
        after.extend_from_slice(&m);
        after.extend_from_slice(&heaps[i + 1..]);
        if !winning_moves.contains(&after) {
            winning_moves.push(after);
        }
    }
    Position {
        heaps: heaps.to_vec(),
        element: name(element),
        outcome: q.outcome(heaps),
        winning_moves,
    }
}
