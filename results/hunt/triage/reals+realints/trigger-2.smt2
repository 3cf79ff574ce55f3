(declare-const a Int) (declare-const b Real) (assert (not (is_int (tan a)))) (check-sat)
