(declare-const a Real) (declare-const b Real) (assert (= a (/ a a))) (check-sat)
