#!/usr/bin/env bash
# Benchmark: a fleet of `tributary worker` processes sharing a PostgreSQL store, 1, 2 and 4 workers.
#
# As issue 24 measures it: nginx on loopback serves 10,000 RSS feeds spread over 100 loopback hosts
# (127.0.0.1 to 127.0.0.100); a throwaway PostgreSQL cluster (scripts/postgres.sh, fsync on, pg_stat_statements
# loaded) holds the store. For each worker count, a fresh database gets the feed list (`tributary sync`), the
# workers start together, and the run ends when every feed has been fetched once (the fleet's fetch log says so);
# then the workers get SIGTERM and drain. The script prints, per worker count:
#   - wall time to fetch every feed once, feeds and items per second, the workers' CPU and peak memory;
#   - what the database did: claims and sources per claim, statements per claim and per fetched feed, the claim
#     query's mean time, rows written per stored item (inserts + updates + deletes over every table), WAL bytes
#     per item, and sequential against index scans per table;
# and the claim query's plan. Not a test: it prints numbers (Benchmarks/README.md and docs/scaling.md keep them).
#
# Usage: scripts/bench/fleet-scaling.sh [--feeds N] [--hosts N] [--items N] [--workers "1 2 4"]
#                                       [--concurrency N] [path/to/tributary]
# Needs nginx, curl and Debian's postgresql (`apt-get install nginx curl postgresql`); the default binary is the
# release build the README installs (`swift build -c release --static-swift-stdlib`).
set -euo pipefail
# shellcheck source=scripts/bench/loopback.sh
source "$(dirname "$0")/loopback.sh"

root="$(cd "$(dirname "$0")/../.." && pwd)"
feeds=10000
hosts=100
items=20
workers="1 2 4"
concurrency=16
binary=""
while (($#)); do
    case "$1" in
    --feeds) feeds="$2"; shift 2 ;;
    --hosts) hosts="$2"; shift 2 ;;
    --items) items="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --concurrency) concurrency="$2"; shift 2 ;;
    *) binary="$1"; shift ;;
    esac
done
if [[ -z "$binary" ]]; then
    (cd "$root" && swift build -c release --static-swift-stdlib --product tributary >/dev/null)
    binary="$root/.build/release/tributary"
fi
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || {
    echo "fleet-scaling: nginx is missing (apt-get install nginx)" >&2
    exit 2
}
pgbin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
[[ -n "$pgbin" && -x "$pgbin/psql" ]] || {
    echo "fleet-scaling: PostgreSQL is missing (apt-get install postgresql)" >&2
    exit 2
}
port=18580

work="$(mktemp -d)"
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    if [[ -s "$work/nginx.pid" ]]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
    "$root/scripts/postgres.sh" stop "$work/pg" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

echo "generating $feeds feeds of $items items over $hosts hosts in $work" >&2
loopback_feeds "$work/www" "$feeds" "$items"
python3 - "$work" "$feeds" "$hosts" "$port" <<'PY'
import json, sys
work, feeds, hosts, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sources = [{"id": f"feed-{f}", "kind": "rss", "url": f"http://127.0.0.{f % hosts + 1}:{port}/feed-{f}.xml"}
           for f in range(feeds)]
json.dump({"title": "Fleet benchmark", "timeZone": "UTC", "sources": sources}, open(f"{work}/feeds.json", "w"))
PY

loopback_nginx "$work" "$hosts" "$port" 1

# fsync on (the test clusters turn it off): commits cost what they cost on a real server.
POSTGRES_OPTIONS="-c fsync=on -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all" \
    "$root/scripts/postgres.sh" start "$work/pg" >"$work/pg.env"
pgport="$(cat "$work/pg/port")"
sql() { # database, statement: prints rows, fields separated by |
    "$pgbin/psql" -X -q -A -t -h "$work/pg" -p "$pgport" -U tributary -d "$1" -v ON_ERROR_STOP=1 -c "$2"
}

echo "$feeds feeds x $items items over $hosts loopback hosts (nginx); PostgreSQL $(sql postgres 'SHOW server_version')"
echo "$(nproc) cores; each worker --concurrency $concurrency; $binary"
echo
printf '%-8s %9s %9s %10s %11s %12s %10s\n' workers wall feeds/s items/s "worker CPU" "peak/worker" "DB CPU"
results=()
plan=""
for count in $workers; do
    db="fleet$count"
    sql postgres "CREATE DATABASE $db" >/dev/null
    sql "$db" "CREATE EXTENSION pg_stat_statements" >/dev/null
    store="postgres://tributary@127.0.0.1:$pgport/$db"
    "$binary" sync -c "$work/feeds.json" --store "$store" >/dev/null
    sql "$db" "SELECT pg_stat_statements_reset(); SELECT pg_stat_reset(); SELECT pg_stat_reset_shared('wal')" \
        >/dev/null
    db_cpu_before="$(awk '{ t += $14 + $15 } END { print t }' $(pgrep -u postgres -d ' ' postgres | sed 's|[0-9]*|/proc/&/stat|g') 2>/dev/null || echo 0)"
    pids=()
    start="$(date +%s.%N)"
    for w in $(seq 1 "$count"); do
        "$binary" worker --store "$store" --concurrency "$concurrency" --interval 1h --poll 200ms \
            >"$work/worker-$count-$w.log" 2>&1 &
        pids+=("$!")
    done
    fetched=0
    for _ in $(seq 6000); do
        fetched="$(sql "$db" 'SELECT count(DISTINCT source) FROM fleet_fetch')"
        ((fetched >= feeds)) && break
        sleep 0.1
    done
    end="$(date +%s.%N)"
    # Each worker's CPU time and peak memory, read before it is signalled (it is still running).
    tick="$(getconf CLK_TCK)"
    cpu=0
    peak=0
    for pid in "${pids[@]}"; do
        cpu="$(awk -v c="$cpu" -v t="$tick" '{ print c + ($14 + $15) / t }' "/proc/$pid/stat")"
        hwm="$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")"
        ((hwm > peak)) && peak="$hwm"
    done
    db_cpu_after="$(awk '{ t += $14 + $15 } END { print t }' $(pgrep -u postgres -d ' ' postgres | sed 's|[0-9]*|/proc/&/stat|g') 2>/dev/null || echo 0)"
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" || true; done
    pids=()
    ((fetched >= feeds)) || echo "workers=$count: only $fetched of $feeds feeds fetched in 10 minutes" >&2
    stored="$(sql "$db" 'SELECT count(*) FROM item')"
    failed="$(sql "$db" "SELECT count(*) FROM fleet_fetch WHERE outcome LIKE 'failed%'")"
    twice="$(sql "$db" 'SELECT count(*) FROM (SELECT source FROM fleet_fetch GROUP BY source HAVING count(*) > 1) t')"
    awk -v n="$count" -v s="$start" -v e="$end" -v f="$feeds" -v i="$stored" -v c="$cpu" -v p="$peak" \
        -v d0="$db_cpu_before" -v d1="$db_cpu_after" -v t="$tick" 'BEGIN {
            w = e - s
            printf "%-8d %8.1fs %9.0f %10.0f %10.1fs %9d MiB %9.1fs\n", n, w, f / w, i / w, c, p / 1024, (d1 - d0) / t
        }'
    claims="$(sql "$db" "SELECT COALESCE(sum(calls), 0) FROM pg_stat_statements WHERE query LIKE '%SKIP LOCKED%'")"
    claim_ms="$(sql "$db" "SELECT COALESCE(round((sum(total_exec_time) / NULLIF(sum(calls), 0))::numeric, 3), 0) FROM pg_stat_statements WHERE query LIKE '%SKIP LOCKED%'")"
    statements="$(sql "$db" "SELECT COALESCE(sum(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$db' AND query NOT LIKE '%pg_stat%' AND query NOT LIKE '%fleet_fetch%count%'")"
    top="$(sql "$db" "SELECT lpad(calls::text, 8) || lpad(to_char(calls::numeric / $feeds, 'FM990.00'), 8) || lpad(to_char(mean_exec_time, 'FM990.000'), 9) || ' ms  ' || left(regexp_replace(query, '\s+', ' ', 'g'), 90) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '$db' AND query NOT LIKE '%pg_stat%' AND query NOT LIKE '%count(DISTINCT source)%' ORDER BY calls DESC LIMIT 14")"
    writes="$(sql "$db" 'SELECT sum(n_tup_ins + n_tup_upd + n_tup_del) FROM pg_stat_user_tables')"
    wal="$(sql "$db" 'SELECT wal_bytes FROM pg_stat_wal')"
    scans="$(sql "$db" "SELECT relname || ' ' || seq_scan || ' seq, ' || COALESCE(idx_scan, 0) || ' index' FROM pg_stat_user_tables WHERE seq_scan + COALESCE(idx_scan, 0) > 0 ORDER BY relname" | paste -sd ';' | sed 's/;/; /g')"
    results+=("$(awk -v n="$count" -v cl="$claims" -v ms="$claim_ms" -v st="$statements" \
        -v f="$feeds" -v i="$stored" -v w="$writes" -v b="$wal" -v fail="$failed" -v tw="$twice" 'BEGIN {
            printf "%d worker(s): %d claims (including those that found nothing due), %.1f feeds per claim, claim query %.2f ms mean;\n", n, cl, f / (cl ? cl : 1), ms
            printf "    %.1f statements per fetched feed in all, %d items stored, %.2f rows written per item, %.0f WAL bytes per item;\n", st / f, i, w / (i ? i : 1), b / (i ? i : 1)
            printf "    %d fetches failed, %d feeds fetched more than once\n", fail, tw
        }')")
    results+=("    scans: $scans")
    results+=("    statements: calls, per fetched feed, mean time, text (the 14 most called):")
    results+=("$(sed 's/^/    /' <<<"$top")")
    if [[ -z "$plan" ]]; then
        now="$(date +%s)"
        plan="$(sql "$db" "UPDATE fleet_source SET next_due = 0, lease_until = NULL; ANALYZE fleet_source; EXPLAIN (COSTS OFF) SELECT s.id, s.host FROM fleet_source s WHERE s.enabled AND s.next_due <= $now AND (s.lease_until IS NULL OR s.lease_until < $now) AND NOT EXISTS (SELECT 1 FROM fleet_host h WHERE h.host = s.host AND h.not_before > $now) ORDER BY s.next_due, s.id LIMIT 128 FOR UPDATE OF s SKIP LOCKED")"
        plan_due="$(sql "$db" "UPDATE fleet_source SET next_due = $now + 3600 WHERE id <> 'feed-7'; ANALYZE fleet_source; EXPLAIN (COSTS OFF) SELECT s.id, s.host FROM fleet_source s WHERE s.enabled AND s.next_due <= $now AND (s.lease_until IS NULL OR s.lease_until < $now) AND NOT EXISTS (SELECT 1 FROM fleet_host h WHERE h.host = s.host AND h.not_before > $now) ORDER BY s.next_due, s.id LIMIT 128 FOR UPDATE OF s SKIP LOCKED")"
    fi
done
echo
printf '%s\n' "${results[@]}"
echo
echo "claim query plan, every source due:"
sed 's/^/    /' <<<"$plan"
echo "claim query plan, one source due of $feeds:"
sed 's/^/    /' <<<"$plan_due"
