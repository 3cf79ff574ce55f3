(declare-const a Real) (declare-const b Real) (assert (not (<= (tan b) b))) (check-sat)
(get-model)
