//! What the command-line tests share: the repository's root and running the binary.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The repository's root, where the tests run the command (as a reader runs the README's).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `nimbus args` in the root with `input` on standard input.
pub fn with_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nimbus"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A child that stops reading early (an error, or a batch refused) closes the pipe: that
    // is for the test's checks of its output to judge, not a failure to write.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}
