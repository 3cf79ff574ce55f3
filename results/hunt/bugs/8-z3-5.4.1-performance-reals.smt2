(declare-const a Real) (declare-const b Real) (assert (> 0.0 (sin a))) (check-sat)
(get-model)
