//! The nim-sequence of a heap game, normal or misère, with its period and whether the
//! period is proved.

use super::Limits;
use crate::error::{Error, Result};
use crate::impartial::expr::parse_rule;
use crate::impartial::games::heap::HeapRule;
use crate::impartial::sequence::{misere_sequence, nim_sequence};
use crate::script::ScriptOptions;
use serde::Serialize;

pub use super::sg::Play;

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// The last heap size: values for `0..=upto`.
    pub upto: u64,
    /// Misère play: the misère Grundy values `G⁻(n)`.
    pub misere: bool,
    /// Budgets.
    pub limits: Limits,
    /// Limits on a script ruleset.
    pub script: ScriptOptions,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            upto: 100,
            misere: false,
            limits: Limits::default(),
            script: ScriptOptions::default(),
        }
    }
}

/// The whole answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The ruleset, in the expression grammar.
    pub game: String,
    /// Normal or misère.
    pub play: Play,
    /// The last heap size.
    pub upto: u64,
    /// `G(0..=upto)` (or `G⁻` in misère play).
    pub values: Vec<u64>,
    /// Misère play: each heap's remoteness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remoteness: Option<Vec<u64>>,
    /// Where the periodic part starts, when a period is seen.
    pub preperiod: Option<u64>,
    /// The period seen, if any.
    pub period: Option<u64>,
    /// Whether the period is proved to go on for ever.
    pub proved: bool,
    /// When a period is seen but not proved: the `upto` that would prove it, for rulesets
    /// with a periodicity test.
    pub proof_horizon: Option<u64>,
    /// Remarks.
    pub notes: Vec<String>,
}

/// The nim-sequence of `rule`.
pub fn of_rule(rule: &dyn HeapRule, req: &Request) -> Result<Answer> {
    if req.misere {
        let s = misere_sequence(rule, req.upto, req.limits)?;
        let mut notes = Vec::new();
        let proof_horizon = match (rule.splits(), s.proved, s.period) {
            (false, false, Some(p)) => rule.proof_horizon(p.preperiod, p.period),
            _ => None,
        };
        if rule.splits() {
            notes.push(format!(
                "misère values of sums do not add up, so these come from an exact search of \
                 {} sums of heaps",
                s.positions
            ));
        }
        return Ok(Answer {
            game: s.game,
            play: Play::Misere,
            upto: req.upto,
            values: s.values,
            remoteness: Some(s.remoteness),
            preperiod: s.period.map(|p| p.preperiod),
            period: s.period.map(|p| p.period),
            proved: s.proved,
            proof_horizon,
            notes,
        });
    }
    let s = nim_sequence(rule, req.upto, req.limits)?;
    let proof_horizon = match (s.proved, s.period) {
        (false, Some(p)) => rule.proof_horizon(p.preperiod, p.period),
        _ => None,
    };
    Ok(Answer {
        game: s.game,
        play: Play::Normal,
        upto: req.upto,
        values: s.values,
        remoteness: None,
        preperiod: s.period.map(|p| p.preperiod),
        period: s.period.map(|p| p.period),
        proved: s.proved,
        proof_horizon,
        notes: Vec::new(),
    })
}

/// The nim-sequence of the ruleset written in `text` ("octal 0.137", "subtract{1,3,4}", or
/// "script:FILE" for a Rhai script with `fn heap(n)`).
pub fn solve(text: &str, req: &Request) -> Result<Answer> {
    if let Some(rest) = text.trim().strip_prefix("script:") {
        return of_script(rest, req);
    }
    of_rule(parse_rule(text, "the ruleset")?.as_ref(), req)
}

fn of_script(rest: &str, req: &Request) -> Result<Answer> {
    use crate::script::impartial as script;
    let mut words = rest.split_whitespace();
    let path = words.next().unwrap_or("");
    if let Some(extra) = words.next() {
        return Err(Error::Invalid(format!(
            "unexpected '{extra}': a script's nim-sequence takes no heap sizes here (the sequence runs from 0 to --upto)"
        )));
    }
    let s = std::rc::Rc::new(crate::script::Script::load(path, req.script.clone())?);
    let (game, values, remoteness, period) = if req.misere {
        let m = script::misere_sequence(&s, req.upto, req.limits)?;
        (m.game, m.values, Some(m.remoteness), m.period)
    } else {
        let m = script::nim_sequence(&s, req.upto, req.limits)?;
        (m.game, m.values, None, m.period)
    };
    Ok(Answer {
        game,
        play: if req.misere {
            Play::Misere
        } else {
            Play::Normal
        },
        upto: req.upto,
        values,
        remoteness,
        preperiod: period.map(|p| p.preperiod),
        period: period.map(|p| p.period),
        proved: false,
        proof_horizon: None,
        notes: Vec::new(),
    })
}
