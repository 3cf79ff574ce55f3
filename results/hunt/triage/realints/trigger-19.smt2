(declare-const a Int) (declare-const b Real) (assert (not (>= (sin a) 0.0))) (check-sat)
