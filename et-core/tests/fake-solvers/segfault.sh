#!/bin/sh
# Dies of SIGSEGV, as a crashing solver does.
echo "about to crash" >&2
kill -SEGV $$
