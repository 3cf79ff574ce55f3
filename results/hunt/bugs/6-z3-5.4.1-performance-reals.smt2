(declare-const a Real) (declare-const b Real) (assert (not (= a (cos a)))) (check-sat)
(get-model)
