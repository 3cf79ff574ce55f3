(declare-const a Real) (declare-const b Real) (assert (= 0.0 (/ 0.0 a))) (check-sat)
