(declare-const a Real) (declare-const b Real) (assert (not (>= 0.0 (tan a)))) (check-sat)
(get-model)
