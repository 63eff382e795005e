#!/bin/sh
# Benchmark of the push path (not a test): simulator -> WebSocket -> PushSource -> Pipeline.
# Prints items per second at full rate and send-to-emit latency (median, p99).
set -eu
cd "$(dirname "$0")/.."
# Release builds link the Swift runtime statically, as the README's install does (one configuration, one build).
swift build -c release --static-swift-stdlib --product PushBenchmark
"$(swift build -c release --static-swift-stdlib --show-bin-path)/PushBenchmark"
printf 'machine: %s, %s CPUs\n' "$(uname -sm)" "$(nproc 2>/dev/null || sysctl -n hw.ncpu)"
