#!/bin/sh
# sat-model.sh SORT VALUE: answers sat to every formula without reading it, with the
# model a = b = VALUE of sort SORT: a solver that lies on quantified formulas, which
# only et's evaluation of the quantifiers can refute.
echo sat
echo '('
echo "  (define-fun a () $1 $2)"
echo "  (define-fun b () $1 $2)"
echo ')'
