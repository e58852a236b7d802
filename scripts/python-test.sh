#!/usr/bin/env bash
# The Python package's tests: makes its virtual environment (.venv-python, or
# $VENV), installs the package from crates/python (maturin builds the native
# module from the workspace) with pytest, OpenSpiel and matplotlib from PyPI,
# builds the CLI that the tests compare with, and runs pytest. .ci/run calls it.
# Usage: scripts/python-test.sh [PYTEST-ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-.venv-python}
if ! python3 -c "import venv, ensurepip" 2>/dev/null; then
    scripts/install-debian-packages.sh python python3-venv
fi
if [[ ! -x $venv/bin/python ]]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q "./crates/python[test,plot]"
cargo build --release -q -p breakthrough-cli
"$venv/bin/python" -m pytest -q crates/python/tests "$@"
