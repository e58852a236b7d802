#!/usr/bin/env bash
# Installs those of the given Debian packages that are missing (with sudo unless
# root); says so when all are there already. Used by install-mpi.sh and
# install-browser.sh.
# Usage: scripts/install-debian-packages.sh LABEL PACKAGE...
set -euo pipefail
label=${1:?usage: scripts/install-debian-packages.sh LABEL PACKAGE...}
shift
missing=()
for package in "$@"; do
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
    echo "$label: all of $* installed already" >&2
fi
