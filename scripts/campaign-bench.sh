#!/usr/bin/env bash
# Compares two builds' speed on a campaign as it stands: each round copies the
# campaign's directory afresh and continues the copy for SECONDS with one build,
# then with the other (in the order A B B A, so that a drift of the machine falls
# on both), and prints each run's nodes a second and, at the end, the median of
# each build and their ratio. The campaign itself is not touched, and must not be
# running meanwhile. The copies go in SCRATCH (default: a temporary directory,
# removed at the end); each needs the campaign's size on disk.
# Extra arguments go to `campaign run` (--threads, --tt-mb, ...).
# Usage: scripts/campaign-bench.sh CAMPAIGN_DIR BOARD BUILD_A BUILD_B [SECONDS] [ROUNDS] [options]
set -euo pipefail
usage="usage: scripts/campaign-bench.sh CAMPAIGN_DIR BOARD BUILD_A BUILD_B [SECONDS] [ROUNDS] [options]"
dir=${1:?$usage}
board=${2:?$usage}
build_a=${3:?$usage}
build_b=${4:?$usage}
seconds=${5:-240}
rounds=${6:-2}
shift $(( $# >= 6 ? 6 : $# ))
for build in "$build_a" "$build_b"; do
  [ -x "$build" ] || { echo "campaign-bench.sh: $build is not an executable" >&2; exit 2; }
done
[ -f "$dir/campaign.json" ] || { echo "campaign-bench.sh: $dir holds no campaign" >&2; exit 2; }
scratch=${SCRATCH:-$(mktemp -d)}
results=$scratch/results
if [ -n "${SCRATCH:-}" ]; then
  trap 'rm -rf "$scratch/copy" "$scratch/log" "$results"' EXIT
else
  trap 'rm -rf "$scratch"' EXIT
fi

# One run of one build on a fresh copy; prints "label seconds nodes nodes/s".
run_once() {
  local label=$1 build=$2 status=0
  shift 2
  rm -rf "$scratch/copy"
  cp -a "$dir" "$scratch/copy"
  # Exit code 3: stopped by the time limit, as meant.
  "$build" campaign run "$scratch/copy" "$board" --time-limit "$seconds" --quiet "$@" \
    > "$scratch/log" 2>&1 || status=$?
  if [ "$status" -eq 0 ]; then
    echo "campaign-bench.sh: $build solved the campaign within $seconds s; give fewer seconds" >&2
    exit 1
  elif [ "$status" -ne 3 ]; then
    cat "$scratch/log" >&2
    echo "campaign-bench.sh: $build ended with exit code $status" >&2
    exit 1
  fi
  "$build" campaign status "$scratch/copy" --json | python3 -c '
import json, sys
run = json.load(sys.stdin)["runs"][-1]
print(sys.argv[1], round(run["seconds"], 1), run["nodes"], round(run["nodes"] / run["seconds"]))
' "$label"
}

: > "$results"
printf 'build\tseconds\tnodes\tnodes/s\n'
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order="a b"; else order="b a"; fi
  for side in $order; do
    if [ "$side" = a ]; then build=$build_a; else build=$build_b; fi
    run_once "$side" "$build" "$@" | tee -a "$results" | tr ' ' '\t'
  done
done
python3 - "$results" "$build_a" "$build_b" <<'EOF'
import statistics, sys
rates = {"a": [], "b": []}
for line in open(sys.argv[1]):
    side, _, _, rate = line.split()
    rates[side].append(int(rate))
a, b = statistics.median(rates["a"]), statistics.median(rates["b"])
print(f"median nodes/s: A {a:,.0f} ({sys.argv[2]}), B {b:,.0f} ({sys.argv[3]}); B/A {b / a:.3f}")
EOF
