#!/bin/sh
# Runs a real z3 ($1) and perturbs one value of the model it prints: on the line after
# the first constant's `(define-fun NAME () SORT`, a Boolean flips and otherwise the
# first integer goes up by one (`5` → `6`, `(- 1)` → `(- 2)`). A solver with wrong
# models (for Bool and Int constants, as z3 prints them), for et's model check.
real=$1
shift
"$real" "$@" | awk '
  want == 1 {
    want = 2
    if (!sub(/true/, "false") && !sub(/false/, "true") && match($0, /[0-9]+/)) {
      n = substr($0, RSTART, RLENGTH) + 1
      $0 = substr($0, 1, RSTART - 1) n substr($0, RSTART + RLENGTH)
    }
  }
  want == 0 && /define-fun [^ ]+ \(\) / { want = 1 }
  { print }'
