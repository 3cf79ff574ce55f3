#!/bin/sh
# Runs a real z3 ($1) and adds 1 to every integer in the body of the `div0` function of
# the model it prints (the answer stays z3's): a model whose values of the constants
# are right and whose interpretation of division by zero is wrong.
real=$1
shift
"$real" "$@" | awk '
  /define-fun div0 / { body = 1; print; next }
  body == 1 && /define-fun/ { body = 0 }
  body == 1 {
    line = $0; out = ""
    while (match(line, /[0-9]+/)) {
      out = out substr(line, 1, RSTART - 1) (substr(line, RSTART, RLENGTH) + 1)
      line = substr(line, RSTART + RLENGTH)
    }
    $0 = out line
  }
  { print }'
