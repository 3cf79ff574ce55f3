(declare-const a Real) (declare-const b Real) (assert (< a (tan a))) (check-sat)
(get-model)
