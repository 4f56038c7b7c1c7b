//! The `nimbus` command: parses input, calls the library, prints. No game logic lives here.
//!
//! A library so that the whole command line can be driven from a test or a fuzzer
//! ([`execute`]); `src/main.rs` only calls [`main`].

/// Appends a line to a command's output buffer (commands write there, `main` prints it once,
/// so that a closed pipe is an ordinary end rather than a panic inside `println!`).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($out, $($arg)*);
    }};
}

mod cgt;
mod correlated;
mod dynamics;
mod efg;
mod gambit_lines;
mod game_input;
mod nash;
mod play;
mod quotient;
mod repeated;
mod sequence;
mod serve;
mod sg;
mod solve;
mod stochastic;
mod substring;
mod verify;
mod words;
mod zerosum;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exact, fast game-theory solvers.
#[derive(Parser)]
#[command(name = "nimbus", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Options every command takes.
#[derive(clap::Args, Debug, Clone)]
pub struct Common {
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// Stop with an error once a search has stored this many positions.
    #[arg(long, global = true, value_name = "N", default_value_t = nimbus::api::Limits::DEFAULT_MAX_STATES)]
    max_states: u64,
    /// Refuse, before it starts, a table, search or LP that would hold more than this many
    /// bytes [default: half of this machine's memory, or of the process's cgroup or ulimit
    /// cap when lower].
    #[arg(long, global = true, value_name = "BYTES")]
    max_memory: Option<u64>,
    /// Refuse, before it starts, a computation of more than this many steps (moves examined,
    /// table entries filled; about a nanosecond each) [default: 4000000000; for
    /// `sequence --prove`, 10^13].
    #[arg(long, global = true, value_name = "N")]
    pub(crate) max_work: Option<u64>,
}

impl Common {
    /// The limits of the impartial engines.
    pub fn limits(&self) -> nimbus::api::Limits {
        nimbus::api::Limits {
            max_states: self.max_states,
            max_memory: self.max_memory(),
            max_work: self.max_work.unwrap_or(nimbus::api::DEFAULT_MAX_WORK),
        }
    }

    /// The memory budget in bytes.
    pub fn max_memory(&self) -> u64 {
        self.max_memory
            .unwrap_or_else(nimbus::api::default_max_memory)
    }
}

/// Limits on user scripts (`script:PATH` games).
#[derive(clap::Args, Debug, Clone)]
pub struct ScriptArgs {
    /// Scripts: most Rhai operations in one call of a script function (an endless loop stops
    /// there with an error).
    #[arg(long, value_name = "N", default_value_t = nimbus::api::ScriptOptions::DEFAULT_OPERATIONS, value_parser = clap::value_parser!(u64).range(1..))]
    script_ops: u64,
    /// Scripts: the largest string, array or map a script may build, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = nimbus::api::ScriptOptions::DEFAULT_MEMORY, value_parser = positive_usize)]
    script_mem: usize,
    /// Scripts: most seconds all calls of a script may take together.
    #[arg(long, value_name = "SECONDS", default_value_t = nimbus::api::ScriptOptions::DEFAULT_SECONDS, value_parser = seconds, allow_negative_numbers = true)]
    script_time: f64,
}

impl ScriptArgs {
    /// The limits, with Ctrl-C wired to stop a running script.
    pub fn options(&self) -> nimbus::api::ScriptOptions {
        nimbus::api::ScriptOptions {
            max_operations: self.script_ops,
            max_memory: self.script_mem,
            interrupt: Some(interrupt_flag()),
            max_seconds: self.script_time,
            // A script's print and debug lines go to standard error, beside the progress.
            output: Some(nimbus::api::ScriptOutput(std::sync::Arc::new(|line| {
                eprintln!("{line}")
            }))),
        }
    }
}

/// Set by the first Ctrl-C, which asks the running solver (or script) to stop at its next
/// checkpoint and report what it has; a second Ctrl-C, when nothing noticed the first, ends
/// the process.
/// Set while `nimbus play` waits at its prompt: Ctrl-C there ends the game at once (exit 130),
/// where during a search it stops the search.
pub(crate) static AT_PROMPT: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

fn interrupt_flag() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let seen = flag.clone();
        // A handler rather than a thread waiting for the signal (as the `ctrlc` crate
        // does): starting that thread cost a tenth of answering a small game. Without a
        // handler Ctrl-C still ends the process, so failing to install one is not worth an
        // error.
        // SAFETY: the action only stores to atomics and calls `_exit`, all of which may run
        // inside a signal handler.
        let _ = unsafe {
            signal_hook_registry::register(libc::SIGINT, move || {
                if AT_PROMPT.load(Ordering::SeqCst) {
                    // A blocked read of the terminal is restarted after a handler: end here.
                    libc::write(1, b"\n".as_ptr().cast(), 1);
                    libc::_exit(130);
                }
                nimbus::api::host::interrupt();
                if seen.swap(true, Ordering::SeqCst) {
                    libc::_exit(130);
                }
            })
        };
        flag
    })
    .clone()
}

/// Draws the library's progress record on standard error, once the work has taken a second,
/// while `run` runs; nothing when standard error is not a terminal or the output is JSON.
fn with_progress<T>(show: bool, run: impl FnOnce() -> T) -> T {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicBool, Ordering};
    if !show || !std::io::stderr().is_terminal() {
        return run();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let started = std::time::Instant::now();
            let mut bar: Option<indicatif::ProgressBar> = None;
            let mut phase = (String::new(), started);
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if started.elapsed().as_secs_f64() < 1.0 {
                    continue;
                }
                let b = bar.get_or_insert_with(|| {
                    let b = indicatif::ProgressBar::new_spinner();
                    b.set_style(
                        indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
                            .expect("a valid template"),
                    );
                    b
                });
                let (what, n, total) = nimbus::api::host::snapshot();
                // The rate is the phase's: its count starts again with each phase.
                if what != phase.0 {
                    phase = (what.clone(), std::time::Instant::now());
                }
                let what = if what.is_empty() { "working" } else { &what };
                let rate = n as f64 / phase.1.elapsed().as_secs_f64().max(1e-3);
                b.set_message(match total {
                    0 if n == 0 => format!("{what} (Ctrl-C stops)"),
                    0 => format!("{what}: {n} ({rate:.0}/s; Ctrl-C stops)"),
                    t => format!("{what}: {n} of {t} ({rate:.0}/s; Ctrl-C stops)"),
                });
                b.tick();
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        });
        let out = run();
        done.store(true, Ordering::Relaxed);
        out
    })
}

// The one-line descriptions are repeated here because a command's own (those of its
// arguments' type) are defined only when it runs, and `nimbus --help` lists them all; a test
// checks that the two agree.
#[derive(Subcommand)]
enum Command {
    /// Analyse a sum of impartial games under normal play (the player who cannot move loses)
    Sg(Deferred<sg::Args>),
    /// Values and thermographs of partizan games (Domineering, Hackenbush, Toads and Frogs, ...)
    Cgt(Deferred<cgt::Args>),
    /// Print the nim-sequence G(0), G(1), ..., G(N) of a heap game and its period
    Sequence(Deferred<sequence::Args>),
    /// The misère quotient of a heap game: elements, presentation, P-portion, pretending function
    Quotient(Deferred<quotient::Args>),
    /// The substring game: strings that grow by one letter at a time inside S
    Substring(Deferred<substring::Args>),
    /// Solve a two-player zero-sum matrix game exactly
    Zerosum(Deferred<zerosum::Args>),
    /// Solve a two-player zero-sum stochastic game: each state's value and stationary strategies
    Stochastic(Deferred<stochastic::Args>),
    /// The payoffs of subgame-perfect equilibria of a repeated two-player game (Abreu–Sannikov)
    Repeated(Deferred<repeated::Args>),
    /// Find the Nash equilibria of a game, exactly
    Nash(Deferred<nash::Args>),
    /// Find the correlated equilibrium that maximises welfare (or a player's payoff), exactly
    Correlated(Deferred<correlated::Args>),
    /// How play evolves under a learning rule: fictitious play, replicator, Moran and more
    Dynamics(Deferred<dynamics::Args>),
    /// Inspect or convert a game tree (an .efg file or a built-in tree)
    Efg(Deferred<efg::Args>),
    /// Approximate equilibria of large trees by counterfactual regret minimisation
    Cfr(Deferred<efg::CfrArgs>),
    /// Check whether a mixed profile is a Nash equilibrium, exactly
    Verify(Deferred<verify::Args>),
    /// Solve a two-player zero-sum game of perfect information
    Solve(Deferred<solve::Args>),
    /// Play against the solver in the terminal
    Play(Deferred<play::Args>),
    /// Serve the Nimbus page and its JSON API over HTTP
    Serve(Deferred<serve::Args>),
}

/// A command's arguments, defined only when that command runs or its help is shown
/// ([`clap::Command::defer`]): defining every command's options on each run was a tenth of
/// the time of answering a small game.
struct Deferred<T>(T);

impl<T> std::ops::Deref for Deferred<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }
    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
    fn update_from_arg_matches_mut(
        &mut self,
        matches: &mut clap::ArgMatches,
    ) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

impl<T: clap::Args> clap::Args for Deferred<T> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(T::augment_args)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(T::augment_args_for_update)
    }
}

/// The stack of the thread that runs a command. Rhai walks nested values (arrays of arrays)
/// recursively, so a script that nests deeply needs a deep stack; the memory is reserved,
/// not used, until a script goes that deep.
const STACK_BYTES: usize = 1 << 30;

/// Runs the command named by the process's arguments, printing its output and errors.
pub fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    if !cli.command.runs_scripts() {
        // A thread of its own costs a few hundred microseconds, a fifth of answering a small
        // game; commands without scripts recurse nowhere deeply and need no deep stack.
        return run(cli);
    }
    let worker = std::thread::Builder::new()
        .name("nimbus".into())
        .stack_size(STACK_BYTES)
        .spawn(move || run(cli));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        // The system would not reserve the stack (strict overcommit): run on the main thread.
        Err(_) => match parse_args() {
            Ok(cli) => run(cli),
            Err(code) => code,
        },
    }
}

/// The command line, or the exit status of a usage error once it is printed: clap's message
/// on standard error and, when `--json` is among the arguments, the one JSON failure object
/// on standard output, as every other error of a `--json` command prints.
fn parse_args() -> Result<Cli, ExitCode> {
    let e = match Cli::try_parse() {
        Ok(cli) => return Ok(cli),
        Err(e) => e,
    };
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return Err(ExitCode::from(if e.use_stderr() { 2 } else { 0 }));
    }
    let _ = e.print();
    if std::env::args().skip(1).any(|a| a == "--json") {
        let text = e.render().to_string();
        let first = text.lines().next().unwrap_or_default();
        let failure = nimbus::api::Failure {
            error: first.strip_prefix("error: ").unwrap_or(first).to_string(),
            kind: "usage",
        };
        let _ = write_stdout(&format!("{}\n", nimbus::api::to_json(&failure)));
    }
    Err(ExitCode::from(2))
}

impl Command {
    /// Whether the command can run a Rhai script (which needs the deep stack).
    fn runs_scripts(&self) -> bool {
        !matches!(
            self,
            Command::Zerosum(_)
                | Command::Stochastic(_)
                | Command::Repeated(_)
                | Command::Cgt(_)
                | Command::Quotient(_)
                | Command::Nash(_)
                | Command::Efg(_)
                | Command::Cfr(_)
                // The server and its workers refuse scripts.
                | Command::Serve(_)
        )
    }

    /// Whether the command was asked for JSON.
    fn json(&self) -> bool {
        match self {
            Command::Sg(a) => a.common.json,
            Command::Cgt(a) => a.common.json,
            Command::Sequence(a) => a.common.json,
            Command::Quotient(a) => a.common.json,
            Command::Substring(a) => a.common.json,
            Command::Zerosum(a) => a.common.json,
            Command::Stochastic(a) => a.common.json,
            Command::Repeated(a) => a.common.json,
            Command::Nash(a) => a.common.json,
            Command::Correlated(a) => a.common.json,
            Command::Dynamics(a) => a.common.json,
            Command::Efg(a) => a.common.json,
            Command::Cfr(a) => a.common.json,
            Command::Verify(a) => a.common.json,
            Command::Solve(a) => a.common.json,
            Command::Play(_) | Command::Serve(_) => false,
        }
    }
}

fn run(cli: Cli) -> ExitCode {
    let json = cli.command.json();
    let interactive = matches!(cli.command, Command::Play(_) | Command::Serve(_));
    // The server handles Ctrl-C and SIGTERM itself, to shut down gracefully.
    if !matches!(cli.command, Command::Serve(_)) {
        interrupt_flag();
    }
    let mut out = String::new();
    let result = with_progress(!json && !interactive, || dispatch(cli.command, &mut out));
    if let Err(e) = write_stdout(&out) {
        eprintln!("error: cannot write the output: {e}");
        return ExitCode::from(2);
    }
    match result {
        Ok(code) => code,
        // A script stopped by Ctrl-C reports it as its own error; either way the exit
        // status says the user stopped it.
        Err(e) if nimbus::api::host::interrupted() => {
            match e {
                nimbus::api::Error::Interrupted => eprintln!("interrupted (Ctrl-C)"),
                e => eprintln!("interrupted (Ctrl-C): {}", words::message(&e)),
            }
            if json {
                let failure = nimbus::api::Failure::of(&nimbus::api::Error::Interrupted);
                let _ = write_stdout(&format!("{}\n", nimbus::api::to_json(&failure)));
            }
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("error: {}", words::message(&e));
            if json {
                // Scripts read the error from standard output too, as one JSON object.
                let failure = words::failure(&e);
                let _ = write_stdout(&format!("{}\n", nimbus::api::to_json(&failure)));
            }
            ExitCode::from(2)
        }
    }
}

fn dispatch(command: Command, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    match command {
        Command::Sg(args) => sg::run(args.0, out),
        Command::Cgt(args) => cgt::run(args.0, out),
        Command::Sequence(args) => sequence::run(args.0, out),
        Command::Quotient(args) => quotient::run(args.0, out),
        Command::Substring(args) => substring::run(args.0, out),
        Command::Zerosum(args) => zerosum::run(args.0, out),
        Command::Stochastic(args) => stochastic::run(args.0, out),
        Command::Repeated(args) => repeated::run(args.0, out),
        Command::Nash(args) => nash::run(args.0, out),
        Command::Correlated(args) => correlated::run(args.0, out),
        Command::Dynamics(args) => dynamics::run(args.0, out),
        Command::Efg(args) => efg::run(args.0, out),
        Command::Cfr(args) => efg::run_cfr(args.0, out),
        Command::Verify(args) => verify::run(args.0, out),
        Command::Solve(args) => solve::run(args.0, out),
        Command::Play(args) => play::run(args.0, out),
        Command::Serve(args) => serve::run(args.0),
    }
}

/// Runs the command line `args` (without the program's name) as `nimbus` would, collecting
/// its output in `out` instead of printing it; an argument error is an [`nimbus::api::Error`] with
/// clap's message. `play`, which talks to a person on standard input, is refused.
pub fn execute(args: &[String], out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    let cli =
        Cli::try_parse_from(std::iter::once("nimbus".to_string()).chain(args.iter().cloned()))
            .map_err(|e| nimbus::api::Error::Invalid(e.to_string()))?;
    if matches!(cli.command, Command::Play(_)) {
        return Err(nimbus::api::Error::Invalid("play is interactive".into()));
    }
    dispatch(cli.command, out)
}

/// Writes the output; a reader that stopped early (`nimbus … | head`) is not an error.
fn write_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes a picture the answer drew into the file the user named for it, and says so in the
/// notes; nothing when either is missing.
pub(crate) fn write_plot(
    path: Option<&String>,
    svg: Option<&String>,
    notes: &mut Vec<String>,
) -> Result<(), nimbus::api::Error> {
    if let (Some(path), Some(svg)) = (path, svg) {
        std::fs::write(path, svg).map_err(|source| nimbus::api::Error::Io {
            path: path.clone(),
            source,
        })?;
        notes.push(format!("plot written to {path}"));
    }
    Ok(())
}

/// Appends `value` to the output as one line of JSON.
pub fn print_json<T: serde::Serialize>(
    out: &mut String,
    value: &T,
) -> Result<(), nimbus::api::Error> {
    outln!(out, "{}", nimbus::api::to_json(value));
    Ok(())
}

/// `--time-limit`: a positive number of seconds.
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= nimbus::api::MOST_SECONDS => Ok(t),
        _ => Err(format!(
            "give a positive number of seconds, at most {:e}",
            nimbus::api::MOST_SECONDS
        )),
    }
}

/// A count that must be at least 1 and fit the machine's word.
pub(crate) fn positive_usize(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("give at least 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `--target`: a finite number, at least 0.
pub(crate) fn non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err("give a finite number, at least 0".into()),
    }
}

/// `--decimals`: 0 to [`nimbus::api::MOST_DIGITS`] digits.
pub(crate) fn decimals(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n <= nimbus::api::MOST_DIGITS => Ok(n),
        _ => Err(format!("give 0 to {} digits", nimbus::api::MOST_DIGITS)),
    }
}

/// `--reports`: 1 to [`nimbus::api::MOST_REPORTS`].
pub(crate) fn reports(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=nimbus::api::MOST_REPORTS).contains(&n) => Ok(n),
        _ => Err(format!("give 1 to {} reports", nimbus::api::MOST_REPORTS)),
    }
}

/// `--depth`: at least one ply.
pub(crate) fn plies(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err("search at least one ply".into()),
        Ok(d) => Ok(d),
        Err(e) => Err(e.to_string()),
    }
}

/// Reads an input file, or standard input for "-".
pub fn read_input(path: &str) -> Result<String, nimbus::api::Error> {
    use std::io::Read;
    if path != "-" {
        return nimbus::api::host::read_text(path);
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|source| nimbus::api::Error::Io {
            path: path.to_string(),
            source,
        })?;
    Ok(nimbus::api::host::decode(bytes))
}

/// An expression and the name errors give its source: the file `--file` names (standard
/// input for "-"), or the words on the command line.
pub(crate) fn expression_text(
    file: Option<&str>,
    words: &[String],
) -> Result<(String, String), nimbus::api::Error> {
    Ok(match file {
        Some("-") => (read_input("-")?, "standard input".to_string()),
        Some(path) => (read_input(path)?, path.to_string()),
        None => (words.join(" "), "the expression".to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::Cli;

    /// `nimbus --help` lists each command with the description its own help gives, though
    /// the command's arguments (and its own description) are defined only when it runs.
    #[test]
    fn deferred_commands_are_listed_with_their_own_descriptions() {
        use clap::CommandFactory;
        let top = Cli::command();
        assert_eq!(top.get_subcommands().count(), 17);
        for listed in top.get_subcommands() {
            let mut own = listed.clone();
            own.build();
            let text = |c: &clap::Command| c.get_about().map(ToString::to_string);
            assert!(text(listed).is_some(), "{}", listed.get_name());
            assert_eq!(text(listed), text(&own), "{}", listed.get_name());
            // Building defined the arguments: the deferral is real, not a copy.
            assert_eq!(listed.get_arguments().count(), 0, "{}", listed.get_name());
            assert!(own.get_arguments().count() > 0, "{}", listed.get_name());
        }
    }
}
