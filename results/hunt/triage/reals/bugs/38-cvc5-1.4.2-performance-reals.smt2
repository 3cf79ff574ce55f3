(declare-const a Real) (declare-const b Real) (assert (>= a (tan 1.0))) (check-sat)
(get-model)
