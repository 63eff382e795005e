# Prints text that is no feed.
echo $$ >> pids
echo "hello, this is plain text"
