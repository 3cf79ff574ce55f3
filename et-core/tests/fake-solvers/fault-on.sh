#!/bin/sh
# fault-on.sh REAL [PATTERN FAULT]... FORMULA
# Runs the real solver REAL on FORMULA, except when the formula's text contains
# "(PATTERN " (e.g. PATTERN=mod: the formula applies mod); then it injects FAULT
# instead (the first matching pair wins):
#   sat | unsat     answers that, whatever the truth (a lie)
#   unknown         gives up at once (a performance finding that costs no time)
#   invalid-model   prints sat, then z3's failed-model-check error, and exits 1
#   assert          reports a failed assertion at src/fault/arith.cpp:42 and aborts
#   segfault        dies of SIGSEGV
#   hang            never answers, computing all the while (a loop)
#   wait            never answers, waiting without computing (a starved call)
#   not-found       the shell's "not found" for a missing program, exit 127 (the call
#                   never started: a setup error)
real=$1
shift
for formula; do :; done
while [ $# -gt 1 ]; do
  pattern=$1
  fault=$2
  shift 2
  if grep -qF "($pattern " "$formula"; then
    case $fault in
      sat | unsat | unknown) echo "$fault"; exit 0 ;;
      invalid-model)
        echo sat
        echo '(error "line 1 column 80: an invalid model was generated")'
        exit 1 ;;
      assert)
        echo "fault: src/fault/arith.cpp:42: failed assertion 'x != 0'" >&2
        kill -ABRT $$ ;;
      segfault) kill -SEGV $$ ;;
      hang) while :; do :; done ;;
      wait) exec sleep 100000 ;;
      not-found) echo "sh: 1: /opt/missing/solver: not found" >&2; exit 127 ;;
      *) echo "fault-on.sh: unknown fault $fault" >&2; exit 2 ;;
    esac
  fi
done
exec "$real" "$formula"
