//! The catalogue of impartial games: the expression grammar that names every built-in ruleset
//! (and a Rhai script's) and sums them, shared by every front-end.
//!
//! ```text
//! expression := component ( "+" component )*
//! component  := "nim" HEAP+
//!             | "subtract{" SET "}" HEAP+        remove a number of tokens in SET
//!             | "allbut{" SET? "}" HEAP+         remove any positive number not in SET
//!             | "kayles" HEAP+ | "dawson" HEAP+ | "dawson-chess" HEAP+ | "grundy-game" HEAP+
//!             | "octal" CODE HEAP+               CODE such as 0.137 or 4.07
//!             | "hex" CODE HEAP+                 hexadecimal CODE such as 0.8f
//!             | "wythoff" HEAP HEAP
//!             | "fibonacci" HEAP [LIMIT]         LIMIT: most the player to move may take
//!             | "graph" PATH ("@" NODE)+         tokens on the nodes of a graph file
//!             | "script:" PATH ARG*              a game written in Rhai (see crate::script)
//! SET        := ITEM ("," ITEM)*                 ITEM := N | N ".." N
//! HEAP       := a whole number from 0 to 18446744073709551615
//! ```
//!
//! Several heaps after one name form one component (their sum); `+` joins components of any
//! kinds. Whitespace, including newlines, separates words, so an expression can be read from a
//! file. Every error names the source, line and column of the offending token.

use crate::core::error::{Error, Result, Span};
use crate::core::number::parse_u64;
use crate::impartial::component::{Component, Positioned};
use crate::impartial::games::digraph::{Graph, Tokens};
use crate::impartial::games::fibonacci::FibonacciNim;
use crate::impartial::games::grundy_game::GrundyGame;
use crate::impartial::games::heap::{HeapRule, Heaps};
use crate::impartial::games::nim::Nim;
use crate::impartial::games::octal::Octal;
use crate::impartial::games::subtraction::Subtraction;
use crate::impartial::games::wythoff::{self, Wythoff};
use crate::script::impartial::{ScriptComponent, ScriptHeapRule, ScriptRules};
use crate::script::{Script, ScriptOptions};
use std::collections::HashMap;
use std::rc::Rc;

/// The names a component may start with.
pub const GAME_NAMES: &[&str] = &[
    "nim",
    "subtract",
    "allbut",
    "kayles",
    "dawson",
    "dawson-chess",
    "grundy-game",
    "octal",
    "hex",
    "wythoff",
    "fibonacci",
    "graph",
    "script:",
];

#[derive(Debug, Clone)]
struct Token {
    text: String,
    span: Span,
}

fn tokenize(text: &str, source: &str) -> Result<Vec<Token>> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1usize, 0usize);
    let mut cur: Option<Token> = None;
    let mut depth = 0usize;
    let mut open_brace: Option<Span> = None;
    // Spans are built only where a token or a brace starts: an expression read from a file may
    // hold millions of characters.
    let span = |line: usize, column: usize| Span {
        source: source.to_string(),
        line,
        column,
    };
    for ch in text.chars() {
        col += 1;
        let (here_line, here_col) = (line, col);
        if ch == '\n' {
            line += 1;
            col = 0;
        }
        if depth > 0 {
            let t = cur.as_mut().expect("a brace is inside a word");
            t.text.push(ch);
            if ch == '}' {
                depth -= 1;
            }
            continue;
        }
        if ch.is_whitespace() || ch == '+' {
            out.extend(cur.take());
            if ch == '+' {
                out.push(Token {
                    text: "+".into(),
                    span: span(here_line, here_col),
                });
            }
            continue;
        }
        let t = cur.get_or_insert_with(|| Token {
            text: String::new(),
            span: span(here_line, here_col),
        });
        t.text.push(ch);
        if ch == '{' {
            depth += 1;
            open_brace = Some(span(here_line, here_col));
        }
    }
    if depth > 0 {
        return Err(Error::parse(
            open_brace.expect("set when depth > 0"),
            "this '{' is never closed",
        ));
    }
    out.extend(cur);
    Ok(out)
}

/// Levenshtein distance, for "did you mean" hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j]))
                .min(row[j] + 1)
                .min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The candidate closest to `word`, if reasonably close.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (distance(&word.to_lowercase(), c), c))
        .filter(|&(d, c)| d <= 2.max(c.len() / 3))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

fn shifted(span: &Span, chars: usize) -> Span {
    Span {
        column: span.column + chars,
        ..span.clone()
    }
}

/// The most elements one range of a set may have: every element is a move to list.
const MAX_RANGE: u64 = 1_000_001;

/// Parses `{1,3,4}` or `{1..5,8}` (the braces included in `text`, which starts at `span`).
fn parse_set(text: &str, span: &Span, allow_empty: bool) -> Result<Vec<u64>> {
    let inner = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| {
            Error::parse(
                span.clone(),
                format!("expected a set like {{1,3,4}}, found '{text}'"),
            )
        })?;
    let mut set = Vec::new();
    let mut offset = 1;
    for item in inner.split(',') {
        let lead = item.len() - item.trim_start().len();
        let at = shifted(span, offset + lead);
        let item_t = item.trim();
        offset += item.chars().count() + 1;
        if item_t.is_empty() {
            if inner.trim().is_empty() && allow_empty {
                break;
            }
            return Err(Error::parse(at, "empty item in the set"));
        }
        let (lo, hi) = match item_t.split_once("..") {
            Some((a, b)) => (
                parse_u64(a.trim(), &at, "a set element")?,
                parse_u64(b.trim(), &at, "a set element")?,
            ),
            None => {
                let v = parse_u64(item_t, &at, "a set element")?;
                (v, v)
            }
        };
        if lo == 0 {
            return Err(Error::parse(
                at,
                "0 cannot be in the set: a move must remove at least one token",
            ));
        }
        if hi < lo {
            return Err(Error::parse(
                at,
                format!("'{item_t}' is not a usable range: it must go up, as in {hi}..{lo}"),
            ));
        }
        if hi - lo >= MAX_RANGE {
            return Err(Error::parse(
                at,
                format!(
                    "'{item_t}' is not a usable range: a range has at most {MAX_RANGE} elements \
                     (a set that large is better written as allbut{{…}})"
                ),
            ));
        }
        set.extend(lo..=hi);
    }
    if set.is_empty() && !allow_empty {
        return Err(Error::parse(span.clone(), "the subtraction set is empty"));
    }
    set.sort_unstable();
    set.dedup();
    Ok(set)
}

/// Builds components from an expression, sharing rulesets (and their cached values) between
/// components that use the same one.
#[derive(Default)]
pub struct Parser {
    octal: HashMap<String, Rc<Heaps<Octal>>>,
    subtraction: HashMap<String, Rc<Heaps<Subtraction>>>,
    graphs: HashMap<String, Rc<Tokens>>,
    scripts: HashMap<String, Rc<ScriptRules>>,
    /// Scripts with `fn heap_moves(n)`: take-and-break rules, valued like `octal`.
    heap_scripts: HashMap<String, Rc<Heaps<ScriptHeapRule>>>,
    script_options: ScriptOptions,
}

impl Parser {
    /// A parser with no rulesets cached.
    pub fn new() -> Self {
        Self::default()
    }

    /// A parser whose scripts run under `options`.
    pub fn with_script_options(options: ScriptOptions) -> Self {
        Parser {
            script_options: options,
            ..Self::default()
        }
    }

    /// The first error raised by a script of the expression. The engines see a failed script
    /// call as a position without moves, so a front-end asks this before printing an answer.
    pub fn script_error(&self) -> Option<Error> {
        self.scripts
            .values()
            .find_map(|r| r.script.error())
            .or_else(|| {
                self.heap_scripts
                    .values()
                    .find_map(|r| r.rule.script.error())
            })
    }

    /// Parses `text`; `source` names it in errors ("the expression" or a file's path).
    pub fn parse(&mut self, text: &str, source: &str) -> Result<Vec<Box<dyn Component>>> {
        let tokens = tokenize(text, source)?;
        if tokens.is_empty() {
            return Err(Error::parse(
                Span {
                    source: source.into(),
                    line: 1,
                    column: 1,
                },
                "the expression is empty (try 'nim 3 4 5' or 'kayles 7 + wythoff 3 5')",
            ));
        }
        let mut out = Vec::new();
        let mut group: Vec<Token> = Vec::new();
        let mut last_plus: Option<Span> = None;
        for t in tokens {
            if t.text == "+" {
                if group.is_empty() {
                    return Err(Error::parse(
                        t.span,
                        "a component is missing before this '+'",
                    ));
                }
                out.extend(self.components(&group)?);
                group.clear();
                last_plus = Some(t.span);
            } else {
                group.push(t);
            }
        }
        if group.is_empty() {
            let span = last_plus.expect("tokens are not empty, so the last one was a '+'");
            return Err(Error::parse(span, "a component is missing after this '+'"));
        }
        out.extend(self.components(&group)?);
        Ok(out)
    }

    /// The components a group of tokens makes: one, except for a script on heaps, which makes
    /// one per heap.
    fn components(&mut self, toks: &[Token]) -> Result<Vec<Box<dyn Component>>> {
        let head = &toks[0];
        let Some(path) = head.text.strip_prefix("script:") else {
            return Ok(vec![self.component(toks)?]);
        };
        if path.is_empty() {
            return Err(Error::parse(
                head.span.clone(),
                "script: needs the script's path, as in script:examples/take134.rhai 20",
            ));
        }
        if let Some(rule) = self.heap_scripts.get(path) {
            return Ok(vec![heap_component(rule.clone(), &toks[1..], head)?]);
        }
        let rules = match self.scripts.get(path) {
            Some(r) => r.clone(),
            None => {
                let script = Rc::new(Script::load(path, self.script_options.clone())?);
                if let Some(rule) = ScriptHeapRule::of(&script) {
                    let rule = Rc::new(Heaps::new(rule));
                    self.heap_scripts.insert(path.to_string(), rule.clone());
                    return Ok(vec![heap_component(rule, &toks[1..], head)?]);
                }
                let r = Rc::new(ScriptRules::new(script)?);
                self.scripts.insert(path.to_string(), r.clone());
                r
            }
        };
        let args: Vec<String> = toks[1..].iter().map(|t| t.text.clone()).collect();
        let spans: Vec<Span> = toks[1..].iter().map(|t| t.span.clone()).collect();
        Ok(rules
            .starts(&args, &spans)?
            .into_iter()
            .map(|p| Box::new(ScriptComponent::new(rules.clone(), p)) as Box<dyn Component>)
            .collect())
    }

    // Kept as one function: one arm a ruleset's name, each a few lines of its own parameters; a
    // table of closures would hide which words each name takes.
    fn component(&mut self, toks: &[Token]) -> Result<Box<dyn Component>> {
        let head = &toks[0];
        let (name, set_text) = match head.text.find('{') {
            Some(i) => (&head.text[..i], Some(&head.text[i..])),
            None => (head.text.as_str(), None),
        };
        let name_lc = name.to_lowercase();
        let args = &toks[1..];
        if set_text.is_some() && !matches!(name_lc.as_str(), "subtract" | "allbut") {
            return Err(Error::parse(
                head.span.clone(),
                format!("'{name}' takes no set in braces; only subtract{{…}} and allbut{{…}} do"),
            ));
        }
        match name_lc.as_str() {
            "nim" => Ok(heap_component(Rc::new(Heaps::new(Nim)), args, head)?),
            "kayles" => {
                let rule = self.octal_rule("kayles", Octal::kayles);
                heap_component(rule, args, head)
            }
            "dawson" => {
                let rule = self.octal_rule("dawson", Octal::dawson);
                heap_component(rule, args, head)
            }
            "dawson-chess" => {
                let rule = self.octal_rule("dawson-chess", Octal::dawson_chess);
                heap_component(rule, args, head)
            }
            "grundy-game" => heap_component(Rc::new(Heaps::new(GrundyGame)), args, head),
            "octal" | "hex" => {
                let code = args.first().ok_or_else(|| {
                    Error::parse(
                        head.span.clone(),
                        format!("{name_lc} needs a code such as 0.137, then heap sizes"),
                    )
                })?;
                let parse = if name_lc == "hex" {
                    Octal::parse_hex
                } else {
                    Octal::parse
                };
                let game = parse(&code.text)
                    .map_err(|(at, msg)| Error::parse(shifted(&code.span, at), msg))?;
                let key = game.name();
                let rule = self.octal_rule(&key, || game.clone());
                heap_component(rule, &args[1..], head)
            }
            "subtract" | "allbut" => {
                let set_text = set_text.ok_or_else(|| {
                    Error::parse(
                        head.span.clone(),
                        format!("'{name}' needs its set in braces, as in {name_lc}{{1,3,4}} 20"),
                    )
                })?;
                let set_span = shifted(&head.span, name.chars().count());
                let rule = if name_lc == "subtract" {
                    Subtraction::Finite(parse_set(set_text, &set_span, false)?)
                } else {
                    Subtraction::AllBut(parse_set(set_text, &set_span, true)?)
                };
                let rule = self
                    .subtraction
                    .entry(rule.name())
                    .or_insert_with(|| Rc::new(Heaps::new(rule)))
                    .clone();
                heap_component(rule, args, head)
            }
            "wythoff" => {
                let heaps = numbers(args, "a heap size")?;
                if heaps.len() != 2 {
                    return Err(Error::parse(
                        head.span.clone(),
                        format!(
                            "wythoff needs exactly two heap sizes, found {}",
                            heaps.len()
                        ),
                    ));
                }
                for (i, &h) in heaps.iter().enumerate() {
                    if h > wythoff::MAX_HEAP {
                        return Err(Error::parse(
                            args[i].span.clone(),
                            format!(
                                "'{h}' is too large: Wythoff heaps are at most {}",
                                wythoff::MAX_HEAP
                            ),
                        ));
                    }
                }
                Ok(Box::new(Positioned::new(
                    Rc::new(Wythoff::default()),
                    (heaps[0], heaps[1]),
                )))
            }
            "fibonacci" => {
                let nums = numbers(args, "a heap size")?;
                let pos = match nums.as_slice() {
                    [n] => FibonacciNim::start(*n),
                    [n, limit] => (*n, (*limit).min(*n)),
                    _ => {
                        return Err(Error::parse(
                            head.span.clone(),
                            "fibonacci takes a heap size and optionally the most the player to move may take",
                        ))
                    }
                };
                Ok(Box::new(Positioned::new(Rc::new(FibonacciNim), pos)))
            }
            "graph" => self.graph_component(head, args),
            _ => {
                let hint = nearest(name, GAME_NAMES.iter().copied())
                    .map(|n| format!("did you mean '{n}'?"));
                Err(Error::Parse {
                    span: head.span.clone(),
                    message: format!("unknown game '{name}'"),
                    hint: Some(
                        hint.unwrap_or_else(|| format!("known games: {}", GAME_NAMES.join(", "))),
                    ),
                })
            }
        }
    }

    fn octal_rule(&mut self, key: &str, make: impl FnOnce() -> Octal) -> Rc<Heaps<Octal>> {
        self.octal
            .entry(key.to_string())
            .or_insert_with(|| Rc::new(Heaps::new(make())))
            .clone()
    }

    fn graph_component(&mut self, head: &Token, args: &[Token]) -> Result<Box<dyn Component>> {
        let path = args.first().ok_or_else(|| {
            Error::parse(
                head.span.clone(),
                "graph needs a file, then tokens such as @a @b",
            )
        })?;
        let game = match self.graphs.get(&path.text) {
            Some(g) => g.clone(),
            None => {
                let g = Rc::new(Tokens::new(Graph::read(&path.text)?));
                self.graphs.insert(path.text.clone(), g.clone());
                g
            }
        };
        if args.len() < 2 {
            return Err(Error::parse(
                path.span.clone(),
                "put at least one token on the graph, as in @a",
            ));
        }
        let mut tokens = Vec::new();
        for t in &args[1..] {
            let name = t.text.strip_prefix('@').ok_or_else(|| {
                Error::parse(
                    t.span.clone(),
                    format!("expected a token such as @{}, found '{}'", t.text, t.text),
                )
            })?;
            let v = game.graph.node(name).ok_or_else(|| {
                let hint = nearest(name, game.graph.names().iter().map(String::as_str))
                    .map(|n| format!("did you mean '@{n}'?"));
                let empty = if game.graph.is_empty() {
                    " (the file has no nodes: write one edge 'u v' per line)"
                } else {
                    ""
                };
                Error::Parse {
                    span: t.span.clone(),
                    message: format!("there is no node '{name}' in {}{empty}", game.graph.path),
                    hint,
                }
            })?;
            tokens.push(v);
        }
        Ok(Box::new(Positioned::new(game, tokens)))
    }
}

fn numbers(args: &[Token], what: &str) -> Result<Vec<u64>> {
    args.iter()
        .map(|t| parse_u64(&t.text, &t.span, what))
        .collect()
}

fn heap_component<R: HeapRule + 'static>(
    rule: Rc<Heaps<R>>,
    args: &[Token],
    head: &Token,
) -> Result<Box<dyn Component>> {
    if args.is_empty() {
        return Err(Error::parse(
            head.span.clone(),
            format!(
                "{} needs at least one heap size, as in '{} 7'",
                head.text, head.text
            ),
        ));
    }
    let heaps = numbers(args, "a heap size")?;
    Ok(Box::new(Positioned::new(rule, heaps)))
}

/// Parses an expression with a fresh [`Parser`].
pub fn parse(text: &str, source: &str) -> Result<Vec<Box<dyn Component>>> {
    Parser::new().parse(text, source)
}

/// Parses a heap ruleset for nim-sequences: `nim`, `subtract{…}`, `allbut{…}`, `kayles`,
/// `dawson`, `grundy-game` or `octal CODE`.
pub fn parse_rule(text: &str, source: &str) -> Result<Box<dyn HeapRule>> {
    let toks = tokenize(text, source)?;
    let Some(head) = toks.first() else {
        return Err(Error::parse(
            Span {
                source: source.into(),
                line: 1,
                column: 1,
            },
            "no ruleset given (try kayles, 'octal 0.137' or subtract{1,3,4})",
        ));
    };
    let (name, set_text) = match head.text.find('{') {
        Some(i) => (&head.text[..i], Some(&head.text[i..])),
        None => (head.text.as_str(), None),
    };
    let extra = |i: usize| -> Result<()> {
        match toks.get(i) {
            Some(t) => Err(Error::parse(
                t.span.clone(),
                format!(
                    "unexpected '{}': the ruleset takes no heap sizes here (use {})",
                    t.text,
                    crate::core::hint::setting("upto")
                ),
            )),
            None => Ok(()),
        }
    };
    let set_span = shifted(&head.span, name.chars().count());
    let rule: Box<dyn HeapRule> = match (name.to_lowercase().as_str(), set_text) {
        ("nim", None) => Box::new(Nim),
        ("kayles", None) => Box::new(Octal::kayles()),
        ("dawson", None) => Box::new(Octal::dawson()),
        ("dawson-chess", None) => Box::new(Octal::dawson_chess()),
        ("grundy-game", None) => Box::new(GrundyGame),
        ("subtract", Some(s)) => Box::new(Subtraction::Finite(parse_set(s, &set_span, false)?)),
        ("allbut", Some(s)) => Box::new(Subtraction::AllBut(parse_set(s, &set_span, true)?)),
        (kind @ ("octal" | "hex"), None) => {
            let code = toks.get(1).ok_or_else(|| {
                Error::parse(
                    head.span.clone(),
                    format!("{kind} needs a code such as 0.137"),
                )
            })?;
            let parse = if kind == "hex" {
                Octal::parse_hex
            } else {
                Octal::parse
            };
            let game = parse(&code.text)
                .map_err(|(at, msg)| Error::parse(shifted(&code.span, at), msg))?;
            extra(2)?;
            return Ok(Box::new(game));
        }
        _ => {
            const RULES: &[&str] = &[
                "nim",
                "subtract",
                "allbut",
                "kayles",
                "dawson",
                "dawson-chess",
                "grundy-game",
                "octal",
                "hex",
            ];
            let hint = nearest(name, RULES.iter().copied())
                .map(|n| format!("did you mean '{n}'?"))
                .unwrap_or_else(|| format!("heap rulesets: {}", RULES.join(", ")));
            return Err(Error::Parse {
                span: head.span.clone(),
                message: format!("'{}' is not a heap ruleset with a nim-sequence", head.text),
                hint: Some(hint),
            });
        }
    };
    extra(1)?;
    Ok(rule)
}
