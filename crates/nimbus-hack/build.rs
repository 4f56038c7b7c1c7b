// A build script, so that cargo applies the build-dependencies of Cargo.toml as well.
fn main() {}
