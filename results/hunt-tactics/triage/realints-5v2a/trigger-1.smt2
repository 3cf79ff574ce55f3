(declare-const c Real) (assert (= 1.0 c)) (check-sat)
