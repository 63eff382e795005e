#!/usr/bin/env bash
# Benchmark: `tributary digest` over 200 rss sources served from a loopback HTTP server.
#
# Generates 200 RSS feeds (50 items each) in a temporary directory, serves them with python3's http.server on
# 127.0.0.1, writes a feeds.json with 200 `rss` sources, and times one digest with /usr/bin/time (wall time in
# seconds, peak resident memory in KiB). Not a test: it prints numbers, it does not judge them.
#
# Usage: scripts/bench/digest-200.sh [path/to/tributary]   (default: builds and uses .build/release/tributary)
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
binary="${1:-}"
if [[ -z "$binary" ]]; then
    # The release build the README installs (Swift runtime linked in; see README, "Quick start").
    (cd "$root" && swift build -c release --static-swift-stdlib --product tributary >/dev/null)
    binary="$root/.build/release/tributary"
fi
feeds=200
items=50

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/www"
python3 - "$work/www" "$feeds" "$items" <<'PY'
import sys, pathlib
from email.utils import formatdate
out, feeds, items = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
for f in range(feeds):
    parts = [f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Feed {f}</title>'
             f'<link>https://feed{f}.example/</link><description>Generated feed {f}</description>']
    for i in range(items):
        date = formatdate(1_763_000_000 - (f * items + i) * 60, usegmt=True)
        parts.append(f'<item><title>Feed {f} item {i}: a headline of a usual length</title>'
                     f'<link>https://feed{f}.example/posts/{i}</link><guid>https://feed{f}.example/posts/{i}</guid>'
                     f'<pubDate>{date}</pubDate><description>&lt;p&gt;Summary of item {i} in feed {f}, with '
                     f'&lt;a href="https://feed{f}.example/"&gt;a link&lt;/a&gt; and some more words.&lt;/p&gt;'
                     f'</description></item>')
    parts.append('</channel></rss>\n')
    (out / f'feed-{f}.xml').write_text(''.join(parts), encoding='utf-8')
PY

# python3's http.server, with a listen backlog that takes 200 simultaneous connections (the default of 5 makes
# the kernel drop SYNs, and the benchmark would measure TCP retransmission timers instead of Tributary).
cat > "$work/serve.py" <<'PY'
import functools, http.server, pathlib, sys

class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 1024
    daemon_threads = True

class Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass

server = Server(("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
pathlib.Path(sys.argv[2]).write_text(str(server.server_address[1]))
server.serve_forever()
PY
python3 "$work/serve.py" "$work/www" "$work/port" &
server_pid=$!
for _ in $(seq 100); do
    if [[ -s "$work/port" ]]; then break; fi
    sleep 0.05
done
port="$(cat "$work/port")"

python3 - "$work/feeds.json" "$port" "$feeds" <<'PY'
import json, sys
path, port, feeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
sources = [{"id": f"feed-{f}", "kind": "rss", "url": f"http://127.0.0.1:{port}/feed-{f}.xml"} for f in range(feeds)]
json.dump({"title": "Benchmark", "timeZone": "UTC", "sources": sources}, open(path, "w"), indent=1)
PY

size="$(du -sh "$work/www" | cut -f1)"
/usr/bin/time -f '%e %M' -o "$work/time.txt" "$binary" digest -q -c "$work/feeds.json" -o "$work/digest.html"
read -r wall peak < "$work/time.txt"
echo "digest of $feeds feeds x $items items ($size served from 127.0.0.1): wall ${wall} s, peak RSS $((peak / 1024)) MiB (${peak} KiB)"
