#!/bin/sh
# session-sticky.sh REAL [OPTIONS...]: a real solver whose sessions do not reset. Run
# fresh (a formula file as its last argument) it is the real solver; run as a session
# (z3's interactive option `-in` among its arguments, which et puts right after the
# program) the `(reset)` lines of its input are dropped, so each formula is answered on
# top of all earlier ones: a reset that does not reset, which only a fresh process
# shows.
session=no
real=
for a in "$@"; do
  shift
  if [ "$a" = "-in" ]; then
    session=yes
    set -- "$@" "$a"
  elif [ -z "$real" ]; then
    real=$a
  else
    set -- "$@" "$a"
  fi
done
if [ "$session" = yes ]; then
  grep --line-buffered -v '^(reset)$' | "$real" "$@"
  exit $?
fi
exec "$real" "$@"
