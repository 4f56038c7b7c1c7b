//! Sums of partizan games in the expression grammar of `nimbus cgt`: rulesets with their
//! positions and values written out, joined by ` + ` and ` - `.
//!
//! ```text
//! domineering ..|.#.|... + toads TT..FF - {1|-1} + 1/2 + ^* + clobber xoxo
//! ```
//!
//! `script:PATH ARGS…` is a partizan game written in Rhai (see [`crate::script::partizan`]).
//!
//! A value is a number (`3`, `-3/4`), a nimber (`*`, `*3`), ups and downs (`^`, `vv`, `^3`),
//! a switch (`±1`, `+-1`, `2±1`), those side by side (`1/2^*`), a symmetric form (`±{2|0}`,
//! `±(1,{2|0})`: `{A | -A}`), or a form with its options (`{1,*|-1}`, `{2||1|0}`: the
//! longest run of bars splits first).

use super::impartial::nearest;
use crate::core::error::{Error, Result, Span};
use crate::partizan::dyadic::Dyadic;
use crate::partizan::engine::Memo;
use crate::partizan::form::{Forms, Id, ZERO};
use crate::partizan::games::amazons::{self, Amazons};
use crate::partizan::games::clobber::{self, Clobber};
use crate::partizan::games::colouring::{Colouring, Kind};
use crate::partizan::games::cutcake::{self, Cutcake};
use crate::partizan::games::domineering::{self, Domineering};
use crate::partizan::games::hackenbush::Hackenbush;
use crate::partizan::games::toads::{self, ToadsAndFrogs};
use crate::partizan::impartial::ImpartialTerm;
use crate::partizan::term::{Literal, Negated, Played, Term};
use crate::script::partizan::ScriptTerm;
use crate::script::{Script, ScriptOptions};
use std::cell::RefCell;
use std::rc::Rc;

/// The rulesets by name, with what their argument is.
pub const RULESETS: &[(&str, &str)] = &[
    (
        "domineering",
        "a board: rows of . and # separated by |, or RxC",
    ),
    ("clobber", "a board: rows of x, o and . separated by |"),
    ("toads", "a strip of T, F and ."),
    (
        "amazons",
        "a board: rows of L (Left's amazons), R (Right's), . and # separated by |",
    ),
    ("cutcake", "cakes RxC, separated by commas"),
    (
        "hackenbush",
        "a graph file of lines 'u v COLOUR' (or them inline, joined by ;), the vertex g the ground",
    ),
    (
        "stalks",
        "Hackenbush stalks: strings of B, R and G, separated by commas",
    ),
    (
        "col",
        "a graph file of lines 'u v' (an edge) or 'u' (a vertex), inline joined by ;",
    ),
    (
        "snort",
        "a graph file of lines 'u v' (an edge) or 'u' (a vertex), inline joined by ;",
    ),
    (
        "sg",
        "an impartial game as nimbus sg writes it, in quotes ('kayles 5', 'octal 0.07 4 + nim 3')",
    ),
];

/// The deepest nesting of braces and bars read.
pub const MOST_NESTING: usize = 64;

/// A word of the expression and the column it starts at (from 1).
#[derive(Debug, Clone)]
struct Word {
    text: String,
    column: usize,
}

/// Splits an expression into words: runs without spaces, a quoted string as one word, braces
/// kept whole with what is inside them.
fn words(text: &str, source: &str) -> Result<Vec<Word>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let mut word = String::new();
        let mut depth = 0usize;
        while i < chars.len() && (depth > 0 || !chars[i].is_whitespace()) {
            let c = chars[i];
            if c == '\'' || c == '"' {
                let close = chars[i + 1..].iter().position(|&d| d == c).ok_or_else(|| {
                    Error::parse(span(source, i), format!("the quote {c} is not closed"))
                })?;
                word.extend(&chars[i + 1..i + 1 + close]);
                i += close + 2;
                continue;
            }
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth
                        .checked_sub(1)
                        .ok_or_else(|| Error::parse(span(source, i), "a } without its {"))?
                }
                _ => {}
            }
            word.push(c);
            i += 1;
        }
        if depth > 0 {
            return Err(Error::parse(span(source, start), "a { is not closed"));
        }
        out.push(Word {
            text: word,
            column: start + 1,
        });
    }
    Ok(out)
}

fn span(source: &str, index: usize) -> Span {
    Span {
        source: source.to_string(),
        line: 1,
        column: index + 1,
    }
}

fn at(source: &str, w: &Word) -> Span {
    span(source, w.column - 1)
}

/// The values of regions met, by ruleset, shared by every expression read with them.
#[derive(Default)]
pub struct Memos {
    domineering: Rc<RefCell<Memo<domineering::Board>>>,
    clobber: Rc<RefCell<Memo<clobber::Board>>>,
    toads: Rc<RefCell<Memo<toads::Strip>>>,
    cutcake: Rc<RefCell<Memo<cutcake::Cakes>>>,
    amazons: Rc<RefCell<Memo<amazons::Board>>>,
}

/// Reads `text` (named `source` in errors) into its summands, values made in `forms`.
pub fn parse(text: &str, source: &str, forms: &mut Forms) -> Result<Vec<Box<dyn Term>>> {
    parse_sharing(text, source, forms, &Memos::default())
}

/// [`parse`], remembering the values of regions in `memos`.
pub fn parse_sharing(
    text: &str,
    source: &str,
    forms: &mut Forms,
    memos: &Memos,
) -> Result<Vec<Box<dyn Term>>> {
    let words = words(text, source)?;
    let mut terms: Vec<Box<dyn Term>> = Vec::new();
    let mut i = 0;
    let mut negative = false;
    let mut expect_term = true;
    while i < words.len() {
        let w = &words[i];
        if w.text == "+" || w.text == "-" {
            if expect_term && !(w.text == "-" && terms.is_empty() && !negative) {
                return Err(Error::parse(
                    at(source, w),
                    format!("'{}' where a game was expected", w.text),
                ));
            }
            negative = w.text == "-";
            expect_term = true;
            i += 1;
            continue;
        }
        if !expect_term {
            return Err(Error::Parse {
                span: at(source, w),
                message: format!("'{}' follows a game without + or -", w.text),
                hint: Some("join games with ' + ' or ' - ' (spaces around)".into()),
            });
        }
        let name = w.text.to_ascii_lowercase();
        let made: Vec<Box<dyn Term>> = if let Some(path) = w.text.strip_prefix("script:") {
            // The words after the path, up to the next + or -, are start(args)'s arguments.
            let mut args = Vec::new();
            while let Some(a) = words.get(i + 1).filter(|a| a.text != "+" && a.text != "-") {
                args.push(a.text.clone());
                i += 1;
            }
            let script = Script::load(path, ScriptOptions::default())?;
            vec![Box::new(ScriptTerm::new(Rc::new(script), &args)?)]
        } else if RULESETS.iter().any(|r| r.0 == name) {
            let arg = words.get(i + 1).ok_or_else(|| {
                Error::parse(at(source, w), format!("{name} needs {}", describe(&name)))
            })?;
            i += 1;
            if name == "sg" {
                impartial_terms(arg, source, forms)?
            } else {
                vec![ruleset(&name, arg, source, memos)?]
            }
        } else {
            let id = match read_value(&w.text.chars().collect::<Vec<_>>(), forms, 0) {
                Ok(id) => id,
                // The budgets' errors stay themselves, with the settings they name.
                Err(Failure::Engine(e)) => return Err(e),
                Err(Failure::Text(m)) => {
                    let hint = nearest(&name, RULESETS.iter().map(|r| r.0))
                        .map(|n| format!("did you mean '{n}'?"));
                    return Err(Error::Parse {
                        span: at(source, w),
                        message: m,
                        hint: Some(hint.unwrap_or_else(|| {
                            format!(
                                "a game is a value ({{1|-1}}, 3/4, *2, ^) or one of: {}",
                                RULESETS.iter().map(|r| r.0).collect::<Vec<_>>().join(", ")
                            )
                        })),
                    });
                }
            };
            vec![Box::new(Literal::new(id, w.text.clone()))]
        };
        for term in made {
            terms.push(if negative {
                Box::new(Negated(term))
            } else {
                term
            });
        }
        negative = false;
        expect_term = false;
        i += 1;
    }
    if expect_term {
        let column = text.chars().count();
        return Err(Error::parse(
            span(source, column),
            if terms.is_empty() {
                "an empty expression: give a game"
            } else {
                "the expression ends after + or -"
            },
        ));
    }
    Ok(terms)
}

fn describe(name: &str) -> &'static str {
    RULESETS
        .iter()
        .find(|r| r.0 == name)
        .map_or("an argument", |r| r.1)
}

/// The components of an expression of `nimbus sg`, each a summand of its own.
fn impartial_terms(arg: &Word, source: &str, forms: &Forms) -> Result<Vec<Box<dyn Term>>> {
    let components = super::impartial::parse(&arg.text, source).map_err(|e| match e {
        // The inner expression's columns count from its own start.
        Error::Parse {
            span,
            message,
            hint,
        } => Error::Parse {
            span: Span {
                column: at(source, arg).column + span.column.saturating_sub(1),
                ..span
            },
            message: format!("sg '{}': {message}", arg.text),
            hint,
        },
        e => e,
    })?;
    components
        .iter()
        .map(|c| Ok(Box::new(ImpartialTerm::new(&**c, forms)?) as Box<dyn Term>))
        .collect()
}

fn ruleset(name: &str, arg: &Word, source: &str, memos: &Memos) -> Result<Box<dyn Term>> {
    let bad = |m: String| Error::Parse {
        span: at(source, arg),
        message: format!("{name} '{}': {m}", arg.text),
        hint: Some(format!("{name} takes {}", describe(name))),
    };
    Ok(match name {
        "domineering" => Box::new(Played::sharing(
            "domineering",
            Domineering,
            Domineering::parse(&arg.text).map_err(bad)?,
            memos.domineering.clone(),
        )),
        "clobber" => Box::new(Played::sharing(
            "clobber",
            Clobber,
            Clobber::parse(&arg.text).map_err(bad)?,
            memos.clobber.clone(),
        )),
        "toads" => Box::new(Played::sharing(
            "toads",
            ToadsAndFrogs,
            ToadsAndFrogs::parse(&arg.text).map_err(bad)?,
            memos.toads.clone(),
        )),
        "amazons" => Box::new(Played::sharing(
            "amazons",
            Amazons,
            Amazons::parse(&arg.text).map_err(bad)?,
            memos.amazons.clone(),
        )),
        "cutcake" => Box::new(Played::sharing(
            "cutcake",
            Cutcake,
            Cutcake::parse(&arg.text).map_err(bad)?,
            memos.cutcake.clone(),
        )),
        "stalks" => {
            let (rules, start) = Hackenbush::parse_stalks(&arg.text).map_err(bad)?;
            Box::new(Played::new("stalks", rules, start))
        }
        "col" | "snort" => {
            let kind = if name == "col" {
                Kind::Col
            } else {
                Kind::Snort
            };
            let inline = arg.text.contains(';') || arg.text.contains(char::is_whitespace);
            let text = if inline {
                arg.text.clone()
            } else {
                crate::core::input::read_text(&arg.text)?
            };
            let (rules, start) = Colouring::parse(kind, &text).map_err(bad)?;
            Box::new(Played::new(
                if name == "col" { "col" } else { "snort" },
                rules,
                start,
            ))
        }
        _ if arg.text.contains(';') => {
            let (rules, start) = Hackenbush::parse_graph(&arg.text).map_err(bad)?;
            Box::new(Played::new("hackenbush", rules, start))
        }
        _ => {
            let text = crate::core::input::read_text(&arg.text)?;
            let (rules, start) = Hackenbush::parse_graph(&text).map_err(|m| Error::Parse {
                span: Span {
                    source: arg.text.clone(),
                    line: 1,
                    column: 1,
                },
                message: m,
                hint: None,
            })?;
            Box::new(Played::new("hackenbush", rules, start))
        }
    })
}

/// A value written out, made in `forms`; the message when it is not one.
pub fn value_word(text: &str, forms: &mut Forms) -> std::result::Result<Id, String> {
    let chars: Vec<char> = text.chars().collect();
    read_value(&chars, forms, 0).map_err(|e| match e {
        Failure::Text(m) => m,
        Failure::Engine(e) => e.to_string(),
    })
}

enum Failure {
    Text(String),
    Engine(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Engine(e)
    }
}

type Read<T> = std::result::Result<T, Failure>;

fn fail<T>(m: impl Into<String>) -> Read<T> {
    Err(Failure::Text(m.into()))
}

/// A value: a form in braces, or a compound of a number, a switch, ups and a nimber.
fn read_value(chars: &[char], forms: &mut Forms, depth: usize) -> Read<Id> {
    if depth > MOST_NESTING {
        return fail(format!("nested more than {MOST_NESTING} deep"));
    }
    let text: String = chars.iter().collect();
    if text.is_empty() {
        return fail("an empty value");
    }
    if let Some(rest) = text.strip_prefix('-') {
        if rest.starts_with('{') {
            let inner: Vec<char> = rest.chars().collect();
            let v = read_value(&inner, forms, depth + 1)?;
            return Ok(forms.neg(v)?);
        }
    }
    if chars[0] == '{' && chars.last() == Some(&'}') && balanced_whole(chars) {
        return read_form(&chars[1..chars.len() - 1], forms, depth + 1);
    }
    // A bare form with bars outside any brace (inside another form: `0|-1` in `{0||0|-1}`,
    // `{0|-2}|-2` in `{{0|-2}|-2||-3}`).
    if bar_outside_braces(chars) {
        return read_form(chars, forms, depth + 1);
    }
    // ±A and ±(A,B): the symmetric form {A,B | -A,-B}.
    let plain = text.replace("+-", "±");
    if let Some(rest) = plain.strip_prefix('±') {
        if rest.starts_with('{') || rest.starts_with('(') {
            let inner: Vec<char> = match rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
                Some(list) => list.chars().collect(),
                None => rest.chars().collect(),
            };
            let left = read_options(&inner, forms, depth + 1)?;
            let mut right = Vec::with_capacity(left.len());
            for &o in &left {
                right.push(forms.neg(o)?);
            }
            return Ok(forms.canonical(&left, &right)?);
        }
    }
    if chars.contains(&'{') || chars.contains(&'}') {
        return fail(format!("'{text}' is not a game: a form is {{LEFT|RIGHT}}"));
    }
    read_compound(&text, forms)
}

/// Whether `chars` has a bar outside every brace.
fn bar_outside_braces(chars: &[char]) -> bool {
    let mut depth = 0i32;
    chars.iter().any(|&c| {
        match c {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            _ => {}
        }
        c == '|' && depth == 0
    })
}

/// Whether the braces of `chars` open at its first character and close at its last.
fn balanced_whole(chars: &[char]) -> bool {
    let mut depth = 0i32;
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && i + 1 < chars.len() {
            return false;
        }
    }
    depth == 0
}

/// `LEFT|RIGHT` with the longest run of bars at depth 0 as the separator.
fn read_form(chars: &[char], forms: &mut Forms, depth: usize) -> Read<Id> {
    let mut runs = Vec::new(); // (start, length) of bar runs at depth 0
    let mut d = 0i32;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' | '(' => d += 1,
            '}' | ')' => d -= 1,
            '|' if d == 0 => {
                let start = i;
                while i < chars.len() && chars[i] == '|' {
                    i += 1;
                }
                runs.push((start, i - start));
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let longest = runs.iter().map(|r| r.1).max().unwrap_or(0);
    let at: Vec<&(usize, usize)> = runs.iter().filter(|r| r.1 == longest).collect();
    let text: String = chars.iter().collect();
    let &&(start, len) = match at.as_slice() {
        [one] => one,
        [] => {
            return fail(format!(
                "'{{{text}}}' has no | between Left's and Right's options"
            ))
        }
        _ => {
            return fail(format!(
                "'{{{text}}}' has {} separators of {longest} bars: which one splits is unclear",
                at.len()
            ))
        }
    };
    let left = read_options(&chars[..start], forms, depth)?;
    let right = read_options(&chars[start + len..], forms, depth)?;
    Ok(forms.canonical(&left, &right)?)
}

/// Options separated by commas at depth 0 (none when empty).
fn read_options(chars: &[char], forms: &mut Forms, depth: usize) -> Read<Vec<Id>> {
    let mut out = Vec::new();
    let mut d = 0i32;
    let mut start = 0;
    let trimmed: Vec<char> = chars
        .iter()
        .copied()
        .filter(|c| !c.is_whitespace())
        .collect();
    if trimmed.is_empty() {
        return Ok(out);
    }
    // A side with bars outside braces is one form written without its braces (`2,2*|1` in
    // `{2,2*|1||0}`): its commas are its own.
    if bar_outside_braces(&trimmed) {
        out.push(read_value(&trimmed, forms, depth)?);
        return Ok(out);
    }
    for i in 0..=trimmed.len() {
        let c = trimmed.get(i).copied();
        match c {
            Some('{' | '(') => d += 1,
            Some('}' | ')') => d -= 1,
            Some(',') | None if d == 0 => {
                out.push(read_value(&trimmed[start..i], forms, depth)?);
                start = i + 1;
            }
            _ => {}
        }
    }
    Ok(out)
}

/// `x`, `x±y`, ups, a nimber, side by side: `1/2^*`, `±1`, `v3*2`, `2+-1`.
fn read_compound(text: &str, forms: &mut Forms) -> Read<Id> {
    let bad = || Failure::Text(format!("'{text}' is not a game or a value"));
    let s = text.replace("+-", "±");
    let mut rest = s.as_str();
    let mut total = ZERO;
    // A number first.
    let end = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '/' || (i == 0 && c == '-')))
        .map_or(rest.len(), |(i, _)| i);
    if end > 0 && rest[..end] != *"-" {
        let x = number(&rest[..end])?.ok_or_else(bad)?;
        total = forms.number_form(x)?;
        rest = &rest[end..];
    }
    if let Some(r) = rest.strip_prefix('±') {
        let end = r
            .char_indices()
            .find(|&(_, c)| !(c.is_ascii_digit() || c == '/'))
            .map_or(r.len(), |(i, _)| i);
        let y = number(&r[..end])?.ok_or_else(bad)?;
        let (a, b) = (forms.number_form(y)?, forms.number_form(y.negated())?);
        let switch = forms.canonical(&[a], &[b])?;
        total = forms.add(total, switch)?;
        rest = &r[end..];
    }
    for (mark, sign) in [('^', 1i64), ('v', -1)] {
        if rest.starts_with(mark) {
            let marks = rest.chars().take_while(|&c| c == mark).count();
            rest = &rest[marks..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            let n: i64 = if digits > 0 && marks == 1 {
                let n = rest[..digits].parse().map_err(|_| bad())?;
                rest = &rest[digits..];
                n
            } else {
                marks as i64
            };
            if n > 1000 {
                return fail(format!("'{text}': at most 1000 ups or downs"));
            }
            let star = forms.canonical(&[ZERO], &[ZERO])?;
            let up = forms.canonical(&[ZERO], &[star])?;
            let one = if sign > 0 { up } else { forms.neg(up)? };
            for _ in 0..n {
                total = forms.add(total, one)?;
            }
        }
    }
    if let Some(r) = rest.strip_prefix('*') {
        let m: u32 = if r.is_empty() {
            1
        } else {
            r.parse().map_err(|_| bad())?
        };
        if m > 4096 {
            return fail(format!("'{text}': nimbers up to *4096"));
        }
        let mut stars = vec![ZERO];
        for _ in 0..m {
            let next = forms.canonical(&stars, &stars)?;
            stars.push(next);
        }
        total = forms.add(total, stars[m as usize])?;
        rest = "";
    }
    if !rest.is_empty() || text.is_empty() {
        return Err(bad());
    }
    Ok(total)
}

/// `3`, `-3/4`: a dyadic number (`None` when `text` is not one; an error past the range).
fn number(text: &str) -> Read<Option<Dyadic>> {
    let (n, d) = match text.split_once('/') {
        Some((n, d)) => match d.parse::<u64>() {
            Ok(d) => (n, d),
            Err(_) => return Ok(None),
        },
        None => (text, 1),
    };
    let Ok(n) = n.parse::<i64>() else {
        return Ok(None);
    };
    if d == 0 || !d.is_power_of_two() {
        return Ok(None);
    }
    Ok(Some(Dyadic::new(n, d.trailing_zeros())?))
}
