#!/usr/bin/env bash
# Solves every published board (results/published.json) with the default settings,
# verifies each certificate, and prints our results beside the published ones.
# Exits non-zero on any mismatch. Usage: scripts/reproduce.sh [--quick]
# --quick skips boards whose solve in results/<board>.json took over a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
exec ./target/release/breakthrough reproduce "$@"
