#!/bin/sh
# Starts a child that leaves the solver's session and process group (setsid), then
# never answers. Both write their pids into the directory $1 (NAME.pid), so a test can
# check that the timeout (or the death of et) killed them.
dir=$1
setsid sh -c 'echo $$ > "$1/escapee-$$.tmp" && mv "$1/escapee-$$.tmp" "$1/escapee-$$.pid"; exec sleep 100000' sh "$dir" </dev/null >/dev/null 2>&1 &
echo $$ > "$dir/solver-$$.tmp" && mv "$dir/solver-$$.tmp" "$dir/solver-$$.pid"
exec sleep 100000
