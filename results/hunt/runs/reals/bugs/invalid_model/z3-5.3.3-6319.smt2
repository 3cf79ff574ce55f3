(declare-const a Real) (declare-const b Real) (assert (not (<= b (tan b)))) (check-sat)
(get-model)
