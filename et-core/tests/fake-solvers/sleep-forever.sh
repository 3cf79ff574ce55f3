#!/bin/sh
# Never answers: the shell waits on a child, so killing only the shell is not enough.
sleep 100000
