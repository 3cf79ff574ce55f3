(declare-const a Int) (declare-const b Real) (assert (not (<= 1.0 (tan 1.0)))) (check-sat)
