(declare-const a Int) (declare-const b Real) (assert (not (is_int (/ 1.0 0.0)))) (check-sat)
