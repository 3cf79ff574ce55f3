(declare-const a Real) (declare-const b Real) (assert (> 1.0 (tan 1.0))) (check-sat)
