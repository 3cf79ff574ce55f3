(declare-const a Int) (declare-const b Real) (assert (= (/ a a) 1.0)) (check-sat)
