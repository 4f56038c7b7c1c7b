//! The nim-sequence of a heap game, normal or misère, with its period and whether the
//! period is proved.

use super::Limits;
use crate::catalog::impartial::parse_rule;
use crate::core::error::{Error, Result};
use crate::impartial::games::heap::{HeapRule, HeapValues};
use crate::impartial::period::Period;
use crate::impartial::sequence::{misere_sequence, nim_sequence};
use crate::script::ScriptOptions;
use serde::Serialize;

pub use super::sg::Play;

/// The work budget a front-end should give a proof when its user sets none: a proof is asked
/// to run until the test succeeds, so hours rather than the usual seconds (10^13 steps);
/// `limits.max_states` still bounds the table, and progress and Ctrl-C work as ever.
pub const PROVE_MAX_WORK: u64 = 10_000_000_000_000;

/// What to compute.
#[derive(Debug, Clone)]
pub struct Request {
    /// The last heap size: values for `0..=upto`.
    pub upto: u64,
    /// Misère play: the misère Grundy values `G⁻(n)`.
    pub misere: bool,
    /// Compute as far as it takes to prove a period (normal play, rules with a periodicity
    /// test), within the limits; `values` still lists `G(0..=upto)`.
    pub prove: bool,
    /// Prove a period if the limits allow (normal play, rules with a periodicity test): as
    /// with `prove`, but when a limit stops the proof first the answer is `G(0..=upto)` with a
    /// note naming that limit. The front-ends' default when no `upto` is given, so that
    /// `sequence kayles` answers "periodic from 71, proved" rather than "no period seen".
    pub until_proved: bool,
    /// Draw the values listed as an SVG scatter plot ([`Answer::plot`]).
    pub plot: bool,
    /// With `prove`: a file to resume from and save to (see [`HeapRule::prove_resuming`]).
    pub checkpoint: Option<std::path::PathBuf>,
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
            prove: false,
            until_proved: false,
            plot: false,
            checkpoint: None,
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
    /// The certificate of a proved period: the test compared `G(n)` with `G(n + period)` for
    /// `preperiod <= n` up to `G(checked_upto)`.
    pub checked_upto: Option<u64>,
    /// With `checked_upto`: the CRC-32 (as 8 hex digits) of `G(0..=checked_upto)`, each
    /// value a 64-bit little-endian integer, so that another program can confirm the table
    /// the proof rests on (Python: `zlib.crc32(struct.pack("<%dQ" % len(v), *v))`).
    pub checksum: Option<String>,
    /// Remarks.
    pub notes: Vec<String>,
    /// The scatter plot of the values (SVG) when asked for.
    #[serde(skip)]
    pub plot: Option<String>,
}

/// The CRC-32 of `values`, each a 64-bit little-endian integer, as 8 hex digits.
pub fn checksum(values: &[u64]) -> String {
    crate::impartial::period::checksum_of(values.iter().copied())
}

/// The certificate of the proved `period` of `table`: the last index the test compared, and
/// the checksum of the values up to it.
fn certificate(
    rule: &dyn HeapRule,
    table: &[u64],
    period: Period,
) -> (Option<u64>, Option<String>) {
    match rule.proof_horizon(period.preperiod, period.period) {
        Some(h) if (h as u128) < table.len() as u128 => {
            (Some(h), Some(checksum(&table[..=h as usize])))
        }
        _ => (None, None),
    }
}

/// The nim-sequence of `rule`.
pub fn of_rule(rule: &dyn HeapRule, req: &Request) -> Result<Answer> {
    if req.prove && req.misere {
        return Err(Error::Invalid(format!(
            "{} is for normal play: misère periods are proved only for rules that never split \
             a heap, from the table {} asks for",
            crate::core::hint::setting("prove"),
            crate::core::hint::setting("upto")
        )));
    }
    if req.checkpoint.is_some() && !req.prove {
        return Err(Error::Invalid(format!(
            "{} saves the progress of a {} run: add {}",
            crate::core::hint::setting("checkpoint"),
            crate::core::hint::setting("prove"),
            crate::core::hint::setting("prove")
        )));
    }
    let mut notes = Vec::new();
    if req.prove {
        let proof = match &req.checkpoint {
            Some(path) => rule.prove_resuming(req.limits, path)?,
            None => rule.prove(req.limits)?,
        };
        return Ok(proved(rule, req, proof));
    }
    if req.until_proved && !req.misere && rule.proof_horizon(0, 1).is_some() {
        match rule.prove(req.limits) {
            Ok(proof) => return Ok(proved(rule, req, proof)),
            // A budget ends the attempt, not the answer: the table up to `upto` follows.
            Err(
                e @ (Error::StateLimit { .. } | Error::Budget { .. } | Error::TimeLimit { .. }),
            ) => notes.push(format!(
                "no period proved within the limits (with {} the search goes on for as long as \
                 it takes): {}",
                crate::core::hint::setting("prove"),
                e.raw()
            )),
            Err(e) => return Err(e),
        }
    }
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
            checked_upto: None,
            checksum: None,
            notes,
            plot: None,
        });
    }
    let s = nim_sequence(rule, req.upto, req.limits)?;
    let proof_horizon = match (s.proved, s.period) {
        (false, Some(p)) => rule.proof_horizon(p.preperiod, p.period),
        _ => None,
    };
    let (checked_upto, checksum) = match s.period {
        Some(p) if s.proved => certificate(rule, &s.values, p),
        _ => (None, None),
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
        checked_upto,
        checksum,
        notes,
        plot: None,
    })
}

/// The answer of a proof: `G(0..=upto)` read from the proved periodic form.
fn proved(rule: &dyn HeapRule, req: &Request, proof: crate::impartial::period::Proof) -> Answer {
    let period = proof.period;
    let (checked_upto, checksum) = (Some(proof.checked_upto), Some(proof.checksum));
    let form = HeapValues::Periodic {
        table: proof.table,
        preperiod: period.preperiod,
        period: period.period,
    };
    let values = (0..=req.upto)
        .map(|n| form.get(n).expect("a periodic form covers every heap"))
        .collect();
    Answer {
        game: rule.name(),
        play: Play::Normal,
        upto: req.upto,
        values,
        remoteness: None,
        preperiod: Some(period.preperiod),
        period: Some(period.period),
        proved: true,
        proof_horizon: None,
        checked_upto,
        checksum,
        notes: Vec::new(),
        plot: None,
    }
}

/// The nim-sequence of the ruleset written in `text` ("octal 0.137", "subtract{1,3,4}", or
/// "script:FILE" for a Rhai script with `fn heap(n)`).
pub fn solve(text: &str, req: &Request) -> Result<Answer> {
    let answer = if let Some(rest) = text.trim().strip_prefix("script:") {
        of_script(rest, req)
    } else {
        of_rule(parse_rule(text, "the ruleset")?.as_ref(), req)
    }?;
    Ok(with_plot(answer, req))
}

/// `answer` with its plot drawn, if `req` asks for one.
pub fn with_plot(mut answer: Answer, req: &Request) -> Answer {
    if req.plot {
        let period = answer
            .period
            .zip(answer.preperiod)
            .map(|(period, preperiod)| Period { preperiod, period });
        let game = match answer.play {
            Play::Misere => format!("{} (misère)", answer.game),
            Play::Normal => answer.game.clone(),
        };
        answer.plot = Some(crate::impartial::plot::sequence_svg(
            &game,
            &answer.values,
            period,
            answer.proved,
        ));
    }
    answer
}

fn of_script(rest: &str, req: &Request) -> Result<Answer> {
    if req.prove {
        return Err(Error::Invalid(format!(
            "no periodicity test is known for a script's ruleset, so {} cannot prove a period \
             (octal games and subtraction games with a finite set have one)",
            crate::core::hint::setting("prove")
        )));
    }
    use crate::script::impartial as script;
    let mut words = rest.split_whitespace();
    let path = words.next().unwrap_or("");
    if let Some(extra) = words.next() {
        return Err(Error::Invalid(format!(
            "unexpected '{extra}': a script's nim-sequence takes no heap sizes here (the \
             sequence runs from 0 to {})",
            crate::core::hint::setting("upto")
        )));
    }
    let s = std::rc::Rc::new(crate::script::Script::load(path, req.script.clone())?);
    if let Some(rule) = script::ScriptHeapRule::of(&s) {
        // A take-and-break rule: one table, as for octal games. The engines see a failed
        // call as a heap without moves, so the script's error comes first.
        let answer = of_rule(&rule, req);
        return match s.error() {
            Some(e) => Err(e),
            None => answer,
        };
    }
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
        checked_upto: None,
        checksum: None,
        notes: Vec::new(),
        plot: None,
    })
}
