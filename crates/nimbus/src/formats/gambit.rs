//! The lexer of Gambit's text formats, shared by `.nfg` and `.efg`: braces, commas, quoted
//! strings (with `\"` and `\\` escapes) and bare words, each with the line and column it
//! starts at, and a reader over them that names the expected token in its errors.

use crate::core::error::{Error, Result, Span};
use crate::exact::{parse_number, Q};

/// A token of Gambit's text formats (shared with `.efg`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Open,
    Close,
    Comma,
    Text(String),
    Word(String),
}

pub(crate) fn describe(t: &Tok) -> String {
    match t {
        Tok::Open => "'{'".into(),
        Tok::Close => "'}'".into(),
        Tok::Comma => "','".into(),
        Tok::Text(s) => format!("the string \"{s}\""),
        Tok::Word(w) => format!("'{w}'"),
    }
}

pub(crate) fn tokenize(text: &str, source: &str) -> Result<Vec<(Tok, Span)>> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let (mut line, mut col) = (1usize, 1usize);
    let span = |line, column| Span {
        source: source.to_string(),
        line,
        column,
    };
    while let Some(&c) = chars.peek() {
        let here = span(line, col);
        let mut bump = |c: char| {
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        };
        match c {
            c if c.is_whitespace() => {
                chars.next();
                bump(c);
            }
            '{' | '}' | ',' => {
                chars.next();
                bump(c);
                out.push((
                    match c {
                        '{' => Tok::Open,
                        '}' => Tok::Close,
                        _ => Tok::Comma,
                    },
                    here,
                ));
            }
            '"' => {
                chars.next();
                bump('"');
                let mut s = String::new();
                loop {
                    match chars.next() {
                        None => return Err(Error::parse(here, "a string is not closed by '\"'")),
                        Some('\\') => {
                            bump('\\');
                            if let Some(e) = chars.next() {
                                bump(e);
                                s.push(e);
                            }
                        }
                        Some('"') => {
                            bump('"');
                            break;
                        }
                        Some(ch) => {
                            bump(ch);
                            s.push(ch);
                        }
                    }
                }
                out.push((Tok::Text(s), here));
            }
            _ => {
                let mut w = String::new();
                while let Some(&ch) = chars.peek() {
                    if ch.is_whitespace() || matches!(ch, '{' | '}' | ',' | '"') {
                        break;
                    }
                    w.push(ch);
                    chars.next();
                    bump(ch);
                }
                out.push((Tok::Word(w), here));
            }
        }
    }
    Ok(out)
}

pub(crate) struct Reader {
    pub(crate) toks: Vec<(Tok, Span)>,
    pub(crate) at: usize,
    pub(crate) end: Span,
}

impl Reader {
    /// A reader of the tokens of `text`; `source` names it in errors.
    pub(crate) fn new(text: &str, source: &str) -> Result<Self> {
        let toks = tokenize(text, source)?;
        let end = Span {
            source: source.to_string(),
            line: text.lines().count().max(1),
            column: text.lines().last().map_or(1, |l| l.chars().count() + 1),
        };
        Ok(Reader { toks, at: 0, end })
    }
    /// The `R` or `D` after a header's version (rational or decimal numbers: both are read
    /// exactly).
    pub(crate) fn precision(&mut self) -> Result<()> {
        let span = self.span();
        match self.next("R or D")? {
            (Tok::Word(w), _) if w == "R" || w == "D" => Ok(()),
            (t, _) => Err(Error::parse(
                span,
                format!("expected R or D after the version, found {}", describe(&t)),
            )),
        }
    }
    pub(crate) fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.0)
    }
    pub(crate) fn span(&self) -> Span {
        self.toks
            .get(self.at)
            .map_or_else(|| self.end.clone(), |t| t.1.clone())
    }
    pub(crate) fn next(&mut self, what: &str) -> Result<(Tok, Span)> {
        match self.toks.get(self.at) {
            Some(t) => {
                self.at += 1;
                Ok(t.clone())
            }
            None => Err(Error::parse(
                self.end.clone(),
                format!("the file ends where {what} was expected"),
            )),
        }
    }
    pub(crate) fn expect(&mut self, want: Tok, what: &str) -> Result<()> {
        let (t, span) = self.next(what)?;
        if t == want {
            Ok(())
        } else {
            Err(Error::parse(
                span,
                format!("expected {what}, found {}", describe(&t)),
            ))
        }
    }
    pub(crate) fn text(&mut self, what: &str) -> Result<String> {
        match self.next(what)? {
            (Tok::Text(s), _) => Ok(s),
            (t, span) => Err(Error::parse(
                span,
                format!("expected {what} in quotes, found {}", describe(&t)),
            )),
        }
    }
    pub(crate) fn number(&mut self, what: &str) -> Result<Q> {
        match self.next(what)? {
            (Tok::Word(w), span) => parse_number(&w)
                .map_err(|why| Error::parse(span, format!("{why} (expected {what})"))),
            (t, span) => Err(Error::parse(
                span,
                format!("expected {what}, found {}", describe(&t)),
            )),
        }
    }
    pub(crate) fn count(&mut self, what: &str) -> Result<usize> {
        match self.next(what)? {
            (Tok::Word(w), span) => w.parse::<usize>().map_err(|_| {
                Error::parse(
                    span,
                    format!("'{w}' is not a whole number (expected {what})"),
                )
            }),
            (t, span) => Err(Error::parse(
                span,
                format!("expected {what}, found {}", describe(&t)),
            )),
        }
    }
    /// Strings up to the closing brace (the opening one already read).
    pub(crate) fn names(&mut self, what: &str) -> Result<Vec<String>> {
        let mut out = Vec::new();
        while self.peek() != Some(&Tok::Close) {
            out.push(self.text(what)?);
        }
        self.at += 1;
        Ok(out)
    }
    pub(crate) fn skip_comment(&mut self) {
        if let Some(Tok::Text(_)) = self.peek() {
            self.at += 1;
        }
    }
}

/// `s` as a quoted Gambit string.
pub(crate) fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}
