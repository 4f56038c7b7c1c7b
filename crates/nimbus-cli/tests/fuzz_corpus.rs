//! Replays the fuzz corpus (`fuzz/corpus/NAME/*`) through the same target bodies libFuzzer
//! runs, on the stable toolchain: every input the fuzzer kept, and every finding turned into
//! a corpus file, must still end without a panic.

#[path = "../../../fuzz/src/lib.rs"]
mod targets;

use std::path::PathBuf;

fn replay(name: &str, target: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(name);
    let paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus is in the repository")
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!paths.is_empty(), "{name}: the corpus is empty");
    // The cli corpus holds thousands of whole command lines; every core replays a share.
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for share in paths.chunks(paths.len().div_ceil(workers)) {
            scope.spawn(move || {
                for path in share {
                    // A fuzzer running beside the tests replaces inputs with smaller ones.
                    let Ok(data) = std::fs::read(path) else {
                        continue;
                    };
                    let started = std::time::Instant::now();
                    target(&data);
                    // A bound for hangs, not a benchmark: the slowest inputs (games with
                    // payoffs of thousands of digits) take 0.2 s alone, and several times that
                    // here, where the replay shares the cores with the other test binaries.
                    assert!(
                        started.elapsed().as_secs() < 10,
                        "{} took {:?}",
                        path.display(),
                        started.elapsed()
                    );
                }
            });
        }
    });
}

#[test]
fn expression_corpus() {
    replay("expression", targets::expression);
}

#[test]
fn graph_corpus() {
    replay("graph", targets::graph);
}

#[test]
fn nfg_corpus() {
    replay("nfg", targets::nfg);
}

#[test]
fn matrix_corpus() {
    replay("matrix", targets::matrix);
}

#[test]
fn moves_corpus() {
    replay("moves", targets::moves);
}

#[test]
fn substring_corpus() {
    replay("substring", targets::substring);
}

#[test]
fn cli_corpus() {
    replay("cli", targets::cli);
}

#[test]
fn files_corpus() {
    replay("files", targets::files);
}
