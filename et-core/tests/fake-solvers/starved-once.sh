#!/bin/sh
# starved-once.sh DIR REAL [ARGS]... FORMULA
# Runs the real solver REAL, except on the very first call that finds no DIR/starved:
# that one makes it and waits without computing, as a solver does that never gets a
# CPU on an overloaded machine, until et kills it.
dir=$1
real=$2
shift 2
if mkdir "$dir/starved" 2> /dev/null; then
  exec sleep 100000
fi
exec "$real" "$@"
