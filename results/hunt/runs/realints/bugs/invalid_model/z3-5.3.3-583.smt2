(declare-const a Int) (declare-const b Real) (assert (< a (tan a))) (check-sat)
(get-model)
