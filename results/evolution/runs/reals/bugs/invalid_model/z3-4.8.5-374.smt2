(declare-const a Real) (declare-const b Real) (assert (= a (/ 0.0 a))) (check-sat)
