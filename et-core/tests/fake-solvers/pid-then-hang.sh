#!/bin/sh
# Writes its pid to PIDFILE (the first argument), then hangs as that same process, so a
# test can signal the solver itself (as a cluster's scancel signals every process).
echo $$ > "$1.tmp" && mv "$1.tmp" "$1"
exec sleep 100000
