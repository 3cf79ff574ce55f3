(declare-const a Real) (declare-const b Real) (assert (not (< (tan a) 1.0))) (check-sat)
(get-model)
