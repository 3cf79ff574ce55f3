(declare-const a Int) (declare-const b Real) (assert (not (= a (tan a)))) (check-sat)
(get-model)
