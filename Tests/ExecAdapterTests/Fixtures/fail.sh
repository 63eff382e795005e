# Exits with status 3 after a message on stderr.
echo $$ >> pids
echo "starting up" >&2
echo "fatal: the API token is missing" >&2
exit 3
