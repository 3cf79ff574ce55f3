#!/bin/sh
# Runs a real solver ($1) and swaps its sat/unsat answers: an unsound solver. `sed -u`
# passes each line on as it comes, so the liar answers in a session too.
real=$1
shift
"$real" "$@" | sed -u -e 's/^sat$/SWAP/' -e 's/^unsat$/sat/' -e 's/^SWAP$/unsat/'
