#!/usr/bin/env bash
# Installs the Debian packages pushbox needs, only those missing.
# As root: apt-get installs them. Otherwise: prints the exact sudo line and fails.
set -euo pipefail

missing=()
for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
    echo "pushbox needs the Swift 6 toolchain (swift.org); put its usr/bin on PATH." >&2
    exit 1
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "pushbox needs these Debian packages. Install them with:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi

echo "Installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; then
    # A fresh machine has no package lists yet.
    apt-get update -qq
    apt-get install -y --no-install-recommends "${missing[@]}"
fi
