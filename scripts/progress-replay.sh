#!/usr/bin/env bash
# Replays a solved board's campaign from scratch, with the progress samples the
# checkpoint keeps (every 20 s), and writes its status as
# results/<board>-progress.json: what `breakthrough-lab report` measures the
# progress projection's error on (results/README.md, "Progress"). The campaign
# goes in DIR (default: a scratch directory, removed after), run after run of at
# most an hour until solved.
# Usage: scripts/progress-replay.sh BOARD [DIR] [campaign run options]
# (default options: --threads 2 --tt-mb 8192, as 5x6 and 4x7 were first solved).
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:?usage: scripts/progress-replay.sh BOARD [DIR] [options]}
dir=${2:-}
shift $(( $# >= 2 ? 2 : 1 ))
options=("$@")
if ((${#options[@]} == 0)); then options=(--threads 2 --tt-mb 8192); fi
bin=${BREAKTHROUGH:-./target/release/breakthrough}
if [ -z "${BREAKTHROUGH:-}" ]; then cargo build --release --quiet; fi
if [ -z "$dir" ]; then
  dir=$(mktemp -d)/"$board"
  trap 'rm -rf "$(dirname "$dir")"' EXIT
fi
until $bin campaign run "$dir" "$board" --time-limit 3600 --quiet "${options[@]}"; do
  status=$?
  if [ "$status" -ne 3 ]; then exit "$status"; fi
done
$bin campaign status "$dir" --json > "results/$board-progress.json.tmp"
mv "results/$board-progress.json.tmp" "results/$board-progress.json"
$bin campaign status "$dir"
