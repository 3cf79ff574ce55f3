(declare-const a Real) (declare-const b Real) (assert (> (tan b) b)) (check-sat)
(get-model)
