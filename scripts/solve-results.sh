#!/usr/bin/env bash
# Solves the start position of each board with the default settings and writes
# results/<board>.json. Usage: scripts/solve-results.sh [BOARD ...]
# Without boards: every board of the results table (6x5 last; it takes long).
set -euo pipefail
cd "$(dirname "$0")/.."
boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
  boards=(3x4 4x4 5x4 6x4 7x4 3x5 4x5 3x6 4x6 3x7 5x5 6x5)
fi
cargo build --release --quiet
mkdir -p results
for board in "${boards[@]}"; do
  echo "== $board" >&2
  status=0
  ./target/release/breakthrough solve "$board" --quiet --out "results/$board.json" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "solve $board did not finish (exit $status)" >&2
    exit "$status"
  fi
done
