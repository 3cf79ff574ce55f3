(declare-const a Real) (declare-const b Real) (assert (not (>= 0.0 (sin 1.0)))) (check-sat)
(get-model)
