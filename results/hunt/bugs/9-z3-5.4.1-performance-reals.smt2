(declare-const a Real) (declare-const b Real) (assert (>= 1.0 (cos a))) (check-sat)
(get-model)
