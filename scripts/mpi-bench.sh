#!/usr/bin/env bash
# The cluster mode on this machine: campaigns of 5x5 and 6x5 with 1, 2, 3 and 4
# worker ranks of one thread each (oversubscribed past the cores), then the master's
# throughput: workers that answer every job at once (--echo-jobs), so that the
# run measures how many jobs a second one master hands out and takes in.
# Writes results/mpi-<cores>core.json and prints a Markdown table.
#
#   scripts/mpi-bench.sh [BOARDS...]     # default: 5x5 6x5
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-mpi.sh >&2
bin=target/release/breakthrough
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
boards=("${@:-5x5}")
(($#)) || boards=(5x5 6x5)
cores=$(nproc)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=results/mpi-${cores}core.json
rows=()

# One run: prints a JSON object of its figures.
run() {
    local kind=$1 board=$2 workers=$3 threads=$4
    shift 4
    local dir=$scratch/$kind-$board-$workers
    rm -rf "$dir"
    local started ended
    started=$(date +%s.%N)
    local code=0
    mpirun --oversubscribe -n $((workers + 1)) "$bin" campaign run "$dir" "$board" \
        --threads "$threads" --quiet --json "$@" >"$dir.json" 2>"$dir.err" || code=$?
    ended=$(date +%s.%N)
    # Solved (0), or stopped by its time limit (3, the master's runs).
    if ((code != 0 && code != 3)); then
        echo "$kind $board on $workers ranks failed (exit $code):" >&2
        cat "$dir.err" >&2
        return 1
    fi
    local traffic
    traffic=$(grep -o 'sent [0-9]* messages ([0-9]* bytes) and took in [0-9]* ([0-9]* bytes)' "$dir.err" |
        tr -dc '0-9 \n' | tr -s ' ')
    read -r sent sent_bytes received received_bytes <<<"$traffic"
    python3 - "$kind" "$board" "$workers" "$threads" "$started" "$ended" "$dir.json" \
        "$sent" "$sent_bytes" "$received" "$received_bytes" <<'PY'
import json, sys
kind, board, workers, threads, started, ended, path = sys.argv[1:8]
sent, sent_bytes, received, received_bytes = (int(x) for x in sys.argv[8:12])
doc = json.load(open(path))
figures = doc.get("campaign", doc)
print(json.dumps({
    "kind": kind, "board": board, "worker_ranks": int(workers),
    "threads_per_rank": int(threads),
    "wall_seconds": round(float(ended) - float(started), 2),
    "run_seconds": round(figures["seconds"], 2),
    "nodes": figures["nodes"], "jobs": figures["jobs"],
    "winner": doc.get("winner"),
    "messages_sent": sent, "bytes_sent": sent_bytes,
    "messages_received": received, "bytes_received": received_bytes,
}))
PY
}

for board in "${boards[@]}"; do
    for workers in 1 2 3 4; do
        echo "solve $board on $workers worker ranks" >&2
        row=$(run solve "$board" "$workers" 1) || exit 1
        rows+=("$row")
    done
done
for workers in 1 2 4; do
    echo "master throughput, $workers worker ranks of 16 echo threads" >&2
    row=$(run master 6x5 "$workers" 16 --echo-jobs --time-limit 10 --tt-mb 16) || exit 1
    rows+=("$row")
done

printf '%s\n' "${rows[@]}" >"$scratch/rows"
python3 - "$out" "$cores" "$scratch/rows" <<'PY'
import json, sys
out, cores, lines = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = [json.loads(line) for line in open(lines) if line.strip()]
json.dump({"cores": cores, "command": "scripts/mpi-bench.sh", "runs": rows},
          open(out, "w"), indent=2)
print("| run | board | worker ranks | seconds | nodes | jobs | jobs/s | master messages/s | bytes/job in |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for r in rows:
    s = max(r["run_seconds"], 1e-9)
    per_job = r["bytes_received"] / max(r["jobs"], 1)
    print(f"| {r['kind']} | {r['board']} | {r['worker_ranks']} x {r['threads_per_rank']} | "
          f"{r['run_seconds']:.1f} | {r['nodes']:,} | {r['jobs']:,} | {r['jobs'] / s:,.0f} | "
          f"{(r['messages_sent'] + r['messages_received']) / s:,.0f} | {per_job:,.0f} |")
print(f"\nwritten to {out}", file=sys.stderr)
PY
