//! Games written by users in Rhai, behind the same traits as the built-in rulesets.
//!
//! A script is compiled once; its functions are then called by name for every position the
//! engines look at. Positions are Rhai values (integers, strings, characters, booleans, `()`,
//! arrays, maps and blobs, nested freely); each is encoded once into a byte string that gives
//! it equality and a hash by value, so the engines' memos work on scripts as on Rust games.
//!
//! - [`impartial`]: a script with `fn moves(p)` and `fn heap(n)` or `fn start(args)`, as a
//!   component of the expression grammar (normal play, misère play, games with cycles) and as
//!   a heap game for nim-sequences;
//! - [`partizan`]: a script with `fn left_moves`, `fn right_moves` and `fn start`, as a
//!   summand of `nimbus cgt`;
//! - [`sequential`]: a script with `fn start`, `fn to_move`, `fn moves`, `fn play` and
//!   `fn result` (optional `fn reward`, `fn evaluate`), as a [`crate::sequential::Game`].
//!
//! The engines' traits cannot fail, so a script's error is kept in the [`Script`] (the first
//! one only) and every call after it returns at once; the front-ends ask
//! [`Script::error`] before trusting an answer.
//!
//! Sandbox: no module imports (no file access), no `eval`, `print` and `debug` go where the
//! front-end says ([`ScriptOptions::output`]), an operation limit per call (an infinite loop ends with an error), a size limit on
//! every string, array and map, a bounded call depth, and an interrupt flag that a front-end
//! sets on Ctrl-C.

//!
//! ```
//! use nimbus::core::budget::Limits;
//! use nimbus::script::{impartial::nim_sequence, Script, ScriptOptions};
//! use std::rc::Rc;
//!
//! // The subtraction game {1, 2}: values 0 1 2 0 1 2 …
//! let text = "fn heap(n) { n }\nfn moves(n) { let out = []; \
//!             for k in [1, 2] { if k <= n { out.push(n - k); } } out }";
//! let script = Rc::new(Script::compile(text, "take12.rhai", ScriptOptions::default())?);
//! let seq = nim_sequence(&script, 8, Limits::default())?;
//! assert_eq!(seq.values, [0, 1, 2, 0, 1, 2, 0, 1, 2]);
//! # Ok::<(), nimbus::Error>(())
//! ```

pub mod impartial;
pub mod partizan;
pub mod sequential;

use crate::core::error::{Error, Result, Span};
use rhai::{CallFnOptions, Dynamic, Engine, Scope, AST};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The most functions a script may define (see where the engine is set up).
pub const MAX_FUNCTIONS: usize = 4096;

/// The most variables a script's scope may hold at once.
pub const MAX_VARIABLES: usize = 4096;

/// The most declarations (`fn`, `let`, `const`) a script's text may hold, counted before it
/// is compiled: Rhai's parser looks each name up among those declared before it (20 000 `let`s
/// in one function took 2.5 s, 100 000 functions minutes), so this bounds compilation to about
/// a second.
pub const MAX_DECLARATIONS: usize = 16384;

/// The words `fn`, `let` and `const` in `text` (in comments and strings too: an upper bound of
/// the declarations).
fn declarations(text: &str) -> usize {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| matches!(*w, "fn" | "let" | "const"))
        .count()
}

/// Limits on what a script may do.
#[derive(Debug, Clone)]
pub struct ScriptOptions {
    /// Largest number of Rhai operations in one call of a script function.
    pub max_operations: u64,
    /// Largest size in bytes of any one string, array or map a script builds (an array or map
    /// counts 16 bytes an element, a rough size of a Rhai value).
    pub max_memory: usize,
    /// When set (by a Ctrl-C handler, say), the running script stops with an error.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Seconds all calls of the script may take together, counted from its compilation: Rhai
    /// can spend time its operation count does not see (it re-measures a growing or nested
    /// array at every change), and a game that never ends calls the script for ever.
    pub max_seconds: f64,
    /// Where the script's `print` and `debug` lines go: the front-end chooses (the command
    /// line writes them to standard error); none drops them, since the library never prints.
    pub output: Option<ScriptOutput>,
}

/// A front-end's place for a script's `print` and `debug` lines, one line a call.
#[derive(Clone)]
pub struct ScriptOutput(pub Arc<dyn Fn(&str) + Send + Sync>);

impl fmt::Debug for ScriptOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ScriptOutput")
    }
}

impl ScriptOptions {
    /// The default operation limit: about a second of Rhai on this machine.
    pub const DEFAULT_OPERATIONS: u64 = 10_000_000;
    /// The default size limit of one value: 64 MiB.
    pub const DEFAULT_MEMORY: usize = 64 << 20;
    /// The default time budget of a script: half a minute.
    pub const DEFAULT_SECONDS: f64 = 30.0;
}

impl Default for ScriptOptions {
    fn default() -> Self {
        ScriptOptions {
            max_operations: Self::DEFAULT_OPERATIONS,
            max_memory: Self::DEFAULT_MEMORY,
            interrupt: None,
            max_seconds: Self::DEFAULT_SECONDS,
            output: None,
        }
    }
}

/// A compiled script and the first error it raised.
pub struct Script {
    engine: Engine,
    ast: AST,
    path: String,
    functions: HashSet<(String, usize)>,
    options: ScriptOptions,
    error: RefCell<Option<(Span, String)>>,
}

impl fmt::Debug for Script {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Script({})", self.path)
    }
}

impl Script {
    /// Reads and compiles the script at `path`.
    pub fn load(path: &str, options: ScriptOptions) -> Result<Script> {
        Self::compile(&crate::core::input::read_text(path)?, path, options)
    }

    /// Compiles `text`; `path` names it in errors.
    pub fn compile(text: &str, path: &str, options: ScriptOptions) -> Result<Script> {
        let mut engine = Engine::new();
        engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
        engine.disable_symbol("eval");
        // No module resolver can load a file, but the statement would still be accepted
        // (and silently do nothing where it is never run): refuse it by name.
        engine.disable_symbol("import");
        if let Some(ScriptOutput(out)) = &options.output {
            let (print, debug) = (out.clone(), out.clone());
            engine.on_print(move |s| print(s));
            engine.on_debug(move |s, _, pos| debug(&format!("debug ({pos}): {s}")));
        } else {
            engine.on_print(|_| {});
            engine.on_debug(|_, _, _| {});
        }
        // Rhai reads 0 as "no limit": a limit of 0 is refused, not turned into none.
        use crate::core::number::{in_range, seconds};
        in_range(
            "script_ops",
            options.max_operations,
            1,
            u64::MAX,
            "operations",
        )?;
        in_range(
            "script_mem",
            options.max_memory as u64,
            1,
            u64::MAX,
            "bytes",
        )?;
        let seconds = seconds("script_time", options.max_seconds)?;
        engine.set_max_operations(options.max_operations);
        engine.set_max_string_size(options.max_memory);
        engine.set_max_array_size((options.max_memory / 16).max(1));
        engine.set_max_map_size((options.max_memory / 16).max(1));
        engine.set_max_call_levels(64);
        engine.set_max_expr_depths(128, 64);
        // Rhai's parser looks each name up among the functions and variables declared before
        // it, so compiling takes the square of their number (100 000 functions: minutes); a
        // ruleset needs a handful. These bound compilation to well under a second.
        engine.set_max_functions(MAX_FUNCTIONS);
        engine.set_max_variables(MAX_VARIABLES);
        let flag = options.interrupt.clone();
        let deadline = std::time::Instant::now() + seconds;
        // Operations are counted afresh in each call, so the clock is read every few hundred
        // operations of all calls together: cheap, and often enough.
        let ticks = std::sync::atomic::AtomicU64::new(0);
        engine.on_progress(move |_| {
            if crate::core::progress::interrupted()
                || flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
            {
                return Some(Dynamic::from("interrupted"));
            }
            let tick = ticks.fetch_add(1, Ordering::Relaxed);
            (tick % 256 == 0 && std::time::Instant::now() > deadline)
                .then(|| Dynamic::from("out of time"))
        });
        let declared = declarations(text);
        if declared > MAX_DECLARATIONS {
            return Err(Error::Script {
                span: span_of(path, rhai::Position::NONE),
                message: format!(
                    "{declared} declarations (fn, let, const): at most {MAX_DECLARATIONS}, as \
                     compiling takes time in the square of their number"
                ),
            });
        }
        let ast = engine.compile(text).map_err(|e| {
            let pos = e.position();
            Error::Script {
                span: span_of(path, pos),
                message: format!("syntax error: {}", e.err_type()),
            }
        })?;
        let functions = ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        Ok(Script {
            engine,
            ast,
            path: path.to_string(),
            functions,
            options,
            error: RefCell::new(None),
        })
    }

    /// The script's path as the user wrote it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Whether the script defines `name` with `arity` parameters.
    pub fn has(&self, name: &str, arity: usize) -> bool {
        self.functions.contains(&(name.to_string(), arity))
    }

    /// Calls `name` with `args`. An error names the script's file, line and column, and the
    /// call (`what`, such as "moves([3, 4])").
    pub fn call(
        &self,
        name: &str,
        args: Vec<Dynamic>,
        what: &dyn Fn() -> String,
    ) -> Result<Dynamic> {
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
        self.engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, name, args)
            .map_err(|e| self.runtime_error(*e, what))
    }

    fn runtime_error(&self, e: rhai::EvalAltResult, what: &dyn Fn() -> String) -> Error {
        use rhai::EvalAltResult as E;
        let mut err = e;
        let mut pos = err.position();
        let mut chain = Vec::new();
        while let E::ErrorInFunctionCall(name, _, inner, _) = err {
            if !inner.position().is_none() {
                pos = inner.position();
            }
            chain.push(name);
            err = *inner;
        }
        let hint = match err {
            E::ErrorTooManyOperations(..) => format!(
                "more than {} operations in one call (an endless loop? raise {})",
                self.options.max_operations,
                crate::core::hint::setting("script_ops")
            ),
            E::ErrorDataTooLarge(what, ..) => format!(
                "{what} larger than the limit of {} bytes (raise {})",
                self.options.max_memory,
                crate::core::hint::setting("script_mem")
            ),
            E::ErrorTerminated(token, ..) if token.to_string() == "out of time" => format!(
                "the script's calls took more than {} seconds in all (raise {})",
                self.options.max_seconds,
                crate::core::hint::setting("script_time")
            ),
            E::ErrorTerminated(..) => "interrupted".to_string(),
            E::ErrorStackOverflow(..) => {
                "calls nested more than 64 deep (a recursion that does not end?)".to_string()
            }
            mut other => {
                other.clear_position();
                other.to_string()
            }
        };
        let via = if chain.len() > 1 {
            format!(" (through {})", chain[1..].join(" -> "))
        } else {
            String::new()
        };
        Error::Script {
            span: span_of(&self.path, pos),
            message: format!("in {}{via}: {hint}", what()),
        }
    }

    /// Keeps `e` as the script's error unless one is kept already.
    pub fn fail(&self, e: Error) {
        let mut slot = self.error.borrow_mut();
        if slot.is_none() {
            *slot = Some(match e {
                Error::Script { span, message } => (span, message),
                // Kept marked, so that each front-end still names the settings its way.
                other => (span_of(&self.path, rhai::Position::NONE), other.raw()),
            });
        }
    }

    /// Whether the script has failed; every later call returns at once.
    pub fn failed(&self) -> bool {
        self.error.borrow().is_some()
    }

    /// The first error the script raised, if any.
    pub fn error(&self) -> Option<Error> {
        self.error
            .borrow()
            .as_ref()
            .map(|(span, message)| Error::Script {
                span: span.clone(),
                message: message.clone(),
            })
    }

    /// A position as a person reads it: `fn show(p)` when the script has one.
    pub fn show(&self, p: &Dynamic) -> String {
        if self.has("show", 1) && !self.failed() {
            if let Ok(s) = self.call("show", vec![p.clone()], &|| "show".into()) {
                return s.to_string();
            }
        }
        display(p)
    }

    /// The positions `function(p)` returns (an array of them), or the script's error naming
    /// the call and the option at fault.
    pub fn options(&self, function: &str, p: &ScriptPos) -> Result<Vec<ScriptPos>> {
        let what = || format!("{function}({})", display(p.value()));
        let r = self.call(function, vec![p.value().clone()], &what)?;
        let list = r.into_array().map_err(|t| Error::Script {
            span: span_of(&self.path, rhai::Position::NONE),
            message: format!("{} returned a {t}, not an array of positions", what()),
        })?;
        list.into_iter()
            .enumerate()
            .map(|(i, v)| self.position(v, &|| format!("{} (option {})", what(), i + 1)))
            .collect()
    }

    /// `p` as a position, or an error naming `what` produced it.
    pub fn position(&self, value: Dynamic, what: &dyn Fn() -> String) -> Result<ScriptPos> {
        ScriptPos::new(value).map_err(|m| Error::Script {
            span: span_of(&self.path, rhai::Position::NONE),
            message: format!("{} gave a value that cannot be a position: {m}", what()),
        })
    }
}

fn span_of(path: &str, pos: rhai::Position) -> Span {
    Span {
        source: path.to_string(),
        line: pos.line().unwrap_or(0),
        column: pos.position().unwrap_or(0),
    }
}

/// A Rhai value written compactly (strings quoted, as Rhai's debug form).
pub fn display(v: &Dynamic) -> String {
    let s = format!("{v:?}");
    if s.len() > 200 {
        let cut = (0..=200)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}…", &s[..cut])
    } else {
        s
    }
}

/// A position of a script: a Rhai value with equality and a hash by value.
#[derive(Clone)]
pub struct ScriptPos(Rc<PosData>);

struct PosData {
    key: Box<[u8]>,
    hash: u64,
    value: Dynamic,
}

impl ScriptPos {
    /// Encodes `value`, or says why it cannot be a position.
    pub fn new(value: Dynamic) -> std::result::Result<Self, String> {
        let key = encode(&value)?.into_boxed_slice();
        let mut h = rustc_hash::FxHasher::default();
        key.hash(&mut h);
        Ok(ScriptPos(Rc::new(PosData {
            hash: h.finish(),
            key,
            value,
        })))
    }

    /// The Rhai value.
    pub fn value(&self) -> &Dynamic {
        &self.0.value
    }

    /// The encoding that decides equality.
    pub fn key(&self) -> &[u8] {
        &self.0.key
    }
}

impl PartialEq for ScriptPos {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || (self.0.hash == other.0.hash && self.0.key == other.0.key)
    }
}

impl Eq for ScriptPos {}

impl Hash for ScriptPos {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash);
    }
}

impl fmt::Debug for ScriptPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&display(&self.0.value))
    }
}

/// The value's bytes: a tag, then the contents; arrays and maps by their length and elements
/// (a map's keys in order), on an explicit stack so that nesting depth costs no native stack.
fn encode(value: &Dynamic) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(16);
    let mut stack = vec![value.clone()];
    let len = |n: usize, out: &mut Vec<u8>| out.extend_from_slice(&(n as u64).to_le_bytes());
    while let Some(d) = stack.pop() {
        if d.is_unit() {
            out.push(0);
        } else if let Ok(b) = d.as_bool() {
            out.extend_from_slice(&[1, u8::from(b)]);
        } else if let Ok(i) = d.as_int() {
            out.push(2);
            out.extend_from_slice(&i.to_le_bytes());
        } else if let Ok(c) = d.as_char() {
            out.push(3);
            out.extend_from_slice(&u32::from(c).to_le_bytes());
        } else if d.is_string() {
            let s = d.into_immutable_string().map_err(String::from)?;
            out.push(4);
            len(s.len(), &mut out);
            out.extend_from_slice(s.as_bytes());
        } else if d.is_array() {
            let a = d.into_array().map_err(String::from)?;
            out.push(5);
            len(a.len(), &mut out);
            stack.extend(a.into_iter().rev());
        } else if d.is_map() {
            let m = d
                .try_cast::<rhai::Map>()
                .ok_or_else(|| "a map that cannot be read".to_string())?;
            out.push(6);
            len(m.len(), &mut out);
            for (k, v) in m.into_iter().rev() {
                stack.push(v);
                stack.push(Dynamic::from(k.to_string()));
            }
        } else if d.is_blob() {
            let b = d.into_blob().map_err(String::from)?;
            out.push(7);
            len(b.len(), &mut out);
            out.extend_from_slice(&b);
        } else {
            let t = d.type_name();
            let why = if t.contains("f64") || t.contains("f32") || t == "float" {
                " (floats do not compare exactly: use integers)"
            } else {
                ""
            };
            return Err(format!(
                "a position is built of integers, strings, characters, booleans, (), arrays, \
                 maps and blobs, not a {t}{why}"
            ));
        }
    }
    Ok(out)
}

/// The arguments after a script's path, as Rhai values: integers where they parse as one,
/// strings otherwise.
pub fn arguments(args: &[String]) -> Vec<Dynamic> {
    args.iter()
        .map(|a| match a.parse::<i64>() {
            Ok(i) => Dynamic::from(i),
            Err(_) => Dynamic::from(a.clone()),
        })
        .collect()
}
