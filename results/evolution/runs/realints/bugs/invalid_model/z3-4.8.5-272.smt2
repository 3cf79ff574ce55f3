(declare-const a Int) (declare-const b Real) (assert (= a (/ a 0.0))) (check-sat)
