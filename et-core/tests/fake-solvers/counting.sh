#!/bin/sh
# Records each call as a new file in $1, then runs the real solver given after it: lets a
# campaign test count the solver calls a run made (say, after it should have stopped).
mktemp "$1/call.XXXXXX" > /dev/null
shift
exec "$@"
