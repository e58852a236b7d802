#!/usr/bin/env bash
# Refuses a results/ file of over 10 MB (10,000,000 bytes) that
# results/large-files.txt does not list with its reason: every committed byte
# stays in every clone for good, so a large file is committed only on purpose.
# Each line of the list is `PATH REASON...`; lines starting with # are comments.
# Also refuses a commit after 3382acd (the one before this rule) that rewrites a
# committed certificate without a change of its claim or format
# (scripts/certificate-claims.py): to regenerate results, keep the committed pair
# (`git checkout results/BOARD.cert results/BOARD.json`) unless what it proves
# changes. Run by .ci/run; exit code 1 names each file or commit refused.
# Usage: scripts/results-guard.sh
set -euo pipefail
cd "$(dirname "$0")/.."
limit=10000000
list=results/large-files.txt
refused=0
while IFS= read -r -d '' file; do
  [ -f "$file" ] || continue
  size=$(stat -c %s "$file")
  [ "$size" -gt "$limit" ] || continue
  if ! grep -Eq "^${file//./\\.}[[:space:]]+[^[:space:]]" "$list" 2>/dev/null; then
    echo "results-guard: $file is $size bytes, over $limit, and $list gives no reason for it" >&2
    refused=1
  fi
done < <(git ls-files -z results)
if [ "$refused" -ne 0 ]; then
  echo "results-guard: commit its SHA-256 and the command that makes it instead, or list it with its reason" >&2
fi
python3 scripts/certificate-claims.py 3382acd || refused=1
exit "$refused"
