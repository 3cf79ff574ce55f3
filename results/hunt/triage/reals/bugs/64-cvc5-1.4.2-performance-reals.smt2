(declare-const a Real) (declare-const b Real) (assert (<= (sin 1.0) a)) (check-sat)
(get-model)
