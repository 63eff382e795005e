# Starts a child, records both pids, then hangs until it is killed.
echo $$ >> pids
sleep 100 &
echo $! >> pids
echo "waiting forever" >&2
wait
