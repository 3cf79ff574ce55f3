(declare-const a Real) (declare-const b Real) (assert (= 0.0 (/ a b))) (check-sat)
