#!/usr/bin/env bash
# Solves the start position of each board with the default settings, writes
# results/<board>.json and its proof certificate results/<board>.cert, and verifies
# the certificate. A certificate over 50 MiB is not kept (the JSON still records its
# size); rerun the solve with --proof to get it.
# Usage: scripts/solve-results.sh [BOARD ...]
# Without boards: every board of the results table (the long ones last: 3x8 about
# 3 minutes here, 4x6 2, 6x5 4, 7x5 8 and 7 GB of memory).
# Boards in LENGTH_BOARDS (default: every board whose result has its exact length)
# are solved with --length: the JSON gets the length under perfect play and the
# certificate proves it. Boards in ALL_MOVES_BOARDS (default: the first-player wins
# 3x6, 4x6 and 3x8, and 7x5) are solved with --all-moves: the JSON lists every
# first move's outcome (and length), that is all winning first moves. The defaults
# are the settings the results here were made with. A board's certificate is
# committed again only when its claim or format changes (scripts/results-guard.sh
# refuses a mere regeneration): otherwise keep the committed pair with
# `git checkout results/BOARD.cert results/BOARD.json`.
set -euo pipefail
cd "$(dirname "$0")/.."
boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
  boards=(3x4 4x4 5x4 6x4 7x4 3x5 4x5 3x6 3x7 5x5 3x8 4x6 6x5 7x5)
fi
max_bytes=$((50 * 1024 * 1024))
read -r -a length_boards <<< "${LENGTH_BOARDS-3x4 4x4 5x4 6x4 7x4 3x5 4x5 5x5 3x6 3x7 3x8 4x6 6x5}"
read -r -a all_moves_boards <<< "${ALL_MOVES_BOARDS-3x6 4x6 3x8 7x5}"
listed() {
  local wanted=$1 b
  shift
  for b in "$@"; do [ "$b" = "$wanted" ] && return 0; done
  return 1
}
cargo build --release --quiet
mkdir -p results
for board in "${boards[@]}"; do
  echo "== $board" >&2
  status=0
  extra=()
  if listed "$board" "${length_boards[@]}"; then extra+=(--length); fi
  if listed "$board" "${all_moves_boards[@]}"; then extra+=(--all-moves); fi
  ./target/release/breakthrough solve "$board" --quiet "${extra[@]}" \
    --out "results/$board.json" --proof "results/$board.cert" || status=$?
  if [ "$status" -ne 0 ]; then
    echo "solve $board did not finish (exit $status)" >&2
    exit "$status"
  fi
  ./target/release/breakthrough verify "results/$board.cert"
  size=$(wc -c < "results/$board.cert")
  if [ "$size" -gt "$max_bytes" ]; then
    echo "results/$board.cert has $size bytes, over 50 MiB: not kept" >&2
    rm "results/$board.cert"
  fi
done
