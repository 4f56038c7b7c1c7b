//! Every `$ nimbus …` example in the README and in the book (`docs/src`) runs, and prints
//! what the page shows (`...` stands for elided lines, `[..]` for an elided part of a line,
//! such as a timing). After a deliberate change of output,
//! `TRYCMD=overwrite cargo test --release --test readme` rewrites the examples; review the
//! diff before committing it.

#[test]
fn readme_examples() {
    // The examples name files relative to the repository's root, where a reader runs them.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    std::env::set_current_dir(root).expect("the repository's root");
    trycmd::TestCases::new()
        .register_bin("nimbus", trycmd::cargo::cargo_bin!("nimbus"))
        .case("README.md")
        .case("docs/src/*.md");
}
