#!/bin/sh
# Answers unsat to every formula without reading it: an unsound solver that a pool of
# one, with no reference, can only be caught at by et's witnesses.
echo unsat
