#!/usr/bin/env bash
# Regenerates docs/tributary.1, the man page, from the command definitions with swift-argument-parser's
# generate-manual plugin (one page, every subcommand in it). Run it after changing a command or an option;
# TributaryCLITests' ManualPageTests fails while the page misses one.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package plugin generate-manual \
    --authors "The Tributary developers" --section 1
page="$(find .build/plugins -path '*GenerateManual*' -name 'tributary.1' -newer Package.swift | head -n 1)"
[ -n "$page" ] || { echo "man: the plugin wrote no tributary.1" >&2; exit 1; }
cp "$page" docs/tributary.1
echo "man: wrote docs/tributary.1"
