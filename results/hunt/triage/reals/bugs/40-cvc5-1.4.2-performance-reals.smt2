(declare-const a Real) (declare-const b Real) (assert (<= (cos a) 0.0)) (check-sat)
(get-model)
