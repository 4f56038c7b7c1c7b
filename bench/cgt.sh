#!/usr/bin/env bash
# Issue 50's figures: canonical forms (and temperatures) of Domineering rectangles, of a
# Toads and Frogs family, of Snort and Col on paths, cycles, grids and caterpillars, and of
# Amazons on small boards, by `nimbus cgt` and by cgt-tools' library (the `cgt` crate, AGPL,
# from crates.io: a tool we compare with, never a dependency), through a small driver this
# script writes and builds in target/peers/cgt-driver, outside the workspace. Runs are
# interleaved, each value of the peer is read back by nimbus and must be the same canonical
# form, and the ratio of median wall times is printed.
# Usage: bench/cgt.sh   (RUNS=3, CGT_TIMEOUT=60 seconds a run, BIG=1 adds the 5 x 6 boards,
# KINDS=snort,col only those games)
set -euo pipefail
cd "$(dirname "$0")/.."
peer=target/peers/cgt-driver
mkdir -p "$peer/src"
cat > "$peer/Cargo.toml" <<'TOML'
[package]
name = "cgt-driver"
version = "0.1.0"
edition = "2021"

# Not a member of the Nimbus workspace: a peer is built on its own.
[workspace]

[dependencies]
cgt = "=0.11.0"
TOML
cat > "$peer/src/main.rs" <<'RUST'
// Prints the canonical form and temperature of one position: `cgt-driver KIND POSITION`, a
// graph written `N:u-v,u-v,...` (vertices 0..N, all uncoloured) for snort and col.
use cgt::graph::adjacency_matrix::undirected::UndirectedGraph;
use cgt::graph::{Graph, VertexIndex};
use cgt::short::partizan::games::{col, snort};
use cgt::short::partizan::partizan_game::PartizanGame;
use cgt::short::partizan::transposition_table::ParallelTranspositionTable;
use std::str::FromStr;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = match args[1].as_str() {
        "domineering" => {
            let g: cgt::short::partizan::games::domineering::Domineering =
                FromStr::from_str(&args[2]).expect("a board");
            g.canonical_form(&ParallelTranspositionTable::new())
        }
        "toads" => {
            let g: cgt::short::partizan::games::toads_and_frogs::ToadsAndFrogs =
                FromStr::from_str(&args[2]).expect("a strip");
            g.canonical_form(&ParallelTranspositionTable::new())
        }
        "amazons" => {
            let g: cgt::short::partizan::games::amazons::Amazons =
                FromStr::from_str(&args[2]).expect("a board");
            g.canonical_form(&ParallelTranspositionTable::new())
        }
        "snort" => {
            let (n, edges) = graph(&args[2]);
            let vertices = vec![snort::VertexKind::Single(snort::VertexColor::Empty); n];
            let g: snort::Snort<snort::VertexKind, UndirectedGraph<snort::VertexKind>> =
                snort::Snort::new(UndirectedGraph::from_edges(&edges, &vertices));
            g.canonical_form(&ParallelTranspositionTable::new())
        }
        "col" => {
            let (n, edges) = graph(&args[2]);
            let vertices = vec![col::VertexColor::Empty; n];
            let g: col::Col<col::VertexColor, UndirectedGraph<col::VertexColor>> =
                col::Col::new(UndirectedGraph::from_edges(&edges, &vertices));
            g.canonical_form(&ParallelTranspositionTable::new())
        }
        other => panic!("unknown game {other}"),
    };
    println!("{value}\t{}", value.temperature());
}

fn graph(text: &str) -> (usize, Vec<(VertexIndex, VertexIndex)>) {
    let (n, rest) = text.split_once(':').expect("N:edges");
    let edges = rest
        .split(',')
        .filter(|e| !e.is_empty())
        .map(|e| {
            let (u, v) = e.split_once('-').expect("u-v");
            let index = |x: &str| VertexIndex { index: x.parse().expect("a vertex") };
            (index(u), index(v))
        })
        .collect();
    (n.parse().expect("a vertex count"), edges)
}
RUST
cargo build --release -q --manifest-path "$peer/Cargo.toml"
cargo build --release -q -p nimbus-cli
python3 bench/cgt.py target/release/nimbus "$peer/target/release/cgt-driver"
