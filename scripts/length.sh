#!/usr/bin/env bash
# Finds the exact length of a board's start position in runs of its own, for a
# board whose result (results/<board>.json) has none: `solve BOARD --length` for at
# most SECONDS, written to results/<board>-length.json, which `breakthrough-lab report`
# (scripts/results-readme.sh) reads. A run stopped by the limit keeps the answers
# of its questions there, and the next run goes on from them (--length-resume):
# each run asks only questions no run answered before. What the runs do not keep
# is the table, so the question a run cut short starts over in the next one.
# A run that fails after its questions keeps their answers too.
# Extra arguments go to `solve` (--threads, --tt-mb, --length-guess, ...).
# Exit code: 0 the length is found, 3 not yet.
# BREAKTHROUGH=PATH runs that binary instead of building this checkout's.
# Usage: scripts/length.sh BOARD [SECONDS] [solve options]
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:?usage: scripts/length.sh BOARD [SECONDS] [solve options]}
seconds=${2:-3000}
shift $(($# >= 2 ? 2 : 1))
case $seconds in
  '' | *[!0-9]*) echo "scripts/length.sh: SECONDS must be a whole number, not $seconds" >&2; exit 2 ;;
esac
bin=${BREAKTHROUGH:-./target/release/breakthrough}
if [ -z "${BREAKTHROUGH:-}" ]; then cargo build --release --quiet; fi
out=results/$board-length.json
# The top-level `length` of solve's JSON (pretty: two spaces an indent), empty when null.
length_of() { grep -E '^  "length": [0-9]+' "$1" | grep -oE '[0-9]+' || true; }
tmp=$out.tmp
named_winner() { [ -f "$1" ] && grep -qE '^  "winner": "(white|black)"' "$1"; }
# A run killed together with this script leaves its file at $tmp: it went on from
# $out's answers, so it holds them and its own, and takes $out's place.
if named_winner "$tmp"; then
  mv "$tmp" "$out"
  echo "$board: $tmp, left by a run that was killed, recorded in $out"
fi
resume=()
if [ -f "$out" ]; then
  found=$(length_of "$out")
  if [ -n "$found" ]; then
    echo "$board: length $found plies, found already ($out)"
    if grep -qE '^  "proof": null' "$out"; then
      echo "$board: $out has no certificate; to write one (no question asked" \
        "again): solve $board --length --length-resume $out --proof FILE" >&2
    fi
    exit 0
  fi
  resume=(--length-resume "$out")
fi
status=0
"$bin" solve "$board" --length ${resume[@]+"${resume[@]}"} --time-limit "$seconds" --quiet \
  --out "$tmp" "$@" || status=$?
# A run that failed after its questions (writing the certificate, say) still wrote
# their answers: they are kept, and the next run goes on from them.
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ] && ! named_winner "$tmp"; then
  rm -f "$tmp"
  exit "$status"
fi
if ! named_winner "$tmp"; then
  rm -f "$tmp"
  echo "$board: the solve itself did not finish; nothing recorded" >&2
  exit 3
fi
# The new file holds the earlier answers too: it replaces the old one.
mv "$tmp" "$out"
echo "$board: recorded in $out"
if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
  echo "$board: solve failed (exit $status, above) after its answers were recorded" >&2
  exit "$status"
fi
[ -n "$(length_of "$out")" ] && exit 0
exit 3
