(declare-const a Int) (declare-const b Real) (assert (< (tan a) a)) (check-sat)
(get-model)
