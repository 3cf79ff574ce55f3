(declare-const a Int) (declare-const b Real) (assert (< 0.0 (tan a))) (check-sat)
(get-model)
