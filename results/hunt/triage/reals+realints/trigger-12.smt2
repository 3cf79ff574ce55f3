(declare-const a Real) (declare-const b Real) (assert (>= a (sin 1.0))) (check-sat)
