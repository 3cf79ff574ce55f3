#!/bin/sh
# The solver's child starts a grandchild and exits at once; the grandchild, re-parented
# away from the solver, spins for 1.5 s of CPU time while `cat` keeps the call open
# until it closes its stdout. Nothing waits for the grandchild, so only a cgroup
# charges its CPU time to the call.
( python3 -c '
import time
while time.process_time() < 1.5:
    pass
' & ) | cat
echo sat
