#!/bin/sh
# Like z3 with model_validate=true on a bad model: sat, then the error, exit 1.
echo sat
echo '(error "line 1 column 85: an invalid model was generated")'
exit 1
