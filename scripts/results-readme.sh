#!/usr/bin/env bash
# Regenerates results/README.md and results/<board>.svg from the result files.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p breakthrough-lab
exec ./target/release/breakthrough-lab report results --readme README.md --certificates docs/certificates.md
