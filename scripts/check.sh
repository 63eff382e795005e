#!/usr/bin/env bash
# The project's checks, in the order CI runs them: formatting, a warning-free build, the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== swift format lint"
swift format lint --strict -r Sources Tests Plugins Package.swift

echo "== swift build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "== examples/NotesAdapter: a third-party adapter package, with the conformance kit"
swift format lint --strict -r examples/NotesAdapter/Sources examples/NotesAdapter/Tests examples/NotesAdapter/Package.swift
(cd examples/NotesAdapter && swift build --build-tests && swift test --skip-build)

echo "== PostgreSQL for the shared store's tests"
# A throwaway cluster on a loopback port, stopped when this script ends (scripts/postgres.sh). Without the server
# the PostgreSQL cases are skipped with a message, except in CI.
if [ -z "${TRIBUTARY_TEST_POSTGRES:-}" ]; then
    if ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
        pgdir="$(mktemp -d /tmp/tributary-postgres.XXXXXX)"
        trap 'scripts/postgres.sh stop "$pgdir"' EXIT
        settings="$(scripts/postgres.sh start "$pgdir")"
        while read -r setting; do export "$setting"; done <<<"$settings"
        echo "started on ${TRIBUTARY_TEST_POSTGRES}"
    elif [ "${CI:-}" = "true" ]; then
        echo "check: no PostgreSQL server; CI installs it with scripts/setup.sh --test-tools" >&2
        exit 1
    else
        echo "PostgreSQL is not installed: its tests are skipped (scripts/setup.sh --test-tools installs it)"
    fi
fi

echo "== swift test"
# One test at a time: several suites do seconds of CPU-bound parsing (every chunk boundary of every fixture, a 50 MB
# text node, entity bombs), and in parallel they occupy the whole cooperative thread pool (one thread per core, two
# on CI), which starves the tests that check a source is cancelled or timed out promptly.
swift test --skip-build --no-parallel
