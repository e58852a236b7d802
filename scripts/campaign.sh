#!/usr/bin/env bash
# Runs (or continues) the campaign of a board's start position in campaigns/<board>
# (kept out of git), for at most SECONDS (default 3000), then prints its status
# and records it in results/<board>-campaign.json and results/<board>-campaign.svg
# (the root's numbers over time), for `scripts/results-readme.sh`; once solved, its
# certificate is verified, its result.json becomes results/<board>.json and its
# files' SHA-256 results/<board>-certificate.sha256. Run it again to go on. A run
# that leaves the campaign open also leaves its snapshot (`campaign snapshot`: the
# settings and the master's DAG, a few MiB) in results/<board>-campaign.snapshot,
# to be committed: a campaign whose directory is lost (a fresh machine) is restored
# from it by the same command, which keeps its solved positions solved and proves
# again those the root's proof needs once the root is solved.
# Extra arguments go to `campaign run` (--threads, --tt-mb, ...). Exit code: 0
# solved (the certificate is verified), 3 not yet.
# BREAKTHROUGH=PATH runs that binary instead of building this checkout's (a long
# campaign then survives rebuilds of target/ while it runs); CAMPAIGN_DIR=DIR keeps
# the campaign in DIR instead of campaigns/<board> (scripts/frontier.sh), and then
# neither restores nor writes a snapshot.
# Usage: scripts/campaign.sh BOARD [SECONDS] [campaign run options]
set -euo pipefail
cd "$(dirname "$0")/.."
board=${1:?usage: scripts/campaign.sh BOARD [SECONDS] [options]}
seconds=${2:-3000}
shift $(( $# >= 2 ? 2 : 1 ))
bin=${BREAKTHROUGH:-./target/release/breakthrough}
if [ -z "${BREAKTHROUGH:-}" ]; then cargo build --release --quiet; fi
dir=${CAMPAIGN_DIR:-campaigns/$board}
snapshot=
if [ -z "${CAMPAIGN_DIR:-}" ]; then snapshot=results/$board-campaign.snapshot; fi
mkdir -p "$(dirname "$dir")"
if [ -n "$snapshot" ] && [ ! -f "$dir/campaign.json" ] && [ -f "$snapshot" ]; then
  $bin campaign restore "$snapshot" "$dir"
fi
status=0
$bin campaign run "$dir" "$board" --time-limit "$seconds" --quiet "$@" || status=$?
if [ -n "$snapshot" ] && [ "$status" -ne 0 ] && [ -f "$dir/master.ckpt" ]; then
  $bin campaign snapshot "$dir" "$snapshot" ||
    echo "campaign.sh: no snapshot written (the last one stays)" >&2
fi
if [ "$status" -eq 0 ]; then
  $bin verify "$dir"
  # The answer joins the results table (its certificate stays in the campaign),
  # with each certificate file's SHA-256 (check with `sha256sum -c` in $dir).
  cp "$dir/result.json" "results/$board.json"
  scripts/certificate-sums.sh "$dir" > "results/$board-certificate.sha256"
  # The certificate's SHA-256 replaces the snapshot: a restore would prove it all again.
  if [ -n "$snapshot" ]; then rm -f "$snapshot"; fi
fi
$bin campaign status "$dir"
$bin campaign status "$dir" --json > "results/$board-campaign.json.tmp"
mv "results/$board-campaign.json.tmp" "results/$board-campaign.json"
cp "$dir/numbers.svg" "results/$board-campaign.svg"
exit "$status"
