#!/usr/bin/env bash
# Benchmark: the whole job, `tributary digest` against sfeed (sfeed_update + sfeed_html), paired in one run.
#
# As issue 22 measures it: nginx on loopback serves 200 RSS feeds of 50 items, spread over 40 loopback hosts
# (127.0.0.1 to 127.0.0.40). Each round runs, one after the other:
#   - cold: tributary with its state removed first; sfeed_update (16 jobs) with its feed files removed, then
#     sfeed_html over them;
#   - warm: the same again with the state kept (every feed answers 304: tributary's validators, sfeed's ETag
#     recipe from its README);
#   - one host: tributary with all 200 feeds on 127.0.0.1 (cold), and how many of its sources failed;
#   - json: a cold `digest --format json`, the streamed path whose memory must stay flat (64 MiB at 1,000 feeds).
# and the script prints the medians of wall time and peak memory (/usr/bin/time). Not a test: it prints numbers.
#
# Usage: scripts/bench/digest-vs-sfeed.sh [--rounds N] [--feeds N] [path/to/tributary]
# Needs nginx, sfeed and curl (`apt-get install nginx sfeed curl`); the default binary is the release build the
# README installs (`swift build -c release --static-swift-stdlib`).
set -euo pipefail
# shellcheck source=scripts/bench/loopback.sh
source "$(dirname "$0")/loopback.sh"

root="$(cd "$(dirname "$0")/../.." && pwd)"
rounds=5
feeds=200
items=50
binary=""
while (($#)); do
    case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --feeds) feeds="$2"; shift 2 ;;
    *) binary="$1"; shift ;;
    esac
done
if [[ -z "$binary" ]]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product tributary >/dev/null)
    binary="$root/.build/release/tributary"
fi
for tool in nginx sfeed_update sfeed_html curl; do
    command -v "$tool" >/dev/null || [[ -x "/usr/sbin/$tool" ]] || {
        echo "digest-vs-sfeed: $tool is missing (apt-get install nginx sfeed curl)" >&2
        exit 2
    }
done
hosts=40
port=18480

work="$(mktemp -d)"
chmod 755 "$work"
cleanup() {
    if [[ -s "$work/nginx.pid" ]]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

loopback_feeds "$work/www" "$feeds" "$items"

loopback_nginx "$work" "$hosts" "$port" 2

python3 - "$work" "$port" "$feeds" "$hosts" <<'PY'
import json, sys
work, port, feeds, hosts = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def url(f, host):
    return f"http://127.0.0.{host}:{port}/feed-{f}.xml"
spread = [url(f, f % hosts + 1) for f in range(feeds)]
one = [url(f, 1) for f in range(feeds)]
for name, urls in (("spread", spread), ("one-host", one)):
    sources = [{"id": f"feed-{f}", "kind": "rss", "url": u} for f, u in enumerate(urls)]
    json.dump({"title": "Benchmark", "timeZone": "UTC", "sources": sources}, open(f"{work}/{name}.json", "w"))
with open(f"{work}/sfeedrc", "w") as rc:
    rc.write(f'sfeedpath="{work}/sfeed"\nmaxjobs=16\n')
    rc.write('fetch() {\n\tetag="' + work + '/etags/$(basename "$3")"\n'
             '\tcurl -L --max-redirs 0 -H "User-Agent:" -f -s -m 15 --compressed '
             '--etag-save "${etag}" --etag-compare "${etag}" -z "${etag}" "$2" 2>/dev/null\n}\n')
    rc.write("feeds() {\n")
    for f, u in enumerate(spread):
        rc.write(f'\tfeed "feed-{f}" "{u}"\n')
    rc.write("}\n")
PY

timed() { # label, command...: appends "wall peakKiB" to $work/$label
    local label="$1"
    shift
    /usr/bin/time -f '%e %M' -o "$work/t" "$@" >/dev/null 2>"$work/stderr" || true
    cat "$work/t" >>"$work/$label"
}
tributary() { "$binary" digest -q -c "$1" -o "$work/digest.html"; }
tributary_json() { "$binary" digest -q -c "$1" --format json -o "$work/digest.json"; }
export -f tributary tributary_json
export binary
sfeed() { sfeed_update "$work/sfeedrc" >/dev/null 2>&1; sfeed_html "$work"/sfeed/* >"$work/sfeed.html"; }
export -f sfeed
export work

one_host_failures=()
for round in $(seq 1 "$rounds"); do
    rm -rf "$work/.tributary"
    timed tributary-cold bash -c 'tributary "$work/spread.json"'
    timed tributary-warm bash -c 'tributary "$work/spread.json"'
    rm -rf "$work/sfeed" "$work/etags" && mkdir -p "$work/etags"
    timed sfeed-cold bash -c sfeed
    timed sfeed-warm bash -c sfeed
    rm -rf "$work/.tributary"
    timed tributary-one-host bash -c 'tributary "$work/one-host.json"'
    one_host_failures+=("$(grep -c 'FAILED' "$work/stderr" || true)")
    rm -rf "$work/.tributary"
    timed tributary-json-cold bash -c 'tributary_json "$work/spread.json"'
done

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
report() { # label
    local wall peak
    wall="$(cut -d' ' -f1 "$work/$1" | median)"
    peak="$(cut -d' ' -f2 "$work/$1" | median)"
    printf '%-20s %8.2f s %8d MiB\n' "$1" "$wall" "$((peak / 1024))"
}
echo "$feeds feeds x $items items over $hosts loopback hosts (nginx); medians of $rounds rounds; $binary"
printf '%-20s %10s %12s\n' job wall "peak RSS"
for label in tributary-cold sfeed-cold tributary-warm sfeed-warm tributary-one-host tributary-json-cold; do
    report "$label"
done
echo "one host: failed sources per round: ${one_host_failures[*]}"
ratio() { # tributary label, sfeed label
    local ours theirs
    ours="$(cut -d' ' -f1 "$work/$1" | median)"
    theirs="$(cut -d' ' -f1 "$work/$2" | median)"
    awk -v a="$ours" -v b="$theirs" -v l="$3" 'BEGIN { printf "%s: tributary takes %.2fx sfeed'"'"'s time (target 0.25x)\n", l, a / b }'
}
ratio tributary-cold sfeed-cold cold
ratio tributary-warm sfeed-warm warm
if ((feeds >= 1000)); then
    wall="$(cut -d' ' -f1 "$work/tributary-cold" | median)"
    peak="$(cut -d' ' -f2 "$work/tributary-json-cold" | median)"
    awk -v w="$wall" -v p="$peak" -v n="$feeds" 'BEGIN {
        printf "%d feeds: cold %.2f s (target 2 s for 1,000), --format json peak %d MiB (target 64 MiB)\n", n, w, p / 1024 }'
fi
