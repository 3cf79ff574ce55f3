(declare-const a Real) (declare-const b Real) (assert (>= 1.0 (sin 1.0))) (check-sat)
