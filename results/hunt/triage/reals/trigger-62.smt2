(declare-const a Real) (declare-const b Real) (assert (>= (tan a) 1.0)) (check-sat)
