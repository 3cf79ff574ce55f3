(declare-const a Real) (declare-const b Real) (assert (< 0.0 (tan 1.0))) (check-sat)
(get-model)
