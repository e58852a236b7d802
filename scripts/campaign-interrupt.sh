#!/usr/bin/env bash
# Benchmark: a campaign stopped with SIGTERM at random moments and continued costs how
# much more than one run? Solves BOARD (default 6x5) as a campaign once without a
# stop, then again stopped STOPS times (default 5) at random moments (each stop
# within the first STOP_WITHIN seconds of a run, default 40) and continued, and
# prints both campaigns' total nodes, seconds and their ratios. Both certificates are
# verified. SEED=N draws the same stop moments each time (to compare builds);
# BREAKTHROUGH=PATH runs that binary instead of building this checkout's
# (to compare builds). Usage: scripts/campaign-interrupt.sh [BOARD] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:-6x5}
threads=${2:-2}
stops=${STOPS:-5}
within=${STOP_WITHIN:-40}
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
for i in $(seq "$stops"); do
  $bin campaign run "$work/stopped" "$board" --threads "$threads" -q > /dev/null 2>&1 &
  pid=$!
  sleep "$(python3 -c "import random; s = '${SEED:-}'; random.seed(int(s) * 100 + $i if s else None); print(round(random.uniform(2, $within), 1))")"
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
