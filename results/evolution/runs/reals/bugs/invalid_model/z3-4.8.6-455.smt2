(declare-const a Real) (declare-const b Real) (assert (= b (/ 0.0 b))) (check-sat)
