#!/usr/bin/env bash
# Side-by-side benchmark of `tributary parse` against libxml2 (a SAX2 C program and xmllint), sfeed and Python
# feedparser on generated Google-News-like feeds (issue 3, "Performance"). See Benchmarks/README.md.
#
#   scripts/bench/compare.sh [--runs N] [--huge] [--check] [--no-build] [--tributary PATH] [--feed NAME]...
#
#   --runs N     runs per tool and feed; the best (shortest) wall time is reported (default 3)
#   --huge       also run the 1 GB RSS feed (feedparser is skipped above 100 MB)
#   --check      exit 1 when a target fails (default: always exit 0 once the table is printed)
#   --no-build   use the tributary binary already in .build/release instead of building it
#   --tributary PATH  measure this tributary binary instead (implies --no-build), e.g. another worktree's build
#   --feed NAME  run only this feed (repeatable): google-news-10MB, google-news-100MB, atom-10MB, google-news-1GB
#
# Installs what is missing (apt-get: sfeed libxml2-utils python3 time libxml2-dev pkg-config; pip: feedparser).
# Writes the table as Markdown, with the machine, to .build/bench-results.md.
set -euo pipefail

repository="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
scripts="$repository/scripts/bench"
build="$repository/.build"
feeds_dir="$build/bench-feeds"
work="$build/bench-work"
results="$build/bench-results.md"

runs=3
huge=0
check=0
do_build=1
tributary=""
selected=()
while (($#)); do
    case "$1" in
        --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
        --runs=*) runs="${1#--runs=}"; shift ;;
        --huge) huge=1; shift ;;
        --check) check=1; shift ;;
        --no-build) do_build=0; shift ;;
        --tributary) tributary="${2:?--tributary needs a path}"; do_build=0; shift 2 ;;
        --feed) selected+=("${2:?--feed needs a name}"); shift 2 ;;
        -h | --help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "compare.sh: --runs needs a positive integer, got '$runs'" >&2; exit 2; }

log() { printf '%s\n' "$*" >&2; }
mkdir -p "$feeds_dir" "$work"

# --- Peers: install what is missing -----------------------------------------------------------------------------

apt_missing=()
command -v sfeed >/dev/null || apt_missing+=(sfeed)
command -v xmllint >/dev/null || apt_missing+=(libxml2-utils)
command -v python3 >/dev/null || apt_missing+=(python3)
[[ -x /usr/bin/time ]] || apt_missing+=(time)
command -v cc >/dev/null || apt_missing+=(gcc)
command -v pkg-config >/dev/null || apt_missing+=(pkg-config)
if ! command -v pkg-config >/dev/null || ! pkg-config --exists libxml-2.0; then apt_missing+=(libxml2-dev); fi
if ((${#apt_missing[@]})); then
    log "installing missing packages: ${apt_missing[*]}"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_missing[@]}"; } >&2; then
        log "warning: apt-get could not install ${apt_missing[*]}; the tools that are still missing are skipped"
    fi
fi
[[ -x /usr/bin/time ]] || { echo "compare.sh: /usr/bin/time (GNU time) is required and could not be installed" >&2; exit 1; }
if command -v python3 >/dev/null && ! python3 -c 'import feedparser' 2>/dev/null; then
    log "installing feedparser"
    python3 -m pip install -q feedparser >&2 ||
        { apt-get update -qq && apt-get install -y -qq python3-feedparser; } >&2 ||
        log "warning: could not install feedparser; it is skipped"
fi

# --- Feeds --------------------------------------------------------------------------------------------------------

if ((${#selected[@]} == 0)); then
    selected=(google-news-10MB google-news-100MB atom-10MB)
    ((huge)) && selected+=(google-news-1GB)
fi
specs=()
for feed in "${selected[@]}"; do
    case "$feed" in
        google-news-10MB) specs+=(rss:10M) ;;
        google-news-100MB) specs+=(rss:100M) ;;
        google-news-1GB) specs+=(rss:1G) ;;
        atom-10MB) specs+=(atom:10M) ;;
        *) echo "compare.sh: unknown feed '$feed'" >&2; exit 2 ;;
    esac
done
python3 "$scripts/gen-feeds.py" --out "$feeds_dir" "${specs[@]}"

# --- The tools ----------------------------------------------------------------------------------------------------

# sax-count: the C reference.
sax_count="$work/sax-count"
sax_reason=""
if [[ ! -x "$sax_count" || "$scripts/sax-count.c" -nt "$sax_count" ]]; then
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    if ! cc -O2 -o "$sax_count" "$scripts/sax-count.c" $(pkg-config --cflags --libs libxml-2.0) 2>"$work/sax-count.log"; then
        sax_reason="build failed: $(head -n 1 "$work/sax-count.log")"
        rm -f "$sax_count"
    fi
fi

# tributary: built in release mode, then probed on a tiny feed.
# >>> TRIBUTARY: available as soon as `tributary parse FILE` prints JSON Feed for RSS/Atom (issue 3). Nothing to
# >>> switch on here: the probe below decides, and the row says "not available" (with the reason) until then.
# >>> The measured command is in command_for below; --tributary PATH measures another build (e.g. a branch's).
tributary_reason=""
[[ -n "$tributary" ]] || tributary="$build/release/tributary"
if ((do_build)); then
    log "building tributary (release)..."
    # The binary the README installs: release, with the Swift runtime linked in (--static-swift-stdlib).
    if ! (cd "$repository" && swift build -c release --static-swift-stdlib --product tributary) \
        >"$work/tributary-build.log" 2>&1; then
        tributary_reason="release build failed (see .build/bench-work/tributary-build.log)"
    fi
fi
if [[ -z "$tributary_reason" && ! -x "$tributary" ]]; then
    tributary_reason="no executable at $tributary"
fi
if [[ -z "$tributary_reason" ]]; then
    probe="$work/probe.xml"
    cat >"$probe" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Probe</title><link>https://example.org/</link>
<item><title>Probe headline - Example</title><link>https://example.org/a</link><guid>probe-1</guid>
<pubDate>Sun, 22 Nov 2026 05:41:40 GMT</pubDate></item></channel></rss>
XML
    if "$tributary" parse "$probe" >"$work/probe.json" 2>"$work/probe.err" &&
        grep -q '"items"' "$work/probe.json" && grep -q 'Probe headline' "$work/probe.json"; then
        :
    else
        tributary_reason="\`tributary parse\` does not handle RSS yet ($(grep -m 1 . "$work/probe.err" | sed "s|$probe|probe.xml|g" | cut -c 1-80 || echo 'no JSON Feed output'))"
    fi
fi
[[ -z "$tributary_reason" ]] || log "tributary: not available: $tributary_reason"

feedparser_reason=""
command -v python3 >/dev/null && python3 -c 'import feedparser' 2>/dev/null || feedparser_reason="feedparser is not installed"

# --- Measuring ----------------------------------------------------------------------------------------------------

# measure_once KEY STDIN COMMAND...: runs COMMAND once with stdout to /dev/null and keeps, under KEY, the shortest
# wall time (seconds_of) and the largest peak RSS (kib_of, GNU time's %M) seen so far. GNU time's %e has only 10 ms
# resolution, so the wall time is taken with bash's microsecond EPOCHREALTIME around the run (it includes exec'ing
# GNU time, well under a millisecond).
measure_once() {
    local key="$1" input="$2"
    shift 2
    local start end elapsed kib
    start=$EPOCHREALTIME
    if ! /usr/bin/time -f '%e %M' -o "$work/time.out" "$@" <"$input" >/dev/null 2>"$work/run.err"; then
        failure_of["$key"]="$(grep -o -m 1 'exited with non-zero status [0-9]*\|terminated by signal [0-9]*' "$work/time.out" || echo 'failed'): $(grep -m 1 . "$work/run.err" | cut -c 1-80 || true)"
        return 0
    fi
    end=$EPOCHREALTIME
    elapsed=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.6f", e - s }')
    kib=$(tail -n 1 "$work/time.out" | awk '{ print $2 }')
    local best="${seconds_of["$key"]:-}"
    if [[ -z "$best" ]] || awk -v a="$elapsed" -v b="$best" 'BEGIN { exit !(a < b) }'; then
        seconds_of["$key"]=$elapsed
    fi
    if ((kib > ${kib_of["$key"]:-0})); then kib_of["$key"]=$kib; fi
    return 0
}

# command_for TOOL FILE BYTES: sets `command` (empty when the tool is not run), `input` (its stdin) and `note`.
command_for() {
    local tool="$1" file="$2" bytes="$3"
    note=""
    command=()
    input=/dev/null
    case "$tool" in
        tributary)
            # >>> TRIBUTARY: the measured command. The probe above decides whether it runs.
            if [[ -n "$tributary_reason" ]]; then note="not available: $tributary_reason"; else command=("$tributary" parse "$file"); fi
            ;;
        sax-count)
            if [[ -n "$sax_reason" ]]; then note="not available: $sax_reason"; else command=("$sax_count" "$file"); fi
            ;;
        xmllint)
            if command -v xmllint >/dev/null; then command=(xmllint --stream --noout "$file"); else note="not available: xmllint is not installed"; fi
            ;;
        sfeed)
            if command -v sfeed >/dev/null; then command=(sfeed) input="$file"; else note="not available: sfeed is not installed"; fi
            ;;
        feedparser)
            if [[ -n "$feedparser_reason" ]]; then
                note="not available: $feedparser_reason"
            elif ((bytes > 100000000)); then
                note="skipped: feedparser is only run up to 100 MB (it needs several times the file's size in memory)"
            else
                command=(python3 -c 'import feedparser,sys; feedparser.parse(sys.argv[1])' "$file")
            fi
            ;;
    esac
}

load_before=$(cut -d ' ' -f 1 /proc/loadavg)
rows=() # tool|feed|bytes|seconds|kib|note
declare -A seconds_of kib_of failure_of
tools=(tributary sax-count xmllint sfeed feedparser)

# Runs are interleaved (run 1 of every tool, then run 2 of every tool, ...) so that a burst of load on a shared
# machine hits all tools alike instead of one of them.
for feed in "${selected[@]}"; do
    file="$feeds_dir/$feed.xml"
    bytes=$(stat -c %s "$file")
    for ((run = 1; run <= runs; run++)); do
        log "$feed: run $run of $runs"
        for tool in "${tools[@]}"; do
            command_for "$tool" "$file" "$bytes"
            if ((${#command[@]})) && [[ -z "${failure_of["$tool/$feed"]:-}" ]]; then
                # Read the file, and the tool's executable, into the page cache before every run, so that no tool
                # pays for the disk: on the development VM, files a few minutes old were seen evicted (0 pages
                # cached, 22 GB free), and feedparser's run (675 MiB on the 100 MB feed) evicts what ran before it.
                # A 100 MB feed, or the 100 MB tributary executable, read from disk inside one tool's run decides
                # the comparison: measured, tributary took 0.12 to 0.17 s on the 10 MB feed right after feedparser
                # and 0.07 to 0.09 s when run again at once, while sax-count (a few KiB) hardly noticed.
                cat "$file" >/dev/null
                executable="$(command -v "${command[0]}" || true)"
                [[ -z "$executable" ]] || cat "$executable" >/dev/null
                measure_once "$tool/$feed" "$input" "${command[@]}"
            fi
        done
    done
    for tool in "${tools[@]}"; do
        command_for "$tool" "$file" "$bytes"
        key="$tool/$feed"
        if [[ -n "${failure_of["$key"]:-}" ]]; then
            note="failed: ${failure_of["$key"]}"
            unset 'seconds_of[$key]' 'kib_of[$key]'
        fi
        rows+=("$tool|$feed|$bytes|${seconds_of["$key"]:-}|${kib_of["$key"]:-}|$note")
    done
done

# --- Reporting ----------------------------------------------------------------------------------------------------

cpu_model=$(grep -m 1 -E '^(model name|Model|cpu model)' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
# shellcheck source=/dev/null # os-release is the running system's
machine_lines=(
    "CPU: ${cpu_model:-unknown}, $(nproc) cores available (nproc)"
    "RAM: $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
    "OS: $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r)"
    "libxml2: $(pkg-config --modversion libxml-2.0 2>/dev/null || echo unknown)"
    "Swift: $(swift --version 2>&1 | grep -m 1 -i 'swift version' || echo unknown)"
    "Load (1-minute average, $(nproc) cores): $load_before before the runs, $(cut -d ' ' -f 1 /proc/loadavg) after; other work on the machine slows the tools unevenly"
    "sfeed: $(dpkg-query -W -f '${Version}' sfeed 2>/dev/null || echo unknown); feedparser: $(python3 -c 'import feedparser; print(feedparser.__version__)' 2>/dev/null || echo unknown) on $(python3 --version 2>&1)"
)

format_row() { # tool feed bytes seconds kib note -> "tool|feed|MB/s|s|MiB|ratio|note"
    local tool="$1" feed="$2" bytes="$3" seconds="$4" kib="$5" note="$6"
    if [[ -z "$seconds" ]]; then
        printf '%s|%s|-|-|-|-|%s\n' "$tool" "$feed" "$note"
        return
    fi
    local reference="${seconds_of["sax-count/$feed"]:-}"
    awk -v t="$tool" -v f="$feed" -v b="$bytes" -v s="$seconds" -v k="$kib" -v r="$reference" -v n="$note" 'BEGIN {
        ratio = (r == "" || r == 0) ? "n/a" : sprintf("%.2fx", s / r)
        printf "%s|%s|%.0f|%.3f|%.1f|%s|%s\n", t, f, b / 1e6 / s, s, k / 1024, ratio, n
    }'
}

table=()
for row in "${rows[@]}"; do
    IFS='|' read -r tool feed bytes seconds kib note <<<"$row"
    table+=("$(format_row "$tool" "$feed" "$bytes" "$seconds" "$kib" "$note")")
done

# Targets (issue 3): tributary <= 2.0x the wall time of sax-count on each standard feed (1.5x stretch);
# peak RSS <= 32 MiB on the 100 MB feed; with --huge, the 1 GB feed parses.
checks=()
failed=0
verdict() { # PASS|FAIL|SKIP text
    checks+=("$1  $2")
    [[ "$1" == FAIL ]] && failed=1
    return 0
}
for feed in google-news-10MB google-news-100MB atom-10MB; do
    [[ " ${selected[*]} " == *" $feed "* ]] || { verdict SKIP "tributary <= 2.0x sax-count on $feed (feed not run)"; continue; }
    t="${seconds_of["tributary/$feed"]:-}"
    r="${seconds_of["sax-count/$feed"]:-}"
    if [[ -n "$tributary_reason" ]]; then
        verdict FAIL "tributary <= 2.0x sax-count on $feed: tributary not available"
    elif [[ -z "$t" || -z "$r" ]]; then
        verdict FAIL "tributary <= 2.0x sax-count on $feed: $([[ -z "$t" ]] && echo tributary || echo sax-count) did not complete"
    else
        ratio=$(awk -v t="$t" -v r="$r" 'BEGIN { printf "%.2f", t / r }')
        stretch=$(awk -v x="$ratio" 'BEGIN { print (x <= 1.5 ? "stretch 1.5x met" : "stretch 1.5x not met") }')
        awk -v x="$ratio" 'BEGIN { exit !(x <= 2.0) }' && status=PASS || status=FAIL
        verdict "$status" "tributary <= 2.0x sax-count on $feed: ${ratio}x ($stretch)"
    fi
done
if [[ " ${selected[*]} " == *" google-news-100MB "* ]]; then
    k="${kib_of["tributary/google-news-100MB"]:-}"
    if [[ -z "$k" ]]; then
        verdict FAIL "tributary peak RSS <= 32 MiB on google-news-100MB: tributary not measured${tributary_reason:+ (not available)}"
    else
        mib=$(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }')
        ((k <= 32 * 1024)) && status=PASS || status=FAIL
        verdict "$status" "tributary peak RSS <= 32 MiB on google-news-100MB: $mib MiB"
    fi
else
    verdict SKIP "tributary peak RSS <= 32 MiB on google-news-100MB (feed not run)"
fi
if [[ " ${selected[*]} " == *" google-news-1GB "* ]]; then
    k="${kib_of["tributary/google-news-1GB"]:-}"
    if [[ -n "$k" ]]; then
        verdict PASS "tributary parses google-news-1GB (peak $(awk -v k="$k" 'BEGIN { printf "%.1f", k / 1024 }') MiB)"
    else
        verdict FAIL "tributary parses google-news-1GB: ${tributary_reason:+not available, }not measured or failed"
    fi
fi

# Terminal table.
echo
{
    echo "tool|feed|MB/s|seconds|peak MiB|vs sax-count|note"
    printf '%s\n' "${table[@]}"
} | awk -F'|' '{
    printf "%-11s %-18s %8s %9s %9s %12s  %s\n", $1, $2, $3, $4, $5, $6, $7
}'
echo
printf '%s\n' "${checks[@]}"
echo

# Markdown.
{
    echo "## Parser benchmark: \`tributary parse\` and its peers"
    echo
    echo "Generated Google-News-like feeds (\`scripts/bench/gen-feeds.py\`, seed 42), best wall time of $runs runs,"
    echo "peak RSS the largest of those runs; ratio is wall time against \`sax-count\` (libxml2 SAX2, C) on the same file."
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`scripts/bench/compare.sh\`."
    echo
    echo "| tool | feed | MB/s | seconds | peak MiB | vs sax-count | note |"
    echo "|---|---|---:|---:|---:|---:|---|"
    for row in "${table[@]}"; do
        IFS='|' read -r c1 c2 c3 c4 c5 c6 c7 <<<"$row"
        echo "| $c1 | $c2 | $c3 | $c4 | $c5 | $c6 | ${c7//|/\\|} |"
    done
    echo
    echo "Targets:"
    echo
    for line in "${checks[@]}"; do echo "- $line"; done
    echo
    echo "Machine:"
    echo
    for line in "${machine_lines[@]}"; do echo "- $line"; done
} >"$results"
log "wrote $results"

if ((check && failed)); then
    exit 1
fi
exit 0
