#!/usr/bin/env bash
# Prints the SHA-256 of every file of a campaign's certificate (the manifest, the
# top and each part it names), in `sha256sum` format relative to the campaign
# directory: `(cd DIR && sha256sum -c FILE)` checks a copy against it.
# Usage: scripts/certificate-sums.sh DIR
set -euo pipefail
dir=${1:?usage: scripts/certificate-sums.sh DIR}
cd "$dir"
{
  echo certificate.json
  echo top.cert
  # Part files are named after their positions' keys (32 hex digits and the side).
  grep -oE 'parts/[0-9a-f]{32}[wb]\.cert' certificate.json | sort -u
} | xargs -d '\n' sha256sum
