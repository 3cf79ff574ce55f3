(declare-const a Real) (declare-const b Real) (assert (not (>= (tan a) a))) (check-sat)
(get-model)
