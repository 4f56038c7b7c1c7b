//! Every endpoint of `nimbus serve`, with good and bad input: answers as the command line's
//! `--json` gives them (checked against docs/schema.json), errors with the command line's
//! message and a fitting status, and the server still serving after each.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use nimbus_web::{router, Config};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;
use tower::ServiceExt;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The validator of `$defs/NAME` of docs/schema.json.
fn validator(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/schema.json")).expect("docs/schema.json");
    let mut doc: Value = serde_json::from_str(&text).expect("the schema is JSON");
    doc["$ref"] = json!(format!("#/$defs/{name}"));
    jsonschema::validator_for(&doc).expect("a valid schema")
}

fn conforms(def: &str, v: &Value) {
    let errors: Vec<String> = validator(def)
        .iter_errors(v)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "against $defs/{def}: {errors:?}\n{v}");
}

async fn send(
    app: &Router,
    method: &str,
    path: &str,
    body: String,
) -> (StatusCode, String, String) {
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(body))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
}

async fn post(app: &Router, path: &str, body: Value) -> (StatusCode, Value) {
    let (status, _, text) = send(app, "POST", path, body.to_string()).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON: {text}")),
    )
}

/// Checks an error answer: its status, kind and a part of its message, and that the server
/// still answers.
async fn fails(app: &Router, path: &str, body: Value, status: StatusCode, kind: &str, says: &str) {
    let (got, v) = post(app, path, body.clone()).await;
    assert_eq!(got, status, "{path} {body}: {v}");
    conforms("error", &v);
    assert_eq!(v["kind"], kind, "{v}");
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains(says), "{path}: `{msg}` should say `{says}`");
    let (ok, _, health) = send(app, "GET", "/api/health", String::new()).await;
    assert_eq!(ok, StatusCode::OK, "still serving after {path} {body}");
    conforms("health", &serde_json::from_str(&health).unwrap());
}

fn app() -> Router {
    router(Config::default())
}

/// The server with a work budget of `max_work` steps.
fn app_with_work(max_work: u64) -> Router {
    router(Config {
        limits: nimbus::api::Limits {
            max_work,
            ..Config::default().limits
        },
        ..Config::default()
    })
}

#[tokio::test]
async fn nash_answers_as_the_command_line() {
    let app = app();
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"game": {"row": "3 0; 5 1", "col": "3 5; 0 1"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("nash", &v);
    assert_eq!(v["equilibria"].as_array().unwrap().len(), 1);
    assert_eq!(
        v["equilibria"][0]["profile"],
        json!([["0", "1"], ["0", "1"]])
    );
    // Rock-paper-scissors: zero-sum from one matrix, the uniform equilibrium.
    let rps = json!({"game": {"row": "0 -1 1; 1 0 -1; -1 1 0", "row_names": "R,P,S"}});
    let (s, v) = post(&app, "/api/nash", rps.clone()).await;
    assert_eq!(s, StatusCode::OK);
    conforms("nash", &v);
    assert_eq!(
        v["equilibria"][0]["profile"][0],
        json!(["1/3", "1/3", "1/3"])
    );
    assert_eq!(v["strategies"][0], json!(["R", "P", "S"]));
    let (s, v) = post(&app, "/api/zerosum", rps).await;
    assert_eq!(s, StatusCode::OK);
    conforms("zerosum", &v);
    assert_eq!(v["value"], "0");
    // A stochastic game: the Big Match of the repository, exactly; a bad file names its line.
    let big = std::fs::read_to_string(root().join("examples/big-match.ssg")).unwrap();
    let (s, v) = post(&app, "/api/stochastic", json!({"game": big})).await;
    assert_eq!(s, StatusCode::OK);
    conforms("stochastic", &v);
    assert_eq!(v["states"][0]["value"], "1");
    assert_eq!(v["states"][0]["row_strategy"], json!(["2/3", "1/3"]));
    fails(
        &app,
        "/api/stochastic",
        json!({"game": "state a\n 1 1: 0 -> b\n", "tolerance": "1e-6"}),
        StatusCode::BAD_REQUEST,
        "parse",
        "line 2, column 12: no state is called b",
    )
    .await;
    fails(
        &app,
        "/api/stochastic",
        json!({"game": big, "tolerance": "-1"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "\"tolerance\" must be positive",
    )
    .await;
    // A repeated game: QuantEcon's prisoner's dilemma at 0.9, exactly; a bad discount.
    let pd = json!({"row": "9 1; 10 3", "col": "9 10; 1 3"});
    let (s, v) = post(
        &app,
        "/api/repeated",
        json!({"game": pd, "discount": "0.9"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    conforms("repeated", &v);
    assert_eq!(
        v["vertices"],
        json!([["3", "3"], ["39/4", "3"], ["9", "9"], ["3", "39/4"]])
    );
    fails(
        &app,
        "/api/repeated",
        json!({"game": pd, "discount": "1"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "\"discount\" must lie strictly between 0 and 1",
    )
    .await;
    let (s, kind, svg) = send(
        &app,
        "POST",
        "/api/repeated/plot",
        json!({"game": pd, "discount": "0.9"}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        kind.starts_with("image/svg+xml") && svg.contains("<polygon"),
        "{kind}"
    );
    // An uploaded .nfg: the example of the repository.
    let nfg = std::fs::read_to_string(root().join("examples/bos.nfg")).unwrap();
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"game": {"nfg": nfg}, "method": "vertex"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("nash", &v);
    assert_eq!(v["equilibria"].as_array().unwrap().len(), 3);
    // A tree.
    let efg = std::fs::read_to_string(root().join("examples/centipede.efg")).unwrap();
    let (s, v) = post(&app, "/api/nash", json!({"efg": efg})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    conforms("tree", &v);
    // The tracing procedure on it: normal-form perfect; a prior of one's own refused.
    let (s, v) = post(&app, "/api/nash", json!({"efg": efg, "select": "tracing"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    conforms("tree", &v);
    assert_eq!(v["method"], "tracing");
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"efg": efg, "select": "tracing:1,0"}),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["error"]
            .to_string()
            .contains("the prior has 2 probabilities"),
        "{v}"
    );
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"efg": efg, "method": "quasi-perfect"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    conforms("tree", &v);
    assert_eq!(v["method"], "quasi-perfect");
    // Sequential marks on a tree, with the beliefs.
    let efg = std::fs::read_to_string(root().join("examples/consistency.efg")).unwrap();
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"efg": efg, "refine": "sequential"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    conforms("tree", &v);
    assert_eq!(v["sequential"], json!([false, true, true]));
    assert_eq!(v["equilibria"][2]["beliefs"][1], json!(["1/2", "1/2"]));
    // The 2 x 2 diagram is an SVG with both players' best replies.
    let (s, kind, svg) = send(
        &app,
        "POST",
        "/api/nash/plot",
        json!({"game": {"row": "2 0; 0 1", "col": "1 0; 0 2"}}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(kind, "image/svg+xml");
    assert!(
        svg.starts_with("<svg") && svg.contains("<polyline") || svg.contains("<line"),
        "{svg}"
    );
}

#[tokio::test]
async fn pictures_and_nfg_files() {
    let app = app();
    // One player with two strategies: the upper envelope, its kinks as fractions.
    let (s, kind, svg) = send(
        &app,
        "POST",
        "/api/nash/plot",
        json!({"game": {"row": "1 3 0; 2 0 3", "col": "3 0 2; 0 3 2"}}).to_string(),
    )
    .await;
    assert_eq!((s, kind.as_str()), (StatusCode::OK, "image/svg+xml"));
    assert!(svg.contains("upper envelope") && svg.contains("t = 1/3") && svg.contains("t = 2/3"));
    // No picture for a 3 x 3 game: the command line's message.
    let (s, v) = post(
        &app,
        "/api/nash/plot",
        json!({"game": {"row": "1 0 0; 0 1 0; 0 0 1"}}),
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"].as_str().unwrap().contains("3 x 3"), "{v}");
    // The setting it suggests is named as the request's field, not as a command-line flag.
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains(r#"the logit path ("method": "logit")"#),
        "{v}"
    );
    // The game as a .nfg file, which reads back to the same game.
    let (s, _, text) = send(
        &app,
        "POST",
        "/api/nfg",
        json!({"game": {"row": "3 0; 5 1", "col": "3 5; 0 1", "row_names": "C,D"}}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let back = nimbus::formats::nfg::parse(&text, "the answer").unwrap();
    assert_eq!(back.strategies[0], ["C", "D"]);
    assert_eq!(back.payoff(&[1, 0], 0).to_string(), "5");
    assert_eq!(back.payoff(&[1, 0], 1).to_string(), "0");
}

#[tokio::test]
async fn verify_sg_sequence_and_solve_answer() {
    let app = app();
    let (s, v) = post(
        &app,
        "/api/verify",
        json!({"game": {"row": "2 0; 0 1", "col": "1 0; 0 2"}, "profile": "2/3,1/3,1/3,2/3"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("verify", &v);
    assert_eq!(v["equilibrium"], true);
    let (s, v) = post(&app, "/api/sg", json!({"expression": "kayles 7 + nim 3"})).await;
    assert_eq!(s, StatusCode::OK);
    conforms("sg", &v);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 3);
    let (s, v) = post(
        &app,
        "/api/sg",
        json!({"expression": "nim 1 2", "misere": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("sg", &v);
    let (s, v) = post(
        &app,
        "/api/sequence",
        json!({"ruleset": "octal 0.137", "upto": 200}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("sequence", &v);
    assert_eq!(v["values"].as_array().unwrap().len(), 201);
    // Without "upto": run until the period is proved or a budget stops it.
    let (s, v) = post(&app, "/api/sequence", json!({"ruleset": "kayles"})).await;
    assert_eq!(s, StatusCode::OK);
    conforms("sequence", &v);
    assert_eq!(
        (v["period"].clone(), v["proved"].clone()),
        (12.into(), true.into())
    );
    let (s, kind, svg) = send(
        &app,
        "POST",
        "/api/sequence/plot",
        json!({"ruleset": "kayles", "upto": 120}).to_string(),
    )
    .await;
    assert_eq!((s, kind.as_str()), (StatusCode::OK, "image/svg+xml"));
    assert!(svg.starts_with("<svg"));
    let (s, v) = post(
        &app,
        "/api/solve",
        json!({"game": "tictactoe", "position": "1", "scores": true, "reply": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("solve", &v);
    assert_eq!(
        v["reply"], "5",
        "the only move that does not lose against a corner"
    );
    assert_eq!(v["position"], "1 5");
    assert_eq!(v["scores"].as_array().unwrap().len(), 7);
    let (s, v) = post(
        &app,
        "/api/solve",
        json!({"game": "connect4", "position": "4453", "time_limit": 0.3, "scores": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("solve", &v);
    assert_eq!(v["scores"].as_array().unwrap().len(), 7);
    let (s, text) = {
        let (s, _, t) = send(&app, "GET", "/", String::new()).await;
        (s, t)
    };
    assert_eq!(s, StatusCode::OK);
    assert!(text.contains("<html") || text.contains("<!doctype html"));
}

#[tokio::test]
async fn bad_input_is_a_json_error_with_the_command_lines_message() {
    let app = app();
    let bad = StatusCode::BAD_REQUEST;
    let unanswerable = StatusCode::UNPROCESSABLE_ENTITY;
    let nfg = "NFG 1 R \"x\" { \"1\" \"2\" } { 2 2 }\n1 2 3";
    let cases = [
        (
            "/api/nash",
            json!({"game": {"row": "3 0; 5", "col": "3 5; 0 1"}}),
            bad,
            "parse",
            "ragged",
        ),
        (
            "/api/nash",
            json!({"game": {"row": "1 2; 3 4", "col": "1 2 3; 4 5 6"}}),
            unanswerable,
            "invalid",
            "must have one shape",
        ),
        (
            "/api/nash",
            json!({"game": {"nfg": nfg}}),
            bad,
            "parse",
            "the .nfg file",
        ),
        (
            "/api/nash",
            json!({"game": {"row": "1"}, "method": "magic"}),
            unanswerable,
            "invalid",
            "magic",
        ),
        (
            "/api/nash",
            json!({"game": {"row": "1"}, "all": true}),
            bad,
            "parse",
            "unknown field `all`",
        ),
        (
            "/api/sg",
            json!({"expression": "kayels 7"}),
            bad,
            "parse",
            "unknown game",
        ),
        (
            "/api/sg",
            json!({"expression": "graph /etc/passwd @a"}),
            unanswerable,
            "invalid",
            "reads no files",
        ),
        (
            "/api/sequence",
            json!({"ruleset": "script:examples/take134.rhai"}),
            unanswerable,
            "invalid",
            "reads no files",
        ),
        (
            "/api/solve",
            json!({"game": "script:examples/tictactoe.rhai"}),
            unanswerable,
            "invalid",
            "runs no scripts",
        ),
        (
            "/api/solve",
            json!({"game": "tictactoe", "position": "1 1"}),
            bad,
            "parse",
            "cell 1 is taken",
        ),
        (
            "/api/verify",
            json!({"game": {"row": "1 0; 0 1"}, "profile": "1/2,1/2"}),
            unanswerable,
            "invalid",
            "",
        ),
    ];
    for (path, body, status, kind, says) in cases {
        fails(&app, path, body, status, kind, says).await;
    }
    // Not JSON at all.
    let (s, _, text) = send(&app, "POST", "/api/sg", "nim 3".into()).await;
    assert_eq!(s, bad, "{text}");
    // Unknown endpoint.
    let (s, _, text) = send(&app, "POST", "/api/nope", "{}".into()).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    conforms("error", &serde_json::from_str(&text).unwrap());
}

#[tokio::test]
async fn oversized_bodies_are_refused_with_413() {
    let app = router(Config {
        max_body: 1000,
        ..Config::default()
    });
    let big = json!({"expression": format!("nim {}", "1 ".repeat(2000))});
    fails(
        &app,
        "/api/sg",
        big,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        "--max-body",
    )
    .await;
}

#[tokio::test]
async fn computations_over_budget_stop_with_the_limit_named() {
    // Work: the quadratic nim-sequence of a large subtraction game.
    let app = app_with_work(1_000_000);
    fails(
        &app,
        "/api/sequence",
        json!({"ruleset": format!("subtract{{{}}}", (1..=1000).map(|k| k.to_string()).collect::<Vec<_>>().join(",")), "upto": 100000}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "work_limit",
        r#"(raise "max_work")"#,
    )
    .await;
    // A proof the budget stops is a note, with the values still listed.
    let (s, v) = post(&app, "/api/sequence", json!({"ruleset": "octal 0.007"})).await;
    assert_eq!((s, v["proved"].clone()), (StatusCode::OK, false.into()));
    let note = v["notes"][0].as_str().unwrap();
    assert!(
        note.contains("`--prove`") && note.contains("`--max-work`"),
        "{note}"
    );
    // Time: an enumeration that takes far longer than the budget is stopped at it.
    let app = router(Config {
        time_budget: 0.3,
        limits: nimbus::api::Limits {
            max_work: u64::MAX,
            ..Config::default().limits
        },
        ..Config::default()
    });
    let started = std::time::Instant::now();
    let a: Vec<String> = (0..16)
        .map(|i| {
            (0..16)
                .map(|j| ((i * 7 + j * 13 + i * j * 5) % 97).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let b: Vec<String> = (0..16)
        .map(|i| {
            (0..16)
                .map(|j| ((i * 11 + j * 3 + i * j * 17) % 89).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    fails(
        &app,
        "/api/nash",
        json!({"game": {"row": a.join("; "), "col": b.join("; ")}, "method": "vertex"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "time_limit",
        "--time-budget",
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_slots_give_503_while_cheap_requests_are_answered() {
    let app = router(Config {
        slots: 1,
        wait: Duration::from_millis(100),
        time_budget: 3.0,
        ..Config::default()
    });
    // A search that uses its whole second holds the one slot.
    let long = {
        let app = app.clone();
        tokio::spawn(async move {
            post(
                &app,
                "/api/solve",
                json!({"game": "connect4", "time_limit": 1.0}),
            )
            .await
        })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (s, _, health) = send(&app, "GET", "/api/health", String::new()).await;
    assert_eq!(s, StatusCode::OK);
    let health: Value = serde_json::from_str(&health).unwrap();
    assert_eq!(health["free"], 0, "{health}");
    let req = Request::builder()
        .method("POST")
        .uri("/api/sg")
        .body(Body::from(json!({"expression": "nim 3"}).to_string()))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(resp.headers().get("retry-after").unwrap(), "1");
    let (s, v) = long.await.unwrap();
    assert_eq!(s, StatusCode::OK, "{v}");
    // The slot is free again.
    let (s, _) = post(&app, "/api/sg", json!({"expression": "nim 3"})).await;
    assert_eq!(s, StatusCode::OK);
}

/// `label` counts from 1, as on the command line and in Python: 0 and 5 are refused for a
/// 2 × 2 game with the same words, and labels 1 and 2 start different paths.
#[tokio::test]
async fn lemke_howson_labels_count_from_one() {
    let app = app();
    let game = json!({"row": "2 0; 0 1", "col": "1 0; 0 2"});
    for label in [0, 5] {
        let body = json!({"game": game, "method": "lh", "label": label});
        let (s, v) = post(&app, "/api/nash", body).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        let says = format!("label {label}: labels run from 1 to 4");
        assert!(v.to_string().contains(&says), "{v}");
    }
    let mut starts = Vec::new();
    for label in [1, 2] {
        let body = json!({"game": game, "method": "lh", "label": label});
        let (s, v) = post(&app, "/api/nash", body).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        starts.push(v["equilibria"].clone());
    }
    assert_ne!(starts[0], starts[1]);
}

#[tokio::test]
async fn the_wrong_method_gets_a_json_405() {
    let app = app();
    for path in ["/api/nash", "/api/solve"] {
        let (status, kind, text) = send(&app, "GET", path, String::new()).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
        assert!(kind.starts_with("application/json"), "{kind}");
        let v: Value = serde_json::from_str(&text).unwrap();
        conforms("error", &v);
        assert!(v["error"].as_str().unwrap().contains("POST"));
    }
}

/// Sends raw bytes to a running server and reads its whole answer (it closes after an error).
async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The server may answer and close before the whole of a huge request is written.
    let _ = s.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

/// Issue 48, item 14: what hyper refuses by itself (a URI past 64 KB, bytes that are not HTTP)
/// is answered with a JSON body too, with the same status, and the
/// server goes on answering.
#[tokio::test]
async fn requests_hyper_refuses_get_a_json_body() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // Never stopped through its shutdown, which interrupts every computation of the process
    // (the other tests' too): the task is dropped with the test's runtime.
    let server = tokio::spawn(nimbus_web::serve(
        listener,
        Config::default(),
        std::future::pending(),
    ));
    let long_uri = [
        b"GET /api/health?x=".as_slice(),
        &vec![b'a'; 70_000],
        b" HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    .concat();
    for (request, status, says) in [
        (long_uri, "414", "64 KB"),
        (b"GARBAGE\r\n\r\n".to_vec(), "400", "HTTP/1.1"),
    ] {
        let answer = raw(addr, &request).await;
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status} ")),
            "expected {status}: {answer}"
        );
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let v: Value = serde_json::from_str(body).unwrap();
        conforms("error", &v);
        assert!(v["error"].as_str().unwrap().contains(says), "{body}");
    }
    // A normal request still gets its answer, untouched.
    let answer = raw(
        addr,
        b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");
    server.abort();
}

#[tokio::test]
async fn partizan_values_thermographs_and_no_files() {
    let app = app();
    let (s, v) = post(
        &app,
        "/api/cgt",
        json!({"expression": "domineering '..|..'"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("cgt", &v);
    assert_eq!(
        (v["canonical"].clone(), v["outcome"].clone()),
        ("±1".into(), "N".into())
    );
    assert_eq!(v["left_wins_total"], 2);
    // At most the moves asked for are listed; all are counted.
    let (s, v) = post(
        &app,
        "/api/cgt",
        json!({"expression": "domineering '...|...|...'", "max_moves": 1, "incentives": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("cgt", &v);
    assert_eq!(v["left_wins"].as_array().unwrap().len(), 1);
    assert!(v["left_wins_total"].as_u64().unwrap() > 1, "{v}");
    assert!(v["left_incentives"].is_array(), "{v}");
    // The picture of a value, as the command's --thermograph draws it.
    let (s, kind, svg) = send(
        &app,
        "POST",
        "/api/cgt/thermograph",
        json!({"expression": "{0|-2}"}).to_string(),
    )
    .await;
    assert_eq!((s, kind.as_str()), (StatusCode::OK, "image/svg+xml"));
    let a = nimbus::api::cgt::solve("{0|-2}", "x", &nimbus::api::cgt::Request::default()).unwrap();
    assert_eq!(svg, nimbus::api::cgt::thermograph_picture(&a));
    // A graph file or a script is refused: the server reads no files.
    for expression in [
        "hackenbush /etc/hostname",
        "col /etc/hostname",
        "script:/etc/hostname 1",
    ] {
        fails(
            &app,
            "/api/cgt",
            json!({ "expression": expression }),
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid",
            "this server reads no files",
        )
        .await;
    }
    fails(
        &app,
        "/api/cgt",
        json!({"expression": "domineering '.x'"}),
        StatusCode::BAD_REQUEST,
        "parse",
        "domineering",
    )
    .await;
    // A board past the server's budget stops with the budget named.
    let small = app_with_work(1_000_000);
    fails(
        &small,
        "/api/cgt",
        json!({"expression": "domineering 6x6"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "work_limit",
        r#"(raise "max_work")"#,
    )
    .await;
}

#[tokio::test]
async fn correlated_equilibria_and_perfect_marks() {
    let app = app();
    let chicken = json!({"row": "6 2; 7 0", "col": "6 7; 2 0"});
    let (s, v) = post(&app, "/api/correlated", json!({ "game": chicken })).await;
    assert_eq!(s, StatusCode::OK);
    conforms("correlated", &v);
    assert_eq!(v["value"], "21/2");
    let (s, v) = post(
        &app,
        "/api/correlated",
        json!({"game": chicken, "maximize": "player:1", "coarse": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("correlated", &v);
    assert_eq!(v["kind"], "coarse correlated");
    fails(
        &app,
        "/api/correlated",
        json!({"game": chicken, "maximize": "player:0"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "numbered from 1",
    )
    .await;
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"game": {"row": "1 0; 0 0", "col": "1 0; 0 0"}, "refine": "perfect"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("nash", &v);
    assert_eq!(v["perfect"], json!([false, true]));
    fails(
        &app,
        "/api/nash",
        json!({"game": {"row": "1 0; 0 0"}, "refine": "ess"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "symmetric games",
    )
    .await;
    // Proper equilibria: Myerson's game, where (D, R) is perfect but not proper.
    let myerson = json!({"row": "1 0 -9; 0 0 -7; -9 -7 -7", "col": "1 0 -9; 0 0 -7; -9 -7 -7"});
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"game": myerson, "refine": "perfect,proper"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("nash", &v);
    assert_eq!(v["perfect"], json!([true, true, false]));
    assert_eq!(v["proper"], json!([true, false, false]));
    fails(
        &app,
        "/api/nash",
        json!({"game": {"row": "1 0; 0 0"}, "refine": "sequential"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "a refinement for game trees",
    )
    .await;
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"game": {"row": "-1 2; 0 1", "col": "-1 0; 2 1"}, "refine": "ess,perfect"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("nash", &v);
    assert_eq!(v["ess"], json!([false, true, false]));
    assert_eq!(v["perfect"], json!([true, true, true]));
    // The tracing procedure: the selection and its prior; a bad prior and a method beside
    // a selection refused.
    let coordination = json!({"row": "3 0; 0 2", "col": "3 0; 0 2"});
    let (s, v) = post(
        &app,
        "/api/nash",
        json!({"game": coordination, "select": "tracing:1/5,4/5,1/5,4/5"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("nash", &v);
    assert_eq!(v["method"], "tracing");
    assert_eq!(
        v["equilibria"][0]["profile"],
        json!([["0", "1"], ["0", "1"]])
    );
    assert_eq!(v["tracing"]["start"], json!([1, 1]));
    fails(
        &app,
        "/api/nash",
        json!({"game": coordination, "select": "tracing:1,0,1"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "the prior has 3 probabilities",
    )
    .await;
    fails(
        &app,
        "/api/nash",
        json!({"game": coordination, "select": "tracing", "method": "vertex"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "not both",
    )
    .await;
    // The dynamics: the command line's answer, its picture, a bad start refused.
    let hawk_dove = json!({"row": "-1 2; 0 1", "col": "-1 0; 2 1"});
    let (s, v) = post(
        &app,
        "/api/dynamics",
        json!({"game": hawk_dove, "rule": "replicator", "time": 30, "start": "9/10 1/10"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("dynamics", &v);
    assert_eq!(v["rest_points"][2]["stability"], json!("stable"));
    let (s, v) = post(
        &app,
        "/api/dynamics",
        json!({"game": hawk_dove, "rounds": 10, "ties": "random:3"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    conforms("dynamics", &v);
    let rps = json!({"row": "0 -1 1; 1 0 -1; -1 1 0", "col": "0 1 -1; -1 0 1; 1 -1 0"});
    let (s, kind, svg) = send(
        &app,
        "POST",
        "/api/dynamics/plot",
        json!({"game": rps, "rule": "replicator"}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert!(kind.contains("svg"), "{kind}");
    assert!(svg.starts_with("<svg") && svg.contains("<circle"), "{svg}");
    fails(
        &app,
        "/api/dynamics",
        json!({"game": hawk_dove, "rule": "replicator", "start": "1/2 1/3"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "summing to 1",
    )
    .await;
    fails(
        &app,
        "/api/dynamics",
        json!({"game": hawk_dove, "rule": "best-reply"}),
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid",
        "unknown rule",
    )
    .await;
}
