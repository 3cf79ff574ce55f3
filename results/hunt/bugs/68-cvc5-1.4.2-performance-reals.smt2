(declare-const a Real) (declare-const b Real) (assert (not (> (sin 1.0) a))) (check-sat)
(get-model)
