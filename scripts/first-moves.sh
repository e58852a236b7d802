#!/usr/bin/env bash
# Settles every first move of a board solved as a campaign (4x7), so that its
# result lists all winning first moves: each first move that results/<board>.json
# leaves unproven, one of each mirror pair (b2-a3 stands for c2-d3 on 4x7), is a
# campaign of its own in campaigns/<board>-<move> (the position after the move),
# run in turns of SLICE seconds (round robin, so that one hard move does not starve
# the others) until all are settled or TOTAL seconds have passed. Every solved
# one's certificate is verified. results/<board>-first-moves.json then lists each
# first move: its outcome for the first player (win, loss or open), with the
# campaign's seconds, nodes, runs and, when solved, its certificate's size and that
# it verified; open ones give the root's proof and disproof numbers;
# results/<board>-first-moves.sha256 the SHA-256 of every verified certificate's
# files. Running the script again continues the open campaigns.
# Extra arguments go to `campaign run` (--threads, --tt-mb, --export-min, ...).
# CAMPAIGNS=DIR keeps the campaigns in DIR/<board>-<move> instead of under
# campaigns/ (scripts/frontier.sh). BREAKTHROUGH=PATH runs that binary instead of
# building this checkout's.
# Usage: scripts/first-moves.sh BOARD [SLICE] [TOTAL] [campaign run options]
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:?usage: scripts/first-moves.sh BOARD [SLICE] [TOTAL] [campaign run options]}
slice=${2:-600}
total=${3:-7200}
shift $(($# >= 3 ? 3 : $#))
bin=${BREAKTHROUGH:-./target/release/breakthrough}
if [ -z "${BREAKTHROUGH:-}" ]; then cargo build --release --quiet; fi
export CAMPAIGNS=${CAMPAIGNS:-campaigns}
mkdir -p "$CAMPAIGNS"
result=results/$board.json
if [ ! -f "$result" ]; then
  echo "no $result: solve the board first (scripts/campaign.sh $board)" >&2
  exit 2
fi
# The unproven first moves, one of each mirror pair (columns a..: c -> W-1-c).
mapfile -t moves < <(python3 - "$result" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
width = int(result["board"].split("x")[0])
def mirror(move):
    flip = lambda sq: chr(ord("a") + width - 1 - (ord(sq[0]) - ord("a"))) + sq[1:]
    sep = "x" if "x" in move else "-"
    return sep.join(flip(sq) for sq in move.split(sep))
settled = {m["move"] for m in result["root_moves"] if m["outcome"] != "unproven"}
seen = set()
for m in result["root_moves"]:
    move = m["move"]
    if move in settled or mirror(move) in settled or mirror(move) in seen:
        continue
    seen.add(move)
    print(move)
PY
)
echo "first moves to settle on $board: ${moves[*]:-none}" >&2
started=$SECONDS
declare -A done=()
while [ $((SECONDS - started)) -lt "$total" ]; do
  open=0
  for move in "${moves[@]}"; do
    [ -n "${done[$move]:-}" ] && continue
    dir=$CAMPAIGNS/$board-$move
    # Solved and verified by an earlier run of the script.
    if [ -f "$dir/verify.txt" ]; then
      done[$move]=1
      continue
    fi
    left=$((total - (SECONDS - started)))
    [ "$left" -le 0 ] && break
    run=$((left < slice ? left : slice))
    status=0
    $bin campaign run "$dir" "$board" --moves "$move" --time-limit "$run" --quiet "$@" ||
      status=$?
    case $status in
      0)
        # verify.txt exists only for a certificate that verified.
        $bin verify "$dir" > "$dir/verify.txt.tmp"
        mv "$dir/verify.txt.tmp" "$dir/verify.txt"
        done[$move]=1
        ;;
      3) open=$((open + 1)) ;;
      *)
        echo "campaign $dir failed (exit $status)" >&2
        exit "$status"
        ;;
    esac
  done
  [ "$open" -eq 0 ] && break
done
# The summary, from each campaign's status and result.
python3 - "$result" "$board" "${moves[@]}" > "results/$board-first-moves.json.tmp" <<'PY'
import json, os, subprocess, sys
result, board, moves = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3:]
bin = os.environ.get("BREAKTHROUGH", "./target/release/breakthrough")
first = result["to_move"]
width = int(board.split("x")[0])
def mirror(move):
    flip = lambda sq: chr(ord("a") + width - 1 - (ord(sq[0]) - ord("a"))) + sq[1:]
    sep = "x" if "x" in move else "-"
    return sep.join(flip(sq) for sq in move.split(sep))
rows = []
settled = {m["move"]: m["outcome"] for m in result["root_moves"] if m["outcome"] != "unproven"}
for move, outcome in settled.items():
    rows.append({"move": move, "outcome": outcome, "by": f"results/{board}.json"})
    if mirror(move) not in settled:
        rows.append({"move": mirror(move), "outcome": outcome, "by": f"mirror of {move}"})
for move in moves:
    dir = f"{os.environ['CAMPAIGNS']}/{board}-{move}"
    if not os.path.isdir(dir):
        rows.append({"move": move, "outcome": "open", "by": None})
        continue
    status = json.loads(subprocess.run([bin, "campaign", "status", dir, "--json"],
                                       check=True, capture_output=True, text=True).stdout)
    row = {"move": move, "by": f"campaign {dir}", "seconds": round(status["seconds"], 1),
           "nodes": status["nodes"], "runs": len(status["runs"]), "jobs": status["jobs"],
           "stored": status["stored"]}
    if status["status"] == "solved":
        solved = json.load(open(f"{dir}/result.json"))
        row["outcome"] = "win" if solved["winner"] == first else "loss"
        row["certificate_bytes"] = solved["proof"]["bytes"]
        row["verified"] = os.path.exists(f"{dir}/verify.txt")
    else:
        row["outcome"] = "open"
        row["root_proof"], row["root_disproof"] = status["root_proof"], status["root_disproof"]
    rows.append(row)
    twin = mirror(move)
    if twin != move:
        rows.append({"move": twin, "outcome": row["outcome"], "by": f"mirror of {move}"})
wins = sorted(r["move"] for r in rows if r["outcome"] == "win")
print(json.dumps({"board": board, "first_player": first, "moves": rows,
                  "winning_first_moves_found": wins,
                  "all_settled": all(r["outcome"] != "open" for r in rows),
                  "note": "one move of each mirror pair is searched; its mirror has the same outcome"},
                 indent=1))
PY
mv "results/$board-first-moves.json.tmp" "results/$board-first-moves.json"
# Each solved move's certificate files (they stay in its campaign), relative to
# $CAMPAIGNS: `(cd $CAMPAIGNS && sha256sum -c FILE)` checks copies against it.
for move in "${moves[@]}"; do
  dir=$CAMPAIGNS/$board-$move
  [ -f "$dir/verify.txt" ] || continue
  scripts/certificate-sums.sh "$dir" | sed "s|  |  $board-$move/|"
done > "results/$board-first-moves.sha256.tmp"
mv "results/$board-first-moves.sha256.tmp" "results/$board-first-moves.sha256"
cat "results/$board-first-moves.json"
