#!/usr/bin/env bash
# Regenerates results/README.md and results/<board>.svg from the result files.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
exec ./target/release/breakthrough report results --readme README.md
