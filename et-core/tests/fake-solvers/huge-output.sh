#!/bin/sh
# Floods both streams with trace lines (100 MiB stdout, 10 MiB stderr), then answers.
yes ';; trace line from a very chatty solver' | head -c 10485760 >&2 &
yes ';; trace line from a very chatty solver' | head -c 104857600
wait
echo
echo sat
