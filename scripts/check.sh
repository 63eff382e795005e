#!/usr/bin/env bash
# The project's checks, in the order CI runs them: formatting, a warning-free build, the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== swift format lint"
swift format lint --strict -r Sources Tests Package.swift

echo "== swift build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== swift test"
swift test --skip-build
