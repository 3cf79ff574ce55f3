(declare-const a Real) (declare-const b Real) (assert (= 1.0 (/ b b))) (check-sat)
