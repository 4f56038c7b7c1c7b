#!/usr/bin/env bash
# Runs every fuzz target for RUNS executions (default 10^6) on libFuzzer, growing the corpus in
# corpus/NAME, and prints each target's count and findings. Needs cargo-fuzz
# (`cargo install cargo-fuzz`); libFuzzer's instrumentation flags are unstable, so the stable
# toolchain is asked to accept them with RUSTC_BOOTSTRAP=1.
set -euo pipefail
cd "$(dirname "$0")"
runs=${RUNS:-1000000}
targets=${TARGETS:-"expression graph nfg matrix moves substring cli files"}
# SANITIZER=none trades AddressSanitizer (which checks only what unsafe code does; the targets'
# own code is safe Rust) for about twice the executions a second and a tenth of the memory.
sanitizer=${SANITIZER:-address}
export RUSTC_BOOTSTRAP=1
# -timeout=30: the instrumented build runs exact arithmetic on huge numbers ten to twenty times
# slower than a release build (a 3 x 3 game with a 7600-digit payoff: 0.9 s in release, over
# 10 s here), so a shorter bound reports slow inputs that are not hangs.
cargo fuzz build -O -s "$sanitizer"
for t in $targets; do
    log=$(mktemp)
    start=$(date +%s)
    # A target with a dictionary (dict/NAME.dict: its words, flags and hostile numbers) uses it.
    dict=()
    [ -f "dict/$t.dict" ] && dict=(-dict="dict/$t.dict")
    if cargo fuzz run -O -s "$sanitizer" "$t" -- "${dict[@]}" -runs="$runs" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
        status="0 findings"
    else
        status="FINDING: see artifacts/$t/"
    fi
    done_runs=$(grep -o 'Done [0-9]* runs' "$log" | grep -o '[0-9]*' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    echo "$t: $done_runs executions in $(( $(date +%s) - start )) s, $cov, corpus $(ls corpus/$t | wc -l) files, $status"
    rm -f "$log"
done
