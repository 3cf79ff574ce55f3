#!/bin/sh
# Four children that each fill 250 MB (written, so it is resident), then wait: 1 GB
# for the process tree, though no single process needs more than 250 MB.
for i in 1 2 3 4; do
    python3 -c 'import time; b = bytearray(b"x") * (250 << 20); time.sleep(5)' &
done
wait
echo sat
