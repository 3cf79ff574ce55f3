(declare-const a Real) (declare-const b Real) (assert (not (> 1.0 (tan a)))) (check-sat)
