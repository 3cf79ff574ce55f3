(declare-const c Real) (assert (= c (sin 1.0))) (check-sat)
