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

/// Where a token starts: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Pos {
    line: usize,
    column: usize,
}

/// A reader of the tokens of a file, each read when the parser comes to it: a file of
/// millions of nodes is never held as a list of tokens (a list that, each token with its own
/// place and text, took 40 times the file's size).
pub(crate) struct Reader<'a> {
    text: &'a str,
    /// The byte offset of the first character not yet read into a token.
    offset: usize,
    /// The line and column at `offset`.
    here: Pos,
    /// The next token, read ahead, and where it starts.
    ahead: Option<(Tok, Pos)>,
    /// Where a string left open at the end of the file starts: the next read's error.
    broken: Option<Pos>,
    source: String,
    end: Pos,
}

impl<'a> Reader<'a> {
    /// A reader of the tokens of `text`; `source` names it in errors.
    pub(crate) fn new(text: &'a str, source: &str) -> Result<Self> {
        let end = Pos {
            line: text.lines().count().max(1),
            column: text.lines().last().map_or(1, |l| l.chars().count() + 1),
        };
        let mut r = Reader {
            text,
            offset: 0,
            here: Pos { line: 1, column: 1 },
            ahead: None,
            broken: None,
            source: source.to_string(),
            end,
        };
        r.read_ahead();
        r.failure()?;
        Ok(r)
    }

    fn span_at(&self, pos: Pos) -> Span {
        Span {
            source: self.source.clone(),
            line: pos.line,
            column: pos.column,
        }
    }

    /// The error of a string left open, if that is what comes next.
    fn failure(&self) -> Result<()> {
        match self.broken {
            Some(pos) => Err(Error::parse(
                self.span_at(pos),
                "a string is not closed by '\"'",
            )),
            None => Ok(()),
        }
    }

    /// Moves past one character, keeping the line and column.
    fn bump(&mut self, c: char) {
        self.offset += c.len_utf8();
        if c == '\n' {
            self.here.line += 1;
            self.here.column = 1;
        } else {
            self.here.column += 1;
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.offset..]
    }

    /// Reads the next token into `ahead` (none at the end of the text).
    fn read_ahead(&mut self) {
        self.ahead = None;
        while let Some(c) = self.rest().chars().next() {
            if !c.is_whitespace() {
                break;
            }
            self.bump(c);
        }
        let start = self.here;
        let Some(c) = self.rest().chars().next() else {
            return;
        };
        let tok = match c {
            '{' | '}' | ',' => {
                self.bump(c);
                match c {
                    '{' => Tok::Open,
                    '}' => Tok::Close,
                    _ => Tok::Comma,
                }
            }
            '"' => {
                self.bump('"');
                let mut s = String::new();
                loop {
                    let Some(ch) = self.rest().chars().next() else {
                        self.broken = Some(start);
                        return;
                    };
                    self.bump(ch);
                    match ch {
                        '\\' => {
                            if let Some(e) = self.rest().chars().next() {
                                self.bump(e);
                                s.push(e);
                            }
                        }
                        '"' => break,
                        ch => s.push(ch),
                    }
                }
                Tok::Text(s)
            }
            _ => {
                let rest = self.rest();
                let len = rest
                    .find(|ch: char| ch.is_whitespace() || matches!(ch, '{' | '}' | ',' | '"'))
                    .unwrap_or(rest.len());
                for ch in rest[..len].chars() {
                    self.bump(ch);
                }
                Tok::Word(rest[..len].to_string())
            }
        };
        self.ahead = Some((tok, start));
    }

    /// At most how many tokens are left (each takes a character and a separator, but the
    /// last): a bound for a list's capacity.
    pub(crate) fn most_left(&self) -> usize {
        (self.text.len() - self.offset) / 2 + 1
    }

    /// Moves past the token ahead.
    pub(crate) fn skip(&mut self) {
        if self.ahead.is_some() {
            self.read_ahead();
        }
    }

    /// The token ahead and where it is, if any.
    pub(crate) fn ahead(&self) -> Option<(&Tok, Span)> {
        self.ahead.as_ref().map(|(t, pos)| (t, self.span_at(*pos)))
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
        self.ahead.as_ref().map(|t| &t.0)
    }
    pub(crate) fn span(&self) -> Span {
        let pos = self.ahead.as_ref().map(|t| t.1).or(self.broken);
        self.span_at(pos.unwrap_or(self.end))
    }
    pub(crate) fn next(&mut self, what: &str) -> Result<(Tok, Span)> {
        if self.ahead.is_none() {
            self.failure()?;
        }
        match self.ahead.take() {
            Some((t, pos)) => {
                let span = self.span_at(pos);
                self.read_ahead();
                Ok((t, span))
            }
            None => Err(Error::parse(
                self.span_at(self.end),
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
            // A count too large or negative is called so, not "not a whole number".
            (Tok::Word(w), span) => crate::core::number::parse_u64(&w, &span, what).and_then(|v| {
                usize::try_from(v)
                    .map_err(|_| Error::parse(span, format!("'{w}' is too large for {what} here")))
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
        self.skip();
        Ok(out)
    }
    pub(crate) fn skip_comment(&mut self) {
        if let Some(Tok::Text(_)) = self.peek() {
            self.skip();
        }
    }
}

/// `s` as a quoted Gambit string.
pub(crate) fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}
