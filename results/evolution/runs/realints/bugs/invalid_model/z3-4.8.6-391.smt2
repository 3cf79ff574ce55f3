(declare-const a Int) (declare-const b Real) (assert (= (/ 1.0 a) 0.0)) (check-sat)
