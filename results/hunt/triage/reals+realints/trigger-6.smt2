(declare-const a Int) (declare-const b Real) (assert (< (sin a) 0.0)) (check-sat)
