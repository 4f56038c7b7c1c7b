# Shared by the timing scripts: build once, a scratch folder, and the median of several runs.
# Source it after setting `runs`; it sets `bin` and `tmp`.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --quiet
bin=${NIMBUS_BIN:-target/release/nimbus}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs the command $runs times and prints the median wall time in seconds. A command that
# fails (a refusal being timed) still counts.
median() {
    local times=()
    for _ in $(seq "$runs"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" > /dev/null 2>&1 || true
        t1=$(date +%s.%N)
        times+=("$(awk "BEGIN {print $t1 - $t0}")")
    done
    printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

machine() {
    echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
    echo "runs per figure: $runs (median wall time, seconds)"
}

# Sets `venv` to a Python environment with pygambit: the test suite's (scripts/test) when it
# has it, since building pygambit from source takes a while, else one of the benchmarks' own.
pygambit_venv() {
    venv=target/py-venv
    if ! "$venv/bin/python" -c 'import pygambit' 2>/dev/null; then
        venv=target/bench-venv
        [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
        "$venv/bin/python" -c 'import pygambit' 2>/dev/null || "$venv/bin/pip" install --quiet pygambit
    fi
    echo "pygambit $("$venv/bin/python" -c 'import pygambit; print(pygambit.__version__)')"
}
