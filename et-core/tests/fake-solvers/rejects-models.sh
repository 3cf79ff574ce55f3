#!/bin/sh
# rejects-models.sh REAL-Z3 FORMULA: a solver without model support. A script that
# sets :produce-models gets `unsupported` for the option (the SMT-LIB response), the
# rest of it runs on z3 (from stdin) and `(get-model)` gets an error; any other
# script runs on z3 as it is.
real=$1
formula=$2
if grep -q ':produce-models' "$formula"; then
  echo unsupported
  grep -v -e ':produce-models' -e '(get-model)' "$formula" | "$real" -in
  echo '(error "model generation is not enabled")'
  exit 1
fi
exec "$real" "$formula"
