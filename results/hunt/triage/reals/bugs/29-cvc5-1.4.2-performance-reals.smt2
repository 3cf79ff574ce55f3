(declare-const a Real) (declare-const b Real) (assert (not (= 0.0 (cos a)))) (check-sat)
(get-model)
