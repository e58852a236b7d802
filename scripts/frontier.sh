#!/usr/bin/env bash
# Re-runs, from scratch, every board this project settled with no published solution
# we know of, and verifies every certificate: results/<board>.json and .cert again
# (a certificate over 50 MiB is verified, then not kept; the JSON keeps its size and
# SHA-256), with the settings its result was made with (scripts/solve-results.sh's
# defaults): 3x6 and 3x8 with the exact length and every first move (first-player
# wins), 7x5 with every first move (its exact length is beyond one sitting here).
# 4x7 (and 5x6, settled before us but first certified here) is a campaign, run from
# scratch in campaigns/frontier-<board>-<time> in runs of an hour until solved, with
# the settings of its result (TT_MB, default 8192 for both: about 1.2 GiB more is
# needed; 4x7 took 15 minutes on 2 cores, 5x6 25 minutes); its
# certificate is verified and the SHA-256 of its files recorded (scripts/campaign.sh).
# Then the first moves its result leaves unproven are settled, each a campaign in
# that directory's -first-moves/ beside it, and verified (scripts/first-moves.sh:
# 4x7's four took 1.8 hours here; FIRST_MOVES=0 skips them).
# Boards still open (6x6) are campaigns too: scripts/campaign.sh BOARD SECONDS.
# Usage: scripts/frontier.sh [BOARD ...]   (default: 3x6 3x8 7x5 4x7)
set -euo pipefail
cd "$(dirname "$0")/.."
boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
  boards=(3x6 3x8 7x5 4x7)
fi
solves=()
for board in "${boards[@]}"; do
  case $board in
    4x7 | 5x6) ;;
    *) solves+=("$board") ;;
  esac
done
if [ ${#solves[@]} -gt 0 ]; then
  scripts/solve-results.sh "${solves[@]}"
fi
for board in "${boards[@]}"; do
  case $board in
    4x7 | 5x6) tt_mb=${TT_MB:-8192} ;;
    *) continue ;;
  esac
  dir=campaigns/frontier-$board-$(date +%Y%m%d-%H%M%S)
  status=3
  while [ "$status" -eq 3 ]; do
    status=0
    CAMPAIGN_DIR=$dir scripts/campaign.sh "$board" 3600 --tt-mb "$tt_mb" ||
      status=$?
  done
  if [ "$status" -ne 0 ]; then
    echo "the campaign of $board failed (exit $status)" >&2
    exit "$status"
  fi
  if [ "${FIRST_MOVES:-1}" != 0 ]; then
    CAMPAIGNS=$dir-first-moves scripts/first-moves.sh "$board" 1200 "$((7 * 86400))" \
      --tt-mb "$tt_mb"
  fi
done
scripts/results-readme.sh
