(declare-const a Int) (declare-const b Real) (assert (= a (/ 1.0 a))) (check-sat)
