(declare-const a Real) (declare-const b Real) (assert (< (tan a) 0.0)) (check-sat)
(get-model)
