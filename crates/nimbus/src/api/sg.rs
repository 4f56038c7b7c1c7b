//! A sum of impartial games under normal or misère play: outcome, Grundy values, winning
//! moves with the positions they leave, and remoteness.

use super::Limits;
use crate::catalog::impartial::Parser;
use crate::core::error::Result;
use crate::impartial::analysis::AnalyzeOptions;
use crate::impartial::component::Component;
use crate::impartial::misere::{analyze_misere, MisereOptions, MisereResult};
use crate::impartial::sum::analyze;
use crate::script::ScriptOptions;
use serde::Serialize;

// The words of the answers and requests, for the front-ends.
pub use crate::impartial::analysis::{Analysis, WinningMove};
pub use crate::impartial::misere::{MisereAnalysis, MisereRule, Refusal};
pub use crate::impartial::Outcome;

/// Every misère rule with its name, as requests write it.
pub const MISERE_RULES: &[(&str, MisereRule)] = &[
    ("sj", MisereRule::Sj),
    ("anti-nim", MisereRule::AntiNim),
    ("search", MisereRule::Search),
    ("quotient", MisereRule::Quotient),
];

/// The misère rule called `name`: sj, anti-nim, search or quotient.
pub fn misere_rule(name: &str) -> Result<MisereRule> {
    super::named(MISERE_RULES, name).ok_or_else(|| {
        crate::core::error::Error::Invalid(format!(
            "rule '{name}': use sj, anti-nim, search or quotient"
        ))
    })
}

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// Misère play: the player who cannot move wins.
    pub misere: bool,
    /// Misère play: insist on this rule (refused, with a counterexample, where its
    /// precondition fails).
    pub rule: Option<MisereRule>,
    /// List at most this many winning moves (all are counted).
    pub max_moves: usize,
    /// Budgets.
    pub limits: Limits,
    /// Limits on scripts named in the expression.
    pub script: ScriptOptions,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            misere: false,
            rule: None,
            max_moves: 20,
            limits: Limits::default(),
            script: ScriptOptions::default(),
        }
    }
}

/// The play convention of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    /// The player who cannot move loses.
    Normal,
    /// The player who cannot move wins.
    Misere,
}

/// The result proper.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Verdict {
    /// Normal play.
    Normal(Analysis),
    /// Misère play, decided.
    Misere(MisereAnalysis),
    /// Misère play, the rule asked for refused.
    Refused(Refusal),
}

/// The whole answer.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// The sum, in the expression grammar.
    pub expression: String,
    /// Normal or misère.
    pub play: Play,
    /// Whether the rule asked for was refused (then `result` holds the refusal).
    pub refused: bool,
    /// The analysis.
    #[serde(flatten)]
    pub result: Verdict,
}

/// Analyses the sum of `components` as `req` asks.
pub fn analyse(components: &[Box<dyn Component>], req: &Request) -> Result<Answer> {
    let expression = components
        .iter()
        .map(|c| c.expression())
        .collect::<Vec<_>>()
        .join(" + ");
    if req.misere {
        let opts = MisereOptions {
            limits: req.limits,
            max_moves: req.max_moves,
            rule: req.rule,
        };
        let (refused, result) = match analyze_misere(components, &opts)? {
            MisereResult::Answer(a) => (false, Verdict::Misere(a)),
            MisereResult::Refused(r) => (true, Verdict::Refused(r)),
        };
        return Ok(Answer {
            expression,
            play: Play::Misere,
            refused,
            result,
        });
    }
    let opts = AnalyzeOptions {
        limits: req.limits,
        max_moves: req.max_moves,
        ..AnalyzeOptions::default()
    };
    Ok(Answer {
        expression,
        play: Play::Normal,
        refused: false,
        result: Verdict::Normal(analyze(components, &opts)?),
    })
}

/// Parses `text` (the expression grammar; `source` names it in errors) and analyses it.
pub fn solve(text: &str, source: &str, req: &Request) -> Result<Answer> {
    let mut parser = Parser::with_script_options(req.script.clone());
    let components = parser.parse(text, source)?;
    let answer = analyse(&components, req);
    // A failed script call looks like a position without moves to the engines: its error
    // comes first, whatever they answered.
    match parser.script_error() {
        Some(e) => Err(e),
        None => answer,
    }
}
