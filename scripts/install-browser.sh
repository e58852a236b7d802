#!/usr/bin/env bash
# Installs headless Chromium and its WebDriver (chromedriver) from Debian's
# packages, for the explorer's browser test; nothing when they are there already.
#
#   scripts/install-browser.sh
#   cargo test -p breakthrough-explorer --test browser -- --ignored
set -euo pipefail

packages=(chromium chromium-driver)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if ((${#missing[@]})); then
    echo "installing: ${missing[*]}" >&2
    sudo=""
    if [[ $(id -u) != 0 ]]; then
        sudo="sudo"
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
    echo "browser: all of ${packages[*]} installed already" >&2
fi
chromedriver --version >&2
