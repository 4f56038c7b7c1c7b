//! `nimbus serve`: the Nimbus page and a JSON API over HTTP.
//!
//! A front-end like the command line: each endpoint reads a JSON request, builds the library's
//! request, calls the one `nimbus::api` function that answers the question and returns its
//! answer serialised exactly as `nimbus … --json` prints it (`docs/schema.json`); failures are
//! the same `{"schema": 1, "error": …, "kind": …}` object with an HTTP status that fits.
//!
//! It is made to be left running on a shared machine: bodies are capped, every computation
//! runs under the server's memory, work and time budgets (requests cannot raise them), at
//! most [`Config::slots`] computations run at once (others wait briefly, then get 503 with
//! `Retry-After`), no request reads or writes a file or loads a script, each computation can
//! run in a worker process of its own ([`Isolation`]: what `nimbus serve` does), and Ctrl-C or
//! SIGTERM stops it within seconds.

mod bare;
mod endpoints;
mod isolate;

pub use isolate::{worker, Isolation};

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use nimbus::api::{Failure, Limits};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// The page, one file with its styles and script: embedded, so the server needs no files.
const PAGE: &str = include_str!("../page/index.html");

/// How the server limits its work.
#[derive(Debug, Clone)]
pub struct Config {
    /// Computations that may run at once.
    pub slots: usize,
    /// How long a request waits for a free slot before it gets 503.
    pub wait: Duration,
    /// Seconds one computation may take before it is stopped.
    pub time_budget: f64,
    /// Seconds a game search thinks when the request does not say (at most `time_budget`).
    pub search_seconds: f64,
    /// Positions, memory and work one computation may use.
    pub limits: Limits,
    /// Largest request body, in bytes.
    pub max_body: usize,
    /// An opening book of Connect Four (`nimbus serve --db FILE`): the page's positions it
    /// holds are answered from it without a search.
    pub book: Option<String>,
    /// Run each API request in a worker process of its own (see [`Isolation`]): what the
    /// command line's server does; `None` computes in the server's process (tests).
    pub isolate: Option<Isolation>,
}

impl Default for Config {
    /// Lower limits than the command line's: a page's questions are small, and one user's
    /// request must not take the machine from the others.
    fn default() -> Self {
        Config {
            slots: std::thread::available_parallelism().map_or(2, |n| n.get()),
            wait: Duration::from_secs(2),
            time_budget: 10.0,
            search_seconds: 2.0,
            limits: Limits {
                max_states: 2_000_000,
                max_memory: 1 << 30,
                max_work: 400_000_000,
            },
            max_body: 1 << 20,
            book: None,
            isolate: None,
        }
    }
}

/// What every handler shares.
pub(crate) struct AppState {
    pub(crate) config: Config,
    pub(crate) slots: Arc<Semaphore>,
    /// Set when the server stops: running workers are killed at once.
    pub(crate) stopping: tokio::sync::watch::Sender<bool>,
}

/// The application: the page, the API and its limits.
pub fn router(config: Config) -> Router {
    router_with_state(config).0
}

/// The endpoints that compute, each answered by its handler in this process or, when the
/// server isolates, by a worker process.
const COMPUTING: [&str; 18] = [
    "/api/nash",
    "/api/nash/plot",
    "/api/correlated",
    "/api/correlated/plot",
    "/api/repeated",
    "/api/repeated/plot",
    "/api/dynamics",
    "/api/dynamics/plot",
    "/api/nfg",
    "/api/zerosum",
    "/api/stochastic",
    "/api/verify",
    "/api/sg",
    "/api/cgt",
    "/api/cgt/thermograph",
    "/api/sequence",
    "/api/sequence/plot",
    "/api/solve",
];

/// The application and the state its handlers share.
fn router_with_state(config: Config) -> (Router, Arc<AppState>) {
    let max_body = config.max_body;
    let isolated = config.isolate.is_some();
    let state = Arc::new(AppState {
        slots: Arc::new(Semaphore::new(config.slots.max(1))),
        config,
        stopping: tokio::sync::watch::channel(false).0,
    });
    let mut app = Router::new()
        .route("/", get(page))
        .route("/api/health", get(endpoints::health));
    if isolated {
        for path in COMPUTING {
            app = app.route(path, post(isolate::forward));
        }
    } else {
        app = app
            .route("/api/nash", post(endpoints::nash))
            .route("/api/nash/plot", post(endpoints::nash_plot))
            .route("/api/correlated", post(endpoints::correlated))
            .route("/api/correlated/plot", post(endpoints::correlated_plot))
            .route("/api/repeated", post(endpoints::repeated))
            .route("/api/repeated/plot", post(endpoints::repeated_plot))
            .route("/api/dynamics", post(endpoints::dynamics))
            .route("/api/dynamics/plot", post(endpoints::dynamics_plot))
            .route("/api/nfg", post(endpoints::nfg))
            .route("/api/zerosum", post(endpoints::zerosum))
            .route("/api/stochastic", post(endpoints::stochastic))
            .route("/api/verify", post(endpoints::verify))
            .route("/api/sg", post(endpoints::sg))
            .route("/api/cgt", post(endpoints::cgt))
            .route("/api/cgt/thermograph", post(endpoints::cgt_thermograph))
            .route("/api/sequence", post(endpoints::sequence))
            .route("/api/sequence/plot", post(endpoints::sequence_plot))
            .route("/api/solve", post(endpoints::solve));
    }
    let app = app
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state.clone());
    (app, state)
}

async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
        .into_response()
}

async fn method_not_allowed() -> Response {
    failure(
        StatusCode::METHOD_NOT_ALLOWED,
        "invalid",
        "this endpoint answers POST requests with a JSON body (health and the page answer \
         GET)"
            .into(),
    )
}

pub(crate) async fn not_found() -> Response {
    failure(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such page or endpoint (the API is under /api/: nash, nash/plot, correlated, \
         correlated/plot, repeated, repeated/plot, dynamics, dynamics/plot, nfg, zerosum, stochastic, verify, sg, cgt, \
         cgt/thermograph, sequence, sequence/plot, solve, health)"
            .into(),
    )
}

/// A failure as the command line's `--json` prints it, with `status`.
pub(crate) fn failure(status: StatusCode, kind: &'static str, error: String) -> Response {
    json(status, &Failure { error, kind })
}

/// `answer` under the schema's version, with `status`.
pub(crate) fn json<T: Serialize>(status: StatusCode, answer: &T) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        nimbus::api::to_json(answer),
    )
        .into_response()
}

/// The status that fits a library error: the input could not be read (400), it was read but
/// cannot be answered as asked or within the server's budgets (422), or the server is
/// stopping (503).
fn status_of(e: &nimbus::api::Error) -> StatusCode {
    match e.kind() {
        "parse" => StatusCode::BAD_REQUEST,
        "interrupted" => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// A note of the library's: the settings it names are the `nimbus` command's and this
/// server's (a request cannot raise a budget), so they are written as their flags.
pub(crate) fn note(text: &str) -> String {
    nimbus::api::render_settings(text, &|key, value| {
        let flag = format!("--{}", key.replace('_', "-"));
        match value {
            Some(v) => format!("`{flag} {v}`"),
            None => format!("`{flag}`"),
        }
    })
}

/// The answer of an error: each setting its message names written as the request's JSON
/// field (`"max_work"`, `"method": "logit"`), and the server's own limits named where a budget
/// stopped it.
pub(crate) fn error_response(e: &nimbus::api::Error) -> Response {
    let mut error = e.render(&|key, value| match value {
        Some(v) => format!("\"{key}\": \"{v}\""),
        None => format!("\"{key}\""),
    });
    if matches!(
        e.kind(),
        "state_limit" | "memory_limit" | "work_limit" | "time_limit"
    ) {
        error.push_str(
            " — this server's limit; start `nimbus serve` with a higher --max-states, \
             --max-memory, --max-work or --time-budget, or run the `nimbus` command",
        );
    }
    failure(status_of(e), e.kind(), error)
}

/// Runs `work` in a computation slot, on a blocking thread, under the server's time budget
/// and with files refused; its answer or error as a response (`render` turns an answer into
/// one).
pub(crate) async fn compute<T, W, R>(state: &AppState, work: W, render: R) -> Response
where
    T: Send + 'static,
    W: FnOnce(&Config) -> nimbus::api::Result<T> + Send + 'static,
    R: FnOnce(T) -> Response,
{
    let slot = state.slots.clone().acquire_owned();
    let permit = match tokio::time::timeout(state.config.wait, slot).await {
        Ok(Ok(p)) => p,
        _ => return busy(state),
    };
    let config = state.config.clone();
    // The slot is freed when the work itself ends, even when its client has gone away.
    let joined = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        nimbus::api::host::without_files(|| {
            nimbus::api::host::with_time_limit(config.time_budget, || work(&config))
        })
    })
    .await;
    match joined {
        Ok(Ok(answer)) => render(answer),
        Ok(Err(e)) => error_response(&e),
        Err(_) => failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            "invalid",
            "the computation failed unexpectedly (a bug: please report the request)".into(),
        ),
    }
}

pub(crate) fn busy(state: &AppState) -> Response {
    let mut r = failure(
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        format!(
            "all {} computation slots are busy; try again shortly",
            state.config.slots
        ),
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    r
}

/// Serves on `listener` until `shutdown` completes; then stops accepting, asks running
/// computations to stop at their next checkpoint, and returns once every request is
/// answered.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (app, state) = router_with_state(config);
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    let server = axum::serve(bare::Listener(listener), app).with_graceful_shutdown(async move {
        shutdown.await;
        // Workers are killed, computations in this process asked to stop at their next check.
        state.stopping.send_replace(true);
        nimbus::api::host::interrupt();
        let _ = stopped_tx.send(());
    });
    // Once stopping, answered requests get a few seconds to be sent; a connection kept open
    // longer does not keep the server up.
    let deadline = async move {
        let _ = stopped_rx.await;
        tokio::time::sleep(SHUTDOWN_GRACE).await;
    };
    tokio::select! {
        done = server => done,
        _ = deadline => Ok(()),
    }
}

/// How long a stopping server waits for its open connections.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// Completes on Ctrl-C or SIGTERM.
pub async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

/// Binds `host:port` and serves until Ctrl-C or SIGTERM, calling `ready` with the address
/// bound (port 0 picks a free port) once requests are accepted.
pub fn run(
    host: &str,
    port: u16,
    config: Config,
    ready: impl FnOnce(std::net::SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host, port)).await?;
        ready(listener.local_addr()?);
        serve(listener, config, stop_signal()).await
    });
    // A computation in this process that does not reach a check is not waited for.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served
}
