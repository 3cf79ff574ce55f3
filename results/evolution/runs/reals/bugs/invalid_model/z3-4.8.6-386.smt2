(declare-const a Real) (declare-const b Real) (assert (= a (/ b a))) (check-sat)
