(declare-const a Real) (declare-const b Real) (assert (< a (cos a))) (check-sat)
(get-model)
