#!/usr/bin/env bash
# Installs what Tributary needs on a Debian or Ubuntu machine that has Swift: the system libraries it links
# (libxml2, SQLite), pkg-config, and the Python jsonschema package the schema tests use. With --test-tools, also
# the programs the tests check our output with: cmark (the Markdown digest), HTML Tidy (the HTML digest) and
# Chromium (the HTML digest in a real browser), and PostgreSQL (the shared store; scripts/check.sh starts a
# throwaway cluster); without them those tests are skipped, except in CI. Only what is
# missing is installed; run it as root or with sudo available.
#
#   scripts/setup.sh [--test-tools]
set -euo pipefail

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

packages=(libxml2-dev libsqlite3-dev zlib1g-dev pkg-config)
if [ "${1:-}" = "--test-tools" ]; then
    packages+=(cmark tidy chromium postgresql)
fi
command -v python3 >/dev/null || packages+=(python3 python3-pip)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "setup: installing the Python package jsonschema"
    python3 -m pip install -q jsonschema 2>/dev/null \
        || python3 -m pip install -q --break-system-packages jsonschema \
        || { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-jsonschema; }
fi
