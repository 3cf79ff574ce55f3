#!/bin/sh
# Never answers, and never computes: the shell waits on a child, so killing only the
# shell is not enough. A call that waits like this is starved (see spin-forever.sh for
# one that computes).
sleep 100000
