#!/usr/bin/env bash
# Benchmark: a campaign stopped with SIGTERM at random moments and continued costs how
# much more than one run? Solves BOARD (default 6x5) as a campaign once without a
# stop, then again stopped STOPS times (default 5) and continued, and prints both
# campaigns' total nodes, seconds and their ratios. The stop moments are drawn at
# random over the uninterrupted campaign's time (between 2 s and 90% of it; each run
# lasts at least 2 s), so that every stop falls before the end. Both certificates are
# verified. SEED=N draws the same stop moments each time (to compare builds);
# BREAKTHROUGH=PATH runs that binary instead of building this checkout's
# (to compare builds). Usage: scripts/campaign-interrupt.sh [BOARD] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:-6x5}
threads=${2:-2}
stops=${STOPS:-5}
bin=${BREAKTHROUGH:-./target/release/breakthrough}
if [ -z "${BREAKTHROUGH:-}" ]; then cargo build --release --quiet; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
figures() {
  $bin campaign status "$1" --json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["nodes"], round(d["seconds"],1), len(d["runs"]), d["status"])'
}
$bin campaign run "$work/once" "$board" --threads "$threads" -q > /dev/null
$bin verify "$work/once" > /dev/null
read -r once_nodes once_seconds _ _ <<< "$(figures "$work/once")"
echo "uninterrupted: $once_nodes nodes, $once_seconds s"
# The seconds each stopped run lasts: the gaps between the sorted stop moments.
gaps=$(python3 -c "
import random
s = '${SEED:-}'
random.seed(int(s) if s else None)
moments = sorted(random.uniform(2, 0.9 * $once_seconds) for _ in range($stops))
print(' '.join(str(round(max(2.0, b - a), 1)) for a, b in zip([0.0] + moments, moments)))")
echo "stopping after: $gaps s"
i=0
for gap in $gaps; do
  i=$((i + 1))
  $bin campaign run "$work/stopped" "$board" --threads "$threads" -q > /dev/null 2>&1 &
  pid=$!
  sleep "$gap"
  if kill -TERM "$pid" 2> /dev/null; then
    wait "$pid" || true
    echo "stop $i: $(figures "$work/stopped")"
  else
    wait "$pid" || true
    echo "stop $i: the run had finished"
  fi
done
$bin campaign run "$work/stopped" "$board" --threads "$threads" -q > /dev/null
$bin verify "$work/stopped" > /dev/null
read -r nodes seconds runs status <<< "$(figures "$work/stopped")"
echo "stopped and continued: $nodes nodes, $seconds s, $runs runs, $status"
python3 -c "print(f'ratio: nodes {$nodes / $once_nodes:.2f}x, seconds {$seconds / $once_seconds:.2f}x')"
