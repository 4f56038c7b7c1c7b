#!/usr/bin/env bash
# The tier solver alone and across an MPI job on this machine: for each board, the database
# written by one process and by `mpirun -np RANKS --oversubscribe ... --mpi` (rank 0 manages,
# the others work), timed with /usr/bin/time, and the two directories compared byte for byte.
# Installs Open MPI (and libclang, for the bindings) from Debian if missing, and builds nimbus
# with `--features mpi`.
# Usage: bench/tiers_mpi.sh [BOARDS]   (default "6x4 5x5 5x6"; RANKS=3; TIERS_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
packages="libopenmpi-dev openmpi-bin libclang-dev"
dpkg -s $packages >/dev/null 2>&1 || apt-get install -y -qq $packages >/dev/null
cargo build --release -q -p nimbus-cli --features mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ranks="${RANKS:-3}"
work="${TIERS_DIR:-$(mktemp -d)}"
nimbus="$PWD/target/release/nimbus"
echo "# $(hostname), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), $ranks ranks"
echo "| board | one process | peak memory | $ranks ranks (mpirun) | peak memory (largest rank) | same files |"
echo "|---|---|---|---|---|---|"
for board in ${1:-6x4 5x5 5x6}; do
    one="$work/one-$board" many="$work/mpi-$board"
    rm -rf "$one" "$many"
    /usr/bin/time -f "%e %M" -o "$work/t1" "$nimbus" solve "connect4:$board" --all --db "$one" --json >/dev/null
    # mpirun's time is the job's; each rank's peak memory is printed by its own time.
    /usr/bin/time -f "%e %M" -o "$work/t2" mpirun -np "$ranks" --oversubscribe \
        /usr/bin/time -f "rank %M" -a -o "$work/ranks" \
        "$nimbus" solve "connect4:$board" --all --db "$many" --mpi --json >/dev/null
    read -r s1 m1 <"$work/t1"
    read -r s2 _ <"$work/t2"
    m2=$(awk '/^rank/ { if ($2 > m) m = $2 } END { print m }' "$work/ranks")
    rm -f "$work/ranks"
    same=$(diff -r "$one" "$many" >/dev/null && echo yes || echo NO)
    echo "| connect4:$board | ${s1} s | $((m1 / 1024)) MiB | ${s2} s | $((m2 / 1024)) MiB | $same |"
    rm -rf "$one" "$many"
done
