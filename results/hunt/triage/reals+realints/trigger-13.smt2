(declare-const a Real) (declare-const b Real) (assert (< 0.0 (tan a))) (check-sat)
