(declare-const a Int) (declare-const b Real) (assert (not (= (tan a) a))) (check-sat)
(get-model)
