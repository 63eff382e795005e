#!/usr/bin/env bash
# CPU time (perf's task-clock, or GNU time's user + system) of `tributary parse FILE > /dev/null` against the C SAX2 reference (sax-count)
# on the same files: the smallest of N interleaved runs of each. Less sensitive to other work on the machine than
# compare.sh's wall time, so use it to compare two builds on a loaded machine; compare.sh stays the reference.
# Needs compare.sh to have run once (it builds sax-count and generates the feeds).
#
#   scripts/bench/cpu-ratio.sh [--runs N] TRIBUTARY [TRIBUTARY...]
#
# Prints one line per feed and binary: CPU seconds, sax-count's, and the ratio. (callgrind would count instructions,
# but valgrind 3.19 crashes in any Swift program as soon as libdispatch starts a worker thread, see
# Benchmarks/README.md.)
set -euo pipefail

repository="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
feeds="$repository/.build/bench-feeds"
sax_count="$repository/.build/bench-work/sax-count"
runs=5
if [[ "${1:-}" == --runs ]]; then
    runs="${2:?--runs needs a number}"
    shift 2
fi
(($#)) || { sed -n '2,10p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }
[[ -x "$sax_count" ]] || { echo "cpu-ratio.sh: run scripts/bench/compare.sh once first (no $sax_count)" >&2; exit 1; }
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

# cpu_seconds COMMAND...: CPU seconds of one run, output discarded: perf's task-clock (microseconds) when perf is
# installed, else GNU time's user + system (10 ms resolution).
cpu_seconds() {
    if command -v perf >/dev/null; then
        perf stat -x, -e task-clock -o "$out" -- "$@" >/dev/null 2>&1 || true
        awk -F, '/task-clock/ { printf "%.4f", $1 / 1000 }' "$out"
    else
        /usr/bin/time -f '%U %S' -o "$out" "$@" >/dev/null 2>&1 || true
        awk '{ printf "%.3f", $1 + $2 }' "$out"
    fi
}

for feed in google-news-10MB atom-10MB google-news-100MB; do
    file="$feeds/$feed.xml"
    [[ -f "$file" ]] || continue
    declare -A best=()
    for ((run = 1; run <= runs; run++)); do
        cat "$file" >/dev/null # in the page cache for every run (see compare.sh)
        seconds=$(cpu_seconds "$sax_count" "$file")
        if [[ -z "${best[sax]:-}" ]] || awk -v a="$seconds" -v b="${best[sax]}" 'BEGIN { exit !(a < b) }'; then
            best[sax]=$seconds
        fi
        for binary in "$@"; do
            cat "$file" >/dev/null
            seconds=$(cpu_seconds "$binary" parse "$file")
            if [[ -z "${best[$binary]:-}" ]] || awk -v a="$seconds" -v b="${best[$binary]}" 'BEGIN { exit !(a < b) }'; then
                best[$binary]=$seconds
            fi
        done
    done
    for binary in "$@"; do
        awk -v f="$feed" -v t="${best[$binary]}" -v s="${best[sax]}" -v b="$binary" \
            'BEGIN { printf "%-18s %7.4f s CPU, sax-count %7.4f s: %5.2fx  %s\n", f, t, s, (s > 0 ? t / s : 0), b }'
    done
    unset best
done
