#!/usr/bin/env bash
# Compares two builds' speed on a campaign as it stands: each round copies the
# campaign's directory afresh and continues the copy for SECONDS with one build,
# then with the other (in the order A B B A, so that a drift of the machine falls
# on both), and prints each run's nodes, jobs and DAG nodes solved a second and,
# at the end, the medians of each build and their ratios. The campaign itself is
# not touched, and must not be running meanwhile. The copies go in SCRATCH
# (default: a temporary directory, removed at the end); each needs the campaign's
# size on disk. Extra arguments go to `campaign run` (--threads, --tt-mb, ...);
# A_OPTIONS and B_OPTIONS add options to one side's runs only: with the same build
# twice it compares two ways of running it (--defer-proofs, say, where nodes a
# second count unlike work and the DAG nodes solved a second tell more).
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

# The DAG nodes solved in the campaign as it stands.
solved_before=$("$build_a" campaign status "$dir" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["dag"]["solved"])')

# One run of one build on a fresh copy, with the side's options (one word each);
# prints "label seconds nodes nodes/s jobs/s solved/s".
run_once() {
  local label=$1 build=$2 side_options=$3 status=0
  shift 3
  rm -rf "$scratch/copy"
  cp -a "$dir" "$scratch/copy"
  # Exit code 3: stopped by the time limit, as meant.
  # shellcheck disable=SC2086 # the side's options split into words
  "$build" campaign run "$scratch/copy" "$board" --time-limit "$seconds" --quiet "$@" \
    $side_options > "$scratch/log" 2>&1 || status=$?
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
status = json.load(sys.stdin)
run, solved = status["runs"][-1], status["dag"]["solved"] - int(sys.argv[2])
seconds = run["seconds"]
print(sys.argv[1], round(seconds, 1), run["nodes"], round(run["nodes"] / seconds),
      round(run["jobs"] / seconds, 2), round(solved / seconds, 3))
' "$label" "$solved_before"
}

: > "$results"
printf 'build\tseconds\tnodes\tnodes/s\tjobs/s\tsolved/s\n'
for round in $(seq "$rounds"); do
  if [ $((round % 2)) -eq 1 ]; then order="a b"; else order="b a"; fi
  for side in $order; do
    if [ "$side" = a ]; then
      build=$build_a side_options=${A_OPTIONS:-}
    else
      build=$build_b side_options=${B_OPTIONS:-}
    fi
    run_once "$side" "$build" "$side_options" "$@" | tee -a "$results" | tr ' ' '\t'
  done
done
python3 - "$results" "$build_a ${A_OPTIONS:-}" "$build_b ${B_OPTIONS:-}" <<'EOF'
import statistics, sys
rows = {"a": [], "b": []}
for line in open(sys.argv[1]):
    side, _, _, *figures = line.split()
    rows[side].append([float(figure) for figure in figures])
print(f"A: {sys.argv[2].strip()}; B: {sys.argv[3].strip()}")
for column, name in enumerate(["nodes/s", "jobs/s", "DAG nodes solved/s"]):
    a = statistics.median(row[column] for row in rows["a"])
    b = statistics.median(row[column] for row in rows["b"])
    ratio = f"{b / a:.3f}" if a else "-"
    print(f"median {name}: A {a:,.2f}, B {b:,.2f}; B/A {ratio}")
EOF
