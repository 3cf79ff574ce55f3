#!/bin/sh
# shift-ints.sh REAL [ARGS]...: runs a real solver and moves every integer of what it
# prints after its answer by +1 (`5` → `6`, `(- 1)` → `(- 0)`, in every define-fun,
# division-by-zero functions included; digits inside symbols such as `x!0` stay): a
# solver whose models are wrong wherever the shift falsifies the formula. Lines of
# answers and errors pass unchanged.
real=$1
shift
"$real" "$@" | awk '
  /^(sat|unsat|unknown)$/ || /^\(error / { print; next }
  {
    out = ""; rest = $0
    while (match(rest, /[0-9]+/)) {
      out = out substr(rest, 1, RSTART - 1)
      num = substr(rest, RSTART, RLENGTH)
      rest = substr(rest, RSTART + RLENGTH)
      before = substr(out, length(out), 1)
      after = substr(rest, 1, 1)
      if ((before == "" || before == " " || before == "(") && (after == "" || after == " " || after == ")")) {
        num = (out ~ /\(- $/) ? num - 1 : num + 1
      }
      out = out num
    }
    print out rest
  }'
