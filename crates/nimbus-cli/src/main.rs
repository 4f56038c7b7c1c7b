//! The `nimbus` command: parses input, calls the library, prints. No game logic lives here.

mod sequence;
mod sg;

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
    #[arg(long, global = true, value_name = "N", default_value_t = nimbus::impartial::Limits::DEFAULT_MAX_STATES)]
    max_states: u64,
}

#[derive(Subcommand)]
enum Command {
    Sg(sg::Args),
    Sequence(sequence::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sg(args) => sg::run(args),
        Command::Sequence(args) => sequence::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints `value` as one line of JSON.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<(), nimbus::Error> {
    let text = serde_json::to_string(value)
        .map_err(|e| nimbus::Error::Invalid(format!("cannot write JSON: {e}")))?;
    println!("{text}");
    Ok(())
}

/// Reads an input file, or standard input for "-".
pub fn read_input(path: &str) -> Result<String, nimbus::Error> {
    use std::io::Read;
    let mut text = String::new();
    let res = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text).map(|_| ()))
    };
    res.map_err(|source| nimbus::Error::Io {
        path: path.to_string(),
        source,
    })?;
    Ok(text)
}
