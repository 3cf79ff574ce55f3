#!/bin/sh
# second-unsat.sh REAL [ARGS]... FILE: runs a real solver on FILE and, when FILE is a
# script of two check-sats or more, prints `unsat` as its second answer whatever the
# solver answered there: a solver whose incremental mode lies where its fresh self,
# given the check-sat alone, answers right.
real=$1
shift
for file; do :; done
if [ "$(grep -o 'check-sat' "$file" | wc -l)" -lt 2 ]; then
  exec "$real" "$@"
fi
"$real" "$@" | awk '/^(sat|unsat|unknown)$/ { n++; if (n == 2) { print "unsat"; next } } { print }'
