(declare-const a Real) (declare-const b Real) (assert (= 0.0 (/ 1.0 b))) (check-sat)
