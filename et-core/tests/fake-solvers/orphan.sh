#!/bin/sh
# Forks a child that outlives the solver and writes the child's pid to $1.
# With "keep-pipes" as $2 the child keeps stdout/stderr open (so only killing it ends
# the capture); otherwise it detaches them, so only the group kill can reach it.
if [ "$2" = keep-pipes ]; then
    sleep 100000 &
else
    sleep 100000 >/dev/null 2>&1 </dev/null &
fi
echo $! > "$1.tmp" && mv "$1.tmp" "$1"
echo sat
