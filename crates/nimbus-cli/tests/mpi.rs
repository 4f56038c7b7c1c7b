//! The tier solver across an MPI job (`--features mpi`): three processes of `mpirun` on this
//! machine write the same tier files, byte for byte, as one process does, and a job whose
//! worker is killed leaves a state from which a new job finishes the same database.
//!
//! Run by scripts/test as part of the workspace's one test build, whose features
//! (scripts/features) include `nimbus-cli/mpi` wherever Open MPI is present.
#![cfg(feature = "mpi")]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn nimbus() -> &'static str {
    env!("CARGO_BIN_EXE_nimbus")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nimbus-mpi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `mpirun -np 3` of `nimbus solve GAME --all --db DIR --mpi` and the extra arguments.
fn mpirun(game: &str, dir: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args([
        "-np",
        "3",
        "--oversubscribe",
        nimbus(),
        "solve",
        game,
        "--all",
        "--db",
    ])
    .arg(dir)
    .args(["--mpi", "--json"])
    .args(extra)
    // The tests may run as root (a container); Open MPI refuses that unless told.
    .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
    .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    c
}

fn single(game: &str, dir: &Path, extra: &[&str]) -> serde_json::Value {
    let out = Command::new(nimbus())
        .args(["solve", game, "--all", "--db"])
        .arg(dir)
        .arg("--json")
        .args(extra)
        .output()
        .unwrap();
    answer(out)
}

/// The JSON answer of a run that succeeded.
fn answer(out: std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The files of a directory, by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

/// The answer without what differs between two runs of the same solve.
fn counts(mut v: serde_json::Value) -> serde_json::Value {
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("db");
    o.remove("resumed");
    v
}

#[test]
fn three_processes_write_the_files_one_process_writes() {
    let (one, three) = (scratch("one"), scratch("three"));
    let alone = single("connect4:5x4", &one, &["--remoteness"]);
    // Only rank 0 answers: the output is one JSON object.
    let both = answer(
        mpirun("connect4:5x4", &three, &["--remoteness"])
            .output()
            .unwrap(),
    );
    assert_eq!(counts(both), counts(alone.clone()));
    assert_eq!(alone["start"], "draw");
    let (a, b) = (files(&one), files(&three));
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    assert!(
        a.len() == 3 * 21,
        "a reachability, a values and a remoteness file a tier"
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs");
    }
    // A query of the distributed database reads what the single one reads.
    for position in ["", "3", "33", "3322"] {
        let ask = |dir: &Path| {
            Command::new(nimbus())
                .args(["solve", "connect4:5x4", position, "--db"])
                .arg(dir)
                .output()
                .unwrap()
                .stdout
        };
        assert_eq!(ask(&one), ask(&three));
    }
    let _ = std::fs::remove_dir_all(one);
    let _ = std::fs::remove_dir_all(three);
}

/// The process ids of the ranks of a job whose command line names `dir`, by rank.
fn ranks_of(dir: &Path) -> Vec<(u32, u32)> {
    let want = dir.display().to_string();
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        if !String::from_utf8_lossy(&cmdline).contains(&want) {
            continue;
        }
        let environ = std::fs::read(e.path().join("environ")).unwrap_or_default();
        for var in environ.split(|&b| b == 0) {
            if let Some(r) = var.strip_prefix(b"OMPI_COMM_WORLD_RANK=") {
                if let Ok(r) = String::from_utf8_lossy(r).parse() {
                    found.push((r, pid));
                }
            }
        }
    }
    found
}

#[test]
fn a_job_whose_worker_is_killed_is_finished_by_the_next() {
    let (one, three) = (scratch("killed-one"), scratch("killed-three"));
    let mut job = mpirun("connect4:5x5", &three, &[])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the value pass has written some tiers (it goes from the last, 25, down).
    let started = Instant::now();
    while !three.join("tier-20.bin").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the job wrote no tier"
        );
        assert!(job.try_wait().unwrap().is_none(), "the job ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    let ranks = ranks_of(&three);
    let (_, worker) = ranks
        .iter()
        .find(|&&(r, _)| r == 1)
        .expect("rank 1 of the job");
    assert!(Command::new("kill")
        .args(["-9", &worker.to_string()])
        .status()
        .unwrap()
        .success());
    let status = job.wait().unwrap();
    assert!(!status.success(), "the job went on without its worker");
    assert!(
        !three.join("tier-0.bin").exists(),
        "the job finished before the kill"
    );

    let resumed = answer(mpirun("connect4:5x5", &three, &[]).output().unwrap());
    assert!(resumed["resumed"].as_u64().unwrap() >= 5, "{resumed}");
    let alone = single("connect4:5x5", &one, &[]);
    assert_eq!(counts(resumed), counts(alone));
    let (a, b) = (files(&one), files(&three));
    assert_eq!(a.len(), b.len(), "no part file is left");
    for ((name, x), (other, y)) in a.iter().zip(&b) {
        assert_eq!(name, other);
        assert!(x == y, "{name} differs");
    }
    let _ = std::fs::remove_dir_all(one);
    let _ = std::fs::remove_dir_all(three);
}

#[test]
fn without_mpirun_one_process_solves_alone() {
    let (one, alone) = (scratch("plain"), scratch("singleton"));
    let want = single("connect4:4x4", &one, &[]);
    let got = answer(
        Command::new(nimbus())
            .args(["solve", "connect4:4x4", "--all", "--db"])
            .arg(&alone)
            .args(["--mpi", "--json"])
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .unwrap(),
    );
    assert_eq!(counts(got), counts(want));
    assert_eq!(files(&one), files(&alone));
    let _ = std::fs::remove_dir_all(one);
    let _ = std::fs::remove_dir_all(alone);
}
