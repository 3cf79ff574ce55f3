#!/bin/sh
# slow-check.sh REAL PATTERN [OPTION]... FORMULA
# Runs the real solver REAL with the OPTIONs on FORMULA, except that when the OPTIONs
# hold z3's answer check (model_validate=true) and the formula's text contains
# "(PATTERN ", it never answers and computes all the while: a solver that is slow only
# while it checks its answer.
real=$1
pattern=$2
shift 2
for formula; do :; done
for option; do
  if [ "$option" = model_validate=true ] && grep -qF "($pattern " "$formula"; then
    while :; do :; done
  fi
done
exec "$real" "$@"
