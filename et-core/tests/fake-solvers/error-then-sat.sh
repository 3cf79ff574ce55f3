#!/bin/sh
# Like z3 4.8.5-4.8.8: reports an error, drops the assert, still answers sat, exit 1.
echo '(error "line 1 column 74: unknown function/constant str.is_digit")'
echo sat
exit 1
