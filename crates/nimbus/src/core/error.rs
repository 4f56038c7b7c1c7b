//! The one error type of the library.
//!
//! Every error that can come from user input names the place it came from (an argument or a
//! file, a line and a column, the offending token), so that a front-end can print it as it is.

//!
//! ```
//! use nimbus::catalog::impartial::Parser;
//!
//! let e = Parser::new().parse("kayels 7", "the expression").err().unwrap();
//! assert_eq!(e.kind(), "parse");
//! assert!(e.to_string().starts_with("the expression, line 1, column 1: unknown game"));
//! ```

use super::hint::{self, setting};
use super::show::{show_bytes, show_count};
use std::fmt;

/// Where a piece of input came from: a command-line argument or a file, and a position in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// "the expression", "argument 2", or a file's path.
    pub source: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, line {}, column {}",
            self.source, self.line, self.column
        )
    }
}

/// Every failure the library reports.
///
/// A message field may mark the settings it names ([`hint::setting`]): read it through
/// `Display` (the library's names) or [`Error::render`] (a front-end's), not as it is stored.
#[derive(Debug)]
pub enum Error {
    /// Input that does not follow the grammar, or names something unknown.
    Parse {
        /// Where the offending token starts.
        span: Span,
        /// What is wrong, naming the token.
        message: String,
        /// What the user may have meant.
        hint: Option<String>,
    },
    /// A file could not be read or written, or an address not bound: the message is the path
    /// and the operating system's reason, which says which.
    Io {
        /// The path as the user gave it.
        path: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The exploration of a game grew past the configured limit of positions.
    StateLimit {
        /// Positions stored when the search stopped.
        explored: u64,
        /// The limit in force.
        limit: u64,
        /// The game whose space was explored.
        what: String,
    },
    /// A game searched as acyclic has a cycle reachable from the position (the sum analysis
    /// then turns to the methods for games with cycles).
    Cycle {
        /// The game or graph.
        what: String,
        /// The positions of the cycle, first one repeated at the end.
        cycle: Vec<String>,
    },
    /// A computation would need more memory or work than its budget allows (checked before
    /// it allocates or runs; see [`crate::core::budget`]).
    Budget {
        /// The table, search or LP that was refused.
        what: String,
        /// Memory or work.
        resource: Resource,
        /// The estimate of what it needs (bytes or steps).
        needed: u64,
        /// The limit in force.
        limit: u64,
    },
    /// An arithmetic result does not fit the integer type (never wrapped silently).
    Overflow(String),
    /// A user's script failed: a syntax error, a run-time error, or a value of the wrong kind.
    Script {
        /// The script's file, and the line and column when the error has one (0 otherwise).
        span: Span,
        /// What went wrong, naming the function and the position.
        message: String,
    },
    /// The work was stopped on request (Ctrl-C) before it finished.
    Interrupted,
    /// The work passed the time limit its host set for it ([`crate::core::progress::with_time_limit`]:
    /// the web server's budget for one request) and stopped at its next checkpoint.
    TimeLimit {
        /// The limit, in seconds.
        seconds: f64,
    },
    /// A request that is well formed but cannot be answered as asked.
    Invalid(String),
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl fmt::Display for Error {
    /// The message with the settings it names written as the library's own names
    /// (`max_work`); a front-end writes them in its words with [`Error::render`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hint::plain(&self.raw()))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Error {
    /// A short name of the kind of error, for machine-readable output: `parse`, `io`,
    /// `state_limit`, `memory_limit`, `work_limit`, `cycle`, `overflow`, `script`, `invalid`,
    /// `interrupted`, `time_limit`.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Parse { .. } => "parse",
            Error::Io { .. } => "io",
            Error::StateLimit { .. } => "state_limit",
            Error::Budget {
                resource: Resource::Memory,
                ..
            } => "memory_limit",
            Error::Budget { .. } => "work_limit",
            Error::Cycle { .. } => "cycle",
            Error::Overflow(_) => "overflow",
            Error::Script { .. } => "script",
            Error::Invalid(_) => "invalid",
            Error::Interrupted => "interrupted",
            Error::TimeLimit { .. } => "time_limit",
        }
    }

    /// The message, each setting it names (a budget to raise, a method to use) written by
    /// `name(key, value)`: the command line as its flag, Python as its keyword argument, the
    /// web page as its field. See [`hint`].
    pub fn render(&self, name: &dyn Fn(&str, Option<&str>) -> String) -> String {
        hint::render(&self.raw(), name)
    }

    /// The message with its settings still marked ([`hint::setting`]), for an error that
    /// wraps it.
    pub(crate) fn raw(&self) -> String {
        match self {
            Error::Parse {
                span,
                message,
                hint,
            } => match hint {
                Some(h) => format!("{span}: {message} ({h})"),
                None => format!("{span}: {message}"),
            },
            Error::Io { path, source } => format!("{path}: {source}"),
            Error::StateLimit {
                explored,
                limit,
                what,
            } => state_limit_message(*explored, *limit, what),
            Error::Cycle { what, cycle } => format!("{what} has a cycle: {}", cycle.join(" -> ")),
            Error::Budget {
                what,
                resource,
                needed,
                limit,
            } => budget_message(what, *resource, *needed, *limit),
            Error::Overflow(m) => format!("overflow: {m}"),
            Error::Script { span, message } => format!("{}: {message}", script_place(span)),
            Error::Interrupted => "interrupted".into(),
            Error::TimeLimit { seconds } => {
                format!("the computation passed its time limit of {seconds} s and was stopped")
            }
            Error::Invalid(m) => m.clone(),
        }
    }

    /// A parse error at `span` with no hint.
    pub fn parse(span: Span, message: impl Into<String>) -> Self {
        Error::Parse {
            span,
            message: message.into(),
            hint: None,
        }
    }
}

fn script_place(span: &Span) -> String {
    if span.line == 0 {
        span.source.clone()
    } else {
        span.to_string()
    }
}

fn state_limit_message(explored: u64, limit: u64, what: &str) -> String {
    if explored == 0 {
        format!(
            "{what} needs more positions than the limit (raise {}, now {limit})",
            setting("max_states")
        )
    } else {
        format!(
            "the state space is larger than the limit: explored {explored} positions of {what} \
             without finishing (raise {}, now {limit})",
            setting("max_states")
        )
    }
}

/// What a budget limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resource {
    /// Bytes held at once (`--max-memory`).
    Memory,
    /// Steps of work: moves examined, table entries filled (`--max-work`).
    Work,
}

/// The message of an [`Error::Budget`].
fn budget_message(what: &str, resource: Resource, needed: u64, limit: u64) -> String {
    match resource {
        Resource::Memory => format!(
            "{what} needs about {} of memory, more than the limit of {} (raise {}, in bytes)",
            show_bytes(needed),
            show_bytes(limit),
            setting("max_memory")
        ),
        Resource::Work => format!(
            "{what} needs about {} steps, more than the limit of {limit} (raise {})",
            show_count(needed),
            setting("max_work")
        ),
    }
}
