#!/usr/bin/env bash
# Re-runs, from scratch, every board this project settled with no published solution
# we know of, and verifies every certificate: results/<board>.json and .cert again
# (a certificate over 50 MiB is verified, then not kept; the JSON keeps its size and
# SHA-256), with the settings its result was made with (scripts/solve-results.sh's
# defaults): 3x6 and 3x8 with the exact length and every first move (first-player
# wins), 7x5 with every first move (its exact length is beyond one sitting here).
# Boards still open (4x7, 6x6, 5x6) are campaigns: scripts/campaign.sh BOARD SECONDS.
# Usage: scripts/frontier.sh [BOARD ...]   (default: 3x6 3x8 7x5)
set -euo pipefail
cd "$(dirname "$0")/.."
boards=("$@")
if [ ${#boards[@]} -eq 0 ]; then
  boards=(3x6 3x8 7x5)
fi
scripts/solve-results.sh "${boards[@]}"
scripts/results-readme.sh
