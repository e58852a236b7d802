#!/usr/bin/env bash
# Measures parallel scaling on this machine: df-pn on 1, 2, 4, ... threads up to
# all cores, on 5x5, 4x6 and 6x5, the median of REPEAT runs (default 3) each.
# Writes results/scaling-<cores>core.json and renders it into results/README.md.
# COPIES=1 also runs n one-thread solves at once per thread count n
# (breakthrough-lab bench --copies): what the machine itself gives n busy cores; n times the memory.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
cargo build --release --quiet -p breakthrough-lab
cores=$(nproc)
threads=1
n=2
while [ "$n" -le "$cores" ]; do
  threads="$threads,$n"
  n=$((n * 2))
done
if [ "$((n / 2))" -ne "$cores" ] && [ "$cores" -gt 1 ]; then
  threads="$threads,$cores"
fi
copies=()
if [ "${COPIES:-0}" = 1 ]; then
  copies=(--copies)
fi
./target/release/breakthrough-lab bench --compare threads --threads "$threads" \
  --repeat "${REPEAT:-3}" "${copies[@]}" --out "results/scaling-${cores}core.json"
exec ./target/release/breakthrough-lab report results --readme README.md --certificates docs/certificates.md
