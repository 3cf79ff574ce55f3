(declare-const a Real) (declare-const b Real) (assert (not (> (cos a) 0.0))) (check-sat)
(get-model)
