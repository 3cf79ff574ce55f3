(declare-const a Real) (declare-const b Real) (assert (< (tan a) a)) (check-sat)
(get-model)
