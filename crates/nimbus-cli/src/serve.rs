//! `nimbus serve`: the Nimbus page and its JSON API on a local web server.

use nimbus::api::Error;
use nimbus_web::Config;
use std::io::Write;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus serve                          http://127.0.0.1:8080: the page, and the API under /api/
  nimbus serve --port 0                 any free port (the address is printed)
  nimbus serve --host 0.0.0.0 --slots 4 reachable from other machines, four computations at once

The API answers POST requests with JSON bodies, with the same JSON as `--json`:
  curl -s localhost:8080/api/nash -d '{\"game\": {\"row\": \"3 0; 5 1\", \"col\": \"3 5; 0 1\"}}'
Endpoints: nash, nash/plot (SVG), correlated, nfg, zerosum, stochastic, verify, sg, cgt, cgt/thermograph (SVG),
sequence, sequence/plot (SVG), solve, health (GET). Every computation runs within the limits below; Ctrl-C stops the server.";

/// Serve the Nimbus page and its JSON API over HTTP.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on: loopback unless told otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Computations that may run at once (default: the number of cores); further requests
    /// wait up to two seconds, then get 503 with Retry-After.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    slots: Option<u64>,
    /// Seconds one computation may take.
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds, allow_negative_numbers = true, default_value = "10")]
    time_budget: f64,
    /// Positions one computation may store.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_states: u64,
    /// Bytes one computation may hold.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 30)]
    max_memory: u64,
    /// Steps of work one computation may take.
    #[arg(long, value_name = "STEPS", default_value_t = 400_000_000)]
    max_work: u64,
    /// Largest request body, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    max_body: usize,
    /// An opening book of Connect Four (`nimbus solve connect4 --book DEPTH --save FILE`):
    /// the page's positions it holds are answered at once, without a search.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    /// Answer one request read from standard input and exit: how the server runs each
    /// computation in a process of its own.
    #[arg(long, hide = true)]
    worker: bool,
}

pub fn run(args: Args) -> Result<ExitCode, Error> {
    // A book that does not read is refused before the server starts, not at each request.
    let book = match &args.db {
        Some(path) if !args.worker => Some(nimbus::api::solve::check_book(path)?),
        _ => None,
    };
    let mut config = Config {
        time_budget: args.time_budget,
        max_body: args.max_body,
        book: args.db.clone(),
        ..Config::default()
    };
    config.limits.max_states = args.max_states;
    config.limits.max_memory = args.max_memory;
    config.limits.max_work = args.max_work;
    if let Some(n) = args.slots {
        config.slots = n as usize;
    }
    if args.worker {
        nimbus_web::worker(config).map_err(|source| Error::Io {
            path: "standard input".into(),
            source,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    // Each computation in a worker process, with the same limits, so that no request can
    // take the server down with it.
    if let Ok(program) = std::env::current_exe() {
        config.isolate = Some(nimbus_web::Isolation {
            program,
            args: [
                "serve",
                "--worker",
                "--time-budget",
                &args.time_budget.to_string(),
                "--max-states",
                &args.max_states.to_string(),
                "--max-memory",
                &args.max_memory.to_string(),
                "--max-work",
                &args.max_work.to_string(),
                "--max-body",
                &args.max_body.to_string(),
            ]
            .map(String::from)
            .into_iter()
            .chain(args.db.iter().flat_map(|d| ["--db".to_string(), d.clone()]))
            .collect(),
        });
    }
    let slots = config.slots;
    nimbus_web::run(&args.host, args.port, config, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "Nimbus is serving on http://{addr}/ ({slots} computation slots{}; Ctrl-C to stop)",
            book.as_deref()
                .map(|g| format!("; the opening book of {g}"))
                .unwrap_or_default()
        );
        let _ = out.flush();
    })
    .map_err(|source| Error::Io {
        path: format!("{}:{}", args.host, args.port),
        source,
    })?;
    Ok(ExitCode::SUCCESS)
}
