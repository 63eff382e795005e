#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (the XML feed parser, the HTML sanitizer, the JSON Feed reader and the
# feeds.json loader) with `--sanitize fuzzer --sanitize address` and runs each on its seed corpus in
# Fuzz/Corpus/<target>/ for a while. Fails when any target finds a crash, a sanitizer report, a leak or a hang;
# the input that did it is kept in .build-fuzz/artifacts/ (make it a regression fixture, then fix).
#
#   scripts/fuzz.sh [--seconds N] [--target NAME]...
#
# --seconds N   how long each target runs (default 60)
# --target NAME run only this target (repeatable); the default is all four
# The committed corpora are only read: what a run finds goes into a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
targets=()
all_targets=(FuzzFeedParser FuzzHTMLSanitizer FuzzJSONFeed FuzzFeedsConfiguration)
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
        --seconds=*) seconds="${1#--seconds=}"; shift ;;
        --target) targets+=("${2:?--target needs a name}"); shift 2 ;;
        --target=*) targets+=("${1#--target=}"); shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "fuzz.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: --seconds takes a whole number, not '$seconds'" >&2; exit 2 ;; esac
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
    [ -d "Fuzz/Corpus/$target" ] || { echo "fuzz.sh: no target $target (known: ${all_targets[*]})" >&2; exit 2; }
done

scratch="$PWD/.build-fuzz"
build=(swift build --package-path Fuzz --scratch-path "$scratch" -c release --sanitize fuzzer --sanitize address)
started=$(date +%s)
# One product at a time: `swift build` takes a single --product.
for target in "${targets[@]}"; do
    echo "== building $target"
    "${build[@]}" --product "$target"
done
bin="$("${build[@]}" --show-bin-path)"
echo "== built in $(( $(date +%s) - started )) s"

artifacts="$scratch/artifacts"
mkdir -p "$artifacts"
failed=()
for target in "${targets[@]}"; do
    work="$(mktemp -d)"
    echo "== $target: ${seconds} s on Fuzz/Corpus/$target"
    # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a bound on memory per input.
    if ! "$bin/$target" "$work" "Fuzz/Corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/$target-" 2> "$work.log"; then
        tail -n 60 "$work.log" >&2
        failed+=("$target")
    else
        grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "$work.log" || true
    fi
    rm -rf "$work" "$work.log"
done
echo "== total $(( $(date +%s) - started )) s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: crashes in ${failed[*]}; the inputs are in $artifacts" >&2
    exit 1
fi
