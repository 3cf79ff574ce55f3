(declare-const c Real) (assert (= c (cos 1.0))) (check-sat)
