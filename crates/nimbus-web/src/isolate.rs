//! Each computation in a process of its own, so that no request can take the server down.
//!
//! The library checks its budgets before it allocates, but a server must survive the request
//! that slips past a check (an estimate too low, an allocation not counted): an abort on a
//! failed allocation ends the process it happens in. So the server runs each API request in a
//! worker process — the same program, started with [`Isolation::args`] — that answers that one
//! request and exits. The worker's address space is capped (`RLIMIT_AS`) a little above the
//! memory budget, it is killed a few seconds past the time budget, and it is killed at once
//! when the server stops; the server itself only reads requests and writes answers.
//!
//! The worker reads the request's path on the first line of its standard input and the body
//! after it; it writes the answer's status and content type on a line each, then the body.

use crate::{failure, AppState, Config};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// How to start a worker: the program and its arguments (the command line's `nimbus serve
/// --worker` with the server's limits).
#[derive(Debug, Clone)]
pub struct Isolation {
    /// The program, usually the running one.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Seconds past the time budget before a worker is killed: a computation checks its clock
/// now and then, and answers "stopped" on its own if it can.
const GRACE: f64 = 3.0;

/// The address space a worker may map: twice the memory budget (the allocator's slack, the
/// threads' stacks, the program) and 512 MiB.
fn address_space(config: &Config) -> u64 {
    config
        .limits
        .max_memory
        .saturating_mul(2)
        .saturating_add(512 << 20)
}

/// Answers a POST to the API by a worker process.
pub(crate) async fn forward(State(state): State<Arc<AppState>>, uri: Uri, body: Bytes) -> Response {
    let Some(isolation) = state.config.isolate.clone() else {
        return crate::not_found().await;
    };
    let slot = state.slots.clone().acquire_owned();
    let _permit = match tokio::time::timeout(state.config.wait, slot).await {
        Ok(Ok(p)) => p,
        _ => return crate::busy(&state),
    };
    let mut stopping = state.stopping.subscribe();
    if *stopping.borrow() {
        return stopping_now();
    }
    let mut command = tokio::process::Command::new(&isolation.program);
    command
        .args(&isolation.args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true);
    #[cfg(unix)]
    {
        let cap = address_space(&state.config);
        // SAFETY: between fork and exec the closure only calls `setrlimit`, which is
        // async-signal-safe, on a value on its own stack.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: cap as libc::rlim_t,
                    rlim_max: cap as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => return internal(&format!("cannot start a worker process: {e}")),
    };
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = child.stdout.take().expect("piped");
    let path = uri.path().to_string();
    let talk = async move {
        // A worker that dies before reading all of it closes the pipe: its exit says why.
        let _ = stdin.write_all(format!("{path}\n").as_bytes()).await;
        let _ = stdin.write_all(&body).await;
        drop(stdin);
        let mut out = Vec::new();
        let read = stdout.read_to_end(&mut out).await;
        let status = child.wait().await;
        (read.map(|_| out), status)
    };
    let most = Duration::from_secs_f64(state.config.time_budget + GRACE);
    tokio::select! {
        done = tokio::time::timeout(most, talk) => match done {
            Ok((Ok(out), Ok(status))) if status.success() => answer(&out),
            Ok((_, status)) => died(&state.config, status.ok()),
            // Dropping the future kills the worker.
            Err(_) => failure(
                StatusCode::UNPROCESSABLE_ENTITY,
                "time_limit",
                format!(
                    "the computation ran past this server's time budget of {} s and was \
                     stopped — start `nimbus serve` with a higher --time-budget, or run the \
                     `nimbus` command",
                    state.config.time_budget
                ),
            ),
        },
        _ = stopping.wait_for(|&s| s) => stopping_now(),
    }
}

/// The worker's answer as a response.
fn answer(out: &[u8]) -> Response {
    let mut lines = out.splitn(3, |&b| b == b'\n');
    let status = lines
        .next()
        .and_then(|s| std::str::from_utf8(s).ok())
        .and_then(|s| s.parse::<u16>().ok())
        .and_then(|s| StatusCode::from_u16(s).ok());
    let kind = lines.next().map(|k| String::from_utf8_lossy(k).to_string());
    match (status, kind, lines.next()) {
        (Some(status), Some(kind), Some(body)) => {
            (status, [(header::CONTENT_TYPE, kind)], body.to_vec()).into_response()
        }
        _ => internal("a worker process answered in a form the server does not read"),
    }
}

/// The answer when a worker ended without one: killed by the address-space cap (an abort on
/// a failed allocation) or otherwise.
fn died(config: &Config, status: Option<std::process::ExitStatus>) -> Response {
    #[cfg(unix)]
    let signal = status.and_then(|s| std::os::unix::process::ExitStatusExt::signal(&s));
    #[cfg(not(unix))]
    let signal: Option<i32> = None;
    let _ = status;
    let bytes = nimbus::api::show_bytes(config.limits.max_memory);
    failure(
        StatusCode::UNPROCESSABLE_ENTITY,
        "memory_limit",
        format!(
            "the computation was stopped{}: it needed more memory than this server allows \
             (its budget is {bytes}) — start `nimbus serve` with a higher --max-memory, or run \
             the `nimbus` command",
            signal.map_or(String::new(), |s| format!(" (signal {s})"))
        ),
    )
}

fn stopping_now() -> Response {
    failure(
        StatusCode::SERVICE_UNAVAILABLE,
        "interrupted",
        "the server is stopping".into(),
    )
}

fn internal(message: &str) -> Response {
    failure(
        StatusCode::INTERNAL_SERVER_ERROR,
        "invalid",
        format!("{message} (a bug: please report the request)"),
    )
}

/// The worker's side: answers the one request on standard input with the router of `config`
/// (which must not isolate again), on standard output.
pub fn worker(config: Config) -> std::io::Result<()> {
    use std::io::{Read, Write};
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let at = input
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(input.len());
    let path = String::from_utf8_lossy(&input[..at]).to_string();
    let body = input.get(at + 1..).unwrap_or_default().to_vec();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let (status, kind, bytes) = runtime.block_on(async move {
        let app = crate::router(Config {
            isolate: None,
            ..config
        });
        let request = axum::http::Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .body(axum::body::Body::from(body))
            .expect("a request of a path and bytes");
        let response = tower::ServiceExt::oneshot(app, request)
            .await
            .expect("a router's answer is infallible");
        let status = response.status().as_u16();
        let kind = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("application/json")
            .to_string();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap_or_default();
        (status, kind, bytes)
    });
    let mut out = std::io::stdout().lock();
    write!(out, "{status}\n{kind}\n")?;
    out.write_all(&bytes)?;
    out.flush()
}
