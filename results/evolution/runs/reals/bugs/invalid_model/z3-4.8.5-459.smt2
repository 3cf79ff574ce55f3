(declare-const a Real) (declare-const b Real) (assert (= b (/ 1.0 b))) (check-sat)
