(declare-const a Int) (declare-const b Real) (assert (not (= (tan a) 0.0))) (check-sat)
(get-model)
