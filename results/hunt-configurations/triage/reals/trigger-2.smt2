(declare-const a Real) (assert (= a (cos 1.0))) (check-sat)
