#!/usr/bin/env bash
# The explorer's figures on a board: from a cold store, the time `serve` takes to
# answer each position of the perfect-play line of results/<board>.json with
# every move's value and length (one request at a time, as a user walking the
# line); the same requests once stored; then `breakthrough-lab load` (200 clients
# asking for stored positions), alone and with the solver threads kept busy.
# Prints a table; the store is left in DIR (default a temporary directory).
# Usage: scripts/explorer-bench.sh [BOARD] [FROM_PLY] [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:-5x5}
from=${2:-0}
store=${3:-$(mktemp -d)}
port=${PORT:-8097}
mkdir -p "$store"
cargo build --release --quiet -p breakthrough-cli -p breakthrough-lab
bin=./target/release/breakthrough
$bin serve --addr "127.0.0.1:$port" --store "$store" --move-time 600 --solve-limit 3600 \
    --results results 2> "$store/serve.log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    grep -q serving "$store/serve.log" && break
    sleep 0.1
done
python3 - "$board" "$from" "$port" "$bin" <<'PY'
import json, subprocess, sys, time, urllib.parse, urllib.request
board, first, port, bin = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
line = json.load(open(f"results/{board}.json"))["principal_variation"]

def position_after(moves):
    shown = subprocess.run([bin, "show", board, "--moves", " ".join(moves)],
                           capture_output=True, text=True, check=True).stdout
    return next(l.split(None, 1)[1] for l in shown.splitlines() if l.startswith("position"))

def ask(position):
    query = urllib.parse.urlencode({"board": board, "position": position})
    started = time.monotonic()
    url = f"http://127.0.0.1:{port}/api/v1/position?{query}"
    with urllib.request.urlopen(url, timeout=4000) as response:
        answer = json.load(response)
    return answer, time.monotonic() - started

positions = [position_after(line[:ply]) for ply in range(len(line))]
order = list(range(first, len(line))) + list(range(0, first))
print(f"{board}: each position of the perfect-play line, cold store, one request at a time")
print("ply  seconds  source  moves  length")
cold = {}
for ply in order:
    answer, seconds = ask(positions[ply])
    cold[ply] = seconds
    known = all(m["length"] is not None for m in answer["moves"])
    print(f"{ply:>3}  {seconds:>7.2f}  {answer['source']:<6}  {len(answer['moves']):>5}  {answer['length']}"
          + ("" if known else "  (moves unknown)"))
late = [cold[p] for p in range(max(first, 4), len(line)) if p in cold]
print(f"slowest from ply {max(first, 4)} on: {max(late):.2f} s; start position: {cold[0]:.2f} s")
stored = []
for ply in range(len(line)):
    answer, seconds = ask(positions[ply])
    assert answer["source"] == "stored", answer["source"]
    stored.append(seconds)
stored.sort()
print(f"again, stored: median {stored[len(stored) // 2] * 1e3:.2f} ms, max {stored[-1] * 1e3:.2f} ms")
PY
echo "load: 200 clients, stored positions"
./target/release/breakthrough-lab load --server "http://127.0.0.1:$port" --board "$board"
echo "load: 200 clients, stored positions, 8 more asking for positions not stored"
./target/release/breakthrough-lab load --server "http://127.0.0.1:$port" --board "$board" --busy 8
