#!/bin/sh
# Runs a real solver ($1) and swaps its sat/unsat answers: an unsound solver.
real=$1
shift
"$real" "$@" | sed -e 's/^sat$/SWAP/' -e 's/^unsat$/sat/' -e 's/^SWAP$/unsat/'
