(declare-const a Int) (declare-const b Real) (assert (not (is_int (tan 1.0)))) (check-sat)
