# Prints nothing and succeeds.
echo $$ >> pids
