#!/bin/sh
# Benchmark of the push path (not a test): simulator -> WebSocket -> PushSource -> Pipeline.
# Prints items per second at full rate and send-to-emit latency (median, p99).
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product PushBenchmark
"$(swift build -c release --show-bin-path)/PushBenchmark"
printf 'machine: %s, %s CPUs\n' "$(uname -sm)" "$(nproc 2>/dev/null || sysctl -n hw.ncpu)"
