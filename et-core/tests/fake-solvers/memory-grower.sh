#!/bin/sh
# Allocates 50 MB every 0.2 s (written, so it is resident) and never answers: only a
# memory limit or a time limit stops it.
exec python3 -c '
import time
held = []
while True:
    held.append(bytearray(b"x") * (50 << 20))
    time.sleep(0.2)
'
