(declare-const a Real) (declare-const b Real) (assert (= 1.0 (/ b a))) (check-sat)
