(declare-const a Real) (assert (= a (sin 1.0))) (check-sat)
(get-model)
