#!/usr/bin/env bash
# Installs headless Chromium and its WebDriver (chromedriver) from Debian's
# packages, for the explorer's browser test; nothing when they are there already.
#
#   scripts/install-browser.sh
#   cargo test -p breakthrough-explorer --test browser -- --ignored
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-debian-packages.sh browser chromium chromium-driver
chromedriver --version >&2
