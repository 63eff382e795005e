# A long-running program in stream mode: JSON Feed items, one per line, one bad line among them.
# With WAIT_FOR set, it waits after the first line until that file exists (at most 10 s, then fails).
echo $$ >> pids
echo '{"id":"s1","url":"https://example.org/s/1","title":"Stream one"}'
if [ -n "$WAIT_FOR" ]; then
    tries=0
    while [ ! -e "$WAIT_FOR" ] && [ $tries -lt 200 ]; do sleep 0.05; tries=$((tries + 1)); done
    [ -e "$WAIT_FOR" ] || { echo "the first item was not seen while this program ran" >&2; exit 9; }
fi
echo 'this is not JSON'
echo '{"id":"s2","url":"https://example.org/s/2","title":"Stream two","date_published":"2026-11-20T08:00:00Z"}'
printf '{"id":"s3","url":"https://example.org/s/3","title":"Stream three, no newline at the end"}'
