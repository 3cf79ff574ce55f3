#!/bin/sh
# A solver with options: runs a real solver ($1, with the rest of the arguments) and
# takes the 30 options of options-catalog.tsv as `--NAME=VALUE` (an option not there
# is refused at the start, as real solvers do). With `--xor-lies=true` it swaps
# sat/unsat on formulas containing `(xor `; every other option changes nothing.
real=$1
shift
known=$(dirname "$0")/options-catalog.tsv
lies=no
for arg in "$@"; do
  case $arg in
    --*=*)
      name=${arg%%=*}
      name=${name#--}
      if ! cut -f1 "$known" | grep -qx -- "$name"; then
        echo "(error \"unknown option $name\")"
        exit 1
      fi
      [ "$arg" = "--xor-lies=true" ] && lies=yes
      ;;
  esac
done
# The real solver gets every argument but the fake's options; the last is the formula.
n=$#
i=0
for arg in "$@"; do
  i=$((i + 1))
  case $arg in --*=*) ;; *) set -- "$@" "$arg" ;; esac
done
shift "$n"
formula=$(eval echo \"\${$#}\")
if [ "$lies" = yes ] && grep -q '(xor ' "$formula"; then
  "$real" "$@" | sed -u -e 's/^sat$/SWAP/' -e 's/^unsat$/sat/' -e 's/^SWAP$/unsat/'
else
  exec "$real" "$@"
fi
