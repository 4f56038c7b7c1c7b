#!/usr/bin/env bash
# Learning dynamics against nashpy, from Python in one process (bench/dynamics.py): needs the
# test suite's environment (target/py-venv with the nimbus wheel and nashpy), which
# scripts/test builds.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/py-venv
if ! "$venv/bin/python" -c 'import nimbus, nashpy' 2>/dev/null; then
    echo "error: run scripts/test first: it builds target/py-venv with the wheel and nashpy" >&2
    exit 1
fi
"$venv/bin/python" bench/dynamics.py
