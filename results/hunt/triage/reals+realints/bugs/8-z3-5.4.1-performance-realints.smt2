(declare-const a Int) (declare-const b Real) (assert (not (>= (cos a) a))) (check-sat)
(get-model)
