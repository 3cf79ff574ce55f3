#!/bin/sh
# flaky.sh REAL PATTERN FORMULA
# Like REAL, except on formulas containing "(PATTERN ": there it answers unsat on the
# odd-numbered calls with that formula (the 1st, 3rd, ...) and runs REAL on the even
# ones. Calls are counted per formula text in files under $ET_TEST_FLAKY_DIR, which
# the test sets to a scratch directory of its own.
real=$1
pattern=$2
formula=$3
if [ -z "$ET_TEST_FLAKY_DIR" ] || [ ! -d "$ET_TEST_FLAKY_DIR" ]; then
  echo "flaky.sh: ET_TEST_FLAKY_DIR must name a directory" >&2
  exit 2
fi
if grep -qF "($pattern " "$formula"; then
  counter="$ET_TEST_FLAKY_DIR/$(cksum < "$formula" | tr ' ' '-')"
  calls=$(( $(cat "$counter" 2>/dev/null || echo 0) + 1 ))
  echo "$calls" > "$counter"
  if [ $((calls % 2)) -eq 1 ]; then
    echo unsat
    exit 0
  fi
fi
exec "$real" "$formula"
