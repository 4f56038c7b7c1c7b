//! The `nimbus` binary; everything it does is in the `nimbus_cli` library.

fn main() -> std::process::ExitCode {
    nimbus_cli::main()
}
