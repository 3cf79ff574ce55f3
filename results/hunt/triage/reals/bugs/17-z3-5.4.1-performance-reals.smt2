(declare-const a Real) (declare-const b Real) (assert (> (cos a) a)) (check-sat)
(get-model)
