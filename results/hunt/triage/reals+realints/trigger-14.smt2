(declare-const a Real) (declare-const b Real) (assert (< (cos a) 1.0)) (check-sat)
