(declare-const a Real) (declare-const b Real) (assert (not (>= (cos a) 1.0))) (check-sat)
