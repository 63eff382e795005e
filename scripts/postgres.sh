#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: Debian's `postgresql` package, a temporary data directory, a
# loopback port and a Unix socket in that directory. The server refuses to run as root, so as root it runs as the
# `postgres` user the package created.
#
#   scripts/postgres.sh start DIR   starts a cluster in DIR (created) and prints what to give the tests:
#                                   TRIBUTARY_TEST_POSTGRES=postgres://tributary@127.0.0.1:PORT/postgres
#                                   TRIBUTARY_TEST_POSTGRES_DIR=DIR
#   scripts/postgres.sh restart DIR restarts it (the tests' "server restarts mid-run")
#   scripts/postgres.sh halt DIR    stops it, keeping DIR (the tests' "server gone mid-run")
#   scripts/postgres.sh stop DIR    stops it and removes DIR
#
# POSTGRES_OPTIONS adds server options to `start` (the fleet benchmark turns on pg_stat_statements with it).
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"

command="${1:-}"
dir="${2:-}"
[ -n "$command" ] && [ -n "$dir" ] || { echo "usage: scripts/postgres.sh start|restart|halt|stop DIR" >&2; exit 2; }

bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
[ -n "$bin" ] && [ -x "$bin/pg_ctl" ] || {
    echo "postgres: no PostgreSQL server found under /usr/lib/postgresql; install Debian's postgresql package" >&2
    exit 1
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$command" in
start)
    mkdir -p "$dir"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # Trust on loopback and the socket only: a throwaway cluster for tests, reachable from this machine alone.
    as_owner "$bin/initdb" -D "$dir/data" -U tributary -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200 ${POSTGRES_OPTIONS:-}" start \
        >>"$dir/pg_ctl.log" 2>&1 || { cat "$dir/pg_ctl.log" "$dir/server.log" >&2; exit 1; }
    echo "$port" >"$dir/port"
    echo "TRIBUTARY_TEST_POSTGRES=postgres://tributary@127.0.0.1:$port/postgres"
    echo "TRIBUTARY_TEST_POSTGRES_DIR=$dir"
    ;;
restart)
    # The server must not hold on to the caller's output (a test reading it to the end would wait forever).
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -m fast -w -t 60 restart \
        >>"$dir/pg_ctl.log" 2>&1 || { cat "$dir/pg_ctl.log" "$dir/server.log" >&2; exit 1; }
    ;;
halt)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >>"$dir/pg_ctl.log" 2>&1 \
        || { cat "$dir/pg_ctl.log" >&2; exit 1; }
    ;;
stop)
    if [ -d "$dir/data" ]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: scripts/postgres.sh start|restart|halt|stop DIR" >&2
    exit 2
    ;;
esac
