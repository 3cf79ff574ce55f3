(declare-const a Real) (declare-const b Real) (assert (= b (/ b 0.0))) (check-sat)
