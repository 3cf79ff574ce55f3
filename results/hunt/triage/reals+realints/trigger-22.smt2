(declare-const a Int) (declare-const b Real) (assert (= 0.0 (/ (sin a) a))) (check-sat)
