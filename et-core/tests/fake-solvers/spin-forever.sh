#!/bin/sh
# Never answers, and computes all the while: a solver that hangs in a loop. (One that
# waits without computing is starved, not timed out: see sleep-forever.sh.)
while :; do :; done
