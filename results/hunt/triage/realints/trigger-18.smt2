(declare-const a Int) (declare-const b Real) (assert (not (= 0.0 (sin a)))) (check-sat)
