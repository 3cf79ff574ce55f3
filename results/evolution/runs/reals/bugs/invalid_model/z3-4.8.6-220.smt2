(declare-const a Real) (declare-const b Real) (assert (= 0.0 (/ a 0.0))) (check-sat)
