# Prints the file named by $1, after recording this shell's pid in ./pids.
echo $$ >> pids
cat "$1"
