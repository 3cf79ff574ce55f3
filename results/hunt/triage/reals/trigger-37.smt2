(declare-const a Real) (declare-const b Real) (assert (>= 0.0 (cos a))) (check-sat)
