# Shared by the loopback benchmarks (digest-vs-sfeed.sh, fleet-scaling.sh): generated RSS feeds and an nginx that
# serves them on many loopback hosts. Sourced, not run.

# loopback_feeds WWW FEEDS ITEMS: writes WWW/feed-N.xml, FEEDS RSS 2.0 feeds of ITEMS items each (a usual headline,
# a link, a guid, a date a minute apart, an HTML summary with a link), readable by nginx's worker.
loopback_feeds() {
    mkdir -p "$1"
    python3 - "$1" "$2" "$3" <<'PY'
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
    chmod -R a+rX "$1"
}

# loopback_nginx WORK HOSTS PORT WORKERS: serves WORK/www on 127.0.0.1 to 127.0.0.HOSTS, port PORT, with WORKERS
# worker processes; its pid is in WORK/nginx.pid (stop it with kill). Keep-alive, no access log.
loopback_nginx() {
    local work="$1" hosts="$2" port="$3" workers="$4" listens="" h
    local nginx_bin
    nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
    mkdir -p "$work/logs"
    for h in $(seq 1 "$hosts"); do listens+="        listen 127.0.0.$h:$port;"$'\n'; done
    cat >"$work/nginx.conf" <<CONF
worker_processes $workers;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 4096; }
http {
    access_log off;
    types { application/rss+xml xml; }
    keepalive_requests 10000;
    client_body_temp_path $work/logs;
    proxy_temp_path $work/logs;
    fastcgi_temp_path $work/logs;
    uwsgi_temp_path $work/logs;
    scgi_temp_path $work/logs;
    server {
$listens        root $work/www;
    }
}
CONF
    "$nginx_bin" -c "$work/nginx.conf" -e "$work/logs/error.log"
    for _ in $(seq 100); do [[ -s "$work/nginx.pid" ]] && break; sleep 0.05; done
}
