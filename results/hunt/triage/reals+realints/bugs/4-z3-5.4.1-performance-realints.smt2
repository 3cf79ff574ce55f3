(declare-const a Int) (declare-const b Real) (assert (< 0.0 (sin 1.0))) (check-sat)
(get-model)
