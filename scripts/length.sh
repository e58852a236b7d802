#!/usr/bin/env bash
# Finds the exact length of a board's start position in a run of its own, for a
# board whose result (results/<board>.json) has none: `solve BOARD --length` for at
# most SECONDS, written to results/<board>-length.json, which `breakthrough report`
# (scripts/results-readme.sh) reads. A run stopped by the limit records the least
# length its answers allow, and the next run asks its first question there
# (--length-from): repeated runs go on where the last one stopped. What they do not
# keep is the table, so the question a run cut short starts over in the next one.
# The file is replaced only by a run that found the length or raised the bound.
# Extra arguments go to `solve` (--threads, --tt-mb, ...).
# Exit code: 0 the length is found, 3 not yet.
# BREAKTHROUGH=PATH runs that binary instead of building this checkout's.
# Usage: scripts/length.sh BOARD [SECONDS] [solve options]
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:?usage: scripts/length.sh BOARD [SECONDS] [solve options]}
seconds=${2:-3000}
shift $(($# >= 2 ? 2 : 1))
bin=${BREAKTHROUGH:-./target/release/breakthrough}
if [ -z "${BREAKTHROUGH:-}" ]; then cargo build --release --quiet; fi
out=results/$board-length.json
# A number field of solve's JSON (pretty: two spaces an indent) at the depth
# of `length` (2) or of `length_search.at_least` (4); empty when null or absent.
field() {
  grep -E "^ {$2}\"$1\": [0-9]+" "$3" | head -n 1 | grep -oE '[0-9]+' | tail -n 1 || true
}
from=()
least=0
if [ -f "$out" ]; then
  length=$(field length 2 "$out")
  if [ -n "$length" ]; then
    echo "$board: length $length plies, found already ($out)"
    exit 0
  fi
  least=$(field at_least 4 "$out")
  least=${least:-0}
  if [ "$least" -gt 0 ]; then from=(--length-from "$least"); fi
fi
tmp=$out.tmp
status=0
$bin solve "$board" --length "${from[@]}" --time-limit "$seconds" --quiet --out "$tmp" "$@" \
  || status=$?
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
  rm -f "$tmp"
  exit "$status"
fi
found=$(field length 2 "$tmp")
now=$(field at_least 4 "$tmp")
if [ -n "$found" ] || [ "${now:-0}" -gt "$least" ]; then
  mv "$tmp" "$out"
  echo "$board: recorded in $out"
else
  rm -f "$tmp"
  echo "$board: this run did not raise the bound of $least plies; $out kept"
fi
[ -n "$found" ] && exit 0
exit 3
